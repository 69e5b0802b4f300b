"""Run by test_formula_bombs.py in a child process under rlimits: nesting-shaped formula answers,
each graded with its time taken; prints one JSON line with the worst time and the peak memory.

Shapes that reach the grader's expensive stage must agree numerically with the expected formula,
so each is `expected × W / W`, `expected + W − W` or `expected × ONE` where W is a nested
polynomial (powers up to 8, max/min/abs wrappers that SymPy unwraps, roots of squares) and ONE is
a tower of powers of something equal to 1.
"""

from __future__ import annotations

import json
import resource
import sys
import time

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tutor.content.loader import load_content
from tutor.grading.dispatch import grade
from tutor.paths import content_root

QUESTION = load_content([content_root()]).questions["distopt-formula"].model
EXPECTED = "(6Ψ + 12Ψ/N)"
SYMBOLS = ["Ψ", "N", "h", "b", "s", "a", "f", "V"]
WORST = {"seconds": 0.0, "answer": ""}


def _power(inner: str, exponent: str) -> str:
    return f"({inner})^{exponent}"


leaves = st.sampled_from(SYMBOLS) | st.integers(1, 99).map(str)
polynomials = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.tuples(inner, inner, st.sampled_from(["+", "-", "*"])).map(lambda t: f"({t[0]}{t[2]}{t[1]})"),
        st.tuples(inner, st.sampled_from(["2", "3", "4", "6", "8", "0.5"])).map(lambda t: _power(*t)),
        inner.map(lambda x: f"max({x},0)"),
        inner.map(lambda x: f"min({x},{x})"),
        inner.map(lambda x: f"abs({x})"),
        inner.map(lambda x: f"sqrt(({x})^2)"),
    ),
    max_leaves=12,
)


@st.composite
def towers(draw) -> str:
    """((((X−X+1)^8)^8)…)^8 with X a polynomial: the 58-character answer that took 52 s."""
    base = draw(polynomials)
    text = f"({base}-{base}+1)"
    for _ in range(draw(st.integers(1, 40))):
        text = f"({text})^{draw(st.sampled_from(['8', '7', '2', '0.5']))}"
    return text


@st.composite
def bombs(draw) -> str:
    shape = draw(st.sampled_from(["ratio", "sum", "tower", "product"]))
    if shape == "tower":
        return f"{EXPECTED}*{draw(towers())}"
    wrapped = draw(polynomials)
    if shape == "ratio":
        return f"{EXPECTED}*max({wrapped},1)/max({wrapped},1)"
    if shape == "sum":
        return f"{EXPECTED} + {wrapped} - {wrapped}"
    return f"{EXPECTED}*{wrapped}^8/{wrapped}^8"


def graded_in_time(answer: str) -> None:
    started = time.monotonic()
    verdict = grade(QUESTION, answer)
    took = time.monotonic() - started
    if took > WORST["seconds"]:
        WORST.update(seconds=took, answer=answer)
    assert verdict.feedback["en"] and verdict.feedback["zh"]


@settings(max_examples=int(sys.argv[1]), deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(bombs())
@example("6Ψ + 12Ψ/N + (((((((((Ψ-Ψ+1)^8)^8)^8)^8)^8)^8)^8)^8)^8 - 1")                       # H1: 52 s
@example("(6Ψ+12Ψ/N)*max((h+b+s+f+a)^8*(h+b+s+f-a)^8,0)/max(((h+b+s+f)^2-a^2)^8,0)")       # H2: 45 s
@example("(6Ψ+12Ψ/N)*max((h+b+s+f+a+V)^8*(h+b+s+f-a)^8,0)/max(((h+b+s+f)^2-a^2)^8,0)")     # > 300 s
@example("((((((((((2)^8)^8)^8)^8)^8)^8)^8)^8)^8)^8")                                     # 9 s, 520 MB to print
@example("6Ψ + 12Ψ/N + ((((((((((99999999999999999999)^8)^8)^8)^8)^8)^8)^8)^8)^8)^8*0")
def check(answer: str) -> None:
    graded_in_time(answer)


def _peak_rss_mb() -> float:
    """This process's peak resident memory. Not getrusage's ru_maxrss: Linux carries that across
    exec, so a child of a big pytest worker reports the worker's size (311 MB in CI)."""
    for line in open("/proc/self/status", encoding="ascii"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


if __name__ == "__main__":
    grade(QUESTION, "1")  # import SymPy and compile the formula once, as the app does at start
    check()
    peak_mb = _peak_rss_mb()
    print(json.dumps({"worst_s": WORST["seconds"], "worst_answer": WORST["answer"], "peak_mb": peak_mb}))
