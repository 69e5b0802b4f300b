"""The labelled answer set: every case is an answer as a candidate types it, with its label.

Free text (open, clarify, lab diagnosis) is hand-written in `free_text.yaml`; closed kinds
(numeric, formula, config, choice) are written here as typing patterns over the question's own
variant: several spellings of the right value, the declared and typical mistakes, letters in the
forms people type them. A case's split is fixed by its text (`split`): a quarter is held out
and was never used to write or tune a rubric or a parser.

The blind batches (`blind_*.yaml`, `blind_cases()`) are a third part, `blind`, all of it held
out: written by someone who never read the graders' rubrics and never graded them while
writing, for the targets of `free_text.yaml`. They are not in `all_cases()` and not in the hash
split; the benchmark reports their counts as their own part.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
FREE_KINDS = ("open", "clarify", "diagnosis", "mock")
"""`mock`: the open steps of the mock interview's own content (interview/*.yaml: follow-ups,
debug and hang stages, pitch, design), targets "i:<scenario>/<step>"; graded as open steps are,
reported apart so that the practice bank's numbers stay comparable with earlier runs. Its tuning
and held-out parts come from free_text_mock.yaml (written blind to the rubrics, then tuned on)."""
BATCHES = ("free_text.yaml", "free_text_more.yaml", "free_text_third.yaml", "free_text_fourth.yaml",
           "free_text_mock.yaml", "free_text_labs.yaml", "free_text_mock2.yaml", "free_text_labs2.yaml",
           "free_text_mock3.yaml", "free_text_labs3.yaml", "free_text_mock4.yaml", "free_text_labs4.yaml",
           "free_text_labs5.yaml", "free_text_mock5.yaml", "free_text_mock6.yaml",
           "free_text_mock7.yaml", "free_text_mock8.yaml", "free_text_labs7.yaml",
           "free_text_labs6.yaml", "free_text_mock9.yaml", "free_text_mock10.yaml",
           "free_text_labs8.yaml", "free_text_labs9.yaml", "free_text_mock11.yaml",
           "free_text_mock12.yaml", "free_text_labs10.yaml", "free_text_labs11.yaml",
           "free_text_labs12.yaml", "free_text_mock13.yaml", "free_text_mock14.yaml",
           "free_text_labs13.yaml", "free_text_mock15.yaml", "free_text_labs14.yaml")
CLOSED_KINDS = ("numeric", "formula", "config", "choice")
BLIND_BATCHES = ("blind_1.yaml", "blind_2.yaml", "blind_3.yaml", "blind_4.yaml", "blind_5.yaml", "blind_6.yaml")
BLIND_TIERS = ("strong", "partial", "buzz", "negated", "wrong", "offtopic", "copy")
"""The tiers a blind batch may use; only `strong` is labelled right."""


@dataclass(frozen=True)
class Case:
    kind: str
    target: str
    """"q:<question>/<step>", "lab:<name>" or "i:<interview scenario>/<step>"."""
    text: str
    right: bool
    tier: str
    seed: int = 0
    batch: int = 1
    """Which file of hand-written answers it comes from (BATCHES, 1-based); 1 for generated cases,
    0 for the blind batches. Not part of the key: the split does not depend on it."""
    blind: bool = False
    """From a blind batch: its split is `blind`, whatever its hash."""
    source: str = ""
    """The blind batch's file (`blind_5.yaml`): the benchmark counts each batch apart too, since a batch
    measured many times is less blind than a fresh one."""

    @property
    def key(self) -> str:
        return f"{self.target}|{self.seed}|{self.text}"

    @property
    def split(self) -> str:
        if self.blind:
            return "blind"
        return "held-out" if int(hashlib.sha1(self.key.encode()).hexdigest(), 16) % 4 == 0 else "tuning"

    @property
    def lang(self) -> str:
        return "zh" if any("\u4e00" <= char <= "\u9fff" for char in self.text) else "en"


def _content():
    from tutor.content import load

    return load()


@lru_cache(maxsize=1)
def free_text_cases() -> tuple[Case, ...]:
    from tutor.grading.dispatch import step_prompt, find_step
    from tutor.grading.variant import draw

    data = yaml.safe_load((HERE / "free_text.yaml").read_text(encoding="utf-8"))
    # Later batches, written the same way, are merged into the same targets (tiers appended).
    batch_of: dict[str, int] = {}
    # A later batch may bring targets of its own: the labs added since free_text.yaml, and the mock
    # interview's open steps (free_text_mock.yaml, kind `mock`).
    for batch, name in enumerate(BATCHES[1:], start=2):
        for target, tiers in yaml.safe_load((HERE / name).read_text(encoding="utf-8")).items():
            if target not in data:
                _known_target(name, target)
                data[target] = {}
            for tier, texts in tiers.items():
                data[target].setdefault(tier, []).extend(texts)
                batch_of.update({text: batch for text in texts})
    content = _content()
    cases: list[Case] = []
    targets = list(data)
    for target in targets:
        tiers = data[target]
        if target.startswith("q:"):
            qid, step_id = target[2:].split("/")
            question = content.questions[qid].model
            step = find_step(question, step_id)
            kind = step.kind
            prompts = step_prompt(question, step, draw(question, 0))
        elif target.startswith("i:"):
            from tutor.interview.present import step_markdown

            scenario, step = interview_step(target)
            kind = "mock"
            prompts = {lang: step_markdown(scenario, step, draw(scenario, 0), lang) for lang in ("en", "zh")}
        else:
            lab = content.labs[target[4:]].model
            kind = "diagnosis"
            prompts = {lang: " ".join(item.prompt.get(lang) for item in lab.diagnosis) for lang in ("en", "zh")}
        for tier, texts in tiers.items():
            for text in texts:
                cases.append(Case(kind, target, text, tier == "strong", tier, batch=batch_of.get(text, 1)))
        # Another question's strong answer, and the prompt pasted back.
        same = [t for t in targets if t.split(":")[0] == target.split(":")[0]]
        other = same[(same.index(target) + 3) % len(same)]  # three on: never the neighbouring, similar question
        cases.append(Case(kind, target, data[other]["strong"][0], False, "offtopic"))
        cases += [Case(kind, target, prompts[lang], False, "copy") for lang in ("en", "zh")]
    return tuple(cases)


def _known_target(name: str, target: str) -> None:
    content = _content()
    known = (target.startswith("q:") and target[2:].split("/")[0] in content.questions
             or target.startswith("lab:") and target[4:] in content.labs and content.labs[target[4:]].model.diagnosis
             or target.startswith("i:") and interview_step(target) is not None)
    if not known:
        raise ValueError(f"{name}: {target} is not a question step, a lab with a diagnosis or a mock step")


@lru_cache(maxsize=1)
def blind_cases() -> tuple[Case, ...]:
    """The blind batches, every case in the `blind` part; a target or tier that does not exist is
    a one-line error naming the file."""
    from tutor.grading.dispatch import find_step

    content = _content()
    cases: list[Case] = []
    for name in BLIND_BATCHES:
        for target, tiers in yaml.safe_load((HERE / name).read_text(encoding="utf-8")).items():
            if target.startswith("q:") and target.count("/") == 1 and target[2:].split("/")[0] in content.questions:
                qid, step_id = target[2:].split("/")
                try:
                    kind = find_step(content.questions[qid].model, step_id).kind
                except Exception as error:  # find_step's own error for an unknown step
                    raise ValueError(f"{name}: {target}: no such step ({error})") from None
            elif target.startswith("lab:") and target[4:] in content.labs and content.labs[target[4:]].model.diagnosis:
                kind = "diagnosis"
            elif target.startswith("i:") and interview_step(target) is not None:
                kind = "mock"
            else:
                raise ValueError(f"{name}: {target} is not a question step or a lab with a diagnosis")
            for tier, texts in tiers.items():
                if tier not in BLIND_TIERS:
                    raise ValueError(f"{name}: {target}: unknown tier {tier!r} (one of {', '.join(BLIND_TIERS)})")
                cases += [Case(kind, target, text, tier == "strong", tier, batch=0, blind=True, source=name)
                          for text in texts]
    return tuple(cases)


def interview_step(target: str):
    """The (scenario, open step) an "i:<scenario>/<step>" target names, or None."""
    from tutor.interview.scenarios import Library

    qid, _, step_id = target[2:].partition("/")
    loaded = Library.installed().interview.scenarios.get(qid)
    if loaded is None:
        return None
    scenario = loaded.model
    step = next((step for step in scenario.steps if step.id == step_id and step.kind in ("open", "clarify")), None)
    return (scenario, step) if step is not None else None


def interview_verdict(target: str, answer: str, seed: int = 0):
    """An answer to an "i:<scenario>/<step>" target graded as the mock grades that stage (a scenario of
    one step is graded without a step id)."""
    from tutor.grading.dispatch import grade

    scenario, step = interview_step(target)
    return grade(scenario, answer, step.id if len(scenario.steps) > 1 else None, seed)


def _spellings(value: float, unit: str, tolerance: float) -> list[str]:
    """How candidates write a right value: rounded, with ≈, in Chinese, with a derivation."""
    def fmt(number: float) -> str:
        return f"{number:.3g}" if abs(number) < 1e5 else f"{number:.3e}".replace("e+", "e")
    shown = fmt(value)
    unit_text = {"x": "", "params": ""}.get(unit, " " + unit)
    near = value * 1.01 if tolerance >= 0.02 else value  # "≈" off by 1% only where 1% is inside the tolerance
    forms = [f"{shown}{unit_text}", f"≈ {fmt(near)}{unit_text}", f"约 {shown}{unit_text}"]
    if unit in ("GB", "MB", "TB"):
        forms.append(f"{fmt(value * 1000)} {'MB' if unit == 'GB' else 'KB' if unit == 'MB' else 'GB'}")
    if unit == "%":
        forms.append(f"{value / 100:.4g}")
    if unit == "days":
        forms.append(f"{value * 24:.4g} hours")
    return forms


@lru_cache(maxsize=1)
def closed_cases() -> tuple[Case, ...]:
    from tutor.grading.dispatch import expected_answer
    from tutor.grading.variant import draw
    from tutor.grading.mistakes import declared_value
    from tutor.grading.numeric import expected_value
    from tutor.grading import engine

    content = _content()
    cases: list[Case] = []
    for qid, loaded in content.questions.items():
        question = loaded.model
        for step in question.steps:
            target = f"q:{qid}/{step.id}"
            if step.kind == "numeric":
                for seed in (0, 1):
                    variant = draw(question, seed)
                    expected = expected_value(step, variant)
                    shown = expected.base / expected.factor if expected.dimension != "any" else expected.base
                    for text in _spellings(shown, expected.unit, expected.tolerance):
                        cases.append(Case("numeric", target, text, True, "strong", seed))
                    for mistake in step.mistakes:
                        try:
                            wrong = declared_value(step, mistake, expected.inputs)
                        except engine.EngineError:
                            continue
                        wrong_shown = wrong / expected.factor if expected.dimension != "any" else wrong
                        if abs(wrong - expected.base) > 1e-9 * abs(expected.base):
                            cases.append(Case("numeric", target, f"{wrong_shown:.3g} {expected.unit}".replace(" x", ""),
                                              False, f"mistake:{mistake.id}", seed))
                    for factor, tier in ((2.0, "factor-2"), (0.5, "factor-half"), (8.0, "factor-8")):
                        cases.append(Case("numeric", target, f"{shown * factor:.3g} {expected.unit}".replace(" x", ""),
                                          False, tier, seed))
            elif step.kind == "choice":
                right = sorted(option.id for option in step.options if option.correct)
                wrong = [option.id for option in step.options if not option.correct]
                forms = [" ".join(right), ", ".join(right).upper(), f"({right[0]})" if len(right) == 1 else "".join(right),
                         f"Answer: {' and '.join(right)}"]
                forms += [step.options[[o.id for o in step.options].index(right[0])].text.zh] if len(right) == 1 else []
                cases += [Case("choice", target, text, True, "strong") for text in forms]
                if wrong:
                    cases.append(Case("choice", target, wrong[0], False, "wrong-option"))
                    cases.append(Case("choice", target, " ".join(right + wrong[:1]), False, "superset"))
                if len(right) > 1:
                    cases.append(Case("choice", target, right[0], False, "subset"))
    cases += [Case("formula", target, text, right, "strong" if right else "near-miss")
              for target, answers in FORMULAS.items() for text, right in answers]
    for qid, step_id, seeds in CONFIG_TARGETS:
        question = content.questions[qid].model
        from tutor.grading.dispatch import find_step
        step = find_step(question, step_id)
        for seed in seeds:
            example = expected_answer(question, step, draw(question, seed))["example"]
            tp, pp, cp, dp = example["tp"], example["pp"], example["cp"], example["dp"]
            target = f"q:{qid}/{step_id}"
            ep = f" EP={example['ep']}" if example["ep"] > 1 else ""
            cases += [Case("config", target, f"TP={tp} PP={pp} CP={cp} DP={dp}{ep}", True, "strong", seed),
                      Case("config", target, f"tp{tp} pp{pp}" + (f" cp{cp}" if cp > 1 else "") + (f" ep{example['ep']}" if ep else ""), True, "strong", seed),
                      # TP 16: over one 8-GPU node whatever the example's TP (TP × 2 from TP 1 is a valid TP 2)
                      Case("config", target, f"TP=16 PP={pp} CP={cp} DP={max(dp * tp // 16, 1)}{ep}", False, "tp-over-node", seed),
                      Case("config", target, f"TP={tp} PP={pp} CP={cp} DP={dp * 2}{ep}", False, "product", seed),
                      Case("config", target, f"TP={tp} PP={pp} CP={cp * 16} DP={max(dp // 16, 1)}{ep}", False, "cp-not-needed", seed)]
    return tuple(cases)


CONFIG_TARGETS = [("config-small-model", "main", (0, 1)), ("config-moe", "main", (0, 1)),
                  ("config-long-context", "main", (0, 1)), ("config-dense-cluster", "main", (0, 1)),
                  ("trillion-parameter-design", "layout", (0, 1))]

# Formula answers as people type them (right) and the near misses an interviewer would reject.
FORMULAS = {
    "q:distopt-formula/main": [("6Ψ + 12Ψ/N", True), ("6*Psi + 12*Psi/N", True), ("Ψ(6 + 12/N)", True),
                               ("6P + 12P/N", True), ("6 params + 12 params / N", True), ("psi*(6+12/n)", True),
                               ("16Ψ", False), ("6Ψ + 12Ψ", False), ("2Ψ + 14Ψ/N", False), ("6Ψ/N + 12Ψ", False)],
    "q:zero2-formula/main": [("2Ψ + 14Ψ/N", True), ("2*psi + 14*psi/N", True), ("2P + 14P/N", True),
                             ("Ψ(2 + 14/N)", True), ("6Ψ + 12Ψ/N", False), ("16Ψ/N", False), ("4Ψ + 12Ψ/N", False)],
    "q:young-formula/main": [("sqrt(2δM)", True), ("√(2·δ·M)", True), ("(2δM)^(1/2)", True), ("sqrt(2*d*M)", True),
                             ("(2*delta*MTBF)**0.5", True), ("sqrt(δM)", False), ("2 sqrt(δM)", False),
                             ("2δM", False), ("sqrt(2δ/M)", False)],
    "q:bubble-formula/main": [("(PP-1)/(m*v)", True), ("(p-1)/(v m)", True), ("(PP - 1)/(v·m)", True),
                              ("(PP/v - 1/v)/m", True), ("(PP-1)/m", False), ("(PP-1)/(v*m+PP-1)", False),
                              ("PP/(m v)", False)],
    "q:activation-selective-formula/main": [("34sbh/TP", True), ("34*s*b*h/TP", True), ("34 s b h / t", True),
                                            ("s*b*h*34/TP", True), ("34sbh", False), ("(34sbh + 5as²b)/TP", False),
                                            ("10sbh + 24sbh/TP", False)],
    "q:distopt-per-gpu-formula/main": [("(6 + 12/(DP·CP)) × Ψ/(TP·PP)", True), ("Psi*(6+12/(DP*CP))/(TP*PP)", True),
                                       ("(6Ψ + 12Ψ/(DP CP))/(TP PP)", True), ("16Ψ/(TP·PP)", False),
                                       ("(6 + 12/DP) × Ψ/(TP·PP)", False), ("(6 + 12/(DP·CP)) × Ψ", False)],
}


def all_cases() -> tuple[Case, ...]:
    return free_text_cases() + closed_cases()


def evidence(lab: str) -> dict | None:
    """The recorded evidence of the lab's default run (a real `tutor lab run`), for hang labs.

    Kept as recorded, not refreshed when a lab's train.py moves: the labelled answers were
    written by reading these runs (blind_2's uneven-batches answers cite train.py:50 and :52,
    where a run of today's train.py stops at :52 and :54), and a learner is graded against the
    run they studied, never against the current source.
    """
    import json

    path = HERE / "evidence" / f"{lab}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
