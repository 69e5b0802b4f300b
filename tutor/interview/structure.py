"""The order a candidate-led answer takes, scored against the order a strong candidate keeps.

In a candidate-led round the page is blank: no worksheet names the steps, and part of what the
interviewer judges is whether the candidate sets a sensible structure — clarify, then memory,
then the layout, then throughput and time, then reliability, then monitoring (interview-topics
§2: "first 5–10 min on scope and numbers, then layout, memory, failure model, data path").

Each part is a rubric point of the scenario's open step. The answer is cut into sentences (and
lines); a part's place is the first sentence by which the answer states it (`tutor.grading.rubric.covers`
on the answer read up to that sentence: the same claim reading as the grade). The order score is the longest run of parts that appear in the
expected order (a longest increasing subsequence), over the number of parts expected: leaving a
part out costs it once in the grade and once here, and taking one out of turn costs it here only.
"""

from __future__ import annotations

import re

_SENTENCE = re.compile(r"(?<=[.!?。！？；;])\s*|\n+")


def sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE.split(text) if part and part.strip()]


def first_places(points: dict, order: list[str], text: str) -> dict[str, int]:
    """Point id -> index of the first sentence by which the answer states it (points never stated
    are left out). The answer is read up to each sentence in turn, not one sentence alone: a short
    sentence read on its own looks like a bare list of terms to the claim reader."""
    from tutor.grading.rubric import covers

    places: dict[str, int] = {}
    parts = sentences(text)
    for index in range(len(parts)):
        prefix = " ".join(parts[:index + 1])
        for point_id in order:
            if point_id not in places and covers(points[point_id], prefix):
                places[point_id] = index
    return places


def order_score(step, order: list[str], text: str) -> dict:
    """{score, taken, missing, out_of_order}: how the answer's parts follow `order`."""
    points = {point.id: point for point in step.points}
    places = first_places(points, order, text)
    taken = sorted(places, key=lambda point_id: (places[point_id], order.index(point_id)))
    ranks = [order.index(point_id) for point_id in taken]
    # Longest increasing run, by hand: a rubric has six or so parts, so the quadratic version that
    # also names the run (the parts outside it were taken out of turn) is the simplest.
    # Among runs of equal length the one with the earliest expected parts wins (clarify first), so
    # "memory, clarify, layout" names memory as out of turn, not clarify.
    def preference(chain: list[int]) -> tuple[int, int]:
        return len(chain), -sum(ranks[position] for position in chain)

    chains: list[list[int]] = []
    for position, rank in enumerate(ranks):
        before = max((chain for chain in chains if ranks[chain[-1]] < rank), key=preference, default=[])
        chains.append(before + [position])
    longest = max(chains, key=preference, default=[])
    kept = {taken[position] for position in longest}
    return {"score": round(len(longest) / len(order), 4) if order else 0.0,
            "taken": taken,
            "missing": [point_id for point_id in order if point_id not in places],
            "out_of_order": [point_id for point_id in taken if point_id not in kept]}
