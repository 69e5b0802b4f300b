"""`tutor ask` says "a plain number" for a count
(it printed "answer in x" for DP of a published layout)."""

from __future__ import annotations

import pytest

from tests.helpers import run_tutor


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("lang", "plain"), [("en", "answer a plain number, within ±1%"), ("zh", "纯数字，误差 ±1%")])
def test_a_count_is_a_plain_number(tmp_path, lang, plain):
    env = {"TUTOR_HOME": str(tmp_path)}
    count = run_tutor("ask", "llama3-dp-from-layout", "--lang", lang, env=env).stdout
    assert plain in count and " x," not in count and " x，" not in count
