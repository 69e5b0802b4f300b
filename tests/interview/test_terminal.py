"""Reading answers on a terminal: lines up to an empty line, commands, and the strict cut-off."""

from __future__ import annotations

import io
import os
import time

import pytest

from tutor.interview.terminal import LineReader, read_answer


def _pipe(data: bytes):
    read_fd, write_fd = os.pipe()
    os.write(write_fd, data)
    return os.fdopen(read_fd, "rb", buffering=0), write_fd


@pytest.mark.skipif(os.name != "posix", reason="select on a pipe needs POSIX")
def test_time_up_returns_what_was_typed_so_far():
    stream, write_fd = _pipe(b"memory first\nTP inside the node\n")
    try:
        reader = LineReader(stream)
        started = time.monotonic()
        typed = read_answer(reader, deadline=time.monotonic() + 0.3)
        assert typed.timed_out and typed.text == "memory first\nTP inside the node"
        assert 0.25 <= time.monotonic() - started < 2.0
    finally:
        os.close(write_fd)
        stream.close()


@pytest.mark.skipif(os.name != "posix", reason="select on a pipe needs POSIX")
def test_lines_end_at_an_empty_line_and_commands_stand_alone():
    stream, write_fd = _pipe("\nfirst answer\nsecond line\n\n:hint\n最后一个\n".encode())
    os.close(write_fd)
    reader = LineReader(stream)
    assert read_answer(reader).text == "first answer\nsecond line"
    assert read_answer(reader).command == ":hint"
    last = read_answer(reader)
    assert last.text == "最后一个" and last.eof
    stream.close()


def test_a_stream_without_a_descriptor_still_reads_without_a_deadline():
    reader = LineReader(io.StringIO("an answer\n\n:quit\n"))
    assert not reader.enforces_deadline
    assert read_answer(reader, deadline=time.monotonic() - 1).text == "an answer"
    assert read_answer(reader).command == ":quit"
