"""The store's own tools never lose history (issue 17 items 2–3; issue 15 first-start race).

Each scenario counts rows: recover twice, a backup failing on a full disk (a real 400 KiB tmpfs
when `mount` works, as root in CI containers; an injected SQLITE_FULL otherwise), a read-only
folder, a database truncated to 0 bytes, and two processes creating the schema at once.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import pytest

from tests.helpers import run_tutor
from tutor.errors import StoreError
from tutor.store import Attempt, Store, attempts, record_attempt, recover
from tutor.store.db import backups


def _write(path: Path, first: int, count: int) -> None:
    with Store(path) as store:
        for index in range(first, first + count):
            record_attempt(store, Attempt("q", str(index), True, 1.0))


def _rows(path: Path) -> set[str]:
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
        return {row[0] for row in connection.execute("SELECT answer FROM attempts")}


def _everywhere(folder: Path) -> set[str]:
    """Every answer held by any database file in the folder (live, set aside or backed up)."""
    found: set[str] = set()
    for candidate in [*folder.glob("tutor.sqlite3*"), *folder.glob("backups/*.sqlite3")]:
        if candidate.name.endswith(("-wal", "-shm")):
            continue
        try:
            found |= _rows(candidate)
        except sqlite3.DatabaseError:
            pass
    return found


def test_recover_refuses_a_healthy_database(tutor_home):
    path = tutor_home / "tutor.sqlite3"
    _write(path, 0, 30)
    Store(path).backup()
    _write(path, 30, 70)
    with pytest.raises(StoreError, match="healthy"):
        recover(path)
    assert len(_rows(path)) == 100


def test_recover_twice_in_one_second_keeps_every_row(tutor_home):
    path = tutor_home / "tutor.sqlite3"
    _write(path, 0, 30)
    Store(path).backup()
    _write(path, 30, 70)
    notes: list[str] = []
    first, _ = recover(path, force=True, notes=notes)
    second, _ = recover(path, force=True)
    assert first != second and first.exists() and second.exists()
    assert len(_rows(first)) == 100, "the newest rows were overwritten by the second recover"
    assert any("30 attempts" in note and "100" in note for note in notes), notes
    assert _everywhere(tutor_home) == {str(index) for index in range(100)}


def test_a_database_emptied_to_0_bytes_is_refused_and_recovered(tutor_home):
    path = tutor_home / "tutor.sqlite3"
    _write(path, 0, 100)
    Store(path).backup()
    _write(path, 100, 100)
    path.write_bytes(b"")
    for side in ("-wal", "-shm"):
        path.with_name(path.name + side).unlink(missing_ok=True)
    with pytest.raises(StoreError, match="empty") as raised:
        Store(path)
    assert "tutor store recover" in str(raised.value) and "\n" not in str(raised.value)
    assert path.stat().st_size == 0, "the emptied file was re-initialised"
    moved, restored = recover(path)
    assert moved is not None and restored is not None
    assert len(_rows(path)) == 100


def test_a_backup_failing_midway_leaves_no_file_and_recover_skips_empty_ones(tutor_home, monkeypatch):
    path = tutor_home / "tutor.sqlite3"
    _write(path, 0, 60)
    good = Store(path).backup()
    (path.parent / "backups" / "tutor-99990101T000000000000-manual.sqlite3").write_bytes(b"")  # an old failure
    store = Store(path)

    class FullConnection:  # sqlite3.Connection.backup cannot be patched on the instance
        def __init__(self, real):
            self.real = real

        def backup(self, target, **kwargs):
            target.execute("CREATE TABLE half (x)")
            raise sqlite3.OperationalError("database or disk is full")

        def __getattr__(self, name):
            return getattr(self.real, name)

    monkeypatch.setattr(store, "connection", FullConnection(store.connection))
    with pytest.raises(StoreError, match="disk .* is full") as raised:
        store.backup()
    assert "backup was not written" in str(raised.value)
    monkeypatch.undo()
    store.close()
    assert not list((path.parent / "backups").glob(".partial-*"))
    path.write_bytes(b"garbage" * 1000)
    for side in ("-wal", "-shm"):
        path.with_name(path.name + side).unlink(missing_ok=True)
    notes: list[str] = []
    moved, restored = recover(path, notes=notes)
    assert restored == good, notes
    assert any("skipped backup" in note and "empty" in note for note in notes)
    assert len(_rows(path)) == 60


def test_a_full_disk_says_so_and_nothing_recorded_is_lost(tmp_path):
    mount = tmp_path / "small"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here; the injected-error tests cover this")
    try:
        path = mount / "tutor.sqlite3"
        acknowledged = 0
        message = ""
        with Store(path) as store:
            good = store.backup()
            for index in range(400):
                try:
                    record_attempt(store, Attempt("q", f"{index}:" + "x" * 19_000, True, 1.0))
                    acknowledged += 1
                except StoreError as error:
                    message = str(error)
                    break
            with pytest.raises(StoreError) as raised:
                store.backup()
        assert "full" in message and "nothing was recorded" in message and "rollback" not in message, message
        assert "full" in str(raised.value) and "\n" not in str(raised.value)
        assert [b for b in backups(path) if b.stat().st_size == 0] == [], "a failed backup left an empty file"
        assert good in backups(path)
        with Store(path) as store:
            assert len(attempts(store)) == acknowledged
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_read_only_folder_is_not_called_damaged(tmp_path):
    source, mount = tmp_path / "rw", tmp_path / "ro"
    source.mkdir()
    mount.mkdir()
    _write(source / "tutor.sqlite3", 0, 20)
    with Store(source / "tutor.sqlite3") as store:
        store.backup()
    if subprocess.run(["mount", "--bind", "-o", "ro", str(source), str(mount)], capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount read-only here")
    try:
        path = mount / "tutor.sqlite3"
        for attempt in (lambda: Store(path), lambda: recover(path, force=True)):
            with pytest.raises(StoreError) as raised:
                attempt()
            text = str(raised.value)
            assert "read-only" in text and "not damaged" in text and "recover" not in text, text
        assert len(_rows(source / "tutor.sqlite3")) == 20
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_data_folder_that_cannot_exist_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="data folder"):
        Store(blocker / "tutor.sqlite3")


def _first_start(path: str, barrier, errors) -> None:
    barrier.wait()
    try:
        Store(Path(path)).close()
    except Exception as error:  # noqa: BLE001 - the test reports whatever broke
        errors.put(repr(error))


FIRST_START_TRIES = 3
"""Enough to catch the race as it was (about half of all starts failed); the 50 tries of the
done-when are benchmarks/bench_first_start.py, in fresh interpreters."""


@pytest.mark.timeout(60)
def test_two_processes_starting_at_once_on_a_fresh_folder(tmp_path):
    context = multiprocessing.get_context("fork")
    failures = []
    for trial in range(FIRST_START_TRIES):
        path = tmp_path / f"home-{trial}" / "tutor.sqlite3"
        barrier, errors = context.Barrier(2), context.Queue()
        workers = [context.Process(target=_first_start, args=(str(path), barrier, errors)) for _ in range(2)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
        while not errors.empty():
            failures.append(errors.get())
        assert all(worker.exitcode == 0 for worker in workers)
    assert failures == [], f"{len(failures)} of {2 * FIRST_START_TRIES} starts failed: {failures[:3]}"


@pytest.mark.parametrize("home", ["/etc/passwd", "/proc/self/nope"])
def test_a_tutor_home_that_cannot_be_a_folder_is_one_line(monkeypatch, capsys, home):
    from tutor.cli import main

    monkeypatch.setenv("TUTOR_HOME", home)
    assert main(["progress"]) == 1
    error = capsys.readouterr().err
    assert "internal error" not in error and "data folder" in error and "TUTOR_HOME" in error


def test_a_database_with_a_garbled_page_takes_no_more_writes(tutor_home):
    """Findings L6: a page overwritten with junk (the store check says "malformed") still took
    `tutor check`'s writes, while `tutor progress` refused it. Now opening it for use refuses it,
    with the recover advice, and the file is left as it was for `tutor store recover`; `tutor
    check` still gives its verdict and says it was not recorded."""
    path = tutor_home / "tutor.sqlite3"
    _write(path, 0, 3000)
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
    assert pages > 8
    with open(path, "r+b") as database:
        database.seek(page_size * (pages // 2))
        database.write(bytes(range(256)) * (page_size // 256))
    before = path.read_bytes()
    with pytest.raises(StoreError, match="cannot be read .*`tutor store recover`"):
        _write(path, 3000, 1)
    assert path.read_bytes() == before
    checked = run_tutor("check", "model-state-total", "1")
    assert checked.returncode == 1 and "Not right" in checked.stdout and "(not recorded" in checked.stdout
    assert checked.stderr.count("\n") == 1 and "not recorded: " in checked.stderr and "store recover" in checked.stderr
    assert path.read_bytes() == before
