"""Every SQL statement lives in tutor/store (issue 15 item 2): a schema change touches one package.

The code outside tutor/store is read as syntax trees, so SQL in an f-string or split over
several literals is found too, and so is any way round the store's functions: importing
sqlite3, calling `.execute…`, or reaching into a store's `query`, `transaction` or `connection`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tutor

PACKAGE = Path(tutor.__file__).parent
STORE = PACKAGE / "store"

SQL = re.compile(r"\b(SELECT\s+(DISTINCT\s+)?[\w*({]|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM"
                 r"|CREATE\s+(TABLE|INDEX|VIEW|TRIGGER)|ALTER\s+TABLE|DROP\s+(TABLE|INDEX)|PRAGMA\s+\w+)")
EXECUTE = {"execute", "executemany", "executescript"}
STORE_INTERNALS = {"query", "transaction", "connection"}


def _is_a_store(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "store") or \
        (isinstance(node, ast.Attribute) and node.attr == "store")


def sql_outside_the_store(source: str) -> list[tuple[int, str]]:
    """(line, what) for each piece of database access in `source`, a module outside tutor/store."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            text = "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
            if SQL.search(text):
                found.append((node.lineno, f"SQL {text[:60]!r}"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value):
            found.append((node.lineno, f"SQL {node.value[:60]!r}"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            parts = [side.value for side in (node.left, node.right)
                     if isinstance(side, ast.Constant) and isinstance(side.value, str)]
            if len(parts) == 2 and SQL.search("".join(parts)) and not any(SQL.search(part) for part in parts):
                found.append((node.lineno, f"SQL {''.join(parts)[:60]!r}"))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [alias.name for alias in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
            if any(name and name.split(".")[0] == "sqlite3" for name in names):
                found.append((node.lineno, "imports sqlite3"))
        elif isinstance(node, ast.Attribute):
            if node.attr in EXECUTE:
                found.append((node.lineno, f".{node.attr}"))
            elif node.attr in STORE_INTERNALS and _is_a_store(node.value):
                found.append((node.lineno, f"store.{node.attr}"))
    return sorted(set(found))


def test_no_sql_outside_tutor_store():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if STORE in path.parents:
            continue
        for line, what in sql_outside_the_store(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {what}")
    assert offenders == [], "database access outside tutor/store:\n" + "\n".join(offenders)


def test_the_scan_finds_each_way_of_reaching_the_database():
    # the scan itself must be able to fail: one sample per kind it looks for
    samples = {
        'store.query("SELECT id FROM lab_runs WHERE lab = ?", (lab,))': 2,
        'rows = store.query(f"SELECT {column} FROM attempts")': 2,
        'sql = "INSERT INTO attempts (a) " "VALUES (?)"': 1,
        'sql = "UPDATE mock_sessions " + "SET status = ?"': 1,
        "import sqlite3": 1,
        "from sqlite3 import connect": 1,
        "connection.execute(text)": 1,
        "with self.store.transaction() as c: pass": 1,
        "store.connection": 1,
        'x = "PRAGMA integrity_check"': 1,
    }
    for source, expected in samples.items():
        assert len(sql_outside_the_store(source)) == expected, source
    # prose and Textual's own query() are not database access
    for source in ('text = "Select an answer, then update the plan"', 'self.query("#reader")',
                   'screen.query_one("#list")', 'label = "SELECT"'):
        assert sql_outside_the_store(source) == [], source
