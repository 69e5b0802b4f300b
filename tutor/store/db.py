"""The learner's history in SQLite: WAL, one transaction per write, migrations, backups.

Durability: every write is its own `BEGIN IMMEDIATE … COMMIT` with `synchronous=FULL`, so a
process killed at any moment leaves every committed row readable, and two app instances
writing at once wait for each other (busy timeout) instead of failing.
Nothing here ever deletes or overwrites a file holding history: a damaged file is reported with
the way out (`tutor store recover`, which moves it aside under a name no other file has and
restores the newest backup that passes an integrity check); a healthy database is never replaced
without `--force`; a database emptied to 0 bytes beside backups is refused, not re-created.
Backups go through SQLite's backup API into a temporary name, are checked, then renamed, so a
full disk leaves no empty "backup" for a later recover to restore. A full disk, a read-only
folder and damage each get their own one-line message.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
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
        _make_folder(self.path.parent)
        if not os.access(self.path.parent, os.W_OK):
            raise StoreError(_read_only_text(self.path))
        if _emptied(self.path):
            raise StoreError(
                f"the learner database {self.path} is empty (0 bytes) although backups of it exist: its history "
                "was lost outside the tutor. It was left untouched; `tutor store recover` restores the newest backup")
        self._lock = threading.RLock()
        try:
            # The app touches the store from worker threads too; the lock serialises use of
            # the one connection (SQLite itself is built serialized, but a transaction is not).
            self.connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                              check_same_thread=False)
            self.connection.row_factory = sqlite3.Row
            # A garbled page can sit where no write of ours goes: SQLite would keep taking writes
            # into a file that `tutor progress` cannot read (findings L6). quick_check reads every
            # page once (O(N), milliseconds at a learner's size) and leaves the file untouched.
            damage = self.connection.execute("PRAGMA quick_check(1)").fetchone()[0]
            if damage != "ok":
                self.connection.close()
                raise sqlite3.DatabaseError("database disk image is malformed: " + " ".join(damage.replace("***", "").split()))
            self._journal_mode_wal()
            self.connection.execute("PRAGMA synchronous=FULL")
            self.connection.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise self._explain(error) from None

    def _journal_mode_wal(self) -> None:
        # Switching a new file to WAL needs an exclusive lock for which SQLite does not call the
        # busy handler: a second process starting at the same instant gets "locked" at once.
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                self.connection.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

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
        while True:
            with self.transaction() as connection:
                # Read again under the write lock: another process starting at the same moment
                # may have applied this migration since `current` was read ("table … already exists").
                version = connection.execute("PRAGMA user_version").fetchone()[0]
                if version >= len(MIGRATIONS):
                    return
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
            except sqlite3.DatabaseError as error:
                _rollback(connection)
                raise self._explain(error) from None
            except BaseException:
                _rollback(connection)
                raise
            try:
                connection.execute("COMMIT")
            except sqlite3.DatabaseError as error:
                # SQLite has usually rolled back a failed COMMIT itself (a full disk): a second
                # ROLLBACK would raise "no transaction is active" and hide the real cause.
                _rollback(connection)
                raise self._explain(error) from None

    def integrity_check(self) -> str:
        """SQLite's full integrity check: "ok", or what is damaged."""
        try:
            with self._lock:
                return self.connection.execute("PRAGMA integrity_check").fetchone()[0]
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: {error}; `tutor store recover` moves it aside") from None

    def query(self, sql: str, parameters: tuple | dict = ()) -> list[sqlite3.Row]:
        try:
            with self._lock:
                return self.connection.execute(sql, parameters).fetchall()
        except sqlite3.DatabaseError as error:
            raise self._explain(error) from None

    # -- backups

    def backup(self, reason: str = "manual") -> Path:
        """A checked copy in backups/: written to a temporary name, verified, then renamed."""
        folder = self.path.parent / "backups"
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%f")
        target = _unused(folder / f"tutor-{stamp}-{reason}.sqlite3")
        partial = folder / f".partial-{target.name}"
        try:
            folder.mkdir(exist_ok=True)
            with closing(sqlite3.connect(partial)) as copy:
                with self._lock:
                    self.connection.backup(copy)
                verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"the copy failed its integrity check: {verdict}")
            _fsync(partial)
            _move_no_replace(partial, target)
        except (sqlite3.DatabaseError, OSError) as error:
            partial.unlink(missing_ok=True)  # an unfinished copy: the live database is untouched
            raise self._explain(error, "the backup was not written; the database itself is unchanged") from None
        for old in backups(self.path)[:-BACKUPS_KEPT]:
            old.unlink()
        return target

    def _explain(self, error: BaseException, consequence: str = "nothing was recorded") -> StoreError:
        return explain(self.path, error, consequence)


def inserted_id(cursor: sqlite3.Cursor) -> int:
    """The row an INSERT just wrote (sqlite3 types `lastrowid` as optional; after an INSERT it is set)."""
    if cursor.lastrowid is None:
        raise StoreError("the learner database did not say which row it wrote; nothing was recorded")
    return cursor.lastrowid


def explain(path: Path, error: BaseException, consequence: str = "nothing was recorded") -> StoreError:
    """One line for the learner: busy, disk full, read-only, or damaged, each with its own way out."""
    text = str(error)
    if "locked" in text or "busy" in text:
        return StoreError(
            f"the learner database {path} is busy (another tutor is writing?); "
            "close the other instance and try again"
        )
    if _disk_full(path, error):
        return StoreError(f"the disk holding {path.parent} is full: {consequence}. "
                          "Free some space and try again; the history already recorded is intact")
    if _is_read_only(path, error):
        return StoreError(_read_only_text(path))
    return StoreError(
        f"the learner database {path} cannot be read ({text}); it was left untouched. "
        "`tutor store recover` moves it aside and restores the newest backup"
    )


def _disk_full(path: Path, error: BaseException) -> bool:
    if getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(error):
        return True
    if getattr(error, "errno", None) in (28, 122):  # ENOSPC, EDQUOT
        return True
    try:  # an I/O error on a disk with no room left is the full disk, not damage
        return "disk I/O error" in str(error) and shutil.disk_usage(path.parent).free < (1 << 20)
    except OSError:
        return False


def _is_read_only(path: Path, error: BaseException) -> bool:
    if getattr(error, "errno", None) in (13, 30):  # EACCES, EROFS
        return True
    return "readonly" in str(error) or not os.access(path.parent, os.W_OK)


def _read_only_text(path: Path) -> str:
    return (f"the data folder {path.parent} is read-only, and the tutor must write there (the history in "
            f"{path.name} is untouched, not damaged); make it writable or point TUTOR_HOME at another folder")


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreError(f"the data folder {folder} cannot be created ({error.strerror or error}); "
                         "point TUTOR_HOME at a folder you can write") from None
    if not folder.is_dir():
        raise StoreError(f"the data folder {folder} is not a folder; point TUTOR_HOME at a folder you can write")


def _rollback(connection: sqlite3.Connection) -> None:
    if connection.in_transaction:
        try:
            connection.execute("ROLLBACK")
        except sqlite3.DatabaseError:
            pass  # already rolled back by SQLite; the original error is the one to report


def _emptied(path: Path) -> bool:
    """A 0-byte database beside backups or kept-aside copies: history lost, not a first start
    (a first start has neither; SQLite creates the file empty and fills it at once)."""
    try:
        if path.stat().st_size != 0:
            return False
    except FileNotFoundError:
        return False
    if path.with_name(path.name + "-wal").exists() and path.with_name(path.name + "-wal").stat().st_size > 0:
        return False  # the history is in the write-ahead log; SQLite replays it
    return bool(backups(path)) or any(path.parent.glob(f"{path.name}.damaged-*"))


def _unused(path: Path) -> Path:
    """`path`, or `path` with -2, -3… before the suffix: a name no file has yet."""
    candidate, number = path, 1
    while candidate.exists() or candidate.is_symlink():
        number += 1
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
    return candidate


def _move_no_replace(source: Path, target: Path) -> Path:
    """Rename `source` to `target`, or to the next unused name if `target` appeared meanwhile:
    `os.link` fails rather than replace, so a concurrent recover can never overwrite a copy."""
    while True:
        target = _unused(target)
        try:
            os.link(source, target)
        except FileExistsError:
            continue
        except OSError:  # a file system without hard links: check, then rename
            if target.exists():
                continue
            os.rename(source, target)
            return target
        os.unlink(source)
        return target


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _statements(script: str) -> list[str]:
    """Split a migration into statements (executescript would commit our transaction)."""
    return [part.strip() for part in script.split(";") if part.strip()]


def backups(path: Path) -> list[Path]:
    return sorted((path.parent / "backups").glob("tutor-*.sqlite3"))


def inspect(path: Path) -> tuple[str, int | None]:
    """(state, attempts) of a database file without changing it: state is "missing", "empty"
    (0 bytes, or no schema), "healthy" (integrity_check ok) or "damaged"."""
    if not path.exists():
        return "missing", None
    if path.stat().st_size == 0 and not path.with_name(path.name + "-wal").exists():
        return "empty", None
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as probe:
            if probe.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                return "damaged", _count(probe)
            if probe.execute("PRAGMA user_version").fetchone()[0] == 0:
                return "empty", None
            return "healthy", _count(probe)
    except sqlite3.DatabaseError:
        return "damaged", None


def _count(connection: sqlite3.Connection) -> int | None:
    try:
        return int(connection.execute("SELECT COUNT(*) FROM attempts").fetchone()[0])
    except sqlite3.DatabaseError:
        return None


def recover(path: Path, force: bool = False, notes: list[str] | None = None) -> tuple[Path | None, Path | None]:
    """Move a damaged database aside (kept, under a name never used before) and restore the newest
    backup that passes an integrity check. A healthy database is refused unless `force`; what was
    skipped or is older than the live file is said in `notes`.

    Returns (where the damaged file went, which backup was restored).
    """
    notes = notes if notes is not None else []
    state, live_rows = inspect(path)
    if state == "healthy" and not force:
        raise StoreError(f"{path} is healthy ({live_rows} attempts, integrity check ok): nothing to recover. "
                         "`tutor store recover --force` sets it aside and restores the newest backup anyway")
    chosen, chosen_rows = None, None
    for candidate in reversed(backups(path)):
        kind, rows = inspect(candidate)
        if kind == "healthy":
            chosen, chosen_rows = candidate, rows
            break
        notes.append(f"skipped backup {candidate.name}: {kind}")
    if chosen is not None and live_rows is not None and chosen_rows is not None and chosen_rows < live_rows:
        notes.append(f"the backup {chosen.name} holds {chosen_rows} attempts, the set-aside database {live_rows}: "
                     "the newer attempts are only in the set-aside file")
    moved = None
    try:
        if path.exists():
            stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%f")
            moved = _move_no_replace(path, path.with_name(f"{path.name}.damaged-{stamp}"))
            for suffix in ("-wal", "-shm"):
                side = path.with_name(path.name + suffix)
                if side.exists():
                    _move_no_replace(side, moved.with_name(moved.name + suffix))
        if chosen is None:
            return moved, None
        partial = path.with_name(f".partial-{path.name}")
        partial.unlink(missing_ok=True)
        with closing(sqlite3.connect(f"file:{chosen}?mode=ro", uri=True)) as source, \
                closing(sqlite3.connect(partial)) as copy:
            source.backup(copy)
        _fsync(partial)
        os.rename(partial, path)  # `path` was moved aside above: nothing is replaced
    except (OSError, sqlite3.DatabaseError) as error:
        raise explain(path, error, "nothing was restored; every file is where it was or set aside") from None
    return moved, chosen
