"""`tutor validate` reports lesson figures the engine cannot compute, with file:line."""

from __future__ import annotations

import textwrap

from tutor.content.loader import load_content
from tutor.sizing.content_checks import CHECKS

LESSON = """\
id: sizing-fixture
title: {en: Sizing, zh: 规模}
summary: {en: Figures., zh: 数字。}
figures:
  good:
    formula: distopt_bytes_per_gpu
    inputs: {params: 70e9, tp: 4, pp: 4, dp: 2, cp: 2}
    unit: GB
  hours:
    formula: mtbf_hours
    inputs: {days: 54, interruptions: 466}
    unit: h
  preset:
    formula: tokens_per_s_at_mfu
    inputs: {params: 8e9, gpus: 32, gpu: h100, mfu: 0.4}
    unit: tokens/s
  unknown_formula:
    formula: distopt_byte
    inputs: {params: 1, n_shard: 2}
  extra_input:
    formula: model_state_bytes
    inputs: {params: 70e9, psi: 2}
  missing_input:
    formula: params_per_gpu
    inputs: {params: 70e9, tp: 4}
  not_finite:
    formula: params_per_gpu
    inputs: {params: 1e30, tp: 4, pp: 4}
  wrong_unit:
    formula: bubble_fraction
    inputs: {pp: 4, microbatches: 256}
    unit: GB
  unknown_unit:
    formula: bubble_fraction
    inputs: {pp: 4, microbatches: 256}
    unit: furlongs
sections:
  - id: one
    title: {en: One, zh: 一}
    body: {en: "{{good}}", zh: "{{good}}"}
"""


def problems(tmp_path):
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "sizing.yaml").write_text(textwrap.dedent(LESSON), encoding="utf-8")
    content = load_content([tmp_path])
    assert not content.problems, content.problems
    return [str(problem) for check in CHECKS for problem in check(content)]


def test_each_bad_figure_is_reported_at_its_line(tmp_path):
    found = problems(tmp_path)
    text = "\n".join(found)
    assert "'good'" not in text and "'hours'" not in text and "'preset'" not in text
    expected = {
        "unknown_formula": "unknown formula 'distopt_byte'; did you mean distopt_bytes",
        "extra_input": "has no input 'psi'",
        "missing_input": "also needs pp",
        "not_finite": "more than the engine accepts",
        "wrong_unit": "cannot be shown as 'GB'",
        "unknown_unit": "unknown unit 'furlongs'",
    }
    for name, message in expected.items():
        matching = [line for line in found if f"'{name}'" in line]
        assert matching and message in matching[0], (name, found)
        path, line, _ = matching[0].split(":", 2)
        assert path.endswith("sizing.yaml") and int(line) > 4
    assert len(found) == len(expected)
