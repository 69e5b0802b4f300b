"""Mystery mode, for mock interviews: a random hang scenario, a random N and world size, unnamed.

    from tutor.labs import mystery

    case = mystery.draw(seed=7)                 # which lab, how many ranks, its N: hidden
    evidence = mystery.run(case, on_event=...)  # the runner's evidence (LabRun events as usual)
    verdict = mystery.grade(case, answer, evidence, lang="en")
    mystery.reveal(case, "en")                  # the scenario's name, brief and model answers

The scenarios are the hang labs whose lab.yaml says how to vary them (`check:` keys
`vary --FLAG: [low, high]`: the flag that sets the step where things go wrong, or what
decides it). The program runs from a neutral copy (TUTOR_HOME/mystery/ID/train.py, run folder
lab-runs/mystery/), so neither a path nor a folder name gives the scenario away, and the copy has
no docstrings, comments, telling names or telling flags (`neutral`); an answer's neutral names are
mapped back before the scenario's rubric reads it. The current
case is kept in TUTOR_HOME/mystery/current.json, so the CLI can run it, then grade an answer
later, then reveal it.
"""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from tutor.errors import UserInputError
from tutor.labs.catalog import LabEntry, all_labs
from tutor.labs.launch import resolve_backend
from tutor.labs.neutral import Neutral, neutralise, restore

WORLD_SIZES = (2, 3, 4)
VARY = "vary "
RUN_LAB = "mystery"


@dataclass(frozen=True)
class Mystery:
    id: str
    lab: str
    """The scenario: never shown before `reveal`."""
    world_size: int
    args: tuple[str, ...]
    seed: int
    timeout_s: float

    def public(self) -> dict:
        """What the learner may see: the case id, the ranks and the seed — not the program's
        arguments, whose flags each belong to one lab and would name the scenario."""
        return {"id": self.id, "world_size": self.world_size, "seed": self.seed}


def scenarios(labs: dict[str, LabEntry] | None = None) -> dict[str, LabEntry]:
    """Hang labs that say how to vary them and run on a CPU."""
    labs = all_labs() if labs is None else labs
    return {name: entry for name, entry in labs.items()
            if entry.lab.kind == "hang" and not entry.lab.gpu_only and any(key.startswith(VARY) for key in entry.lab.check)}


def draw(seed: int | None = None, labs: dict[str, LabEntry] | None = None) -> Mystery:
    """A random scenario with a random N and world size (reproducible with `seed`)."""
    choices = scenarios(labs)
    if not choices:
        raise UserInputError("no hang lab says how to vary it (lab.yaml `check: vary --FLAG: [low, high]`)",
                             zh="没有哪个 hang 实验说明了怎么变化它（lab.yaml `check: vary --FLAG: [low, high]`）")
    seed = random.SystemRandom().randrange(1, 2**31) if seed is None else seed
    rng = random.Random(seed)
    name = rng.choice(sorted(choices))
    entry = choices[name]
    args = list(entry.lab.args)
    for key, bounds in sorted(entry.lab.check.items()):
        if key.startswith(VARY) and isinstance(bounds, list) and len(bounds) == 2:
            flag, value = key[len(VARY):], str(rng.randint(int(bounds[0]), int(bounds[1])))
            if flag in args:
                args[args.index(flag) + 1] = value
            else:
                args += [flag, value]
    return Mystery(id=f"m{seed}", lab=name, world_size=rng.choice(WORLD_SIZES), args=tuple(args), seed=seed,
                   timeout_s=entry.lab.timeout_s)


def folder(case: Mystery) -> Path:
    from tutor.paths import home_dir

    return home_dir() / "mystery" / case.id


def neutral_program(case: Mystery, labs: dict[str, LabEntry] | None = None) -> Neutral:
    """The scenario's shipped program with nothing that names it, and the command line it runs with."""
    entry = (all_labs() if labs is None else labs)[case.lab]
    return neutralise((entry.folder / entry.lab.program).read_text(), case.args)


def program(case: Mystery, labs: dict[str, LabEntry] | None = None, neutral: Neutral | None = None) -> Path:
    """The neutral program, written to a folder whose name says nothing (with the lab's other files)."""
    entry = (all_labs() if labs is None else labs)[case.lab]
    target = folder(case)
    target.mkdir(parents=True, exist_ok=True)
    for relative in entry.lab.files:
        source = entry.folder / relative
        if source.is_dir():
            shutil.copytree(source, target / Path(relative).name, dirs_exist_ok=True)
        else:
            shutil.copy2(source, target / Path(relative).name)
    path = target / Path(entry.lab.program).name
    path.write_text((neutral or neutral_program(case, labs)).source)
    return path


def spec(case: Mystery, timeout_s: float | None = None, labs: dict[str, LabEntry] | None = None):
    from tutor.labs.runner import RunSpec

    neutral = neutral_program(case, labs)
    return RunSpec(lab=RUN_LAB, program=program(case, labs, neutral), world_size=case.world_size,
                   backend=resolve_backend("auto", case.world_size), timeout_s=timeout_s or case.timeout_s,
                   args=neutral.args, timeout_first=True)  # every scenario is a hang lab's


def run(case: Mystery, on_event=None, timeout_s: float | None = None, labs: dict[str, LabEntry] | None = None) -> dict:
    """Run the case (blocking; start it from a thread that outlives the run) and keep it as current."""
    from tutor.labs.runner import LabRun

    evidence = LabRun(spec(case, timeout_s, labs), on_event=on_event).run()
    save(case, evidence["run_dir"])
    return evidence


def grade(case: Mystery, answer: str, evidence: dict, lang: str = "en",
          labs: dict[str, LabEntry] | None = None) -> dict:
    """The diagnosis graded against this run's evidence and the scenario's rubric (which line, why)."""
    from tutor.labs.run_diagnosis import grade_run

    entry = (all_labs() if labs is None else labs)[case.lab]
    answer = restore(answer, neutral_program(case, labs).names)
    return grade_run(list(entry.lab.diagnosis), answer, evidence, lang)


def reveal(case: Mystery, lang: str = "en", labs: dict[str, LabEntry] | None = None) -> dict:
    entry = (all_labs() if labs is None else labs)[case.lab]
    return {"lab": case.lab, "title": entry.lab.title.get(lang), "brief": entry.lab.brief.get(lang),
            "model_answers": [item.model_answer.get(lang) for item in entry.lab.diagnosis],
            "world_size": case.world_size, "args": list(case.args)}


# ---------------------------------------------------------------- the current case


def _current() -> Path:
    from tutor.paths import home_dir

    return home_dir() / "mystery" / "current.json"


def save(case: Mystery, run_dir: str | None = None, answered: bool = False) -> None:
    path = _current()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**asdict(case), "run_dir": run_dir, "answered": answered}, indent=1))


def current() -> tuple[Mystery, str | None, bool] | None:
    """(case, its run folder, whether it has been answered) or None."""
    try:
        data = json.loads(_current().read_text())
        case = Mystery(id=data["id"], lab=data["lab"], world_size=int(data["world_size"]), args=tuple(data["args"]),
                       seed=int(data["seed"]), timeout_s=float(data["timeout_s"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return case, data.get("run_dir"), bool(data.get("answered"))


def evidence_of(run_dir: str | None) -> dict | None:
    try:
        return json.loads((Path(run_dir) / "evidence.json").read_text()) if run_dir else None
    except (OSError, ValueError):
        return None
