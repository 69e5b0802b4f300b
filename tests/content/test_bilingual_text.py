"""`tutor.text.T`, the bilingual text type of strings written in code (issue 15 item 4), and the
tables that use it (the interview's, the sizing report's labels): both languages present, the
same placeholders in each (a Chinese string that dropped `{score}` would print the placeholder's
absence, or fail at format)."""

from __future__ import annotations

import string

import pytest

from tutor.text import T


def test_a_text_reads_in_either_language_and_is_still_the_pair():
    right = T("✓ Right ({score})", "✓ 正确（{score}）")
    assert right.get("zh") == "✓ 正确（{score}）" and right.get("en") == right.get("fr") == right.en
    assert right.format("zh", score="80%") == "✓ 正确（80%）" and right.format("en") == "✓ Right ({score})"
    en, zh = right  # the (en, zh) tables it replaces unpack and index as before
    assert (en, zh) == (right[False], right[True]) and right.to_json() == {"en": en, "zh": zh}


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _tables():
    from tutor.interview import formats, present, report
    from tutor.sizing import text as sizing_text

    yield "sizing.text.LABELS", sizing_text.LABELS
    yield "present.VERDICT", present.VERDICT
    yield "report.LABELS", report.LABELS
    yield "report.REASONS", report.REASONS
    yield "formats.FORMATS", {f"{key}.{part}": getattr(spec, part) for key, spec in formats.FORMATS.items()
                              for part in ("name", "blurb")}


@pytest.mark.parametrize("name, table", list(_tables()), ids=lambda value: value if isinstance(value, str) else "")
def test_every_table_text_has_both_languages_and_the_same_placeholders(name, table):
    for key, text in table.items():
        assert isinstance(text, T), f"{name}[{key!r}] is not a tutor.text.T"
        assert text.en.strip() and text.zh.strip(), f"{name}[{key!r}] lacks a language"
        assert _placeholders(text.en) == _placeholders(text.zh), f"{name}[{key!r}]: {text}"
