"""The learner's history in SQLite: WAL, one transaction per write, migrations, backups.

Durability: every write is its own `BEGIN IMMEDIATE … COMMIT` with `synchronous=FULL`, so a
process killed at any moment leaves every committed row readable, and two app instances
writing at once wait for each other (busy timeout) instead of failing.
Nothing here ever deletes the database: a damaged file is reported with the way out
(`tutor store recover`, which moves it aside and restores the newest backup).
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from tutor.errors import StoreError
from tutor.store.schema import MIGRATIONS

DB_NAME = "tutor.sqlite3"
BACKUPS_KEPT = 5
BUSY_TIMEOUT_S = 10.0


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def default_path() -> Path:
    from tutor.paths import home_dir

    return home_dir() / DB_NAME


class Store:
    """An open learner database. Use as a context manager or call `close()`."""

    def __init__(self, path: Path | None = None):
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        try:
            # The app touches the store from worker threads too; the lock serialises use of
            # the one connection (SQLite itself is built serialized, but a transaction is not).
            self.connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                              check_same_thread=False)
            self.connection.row_factory = sqlite3.Row
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=FULL")
            self.connection.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise self._explain(error) from None

    # -- lifecycle

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def version(self) -> int:
        return self.connection.execute("PRAGMA user_version").fetchone()[0]

    def _migrate(self) -> None:
        current = self.version
        if current > len(MIGRATIONS):
            raise StoreError(
                f"{self.path} was written by a newer tutor (schema {current}, this one knows "
                f"{len(MIGRATIONS)}); upgrade tutor, or point TUTOR_HOME elsewhere"
            )
        if current == len(MIGRATIONS):
            return
        if current > 0:
            self.backup(reason=f"before-migration-{current}-to-{len(MIGRATIONS)}")
        for version in range(current, len(MIGRATIONS)):
            with self.transaction() as connection:
                for statement in _statements(MIGRATIONS[version]):
                    connection.execute(statement)
                connection.execute(f"PRAGMA user_version = {version + 1}")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic write: `BEGIN IMMEDIATE` takes the write lock up front."""
        connection = self.connection
        with self._lock:
            try:
                connection.execute("BEGIN IMMEDIATE")
            except sqlite3.DatabaseError as error:
                raise self._explain(error) from None
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            try:
                connection.execute("COMMIT")
            except sqlite3.DatabaseError as error:
                connection.execute("ROLLBACK")
                raise self._explain(error) from None

    def query(self, sql: str, parameters: tuple | dict = ()) -> list[sqlite3.Row]:
        try:
            with self._lock:
                return self.connection.execute(sql, parameters).fetchall()
        except sqlite3.DatabaseError as error:
            raise self._explain(error) from None

    # -- backups

    def backup(self, reason: str = "manual") -> Path:
        folder = self.path.parent / "backups"
        folder.mkdir(exist_ok=True)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%f")
        target = folder / f"tutor-{stamp}-{reason}.sqlite3"
        with sqlite3.connect(target) as copy:
            self.connection.backup(copy)
        copy.close()
        for old in sorted(folder.glob("tutor-*.sqlite3"))[:-BACKUPS_KEPT]:
            old.unlink()
        return target

    def _explain(self, error: sqlite3.DatabaseError) -> StoreError:
        text = str(error)
        if "locked" in text or "busy" in text:
            return StoreError(
                f"the learner database {self.path} is busy (another tutor is writing?); "
                "close the other instance and try again"
            )
        return StoreError(
            f"the learner database {self.path} cannot be read ({text}); it was left untouched. "
            "`tutor store recover` moves it aside and restores the newest backup"
        )


def _statements(script: str) -> list[str]:
    """Split a migration into statements (executescript would commit our transaction)."""
    return [part.strip() for part in script.split(";") if part.strip()]


def backups(path: Path) -> list[Path]:
    return sorted((path.parent / "backups").glob("tutor-*.sqlite3"))


def recover(path: Path) -> tuple[Path | None, Path | None]:
    """Move a damaged database aside (kept, renamed) and restore the newest readable backup.

    Returns (where the damaged file went, which backup was restored).
    """
    moved = None
    if path.exists():
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
        moved = path.with_name(f"{path.name}.damaged-{stamp}")
        path.rename(moved)
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(moved.with_name(moved.name + suffix))
    for candidate in reversed(backups(path)):
        try:
            with sqlite3.connect(candidate) as probe:
                if probe.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                    continue
            probe.close()
        except sqlite3.DatabaseError:
            continue
        shutil.copyfile(candidate, path)
        return moved, candidate
    return moved, None
