"""The typed evidence of a lab: a run, each rank in it, a check, a diagnosis verdict — and their one JSON mapping.

A run's evidence crosses the whole product: the runner writes it (`evidence.json` beside the
run, the `lab_runs` row), `tutor lab run|check|evidence --json` print it, the app, the hang
reading and the graders read it. Those readers take the JSON form, a plain dict, through string
keys; these dataclasses are the same data with names a type checker follows, and `from_json` /
`to_json` are the only mapping between the two:

- `from_json` checks the keys every run has (a `KeyError`-free shape for typed readers) and
  refuses a record without them in one line (`EvidenceError`), e.g. a hand-edited `evidence.json`;
- `to_json(from_json(d)) == d`, key order included, so that the `--json` output of a recorded run
  and the stored rows are byte for byte what they were: keys this model does not name (a perf
  lab's extras, `debug`, `checks` of a check run) ride along unchanged in `extra`.

`RunEvidence.runner_error` is the record of a run whose runner itself failed: built here, it has
every key a finished run has (the fallback once omitted `container`, `callback_error` and
`at_failure`, which readers then had to guess).

Why hand-written rather than pydantic (which the content models use): the evidence of a hung
run can hold tens of thousands of trace entries and log lines, read back from every row the
history shows; these are plain attribute copies, and unknown keys must survive in their order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Self


class EvidenceError(ValueError):
    """A record that is not a lab's evidence (one line, for the learner or the author)."""


@dataclass
class _Record:
    """A JSON object with named fields: each dataclass field (but `extra`) is the key of the same
    name; `REQUIRED` must be present; other keys are kept in `extra`; key order is remembered."""

    REQUIRED: ClassVar[tuple[str, ...]] = ()
    KIND: ClassVar[str] = "record"

    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)
    """Keys this model does not name, as they came."""
    order: tuple[str, ...] = field(default=(), kw_only=True, repr=False, compare=False)
    """The keys in the order they came, so that `to_json` gives them back in it."""

    @classmethod
    def _names(cls) -> list[str]:
        return [item.name for item in fields(cls) if item.name not in ("extra", "order")]

    @classmethod
    def _read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            raise EvidenceError(f"a lab's {cls.KIND} is a JSON object, not {type(data).__name__}")
        missing = [key for key in cls.REQUIRED if key not in data]
        if missing:
            raise EvidenceError(f"a lab's {cls.KIND} lacks {', '.join(missing)} (keys: {', '.join(map(str, data))})")
        names = set(cls._names())
        values: dict[str, Any] = {key: data[key] for key in names if key in data}
        values["extra"] = {key: value for key, value in data.items() if key not in names}
        values["order"] = tuple(data)
        return values

    def to_json(self) -> dict[str, Any]:
        """The JSON form (a new dict): the keys as they came, in their order, then any set since."""
        named = {name: self._encode(name, getattr(self, name)) for name in self._names()}
        present = {**named, **self.extra}
        result = {key: present[key] for key in self.order if key in present and self._keep(key, present)}
        for key, value in present.items():
            if key not in result and self._keep(key, present):
                result[key] = value
        return result

    def _keep(self, key: str, present: dict[str, Any]) -> bool:
        # A named key that was absent in the source and is still at its default stays absent:
        # older records (no `container`, no `at_failure`) come back as they were.
        return key in self.order or key in self.extra or key in self.REQUIRED or present[key] is not None

    def _encode(self, name: str, value: Any) -> Any:
        return value


@dataclass
class RankEvidence(_Record):
    """One rank of a run as the runner saw it (`RankState.as_dict`)."""

    REQUIRED: ClassVar[tuple[str, ...]] = ("rank",)
    KIND: ClassVar[str] = "rank evidence"

    rank: int = 0
    pid: int | None = None
    host: str | None = None
    exit_code: int | None = None
    last_step: int | None = None
    log_tail: list[str] | None = None
    stack: str | None = None
    stack_source: str | None = None
    collectives: list[dict[str, Any]] | None = None
    pending: dict[str, Any] | None = None
    """The collective it is inside (or issued and never waited for)."""
    exception: dict[str, Any] | None = None
    metrics: dict[str, Any] | None = None
    flight_recorder: Any = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(**cls._read(data))


@dataclass
class RunEvidence(_Record):
    """A finished run (the runner's `evidence.json`, a `lab_runs` row's `evidence_json`)."""

    REQUIRED: ClassVar[tuple[str, ...]] = ("lab", "outcome", "summary", "ranks")
    KIND: ClassVar[str] = "run evidence"

    lab: str = ""
    outcome: str = ""
    """cancelled | hang | crash | wrong | slow | ok (tutor.labs.evidence.classify)."""
    world_size: int | None = None
    backend: str | None = None
    elapsed_s: float | None = None
    run_dir: str | None = None
    program: str | None = None
    ranks: list[RankEvidence] = field(default_factory=list)
    metrics: dict[str, Any] | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    """{category, message, ...}: the one line the learner reads first, and the facts behind it."""
    container: dict[str, Any] | None = None
    trace_files: list[str] | None = None
    launcher: dict[str, Any] | None = None
    callback_error: str | None = None
    at_failure: dict[str, Any] | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        values = cls._read(data)
        if not isinstance(values["ranks"], list) or not isinstance(values["summary"], Mapping):
            raise EvidenceError("a lab's run evidence has ranks as a list and summary as an object")
        values["ranks"] = [RankEvidence.from_json(rank) for rank in values["ranks"]]
        return cls(**values)

    @classmethod
    def runner_error(cls, lab: str, error: BaseException, *, world_size: int, backend: str, elapsed_s: float,
                     run_dir: str, program: str) -> Self:
        """The evidence of a run whose runner failed: every key a finished run has."""
        return cls(lab=lab, outcome="crash", world_size=world_size, backend=backend, elapsed_s=elapsed_s,
                   run_dir=run_dir, program=program,
                   summary={"category": "crash", "message": f"runner error: {error!r}"},
                   ranks=[], metrics={}, trace_files=[], launcher={}, container=None, callback_error=None,
                   at_failure={},
                   order=("lab", "outcome", "world_size", "backend", "elapsed_s", "run_dir", "program", "summary",
                          "ranks", "metrics", "trace_files", "launcher", "container", "callback_error", "at_failure"))

    @property
    def message(self) -> str:
        return str(self.summary.get("message", ""))

    @property
    def debug(self) -> str | None:
        """The debug tool a rerun ran under (`tutor lab run --debug`), if any."""
        return self.extra.get("debug")

    def _encode(self, name: str, value: Any) -> Any:
        return [rank.to_json() for rank in value] if name == "ranks" else value


@dataclass
class CheckItem(_Record):
    """One verdict of a check: a named claim about the run, passed or not, and why."""

    REQUIRED: ClassVar[tuple[str, ...]] = ("name", "passed")
    KIND: ClassVar[str] = "check"

    name: str = ""
    passed: bool = False
    detail: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(**cls._read(data))


@dataclass
class CheckResult(_Record):
    """`tutor lab check`'s result at one rank count (`tutor.labs.checks.check_lab`)."""

    REQUIRED: ClassVar[tuple[str, ...]] = ("lab", "passed", "checks", "evidence")
    KIND: ClassVar[str] = "check result"

    lab: str = ""
    passed: bool = False
    program: str | None = None
    checks: list[CheckItem] = field(default_factory=list)
    evidence: RunEvidence = field(default_factory=RunEvidence)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        values = cls._read(data)
        values["checks"] = [CheckItem.from_json(item) for item in values["checks"]]
        values["evidence"] = RunEvidence.from_json(values["evidence"])
        return cls(**values)

    @property
    def failed(self) -> list[CheckItem]:
        return [item for item in self.checks if not item.passed]

    def recorded_evidence(self) -> dict[str, Any]:
        """What the `lab_runs` row keeps: the run's evidence with the check's own verdicts."""
        return {**self.evidence.to_json(), "checks": [item.to_json() for item in self.checks]}

    def _encode(self, name: str, value: Any) -> Any:
        if name == "checks":
            return [item.to_json() for item in value]
        return value.to_json() if name == "evidence" else value


@dataclass
class DiagnosisVerdict(_Record):
    """A graded diagnosis (`tutor.labs.diagnose.grade_lab`, `tutor lab diagnose --json`)."""

    REQUIRED: ClassVar[tuple[str, ...]] = ("correct", "score")
    KIND: ClassVar[str] = "diagnosis verdict"

    correct: bool = False
    score: float = 0.0
    feedback: Any = None
    """Per diagnosis question: what was found and what is missing (the learner's language)."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(**cls._read(data))

    @property
    def outcome(self) -> str:
        """How the `lab_runs` row names it."""
        return "correct" if self.correct else "incorrect"
