"""Typed, frozen models of the content files (DESIGN §6).

Lessons (`lessons/*.yaml`), questions (`questions/*.yaml`, a list per file) and labs
(`labs/NN-name/lab.yaml`) are loaded into these models; unknown keys are errors, and every
learner-facing text is a `Text` with both languages. Field docstrings are the reference for
authors (`docs/content-format.md` summarises them).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, model_validator

from tutor.units import as_number, parse_count


def _to_number(value: object) -> object:
    # PyYAML reads `70e9` (no dot) as a string, so authors may write numbers as strings
    # and with suffixes (`70B`); anything else is left for pydantic to reject.
    if isinstance(value, str):
        return parse_count(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return as_number(value)
    return value


Number = Annotated[Union[int, float], BeforeValidator(_to_number)]
Ident = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=64)]
FormulaName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
NonEmpty = Annotated[str, StringConstraints(min_length=1, strip_whitespace=False)]
LANGS = ("en", "zh")
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class Text(_Model):
    """A learner-facing text in both languages."""

    en: NonEmpty
    """English text."""
    zh: NonEmpty
    """Chinese text."""

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


# ---------------------------------------------------------------- lessons


class Figure(_Model):
    """A number shown in a lesson, computed by the sizing engine, never typed in."""

    formula: FormulaName | None = None
    """Name of an engine formula (`tutor size` registry)."""
    inputs: dict[str, Number | str] = {}
    """Values for the formula's symbols (numbers, or preset names where the formula takes one)."""
    unit: str = ""
    """Display unit of `tutor.sizing.format_value`: B, KB, MB, GB, TB, MiB, GiB, s, min, h, days, %,
    FLOPs, TFLOP/s, tokens/s, params (a count with K/M/B/T, 万/亿), x (plain)."""
    digits: int = Field(default=1, ge=0, le=6)
    """Decimals shown in the rendered figure (`format_value`'s `digits`)."""
    fact: Number | None = None
    """A published figure instead of a formula; then `source` is required."""
    fact_unit: str | None = None
    """The unit `fact` is written in (s, h, days, B, FLOPs, FLOP/s, fraction, count); default: base units."""
    source: str | None = None
    """Where a published figure comes from (paper and table, vendor page)."""


class Scenario(_Model):
    """A sizing set-up the playground can open from this section (a worked example)."""

    id: Ident
    """Unique within the lesson."""
    title: Text
    """What the scenario is, as the playground lists it."""
    settings: dict[str, Number | str | bool]
    """`tutor size` settings without dashes: model, gpus, tp, pp, cp, dp, seq, global_batch, sharding, …"""


class Section(_Model):
    """One section of a lesson."""

    id: Ident
    """Unique within the lesson; `lesson-id/section-id` is how questions point here."""
    title: Text
    """Heading."""
    body: Text
    """Markdown; `{{name}}` inserts a figure declared in the lesson's `figures`."""
    questions: list[Ident] = []
    """Practice questions for this section, by id."""
    labs: list[Ident] = []
    """Labs for this section, by name (folder name without its `NN-` prefix)."""
    see_also: list[Ident] = []
    """Deep-dive lessons this section points to, by lesson id."""
    scenarios: list[Scenario] = []
    """Worked examples the playground opens preset (`g` in the lesson reader)."""


class Lesson(_Model):
    """A lesson or a deep dive, in sections."""

    id: Ident
    """Unique lesson id."""
    kind: Literal["lesson", "deep-dive"] = "lesson"
    """The main lesson, or a deep dive it points to."""
    order: int = 0
    """Position in the lesson list."""
    title: Text
    """Title."""
    summary: Text
    """One or two sentences shown in lists."""
    figures: dict[Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")], Figure] = {}
    """Named figures the bodies insert with `{{name}}`."""
    sections: list[Section] = Field(min_length=1)
    """The sections, in reading order."""


# ---------------------------------------------------------------- questions


class Vary(_Model):
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
        return self


class Derived(_Model):
    """An input computed from the others by an engine formula (e.g. dp from gpus, tp, pp, cp)."""

    formula: FormulaName
    """Engine formula that computes it."""
    inputs: dict[str, Number | str] = {}
    """Formula symbol -> a number, or the name of a `given`/`vary`/earlier `derive` input."""


class Hinted(_Model):
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


class Mistake(_Model):
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


class NumericAnswer(_Model):
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


class Choice(_Model):
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


class KeyPoint(_Model):
    """A rubric point: what a good answer says, with the phrasings that count as saying it."""

    id: Ident
    """Point id."""
    text: Text
    """The point, as shown in the rubric after answering."""
    phrases: dict[Literal["en", "zh"], list[NonEmpty]]
    """Phrasings and synonyms per language (both languages required); any one present counts.
    Matching ignores case, width, punctuation and hyphens (`all-reduce` = `allreduce`) and
    English endings (-s, -ed, -ing)."""
    weight: Annotated[float, Field(gt=0)] = 1.0
    """Share of the score."""
    required: bool = False
    """The answer is not right without this point, whatever its coverage."""

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


class Question(_Model):
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


# ---------------------------------------------------------------- labs


class DiagnosisItem(_Model):
    """One question of a lab's diagnosis (which rank, which call, which line, why)."""

    id: Ident
    """Item id."""
    prompt: Text
    """The question."""
    points: list[KeyPoint] = Field(min_length=1)
    """What a right answer names."""
    model_answer: Text
    """Shown after answering."""


class Lab(_Model):
    """`labs/NN-name/lab.yaml`: a real multi-process job with a planted bug or a TODO."""

    title: Text
    """Title."""
    brief: Text
    """What the learner is asked to do."""
    kind: Literal["parallel", "hang", "perf"]
    """Parallelism exercise, planted hang, or planted slowdown."""
    world_size: Annotated[int, Field(ge=1, le=64)] = 2
    """Ranks by default."""
    world_sizes: list[Annotated[int, Field(ge=1, le=64)]] = []
    """Other world sizes the lab supports (CI runs each)."""
    gpu_only: bool = False
    """Needs CUDA GPUs; skipped with a message on CPU."""
    program: str = "train.py"
    """The program as shipped, relative to the lab folder."""
    solution: str = "solution.py"
    """The reference solution, relative to the lab folder."""
    checker: str | None = None
    """The lab's checker, relative to the lab folder: `tutor lab check` runs it as the job's program
    and it exercises the learner's program (imported as a module) against a reference. Without
    one, the check runs the program itself and requires it to finish with its self-checks passing."""
    args: list[str] = []
    """Command-line arguments the program gets by default (e.g. the step a planted bug fires at)."""
    files: list[str] = []
    """Other files the program needs, copied into the workspace with it."""
    symptom: Literal["hang", "crash", "wrong", "slow", "fail-check"]
    """What the shipped program shows."""
    timeout_s: Annotated[float, Field(gt=0, le=600)] = 30
    """Process-group timeout and no-progress limit for one run."""
    section: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]+/[a-z0-9-]+$")] | None = None
    """The lesson section it belongs to."""
    hints: list[Text] = []
    """Hints in tiers."""
    diagnosis: list[DiagnosisItem] = []
    """The diagnosis the learner must give (hang and perf labs)."""
    check: dict[str, Number | str | bool | list[Number]] = {}
    """Parameters of the fix check (thresholds, tolerances); the lab's checker reads them."""
