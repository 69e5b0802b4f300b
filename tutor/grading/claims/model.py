"""The claim reader's model of an answer: fragments (between commas) in clauses (statements) in
a reading, and the fragments the reader adds (a subject written once, joined to each fragment it
governs).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tutor.grading.claims.negation import _negations


@dataclass
class Fragment:
    text: str
    """Folded: case, width, punctuation as spaces, Latin and CJK runs spaced apart."""
    compact: str
    """The same without spaces (for Chinese phrases)."""
    negations: list[tuple[int, int]]
    """Spans of negation cues in `text`."""
    inherited: bool = False
    """A short item joined by "or" / "nor" to a negated fragment ("I don't need to know if it's dense
    or MoE, or how many GPUs"): the negation before the list governs it too."""
    base: int | None = None
    """Set on a fragment the reader adds, not one the learner wrote: the subject the learner wrote
    once and meant for it, joined to another fragment (the index of that fragment in its clause).
    A label before a colon joined to each fragment after it ("Latency: 2(n-1) hops, grows with n"
    says the latency grows), and the words before a bracket joined to each piece of the aside
    ("checkpoints (sharded, async)", "2 (fwd)"). Extensions are searched like the others but
    are not words of the answer: they count for no list or length rule."""
    condition_end: int | None = None
    """Where the condition this fragment starts with ends in `text`, when a condition cut off by a
    comma was joined to it ("when no sentence end fits, cut at the context"): a negation inside
    the condition does not reach what follows it."""


@dataclass
class Clause:
    fragments: list[Fragment]
    bare: bool = False
    """Only a run of terms: states nothing."""
    question: bool = False
    """Asked, not stated: ends with a question mark or starts as a question ("Which GPUs?",
    "what sequence length", "是 dense 还是 MoE")."""
    marked: bool = False
    """Ends with a question mark (Chinese statements hold question words: "算出要几张卡")."""
    copied: bool = False
    """Copied from the question: states nothing."""
    prescribes: bool = False
    """Says what to do, not what happened ("Fix: the same order on every rank", "make every rank
    gather first", "修法：让每个 rank 的 batch 数一样"), and so does a clause joined to such a
    clause by a conjunction ("..., so every rank calls them in the same order"). A diagnosis reads
    its contradictions, which describe the run, only from the other clauses."""
    items: list[Fragment] = field(default_factory=list)
    """A list under a head ("What to save: weights, Adam state, RNG, data position", "Save weights,
    optimizer state, RNG", "What changed? Code, data, nodes, drivers"): each item joined to the
    head. The clause is bare and states nothing, but a point that half of its items state with
    the head (`enumerates`) is stated: the items are instances of one point, where a run of
    buzzwords names a different point in each."""

    @property
    def states(self) -> bool:
        return not (self.bare or self.copied)


@dataclass
class Reading:
    """An answer, read once, for every point of a rubric."""

    clauses: list[Clause]
    words: int
    bare: bool
    """The whole answer is a list of terms (every clause that has words is bare)."""
    copied: bool
    """The whole answer is the question pasted back."""
    extra: dict = field(default_factory=dict)


def _extension(head: str, fragment: Fragment, base: int) -> Fragment:
    text = f"{head} {fragment.text}".strip()
    return Fragment(text, text.replace(" ", ""), _negations(text), fragment.inherited, base)
