"""Reading answers on a plain terminal (or a pipe) for `tutor mock` and `tutor review`.

An answer is one or more lines, ended by an empty line or the end of input. A line that is a
command (`:hint`, `:quit`, ...) is returned on its own. With a deadline, reading stops when time
is up and what was typed so far is the answer — strict mode's cut-off. The standard input is read
through its file descriptor with `select`, because a buffered `sys.stdin.readline()` can hold
typed lines that `select` no longer sees; where that is not possible (Windows, a replaced
stdin) the deadline is not enforced and the caller marks the answer as over time instead.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass

COMMANDS = (":hint", ":lesson", ":skip", ":end", ":quit")


@dataclass(frozen=True)
class Typed:
    text: str
    command: str | None = None
    timed_out: bool = False
    eof: bool = False


class LineReader:
    def __init__(self, stream=None):
        self.stream = stream or sys.stdin
        self._buffer = b""
        self._eof = False
        try:
            self._fd = self.stream.fileno() if os.name == "posix" else None
        except (AttributeError, OSError, ValueError):
            self._fd = None

    @property
    def enforces_deadline(self) -> bool:
        return self._fd is not None

    def readline(self, deadline: float | None) -> str | None:
        """One line without its newline; None at the end of input; TimeoutError when time is up."""
        if self._fd is None:
            line = self.stream.readline()
            return None if line == "" else line.rstrip("\r\n")
        import select

        while b"\n" not in self._buffer:
            if self._eof:
                if not self._buffer:
                    return None
                rest, self._buffer = self._buffer, b""
                return rest.decode("utf-8", "replace")
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self._fd], [], [], wait)
            if not ready:
                raise TimeoutError
            chunk = os.read(self._fd, 65536)
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace").rstrip("\r")


def read_answer(reader: LineReader, deadline: float | None = None) -> Typed:
    """Lines up to an empty line; a command on its first line is returned as the command."""
    lines: list[str] = []
    while True:
        try:
            line = reader.readline(deadline)
        except TimeoutError:
            return Typed("\n".join(lines), timed_out=True)
        if line is None:
            return Typed("\n".join(lines), eof=True)
        if not lines and line.strip().lower() in COMMANDS:
            return Typed("", command=line.strip().lower())
        if not line.strip():
            if lines:
                return Typed("\n".join(lines))
            continue
        lines.append(line)
