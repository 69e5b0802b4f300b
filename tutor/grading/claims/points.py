"""A rubric point judged over a reading: said, denied, or contradicted; and, for a lab diagnosis,
its contradictions read only from the clauses that describe the run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.grading.claims.matching import enumerates, polarity
from tutor.grading.claims.model import Clause, Reading

if TYPE_CHECKING:
    from tutor.content.models.question import Contradiction


@dataclass(frozen=True)
class Judgement:
    """What the answer does with one point."""

    said: bool
    denied: bool
    """Stated only in the negative (and not otherwise)."""
    contradiction: Contradiction | None
    """The `Contradiction` the answer states, if any (it costs the point)."""

    @property
    def counts(self) -> bool:
        return self.said and self.contradiction is None


def _concepts(phrases) -> list[str]:
    return [*phrases.en, *phrases.zh]


_FORMS: dict[int, tuple] = {}


def _forms(point) -> tuple:
    cached = _FORMS.get(id(point))
    if cached is not None and cached[0] is point:
        return cached[1]
    forms = [[[phrase for phrases in point.phrases.values() for phrase in phrases]]]
    forms += [[_concepts(concept) for concept in claim] for claim in point.claims]
    rival = [_concepts(concept) for concept in point.rivals] or None
    rivals = [None] + [rival] * len(point.claims)  # a phrase is said of its thing already
    said_of = (_concepts(point.said_of[0]), _concepts(point.said_of[1])) if point.said_of else None
    contradictions = [(item, [_concepts(concept) for concept in item.concepts],
                       [_concepts(concept) for concept in item.rivals] or None) for item in point.contradicts]
    _FORMS[id(point)] = (point, (forms, rivals, said_of, contradictions))  # the point is kept alive with its id
    return forms, rivals, said_of, contradictions


# The other ranks, as a diagnosis contrasts them with the culprit ("the other ranks' memory stays flat").
_OTHER_RANKS = re.compile(r"\b(?:other ranks?|the others?|others|the rest|rest of the ranks|remaining ranks|everyone else)\b|"
                          r"其他|其它|其余|别的|剩下")


_NUMBERED_RANK = re.compile(r"\b(?:rank|r)\s?\d|\d\s?号")


def _describing(reading: Reading) -> Reading:
    """The clauses that describe the culprit's run: not a prescribed fix, and without the fragments
    about the other ranks, which are the contrast ("rank 0 keeps every step's logits; the other
    ranks' memory stays flat" says nothing flat about rank 0)."""
    kept = []
    for clause in reading.clauses:
        if clause.prescribes:
            continue
        # A fragment about the others, and those after it in the clause until one names a rank again:
        # its subject carries over ("其他 rank 不存，显存是平的").
        fragments, about_others = [], False
        dropped: set[int] = set()
        for index, fragment in enumerate(clause.fragments):
            if fragment.base is not None:  # an extension goes with the fragment it extends
                if fragment.base not in dropped:
                    fragments.append(fragment)
                continue
            others = _OTHER_RANKS.search(fragment.text)
            if others and len(fragment.text[:others.start()].split()) <= 2:
                about_others = True  # the others are its subject, not a comparison ("as everyone else's")
            elif _NUMBERED_RANK.search(fragment.text):
                about_others = False
            if not about_others:
                fragments.append(fragment)
            else:
                dropped.add(index)
        if len(fragments) == len(clause.fragments):
            kept.append(clause)
        elif fragments:
            kept.append(Clause(fragments, clause.bare, clause.question, clause.marked, clause.copied))
    return Reading(kept, reading.words, reading.bare, reading.copied)


def judge(point, reading: Reading, describing: bool = False) -> Judgement:
    """Said, denied or contradicted: the point's claim forms and contradictions over the clauses.
    `describing`: the contradictions describe what happened (a lab diagnosis), so they are read
    only from clauses that do not prescribe a fix ("Fix: every rank has the same number of
    batches" is the fix, not a claim about the run), except for a point the answer's fix itself
    states, whose contradictions are wrong fixes, and for a contradiction marked `fix`, a wrong fix
    whatever the answer's fix says besides."""
    forms, rivals, said_of, contradictions = _forms(point)
    results = [polarity(form, reading, rivals=rival, said_of=said_of) for form, rival in zip(forms, rivals)]
    said = any(result is True for result in results)
    if not said and any(clause.items for clause in reading.clauses):
        said = any(enumerates(forms, clause) for clause in reading.clauses)
    denied = not said and any(result is False for result in results)
    contradiction = None
    prescribed = states_fix = None
    if describing and contradictions:
        # A point the answer's own fix states is a fix, and a wrong fix said beside it ("Fix: copy the
        # cache under the lock, and raise the timeout") is its contradiction, read from the fix too; so
        # is a contradiction marked `fix`, said on its own ("Fix: raise --device-memory-kib").
        prescribed = Reading([clause for clause in reading.clauses if clause.prescribes], reading.words, False, False)
        states_fix = any(polarity(form, prescribed, rivals=rival) is True for form, rival in zip(forms, rivals))
        reading = _describing(reading)
        # ... unless the run's description states it too: then it is what happened (a cause), and the fix only
        # echoes it ("Shard 0 holds one more document. Fix: drop the remainder so every rank has the same number
        # of batches" does not say every rank had as many)
        states_fix = states_fix and not any(polarity(form, reading, rivals=rival) is True
                                            for form, rival in zip(forms, rivals))
    for item, concepts, rival in contradictions:
        result = polarity(concepts, reading, extended=False, describing=describing, listed=True, rivals=rival)
        if result is not True and prescribed is not None and (states_fix or item.fix) \
                and polarity(concepts, prescribed, extended=False, rivals=rival) is True:
            result = True
        if result is True and contradiction is None:
            contradiction = item
        elif result is False:
            said, denied = True, False  # "TP 不要跨节点": denying the opposite states the claim
    return Judgement(said, denied, contradiction)
