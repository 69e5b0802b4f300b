"""Which thing a value is said of, where a clause names two values that compete: "Gradients should
use E4M3 and the forward E5M2" puts E4M3 on the gradients, though the same fragment holds E4M3 and
"forward". A claim with `rivals` (what competes with each of its concepts: E5M2 with E4M3, the
gradients with the forward tensors) counts, in a fragment that names a rival value (and a
contradiction with rivals in any fragment), only where each of its other concepts is bound to its
first one:

- no rival value or thing stands between them, nor a word that starts another statement ("and",
  "while", 而);
- the thing is nearer its own value than any rival, and no rival thing is nearer the value. Nearness counts the words between them, where
  words that only bind a thing to its value ("for", "in", "should be", 用) count for nothing, and
  nothing at all between the two ("E4M3 backward") for a half: a value said through a binding word
  ("反向用E5M2") is nearer than one merely beside it ("前向用E4M3 反向"). A tie binds neither;
- the value is not one of a pair said together ("E5M2 x E4M3"), which maps values by position;
  two products, things then values ("dY·W is E5M2 x E4M3"), bind first to first (`positional`).

Written by hand: the grader is offline and deterministic, and a dependency parser for two languages
would cost more than the rest of grading together; two values of one kind in one fragment are rare,
and only the claims that declare rivals are read this way.
"""

from __future__ import annotations

import re

from tutor.grading.claims.model import Fragment

Span = tuple[int, int]

_BINDING_EN = frozenset("for in as on to use uses used using is are be being go goes gets get stay stays stored kept "
                        "the its their his her should must can will would both all also only run runs".split())
_BINDING_ZH = re.compile(r"^(?:应该|应当|需要|必须|要|都|也|就|全|全部|则|只|是|用|使用|采用|走|放|存成|存为|设为|设成|为|成|的|在|里|上)+$")
_JOINT_EN = frozenset("and while whereas but then or nor however".split())
_JOINT_ZH = re.compile(r"和|而|但|与|及|或|然后|以及|同时")


def _gap(text: str, first: Span, second: Span) -> float:
    """Words between two spans: binding words count 0, none at all 0.5 (see the module's docstring)."""
    low, high = sorted((first, second))
    words = text[low[1]:high[0]].split()
    if not words:
        return 0.5
    return float(sum(not (word in _BINDING_EN or _BINDING_ZH.match(word)) for word in words))


def _joined(text: str, first: Span, second: Span) -> bool:
    """A word between the spans that starts another statement."""
    low, high = sorted((first, second))
    return any(word in _JOINT_EN or _JOINT_ZH.search(word) for word in text[low[1]:high[0]].split())


# Two values joined as a product or a pair ("dX = dY·W is E5M2 x E4M3", "E4M3 and E5M2 respectively")
# give each operand its value by position, which nearness cannot read: such a value is said of no
# single thing.
_PAIRING = frozenset("x times by and or vs versus 和 与 乘 乘以 或".split())


def _paired(text: str, head: Span, value: Span) -> bool:
    low, high = sorted((head, value))
    words = text[low[1]:high[0]].split()
    return 0 < len(words) <= 2 and all(word in _PAIRING for word in words)


def _between(span: Span, first: Span, second: Span) -> bool:
    low, high = sorted((first, second))
    return low[1] <= span[0] and span[1] <= high[0]


_PRODUCT = frozenset("x times by 乘 乘以".split())


def _product(text: str, first: Span, second: Span) -> bool:
    """Two spans multiplied: "dY·W" (folded "dy w"), "E5M2 x E4M3"."""
    words = text[first[1]:second[0]].split()
    return first[1] <= second[0] and len(words) <= 1 and all(word in _PRODUCT for word in words)


def positional(text: str, values: list[Span], things: list[Span]) -> set[tuple[Span, Span]]:
    """(value, thing) pairs a product says by position: "dX = dY·W is E5M2 x E4M3" puts E5M2 on dY
    and E4M3 on W. Two things multiplied, then only binding words, then two values multiplied."""
    values, things = sorted(values), sorted(things)
    pairs = set()
    for first, second in zip(values, values[1:]):
        if not _product(text, first, second) or not text[first[1]:second[0]].split():
            continue  # the values' own product needs its sign: "e4m3 e5m2" side by side is a list
        before = [thing for thing in things if thing[1] <= first[0]]
        for left, right in zip(before, before[1:]):
            if _product(text, left, right) and right == before[-1] and _gap(text, right, first) == 0:
                pairs |= {(first, left), (second, right)}
    return pairs


def bound(head: Span, thing: Span, values: list[Span], things: list[Span], text: str,
          by_position: frozenset[tuple[Span, Span]] | set[tuple[Span, Span]] = frozenset()) -> bool:
    """Whether `thing` is said of the value at `head`, with these rival values and rival things in
    the fragment: neither kind between them ("W is dY in E5M2" says E5M2 of dY), and no rival value
    nearer the thing; or the two are paired by position in a product (`positional`)."""
    if (head, thing) in by_position:
        return True
    if any(thing in pair for pair in by_position):
        return False  # given its value by position already
    if any(_between(rival, head, thing) for rival in values + things) or _joined(text, head, thing):
        return False
    if any(_paired(text, head, value) for value in values):
        return False
    own = _gap(text, head, thing)
    # The value is said of the thing nearest it: "W stays E4M3 in dX = dY·W" says E4M3 of W, not of
    # the dY further on (s37 fresh batch: read as gradients in E4M3). Only a strictly nearer rival
    # thing takes it; beside two things at once ("activations E4M3 gradients") it stays open.
    if any(_gap(text, head, rival) < own for rival in things if not _overlaps(rival, thing) and not _overlaps(rival, head)):
        return False
    return all(own < _gap(text, value, thing) for value in values if not _overlaps(value, thing))


def _overlaps(first: Span, second: Span) -> bool:
    return first[0] < second[1] and second[0] < first[1]


def bound_spans(concepts_spans: list[list[Span]], values: list[Span], things: list[Span],
                fragment: Fragment) -> list[Span] | None:
    """One span per concept, each of the others bound to the first concept's span; None where no
    span of the first concept has them all. `concepts_spans`: every span of each concept; `values`
    and `things`: every span of the rivals of the first concept and of the others."""
    heads, *others = concepts_spans
    by_position = positional(fragment.text, heads + values, [span for spans in others for span in spans] + things)
    for head in heads:
        chosen = []
        for spans in others:
            bound_here = [span for span in spans if not _overlaps(span, head)
                          and bound(head, span, values, things, fragment.text, by_position)]
            if not bound_here:
                break
            chosen.append(min(bound_here, key=lambda span: _gap(fragment.text, head, span)))
        else:
            return [head, *chosen]
    return None
