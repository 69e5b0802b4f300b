"""A question (`questions/*.yaml`): its steps of each kind, hints, mistakes, parameters."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, StringConstraints, model_validator

from tutor.content.models.base import LANGS, FormulaName, Ident, NonEmpty, Number, Text, ContentModel


MAX_RANGE_VALUES = 1_000_000


class Vary(ContentModel):
    """The values a parametric input draws from: `choices`, or a `min`..`max` range by `step`."""

    choices: list[Number | str] | None = None
    """Explicit values (numbers or preset names)."""
    min: Number | None = None
    """Lower end of a range."""
    max: Number | None = None
    """Upper end of a range."""
    step: Number | None = None
    """Spacing of a range (a range without a step draws from min, 2·min, 4·min, … up to max)."""

    @model_validator(mode="after")
    def _one_way(self) -> Vary:
        if self.choices is not None:
            if self.min is not None or self.max is not None or self.step is not None:
                raise ValueError("give either choices or min/max/step, not both")
            if not self.choices:
                raise ValueError("choices is empty")
        elif self.min is None or self.max is None:
            raise ValueError("give choices, or both min and max")
        elif self.min > self.max or self.min <= 0 or (self.step is not None and self.step <= 0):
            raise ValueError("a range needs 0 < min <= max and a positive step")
        else:
            import math

            if not all(math.isfinite(value) for value in (self.min, self.max, self.step or 1)):
                raise ValueError("a range needs finite min, max and step (not .inf or .nan)")
            # Drawing counts the values of the range: keep that count small and computable.
            if self.step is not None and (self.max - self.min) / self.step > MAX_RANGE_VALUES:
                raise ValueError(f"the range has more than {MAX_RANGE_VALUES:,} values; use a larger step")
        return self


class Derived(ContentModel):
    """An input computed from the others by an engine formula (e.g. dp from gpus, tp, pp, cp)."""

    formula: FormulaName
    """Engine formula that computes it."""
    inputs: dict[str, Number | str] = {}
    """Formula symbol -> a number, or the name of a `given`/`vary`/earlier `derive` input."""


class Hinted(ContentModel):
    """Fields shared by every step kind."""

    id: Ident = "main"
    """Unique within the question."""
    prompt: Text | None = None
    """What this step asks (a single-step question may leave it to the question's prompt)."""
    hints: list[Text] = []
    """Hints in tiers, from a nudge to nearly the answer."""
    explain: Text | None = None
    """Shown after answering: why the answer is what it is."""
    weight: Annotated[float, Field(gt=0)] = 1.0
    """Share of a design question's score."""


class Mistake(ContentModel):
    """A wrong answer the grader recognises, and what to tell the learner who gives it.

    Numeric steps: the wrong value is the step's formula (or `formula`) evaluated with the
    step's inputs overridden by `inputs`. Formula steps: the wrong expression is `formula`.
    A built-in id (docs/grading.md: `forgot-cp-in-shard`, `sixteen-bytes`, `forgot-cp`,
    `forgot-tp`, `forgot-pp`, `no-interleaving`) brings its own formula, inputs and feedback.
    """

    id: Ident
    """A built-in mistake, or the question's own (then `feedback` is required)."""
    formula: FormulaName | None = None
    """Engine formula giving the wrong value or expression; default: the step's own."""
    inputs: dict[str, Number | str] = {}
    """Inputs that differ from the step's (e.g. `cp: 1`); the others are the step's."""
    feedback: Text | None = None
    """What the learner probably did and why it is wrong."""


class NumericAnswer(ContentModel):
    """A number computed by an engine formula."""

    formula: FormulaName
    """Engine formula that computes the expected value."""
    inputs: dict[str, Number | str] = {}
    """Formula symbol -> a number, a preset name (`model`, `gpu`), or the name of a question input."""
    unit: str
    """The unit the expected value is stated in: B, KB, MB, GB, TB, GiB, s, min, h, days, %,
    tokens/s, FLOPs, TFLOP/s, params, x (a plain number)."""
    tolerance: Annotated[float, Field(gt=0, lt=1)]
    """Relative tolerance, e.g. 0.05 for ±5%."""
    digits: Annotated[int, Field(ge=0, le=6)] = 1
    """Decimals when the expected value is shown."""
    band: Annotated[float, Field(gt=0, lt=1)] | None = None
    """A wider relative band for an estimate: outside `tolerance` but inside it (and no named
    mistake) is "close: right method", partial credit, not right (40 days for 43)."""


class NumericStep(Hinted):
    """A number with a unit, e.g. model state per GPU in GB."""

    kind: Literal["numeric"]
    answer: NumericAnswer
    """How the expected value is computed."""
    mistakes: list[Mistake] = []
    """Wrong values to recognise, most specific first; generic slips (GiB for GB, a factor of
    TP/PP/DP/CP, total instead of per GPU, % off by 100) are recognised without listing."""


class FormulaStep(Hinted):
    """An expression in the engine's symbols, e.g. `6Ψ + 12Ψ/N`."""

    kind: Literal["formula"]
    formula: FormulaName
    """Engine formula whose expression is the expected answer."""
    symbols: dict[str, str] = {}
    """Extra spellings the learner may use -> engine symbol (e.g. `N: n_shard`); each symbol's
    display form (Ψ, N, TP, s) and aliases (Psi, psi, t, p) are accepted without listing."""
    mistakes: list[Mistake] = []
    """Wrong expressions to recognise, each an engine formula (`formula`) with its feedback."""


class ConfigStep(Hinted):
    """A parallel configuration (TP, PP, CP, EP, DP) judged by the engine and the recipe."""

    kind: Literal["config"]
    inputs: dict[str, Number | str]
    """The scenario: `model` (preset) or params/layers/hidden/heads, seq, micro_batch,
    global_batch, gpus, `gpu` (catalog name) — numbers, preset names or question inputs."""
    require: dict[str, Number] = {}
    """Limits the configuration must meet beyond the recipe's defaults: `max_tp` (8),
    `min_m_over_p` (4), `max_pp`, `cp` (a required CP), `ep` (a required EP)."""


class Choice(ContentModel):
    """One option of a choice step."""

    id: Ident
    """Option id (a, b, c, …); the learner may answer with it."""
    text: Text
    """The option."""
    correct: bool = False
    """Whether choosing it is right."""
    why: Text | None = None
    """Why it is right or wrong, shown after answering."""


class ChoiceStep(Hinted):
    """Pick the right option (or, with `multiple`, all the right options)."""

    kind: Literal["choice"]
    options: list[Choice] = Field(min_length=2)
    """The options."""
    multiple: bool = False
    """Whether more than one option is right and all must be chosen."""


class Phrases(ContentModel):
    """One concept of a claim: its phrasings in both languages (any one names it)."""

    en: list[NonEmpty] = Field(min_length=1)
    zh: list[NonEmpty] = Field(min_length=1)


class Contradiction(ContentModel):
    """The opposite of a claim ("TP across nodes"): stated, it costs the point and is named."""

    id: Ident
    concepts: list[Phrases] = Field(min_length=1)
    """Concepts said together in one clause (e.g. [TP], [across nodes])."""
    feedback: Text
    """What the learner said and what is true ("you put TP across nodes; it belongs inside one")."""
    fix: bool = False
    """A wrong fix ("raise the timeout", "drop the long documents"): a lab diagnosis reads it from
    the answer's fix too ("Fix: raise --device-memory-kib"), where a claim about the run is not read."""
    rivals: list[Phrases] = []
    """As `KeyPoint.rivals`, for these concepts."""

    @model_validator(mode="after")
    def _rivals_of_concepts(self) -> Contradiction:
        if self.rivals and len(self.concepts) < 2:
            raise ValueError(f"contradiction {self.id}: rivals need two concepts or more (a value and what it is said of)")
        return self


class KeyPoint(ContentModel):
    """A rubric point: a claim, with the phrasings that count as stating it (docs/grading.md).

    It counts when one clause of the answer states it with the right polarity: `phrases` (each a
    whole concept-and-relation, "once per step") or every concept of one of `claims` (e.g. [TP]
    with [inside the node]); a negation in that clause (not, never, 不, 没 …) turns it into its
    opposite. A stated `contradicts` costs the point's weight and is named in the feedback; a
    denied one ("TP 不要跨节点") counts as the claim.
    """

    id: Ident
    """Point id."""
    text: Text
    """The point, as shown in the rubric after answering."""
    phrases: dict[Literal["en", "zh"], list[NonEmpty]]
    """Phrasings and synonyms per language (both languages required); any one present counts.
    Matching ignores case, width, punctuation and hyphens (`all-reduce` = `allreduce`) and
    English endings (-s, -ed, -ing)."""
    claims: list[list[Phrases]] = []
    """Other ways to state it: each a list of concepts that must appear together in one clause."""
    rivals: list[Phrases] = []
    """What competes with each concept of the claims, one per concept: the other value for the
    first (E5M2 for claims that put E4M3 on the forward), the other things for the rest (the
    gradients). In a fragment that names a rival value, each concept must be said of the first,
    not merely beside it (`tutor.grading.claims.binding`): "Gradients should use E4M3 and the
    forward E5M2" puts E4M3 on no forward tensor."""
    said_of: list[Phrases] = Field(default=[], max_length=2)
    """[the point's subject, its rivals] where a rubric goes through several subjects in turn ("Go
    through DP, FSDP, TP and PP"): a claim does not count in a statement that names a rival and not
    the subject ("PP: gradients go out in buckets during backward" is not DP's bucketing). A
    statement that names neither still counts."""
    contradicts: list[Contradiction] = []
    """Statements that say the opposite."""
    weight: Annotated[float, Field(gt=0)] = 1.0
    """Share of the score."""
    required: bool = False
    """The answer is not right without this point, whatever its coverage."""
    asked: bool = False
    """Made by asking, in an open step: the clarify part of a candidate-led answer ("How many
    tokens?"). Its clauses may be questions; the other points of an open step count statements only."""

    @model_validator(mode="after")
    def _said_of_pairs(self) -> KeyPoint:
        if len(self.said_of) == 1:
            raise ValueError("said_of: the point's subject and its rivals, two lists")
        return self

    @model_validator(mode="after")
    def _rivals_of_claims(self) -> KeyPoint:
        if self.rivals and not any(len(claim) >= 2 for claim in self.claims):
            raise ValueError("rivals: a point's rivals compete with the concepts of its claims; it has no claim of two "
                             "concepts or more")
        return self

    @model_validator(mode="after")
    def _both_languages(self) -> KeyPoint:
        missing = [lang for lang in LANGS if not self.phrases.get(lang)]
        if missing:
            raise ValueError(f"phrases: missing {' and '.join(missing)} phrasings (every point needs en and zh)")
        return self


class OpenStep(Hinted):
    """A free answer checked against a rubric of key points; the model answer is shown after."""

    kind: Literal["open"]
    points: list[KeyPoint] = Field(min_length=1)
    """The rubric's key points."""
    model_answer: Text
    """Shown after answering."""
    pass_score: Annotated[float, Field(gt=0, le=1)] = 0.6
    """Coverage at which the answer counts as right."""


class ClarifyStep(Hinted):
    """Which questions to ask before answering (scope, numbers, constraints)."""

    kind: Literal["clarify"]
    points: list[KeyPoint] = Field(min_length=1)
    """The questions a candidate should ask before answering."""
    model_answer: Text
    """The clarifying questions, as a strong candidate would ask them."""
    pass_score: Annotated[float, Field(gt=0, le=1)] = 0.6
    """Coverage at which the step counts as right."""


Step = Annotated[
    Union[NumericStep, FormulaStep, ConfigStep, ChoiceStep, OpenStep, ClarifyStep],
    Field(discriminator="kind"),
]
STEP_KINDS = ("numeric", "formula", "config", "choice", "open", "clarify")


class Question(ContentModel):
    """A practice question: one step, or several (`design`)."""

    id: Ident
    """Unique question id."""
    title: Text
    """Short title for lists."""
    prompt: Text
    """The question; `{name}` inserts a given, varied or derived input, formatted (70B, 8K, 80 GB)."""
    section: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]+/[a-z0-9-]+$")]
    """The lesson section it practises, as `lesson-id/section-id`."""
    tags: list[Ident] = Field(min_length=1)
    """Topics, for filtering and progress."""
    source: str
    """Where the question comes from (e.g. "NVIDIA interview, reported 3 times", "lesson §4")."""
    difficulty: Annotated[int, Field(ge=1, le=3)] = 2
    """1 warm-up, 2 interview, 3 hard."""
    given: dict[str, Number | str] = {}
    """Inputs of the default variant (seed 0)."""
    vary: dict[str, Vary] = {}
    """How other seeds draw each input."""
    derive: dict[str, Derived] = {}
    """Inputs computed from the others, in order (a variant whose derived value is not valid,
    e.g. a fractional DP, is drawn again)."""
    steps: list[Step] = Field(min_length=1)
    """The steps, in order."""

    @property
    def kind(self) -> str:
        return self.steps[0].kind if len(self.steps) == 1 else "design"
