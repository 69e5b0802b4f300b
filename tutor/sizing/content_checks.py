"""Engine checks of lesson figures, picked up by `tutor validate` (tutor.content.validate.engine_checks).

Each problem points at the figure's line: an unknown formula (with the closest names), inputs
that are not the formula's symbols or leave one out, a value that cannot be computed or is not
finite, and a display unit that is unknown or of another kind than the formula's result.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from tutor.sizing import registry
from tutor.sizing.display import DISPLAY_UNITS, compatible
from tutor.sizing.engine import PRESET_KEYS, evaluate, preset_values
from tutor.sizing.errors import SizingError


def check_lesson_figures(content) -> Iterable:
    for loaded in content.lessons.values():
        for name, figure in loaded.model.figures.items():
            where = ("figures", name)
            if figure.unit not in DISPLAY_UNITS:
                known = ", ".join(unit for unit in DISPLAY_UNITS if unit)
                yield loaded.problem(f"figure {name!r}: unknown unit {figure.unit!r} (use one of {known})", *where, "unit")
            if figure.formula is None:
                continue
            if not registry.exists(figure.formula):
                close = difflib.get_close_matches(figure.formula, registry.names(), n=2)
                hint = f"; did you mean {' or '.join(close)}?" if close else ""
                yield loaded.problem(f"figure {name!r}: unknown formula {figure.formula!r}{hint}", *where, "formula")
                continue
            yield from _check_inputs(loaded, name, figure)


def _check_inputs(loaded, name: str, figure) -> Iterable:
    formula = registry.get(figure.formula)
    where = ("figures", name)
    problems = []
    for key in figure.inputs:
        if key not in formula.symbols and key not in PRESET_KEYS:
            close = difflib.get_close_matches(key, formula.symbols, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            problems.append(loaded.problem(f"figure {name!r}: {figure.formula} has no input {key!r} "
                                           f"(inputs: {', '.join(formula.symbols)}){hint}", *where, "inputs", key))
    covered = set(figure.inputs)
    for key in PRESET_KEYS:
        if key in figure.inputs:
            try:
                covered |= set(preset_values(key, figure.inputs[key], figure.inputs.get("seq")))
            except SizingError as error:
                problems.append(loaded.problem(f"figure {name!r}: {error}", *where, "inputs", key))
    missing = [symbol for symbol in formula.symbols if symbol not in covered]
    if missing:
        problems.append(loaded.problem(f"figure {name!r}: {figure.formula} also needs {', '.join(missing)}",
                                       *where, "inputs"))
    if problems:
        yield from problems
        return
    try:
        evaluate(figure.formula, **figure.inputs)
    except SizingError as error:
        yield loaded.problem(f"figure {name!r}: {error}", *where)
        return
    if figure.unit in DISPLAY_UNITS and not compatible(formula.unit, figure.unit):
        yield loaded.problem(f"figure {name!r}: {figure.formula} gives {formula.unit}, which cannot be shown "
                             f"as {figure.unit!r}", *where, "unit")


CHECKS = [check_lesson_figures]
