"""Every grader against hostile input (issue 4 Done-when): arbitrary text, 1 MB, control characters
and injection strings. Nothing is executed, nothing raises, each answer is graded within 2 s."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.content.loader import load_content
from tutor.grading.dispatch import grade
from tutor.paths import content_root

BANK = load_content([content_root()])
LIMIT_S = 2.0  # CPU seconds (wall time on a loaded 2-core CI machine is noisy); backtracking costs minutes
# One step of each kind: (question id, step id).
STEPS = {
    "numeric": ("distopt-bytes-per-gpu", "main"),
    "formula": ("distopt-formula", "main"),
    "config": ("config-dense-cluster", "main"),
    "choice": ("fp8-gradient-format", "main"),
    "multiple-choice": ("slow-training-evidence", "main"),
    "open": ("hang-at-step-n", "main"),
    "clarify": ("clarify-gpu-count", "main"),
    "design-numeric": ("trillion-parameter-design", "days"),
    "design-config": ("trillion-parameter-design", "layout"),
}


def injections(marker: str) -> list[str]:
    return [
        f"__import__('os').system('touch {marker}')", f"open('{marker}', 'w')",
        f"exec(\"open('{marker}', 'w')\")", f"eval(\"__import__('os').system('touch {marker}')\")",
        "().__class__.__bases__[0].__subclasses__()", "lambda: __import__('os')", "Ψ.__class__",
        "${jndi:ldap://x}", "'; DROP TABLE attempts; --", "{{7*7}}", "$(touch /tmp/x)", "`id`",
        "TP=__import__('os') PP=4", "39 GB; import os", "\x00\x01\x02\x1b[31m39 GB\x07", "\u202e39 GB",
        "9" * 5000, "(" * 10000, "1e" + "9" * 400, "2**(3**(4**5))", "Ψ" * 10000, "a, " * 5000,
    ]


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Import SymPy and compile the formulas once, so the 2 s bound measures grading."""
    for question_id, step_id in STEPS.values():
        grade(BANK.questions[question_id].model, "1", step_id)


@pytest.fixture
def no_processes(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"a grader tried to start a process: {args!r}")

    monkeypatch.setattr(os, "system", refuse)
    monkeypatch.setattr(os, "popen", refuse)
    monkeypatch.setattr(subprocess, "Popen", refuse)


def graded_in_time(kind: str, text: str):
    question_id, step_id = STEPS[kind]
    started = time.process_time()
    verdict = grade(BANK.questions[question_id].model, text, step_id)
    elapsed = time.process_time() - started
    assert elapsed < LIMIT_S, f"{kind} took {elapsed:.2f} s on {text[:60]!r}"
    assert isinstance(verdict.correct, bool) and 0.0 <= verdict.score <= 1.0
    assert set(verdict.feedback) == {"en", "zh"}
    return verdict


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kind", list(STEPS))
def test_injection_strings_are_never_executed(kind, tmp_path, no_processes):
    marker = tmp_path / "executed"
    for text in injections(str(marker)):
        graded_in_time(kind, text)
    assert not marker.exists()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kind", list(STEPS))
def test_one_megabyte_answers(kind):
    for text in ("7" * 1_000_000, "all-reduce " * 100_000, "\x00" * 1_000_000, "六" * 1_000_000):
        verdict = graded_in_time(kind, text)
        assert not verdict.correct and "characters" in verdict.feedback["en"]


HOSTILE = st.one_of(
    st.text(max_size=300),
    st.text(alphabet=st.characters(categories=["Cc", "Cf", "Zs", "Sm", "Po", "Ps", "Pe"]), max_size=200),
    st.text(alphabet="0123456789.,eE+-*/^×÷·()=ΨNψn %万亿KMBTGiBs天小时 ", max_size=120),
    st.text(alphabet="TtPpCcDdEe=:,×x 0123456789", max_size=80),
)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("kind", [kind for kind in STEPS if "config" not in kind])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(text=HOSTILE)
def test_arbitrary_text_never_raises(kind, text, no_processes):
    graded_in_time(kind, text)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("kind", ["config", "design-config"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(text=HOSTILE)
def test_arbitrary_layouts_never_raise(kind, text, no_processes):
    graded_in_time(kind, text)


# Well-formed input reaches the deep end of the graders: SymPy for formulas, the engine for layouts.
FORMULAS = st.recursive(
    st.sampled_from(["Ψ", "N", "psi", "2", "12", "0.5", "1e9", "TP", "s", "b"]),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "^", " ", "·"]), inner).map(lambda t: f"({t[0]}{t[1]}{t[2]})"),
        inner.map(lambda x: f"sqrt({x})"), inner.map(lambda x: f"-{x}"), inner.map(lambda x: f"{x}^8")),
    max_leaves=24)
SIZES = st.sampled_from([0, 1, 2, 3, 4, 8, 16, 32, 64, 128, 8192, 10**7])
LAYOUTS = st.tuples(SIZES, SIZES, SIZES, SIZES, SIZES).map(lambda t: f"TP={t[0]} PP={t[1]} CP={t[2]} DP={t[3]} EP={t[4]}")


@pytest.mark.timeout(300)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(text=FORMULAS)
def test_well_formed_formulas_are_graded_in_time(text, no_processes):
    graded_in_time("formula", text)


@pytest.mark.timeout(300)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(text=LAYOUTS)
def test_well_formed_layouts_are_graded_in_time(text, no_processes):
    graded_in_time("design-config", text)
