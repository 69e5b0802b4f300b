"""How a derivation step is written, without SymPy: the formula line (`params_per_gpu = Ψ/(PP·TP)`),
the line with the numbers put in (`70e9/(4·4)`), and a bound input's note (`N ← CP·DP`).

`PRERENDERED` reads tutor/sizing/printed_formulas.py, SymPy's printing of every formula and bound
term done ahead of time by `python -m tutor.sizing.generate`; `tutor.sizing.printing.SympyRendering`
prints the same at run time with SymPy, the reference the tests compare it with byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from tutor.sizing import compiled_formulas as generated
from tutor.sizing.display import engineering

if TYPE_CHECKING:
    from tutor.sizing.derivation import Term

REF = "out:"
"""How a Term names an earlier output (`out:params_per_gpu`), beside the inputs' own names."""


class Rendering(Protocol):
    """How a derivation step is written: the formula line, the line with numbers put in, a bound term."""

    def formula(self, name: str) -> str: ...

    def substituted(self, name: str, values: Mapping[str, float]) -> str: ...

    def bound(self, term: Term) -> str: ...


class Prerendered:
    """The derivation text from tutor/sizing/printed_formulas.py (tests/sizing/test_printed.py checks it
    against `tutor.sizing.printing.SympyRendering` byte for byte)."""

    # printed_formulas is imported on use: the generator that writes it imports this module.

    def formula(self, name: str) -> str:
        from tutor.sizing import printed_formulas

        return printed_formulas.SHOWN[name]

    def substituted(self, name: str, values: Mapping[str, float]) -> str:
        from tutor.sizing import printed_formulas

        parts = printed_formulas.PARTS[name]
        return "".join([engineering(values[part]) if index % 2 else part for index, part in enumerate(parts)])

    def bound(self, term: Term) -> str:
        name = term.single
        if name is not None:  # an earlier output by its name, an input by its display name
            return name[len(REF):] if name.startswith(REF) else generated.SYMBOLS[name][0]
        if not term.names:
            return str(term.factor)
        from tutor.sizing import printed_formulas

        return printed_formulas.BOUND[term.key]


PRERENDERED = Prerendered()
