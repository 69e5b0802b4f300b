"""The learner database's schema, as an ordered list of migrations.

`PRAGMA user_version` holds how many have been applied. A migration is never edited once
released; a change to the schema is a new entry at the end.
"""

MIGRATIONS: list[str] = [
    # 1: attempts at questions, lab runs, what was read
    """
    CREATE TABLE attempts (
        id INTEGER PRIMARY KEY,
        question_id TEXT NOT NULL,
        step_id TEXT NOT NULL DEFAULT 'main',
        seed INTEGER NOT NULL DEFAULT 0,
        answer TEXT NOT NULL,
        correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
        score REAL NOT NULL CHECK (score BETWEEN 0 AND 1),
        hints_used INTEGER NOT NULL DEFAULT 0,
        elapsed_s REAL,
        lang TEXT NOT NULL DEFAULT 'en',
        mode TEXT NOT NULL DEFAULT 'practice',
        created_at TEXT NOT NULL
    );
    CREATE INDEX attempts_question ON attempts (question_id, created_at);
    CREATE TABLE lab_runs (
        id INTEGER PRIMARY KEY,
        lab TEXT NOT NULL,
        action TEXT NOT NULL,
        outcome TEXT NOT NULL,
        passed INTEGER,
        world_size INTEGER,
        backend TEXT,
        elapsed_s REAL,
        evidence_json TEXT,
        created_at TEXT NOT NULL
    );
    CREATE INDEX lab_runs_lab ON lab_runs (lab, created_at);
    CREATE TABLE sections_read (
        lesson_id TEXT NOT NULL,
        section_id TEXT NOT NULL,
        read_at TEXT NOT NULL,
        PRIMARY KEY (lesson_id, section_id)
    );
    """,
    # 2: spaced review and mock interviews; self-assessed open answers
    """
    ALTER TABLE attempts ADD COLUMN self_assessed INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE review_cards (
        item_id TEXT PRIMARY KEY,
        card_json TEXT NOT NULL,
        due_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX review_cards_due ON review_cards (due_at);
    CREATE TABLE review_log (
        id INTEGER PRIMARY KEY,
        item_id TEXT NOT NULL,
        rating INTEGER NOT NULL,
        reviewed_at TEXT NOT NULL,
        elapsed_s REAL
    );
    CREATE TABLE mock_sessions (
        id INTEGER PRIMARY KEY,
        format TEXT NOT NULL,
        mode TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'abandoned')),
        started_at TEXT NOT NULL,
        ended_at TEXT,
        score REAL,
        state_json TEXT,
        report_json TEXT
    );
    CREATE TABLE mock_stages (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES mock_sessions (id),
        stage TEXT NOT NULL,
        started_at TEXT NOT NULL,
        ended_at TEXT,
        score REAL,
        answer TEXT,
        detail_json TEXT
    );
    """,
]
