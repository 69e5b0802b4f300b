"""A lab (`labs/NN-name/lab.yaml`) and its diagnosis items."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from tutor.content.models.base import Ident, Number, Text, ContentModel
from tutor.content.models.question import KeyPoint


class DiagnosisItem(ContentModel):
    """One question of a lab's diagnosis (which rank, which call, which line, why)."""

    id: Ident
    """Item id."""
    prompt: Text
    """The question."""
    points: list[KeyPoint] = Field(min_length=1)
    """What a right answer names."""
    model_answer: Text
    """Shown after answering."""


class Lab(ContentModel):
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
