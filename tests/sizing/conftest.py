"""Helpers for the sizing tests: run the CLI in-process and read its JSON."""

from __future__ import annotations

import json

import pytest

from tutor.cli import main


@pytest.fixture
def cli(capsys):
    """`cli("size", "--params", "70B", ...)` -> (exit status, parsed JSON or text, stderr)."""

    def run(*argv: str):
        try:
            status = main(list(argv))
        except SystemExit as exit_:  # argparse errors exit through SystemExit
            status = exit_.code
        out, err = capsys.readouterr()
        return status, (json.loads(out) if "--json" in argv and out.strip() else out), err

    return run
