"""The learner's history in SQLite (attempts, reviews, mock sessions, lab runs)."""

from tutor.store.db import Store, recover
from tutor.store.records import Attempt, attempts, record_attempt, record_lab_run

__all__ = ["Attempt", "Store", "attempts", "record_attempt", "record_lab_run", "recover"]
