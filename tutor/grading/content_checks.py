"""`tutor validate` checks owned by grading: every question can be graded, for every seed tried.

Picked up by `tutor.content.validate.engine_checks()`. Reported, with the line:
- an expected value that cannot be computed (unknown formula, missing or extra inputs, a value
  that is not finite), for seeds 0..4;
- a unit the engine cannot show, or of another dimension than the formula's result;
- a sizing question (numeric or config step) without `vary`, a `{name}` in a prompt that is no
  input, en and zh prompts naming different inputs;
- a mistake that is not built in and has no feedback, or that equals the right answer;
- a formula step whose formula or symbols are unknown; a config scenario that cannot be built
  or that no layout passes (seeds 0..4); a single-choice step with other than one right option.
(A missing tolerance or language is already a load error: the models require them.)
"""

from __future__ import annotations

from collections.abc import Iterable

from tutor.content.loader import Content, Loaded, Problem
from tutor.content.models.question import ChoiceStep, ConfigStep, FormulaStep, NumericStep, Question
from tutor.grading import engine
from tutor.grading.variant import VariantError, draw, placeholders, resolve

SEEDS = range(5)


def check_questions(content: Content) -> Iterable[Problem]:
    for loaded in content.questions.values():
        yield from _check_question(loaded)


def _check_question(loaded: Loaded[Question]) -> Iterable[Problem]:
    question = loaded.model
    known = set(question.given) | set(question.derive)
    names = {lang: placeholders(question.prompt.get(lang)) for lang in ("en", "zh")}
    for lang, named in names.items():
        for name in sorted(named - known):
            yield loaded.problem(f"{{{name}}} in the {lang} prompt is not an input (given or derive)", "prompt", lang)
    if names["en"] != names["zh"]:
        yield loaded.problem(f"en and zh prompts use different inputs: {', '.join(sorted(names['en'] ^ names['zh']))}",
                             "prompt")
    for name, derived in question.derive.items():
        if not engine.formula_exists(derived.formula):
            yield loaded.problem(f"derive.{name}: unknown engine formula {derived.formula!r}", "derive", name)
    sizing = any(isinstance(step, (NumericStep, ConfigStep)) for step in question.steps)
    if sizing and not question.vary:
        yield loaded.problem("a sizing question must be parametric: add `vary:` for at least one input", "id")
    broken = False
    for index, step in enumerate(question.steps):
        if step.prompt is not None:
            for lang in ("en", "zh"):
                for name in sorted(placeholders(step.prompt.get(lang)) - known):
                    yield loaded.problem(f"{{{name}}} in the {lang} prompt of step {step.id!r} is not an input",
                                         "steps", index, "prompt", lang)
        found: list[Problem] = []
        if isinstance(step, NumericStep):
            found = list(_check_numeric(loaded, index, step))
        elif isinstance(step, FormulaStep):
            found = list(_check_formula(loaded, index, step))
        elif isinstance(step, ChoiceStep) and not step.multiple:
            right = sum(option.correct for option in step.options)
            if right != 1:
                found = [loaded.problem(f"a single-choice step needs exactly one right option, has {right}",
                                        "steps", index, "options")]
        broken = broken or bool(found)
        yield from found
    if sizing and not broken:
        yield from _check_variants(loaded)


def _check_numeric(loaded: Loaded[Question], index: int, step: NumericStep) -> Iterable[Problem]:
    where = ("steps", index, "answer")
    answer = step.answer
    if not engine.formula_exists(answer.formula):
        yield loaded.problem(f"unknown engine formula {answer.formula!r}", *where, "formula")
        return
    if not engine.known_unit(answer.unit):
        yield loaded.problem(f"unit {answer.unit!r} is not one the engine shows (GB, days, %, tokens/s, ...)",
                             *where, "unit")
        return
    if not engine.unit_fits(answer.formula, answer.unit):
        yield loaded.problem(f"unit {answer.unit!r} cannot show {answer.formula}, which gives "
                             f"{engine.result_dimension(answer.formula)}", *where, "unit")
    for position, mistake in enumerate(step.mistakes):
        from tutor.grading.mistakes import BUILTINS

        if mistake.id not in BUILTINS and mistake.feedback is None:
            yield loaded.problem(f"mistake {mistake.id!r} is not built in, so it needs feedback (en and zh)",
                                 "steps", index, "mistakes", position)
        formula = mistake.formula or (BUILTINS[mistake.id].formula if mistake.id in BUILTINS else None)
        if formula is not None and not engine.formula_exists(formula):
            yield loaded.problem(f"mistake {mistake.id!r}: unknown engine formula {formula!r}",
                                 "steps", index, "mistakes", position)


def _check_formula(loaded: Loaded[Question], index: int, step: FormulaStep) -> Iterable[Problem]:
    if not engine.formula_exists(step.formula):
        yield loaded.problem(f"unknown engine formula {step.formula!r}", "steps", index, "formula")
        return
    catalog = engine.symbol_catalog()
    for typed, name in step.symbols.items():
        if name not in catalog:
            yield loaded.problem(f"symbols.{typed}: {name!r} is not an engine symbol", "steps", index, "symbols")
    for position, mistake in enumerate(step.mistakes):
        if mistake.formula is None or mistake.feedback is None:
            yield loaded.problem(f"mistake {mistake.id!r} of a formula step needs `formula` and `feedback`",
                                 "steps", index, "mistakes", position)
        elif not engine.formula_exists(mistake.formula):
            yield loaded.problem(f"mistake {mistake.id!r}: unknown engine formula {mistake.formula!r}",
                                 "steps", index, "mistakes", position)


def _check_variants(loaded: Loaded[Question]) -> Iterable[Problem]:
    """Every numeric step computes (and differs from its mistakes) for seeds 0..4; configs build."""
    from tutor.errors import TutorError
    from tutor.grading.mistakes import close, declared_value

    question = loaded.model
    for seed in SEEDS:
        try:
            variant = draw(question, seed, check=False)
        except (VariantError, engine.EngineError, TutorError) as error:
            where = ("vary",) if question.vary and seed else ("derive",) if question.derive else ("steps",)
            yield loaded.problem(f"the expected value cannot be computed for seed {seed}: {error}", *where)
            return
        for index, step in enumerate(question.steps):
            if isinstance(step, NumericStep):
                if seed == 0 and step.answer.band is not None and step.answer.band <= step.answer.tolerance:
                    yield loaded.problem(f"band {step.answer.band} must be wider than the tolerance "
                                         f"{step.answer.tolerance}", "steps", index, "answer", "band")
                inputs = resolve(step.answer.inputs, variant.values)
                try:
                    expected = engine.evaluate_base(step.answer.formula, inputs)
                except engine.EngineError as error:
                    yield loaded.problem(f"the expected value cannot be computed (seed {seed}): {error}",
                                         "steps", index, "answer")
                    return
                for position, mistake in enumerate(step.mistakes):
                    try:
                        wrong = declared_value(step, mistake, inputs)
                    except engine.EngineError as error:
                        yield loaded.problem(f"mistake {mistake.id!r} cannot be computed (seed {seed}): {error}",
                                             "steps", index, "mistakes", position)
                        continue
                    if seed == 0 and close(wrong, expected, step.answer.tolerance):
                        yield loaded.problem(f"mistake {mistake.id!r} gives the right answer for seed 0",
                                             "steps", index, "mistakes", position)
            elif isinstance(step, ConfigStep):
                yield from _check_config(loaded, index, step, variant, seed)


def _check_config(loaded, index, step: ConfigStep, variant, seed: int) -> Iterable[Problem]:
    from tutor.errors import TutorError
    from tutor.grading.config import scenario

    try:
        scenario(step, variant)
    except (TutorError, KeyError, TypeError, ValueError) as error:
        yield loaded.problem(f"the configuration scenario cannot be built (seed {seed}): {error}",
                             "steps", index, "inputs")
        return
    from tutor.grading.config_example import example

    if example(scenario(step, variant)) is None:
        yield loaded.problem(f"no layout passes every rule for seed {seed}: check the model, GPUs and batch",
                             "steps", index, "inputs")


CHECKS = [check_questions]
