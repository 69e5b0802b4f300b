"""Where content and learner state live.

Content is found, in order: `$TUTOR_CONTENT`; the copy packaged inside the wheel
(`tutor/_content`, see pyproject's force-include); the source checkout beside the package.
Learner state lives in the platform's user data directory unless `$TUTOR_HOME` says otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path

from tutor.errors import TutorError

CONTENT_DIRS = ("lessons", "questions", "labs", "interview")
_PACKAGE_DIR = Path(__file__).resolve().parent


def content_root() -> Path:
    """The folder holding lessons/, questions/ and labs/."""
    override = os.environ.get("TUTOR_CONTENT")
    if override:
        root = Path(override).expanduser()
        if not root.is_dir():
            raise TutorError(f"TUTOR_CONTENT={override} is not a folder")
        return root
    for candidate in (_PACKAGE_DIR / "_content", _PACKAGE_DIR.parent):
        if any((candidate / name).is_dir() for name in CONTENT_DIRS):
            return candidate
    raise TutorError(
        "cannot find the tutor's content (lessons/, questions/, labs/); "
        "reinstall the package or set TUTOR_CONTENT to a checkout"
    )


def home_dir() -> Path:
    """The learner's data folder (database, lab workspaces, backups); created on demand."""
    override = os.environ.get("TUTOR_HOME")
    if override:
        home = Path(override).expanduser()
    else:
        from platformdirs import user_data_dir

        home = Path(user_data_dir("tutor", appauthor=False))
    try:
        home.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # TUTOR_HOME=/etc/passwd, a missing folder on a read-only disk
        from tutor.errors import TutorError

        raise TutorError(f"the data folder {home} cannot be used ({error.strerror or error}); "
                         "point TUTOR_HOME at a folder you can write") from None
    return home
