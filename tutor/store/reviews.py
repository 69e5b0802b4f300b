"""Spaced-review cards (one fsrs card per item, as JSON) and the log of every review."""

from __future__ import annotations

import json

from tutor.store.db import Store


def review_card(store: Store, item_id: str) -> dict | None:
    """The item's fsrs card as `Card.to_dict()` wrote it, or None before its first review."""
    rows = store.query("SELECT card_json FROM review_cards WHERE item_id = ?", (item_id,))
    return json.loads(rows[0]["card_json"]) if rows else None


def record_review(store: Store, item_id: str, card: dict, due_at: str, reviewed_at: str, rating: int,
                  elapsed_s: float | None) -> None:
    """Save the rescheduled card and log the review, in one transaction."""
    with store.transaction() as connection:
        connection.execute(
            "INSERT INTO review_cards (item_id, card_json, due_at, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (item_id) DO UPDATE SET card_json = excluded.card_json,"
            " due_at = excluded.due_at, updated_at = excluded.updated_at",
            (item_id, json.dumps(card), due_at, reviewed_at),
        )
        connection.execute(
            "INSERT INTO review_log (item_id, rating, reviewed_at, elapsed_s) VALUES (?, ?, ?, ?)",
            (item_id, rating, reviewed_at, elapsed_s),
        )


def due_items(store: Store, now: str, limit: int) -> list[str]:
    """Item ids due at `now` (UTC ISO time), the most overdue first."""
    rows = store.query("SELECT item_id FROM review_cards WHERE due_at <= ? ORDER BY due_at LIMIT ?", (now, limit))
    return [row["item_id"] for row in rows]


def due_at(store: Store, item_id: str) -> str | None:
    """When the item's card falls due (UTC ISO time), or None if it has none."""
    rows = store.query("SELECT due_at FROM review_cards WHERE item_id = ?", (item_id,))
    return rows[0]["due_at"] if rows else None
