"""Parametric questions: draw a variant for a seed, resolve step inputs, fill in the prompt.

Seed 0 is the question's `given`. Any other seed draws each `vary` input from its own random
stream (seeded by question id and seed, so a seed means the same numbers on every machine and
every run), then computes `derive` inputs with their engine formulas. A draw that the engine
cannot compute (a fractional DP, a layer count TP does not divide) is drawn again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass

from tutor.grading import engine
from tutor.units import as_number

if TYPE_CHECKING:  # annotations only: the graders read models and plain records alike (tutor.content.records)
    from tutor.content.models.question import Question, Vary

MAX_DRAWS = 50
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class VariantError(ValueError):
    """No valid variant could be drawn for this seed (a content problem `tutor validate` reports)."""


@dataclass(frozen=True)
class Variant:
    """One instance of a question: its seed and the value of every input."""

    seed: int
    values: Mapping[str, object]


def draw(question: Question, seed: int = 0, check: bool = True) -> Variant:
    """The variant for `seed`; VariantError when no draw computes (bad ranges in the content).

    Seed 0 (and any seed of a question without `vary`) is `given`; with `check=False` its steps
    are not evaluated here, so `tutor validate` can point at the step that fails."""
    if seed == 0 or not question.vary:
        values = _with_derived(question, dict(question.given))
        if check:
            _check_computes(question, values)
        return Variant(seed, values)
    last_error = ""
    for attempt in range(MAX_DRAWS):
        rng = random.Random(f"{question.id}/{seed}/{attempt}")
        values = dict(question.given)
        for name in sorted(question.vary):
            values[name] = _draw_one(question.vary[name], rng)
        try:
            values = _with_derived(question, values)
            _check_computes(question, values)
            _mistakes_apart(question, values)
            _plausible(question, values)
        except (engine.EngineError, VariantError) as error:
            last_error = str(error)
            continue
        return Variant(seed, values)
    raise VariantError(f"question {question.id}: no valid variant for seed {seed} in {MAX_DRAWS} draws "
                       f"(last problem: {last_error})")


def _draw_one(vary: Vary, rng: random.Random) -> object:
    if vary.choices is not None:
        return rng.choice(vary.choices)
    low, high = vary.min, vary.max
    assert low is not None and high is not None  # Vary's validator: no choices means both ends of a range
    if vary.step is not None:
        count = int((high - low) // vary.step) + 1
        return as_number(low + vary.step * rng.randrange(count))
    ladder = [low]
    while ladder[-1] * 2 <= high and len(ladder) < 64:
        ladder.append(ladder[-1] * 2)
    return as_number(rng.choice(ladder))


def _with_derived(question: Question, values: dict[str, object]) -> dict[str, object]:
    for name, derived in question.derive.items():
        value = engine.evaluate_base(derived.formula, resolve(derived.inputs, values))
        whole = abs(value - round(value)) < 1e-9 * max(1.0, abs(value))
        if engine.result_dimension(derived.formula) == "count" and (not whole or value < 1):
            # A derived count (DP, micro-batches, expert-parallel groups) must be a whole number.
            raise VariantError(f"derive.{name} = {value:g} is not a whole number")
        values[name] = as_number(float(round(value))) if whole else value
    return values


def _check_computes(question: Question, values: Mapping[str, object]) -> None:
    for step in question.steps:
        if step.kind == "numeric":
            engine.evaluate_base(step.answer.formula, resolve(step.answer.inputs, values))


def _mistakes_apart(question: Question, values: Mapping[str, object]) -> None:
    """Every declared mistake of every numeric step lands outside the step's tolerance (issue 14
    item 3): a variant where forgetting CP changes nothing, or less than the tolerance, cannot
    tell the mistake from the answer, so it is drawn again."""
    from tutor.grading.mistakes import close, declared_value

    for step in question.steps:
        if step.kind != "numeric" or not step.mistakes:
            continue
        inputs = resolve(step.answer.inputs, values)
        expected = engine.evaluate_base(step.answer.formula, inputs)
        for mistake in step.mistakes:
            try:
                wrong = declared_value(step, mistake, inputs)
            except engine.EngineError:
                continue
            if close(wrong, expected, step.answer.tolerance):
                raise VariantError(f"step {step.id}: mistake {mistake.id} is within the tolerance of the answer")


# What no interviewer would put in front of a candidate: more per-GPU state than 2.5 × an 80 GB GPU
# (a 1T model on TP 8 PP 2 at 16 bytes a parameter is 1,000 GB per GPU), a pipeline bubble over half
# the step, a training run of more than a year. (dimension, test on the formula name, largest value in
# base units.) A question whose own `given` goes beyond a limit teaches exactly that, so seed 0 raises
# the limit for its other seeds.
PLAUSIBLE = [
    ("bytes", lambda name: "per_gpu" in name or name in _PER_GPU_BYTES, 200e9, "GB per GPU"),
    ("fraction", lambda name: "bubble" in name, 0.5, "bubble fraction"),
    ("time", lambda name: name.startswith("train_"), 365 * 86400.0, "s of training"),
]
_PER_GPU_BYTES: frozenset[str] = frozenset({"zero1_bytes", "zero2_bytes", "zero3_bytes", "distopt_bytes", "activation_bytes_first_stage",
                            "activation_bytes_first_stage_interleaved"})


def _plausible(question: Question, values: Mapping[str, object]) -> None:
    """Redraw a variant whose expected value no interviewer would ask about (issue 14 item 3)."""
    given = None
    for step in question.steps:
        if step.kind != "numeric":
            continue
        formula = step.answer.formula
        rules = [rule for rule in PLAUSIBLE if rule[1](formula) and engine.result_dimension(formula) == rule[0]]
        if not rules:
            continue
        value = abs(engine.evaluate_base(formula, resolve(step.answer.inputs, values)))
        if given is None:
            given = _with_derived(question, dict(question.given))
        own = abs(engine.evaluate_base(formula, resolve(step.answer.inputs, given)))
        for _, _, limit, what in rules:
            if value > max(limit, own * 1.0001):
                raise VariantError(f"step {step.id}: {value:.3g} {what} is not a plausible question")


def resolve(inputs: Mapping[str, object], values: Mapping[str, object]) -> dict[str, object]:
    """Step inputs with question-input names replaced by their values (numbers and presets stay)."""
    return {key: values[value] if isinstance(value, str) and value in values else value
            for key, value in inputs.items()}


def render(text: str, values: Mapping[str, object], lang: str = "en") -> str:
    """`text` with each `{name}` replaced by the formatted input; unknown names are left as typed."""
    def fill(match: re.Match) -> str:
        name = match.group(1)
        return engine.format_input(name, values[name], lang) if name in values else match.group(0)

    return _PLACEHOLDER.sub(fill, text)


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))
