"""What a run's evidence says about its hang, and the diagnosis graded against that run.

A lab's lab.yaml rubric is written for its default run (4 ranks, the shipped arguments). A run
at another world size, or a mystery scenario with its own N, puts the failure elsewhere; so
the "which ranks, which call" item is built from the run's own evidence: the ranks that are
not where the others are (or the rank that failed first), the collective each group waits in,
and the program's functions on their stacks. The other items (which line, why) come from the
lab's rubric, which does not depend on the run.

A rank and the call it waits in must be said together: the answer is cut into clauses (at
sentence and clause punctuation and a few conjunctions), a clause that names no rank takes
the rank of the clause before it, and a point "rank 0 waits in all_gather" counts only when
one such clause names both. So "rank 0 waits in all_reduce, ranks 1-3 in all_gather" does not
pass for the opposite. Every phrase is matched by the grading package (`rubric.covers`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tutor.content.models import DiagnosisItem, KeyPoint
from tutor.grading.normalize import LONG_LIMIT, clean
from tutor.grading.rubric import covers
from tutor.labs.diagnose import PASS_SCORE, grade
from tutor.labs.hangview import ranks_text, stacks

OP_PHRASES = {
    "all_reduce": (["all reduce", "allreduce", "gradient all reduce", "gradient sync"], ["all reduce", "allreduce", "梯度同步"]),
    "all_gather": (["all gather", "allgather"], ["all gather", "allgather"]),
    "broadcast": (["broadcast"], ["broadcast", "广播"]),
    "reduce": (["reduce"], ["reduce"]),
    "gather": (["gather"], ["gather"]),
    "barrier": (["barrier"], ["barrier", "屏障"]),
    "monitored_barrier": (["monitored barrier", "barrier"], ["monitored barrier", "barrier"]),
    "recv": (["recv", "receive", "receiving"], ["recv", "接收", "收"]),
    "send": (["send", "sending"], ["send", "发送"]),
}
FAILURE_PHRASES = (["failed", "fails", "crashed", "crash", "died", "dies", "oom", "out of memory", "exception", "error",
                    "outofmemoryerror", "raised"],
                   ["挂", "崩", "失败", "OOM", "爆显存", "显存不够", "报错", "异常", "死了"])
OTHERS = (["the others", "other ranks", "the rest", "remaining ranks", "all other ranks", "everyone else"],
          ["其他", "其余", "别的 rank", "剩下"])
BOTH = (["both", "each other", "all ranks", "every rank"], ["都", "互相", "两个", "所有 rank"])
CLAUSE = re.compile(r"[.;,:!?\n。；，：！？、]+|\s(?:while|whereas|but|and then)\s|而|但是|但|"
                    r"\sand\s(?=(?:the\s)?(?:ranks?\b|r\d|others?\b|rest\b))")
FRAMEWORK_FUNCS = {"main", "<module>", "forward", "backward", "train_step", "step", "finish"}
# Frames of the shared training loop (tutor.labs.rank.training) on a stack, and the words that
# name where that rank is: "in backward" for the gradient all-reduce, "in finish" at the end.
HELPER_FRAMES = {"Trainer.backward": "backward", "Trainer.finish": "finish", "check_run": "end of training"}


@dataclass
class Group:
    ranks: list[int]
    op: str | None
    """The collective they wait in (None: failed, or outside any collective)."""
    site: str | None
    funcs: list[str]
    """The program's functions on their stacks (another way to name where they are)."""


@dataclass
class Facts:
    outcome: str
    groups: list[Group]
    odd: list[Group]
    """The groups a diagnosis must name: not where the most ranks are (or the failed rank)."""
    failed: int | None
    world_size: int


def facts(evidence: dict) -> Facts | None:
    """The run's hang or crash in groups of ranks; None for a run that neither hung nor crashed."""
    if evidence.get("outcome") not in ("hang", "crash"):
        return None
    failed = (evidence.get("summary") or {}).get("first_failure") if evidence["outcome"] == "crash" else None
    by_place: dict[tuple, Group] = {}
    raw = {rank["rank"]: rank.get("stack") for rank in evidence.get("ranks") or []}
    for stack in stacks(evidence):
        if stack.rank == failed:
            continue
        op = (stack.waiting_in or {}).get("op")
        site = (stack.waiting_in or {}).get("site")
        funcs = [frame.func for frame in stack.frames if frame.func not in FRAMEWORK_FUNCS]
        funcs += [words for marker, words in HELPER_FRAMES.items() if marker in (raw.get(stack.rank) or "")]
        group = by_place.setdefault((op, site), Group([], op, site, []))
        group.ranks.append(stack.rank)
        group.funcs = sorted(set(group.funcs) | set(funcs))
    groups = sorted(by_place.values(), key=lambda group: group.ranks)
    if failed is not None:
        odd = [Group([failed], None, None, [])]
    elif len(groups) == 1:
        odd = groups  # every rank in the same call (two pipeline stages receiving from each other)
    else:
        largest = max(len(group.ranks) for group in groups)
        ties = [group for group in groups if len(group.ranks) == largest]
        odd = [group for group in groups if len(group.ranks) < largest] + (ties if len(ties) > 1 else [])
    return Facts(evidence["outcome"], groups, odd, failed, evidence.get("world_size") or len(groups))


def majority_groups(found: Facts) -> list[Group]:
    return [group for group in found.groups if group not in found.odd]


# ---------------------------------------------------------------- the run's rubric item


def rank_phrases(ranks: list[int]) -> tuple[list[str], list[str]]:
    """Ways to name one rank: rank 0, r0, rank0, gpu 0, 0号, 0 号卡 ..."""
    (rank,) = ranks
    return ([f"rank {rank}", f"r{rank}", f"rank{rank}", f"gpu {rank}", f"worker {rank}", f"process {rank}"],
            [f"{rank}号", f"{rank} 号", f"rank {rank}", f"rank{rank}", f"第{rank}个"])


def _names_ranks(ranks: list[int], text: str, world_size: int, majority: bool) -> bool:
    """Whether `text` names exactly this group: each rank, a range of them, or (the majority) the others."""
    if majority and _covers(OTHERS, text):
        return True
    if len(ranks) > 1 and len(ranks) == world_size and _covers(BOTH, text):
        return True
    if len(ranks) > 2 and ranks == list(range(ranks[0], ranks[-1] + 1)):
        span = f"{ranks[0]} {ranks[-1]}"
        if _covers(([f"ranks {span}", f"ranks {ranks[0]} to {ranks[-1]}", f"rank {span}", f"r{ranks[0]} r{ranks[-1]}"],
                    [f"{ranks[0]} {ranks[-1]}号", f"{span} 号", f"rank {span}"]), text):
            return True
    return all(_covers(rank_phrases([rank]), text) or re.search(rf"(?<![\w.]){rank}(?![\w.])", text) and
               _covers((["ranks", "rank"], ["rank", "号"]), text) for rank in ranks)


def _covers(phrases: tuple[list[str], list[str]], text: str) -> bool:
    point = KeyPoint.model_validate({"id": "p", "text": {"en": "p", "zh": "p"},
                                     "phrases": {"en": phrases[0], "zh": phrases[1]}})
    return covers(point, text)


def _place_phrases(group: Group) -> tuple[list[str], list[str]]:
    en, zh = OP_PHRASES.get(group.op or "", ([], []))
    names = [name.replace("_", " ") for name in group.funcs]
    return list(en) + names, list(zh) + names


def clauses(answer: str) -> list[str]:
    """The answer in clauses; a clause without a rank joins the one before it (it goes on about it),
    and so does one after a bare subject ("rank 0 and rank 1 both wait in recv")."""
    units: list[str] = []
    for part in (p.strip() for p in CLAUSE.split(answer)):
        if not part:
            continue
        names_rank = bool(re.search(r"\d|号|others?|rest|both|其他|其余|都", part, re.I))
        bare_subject = units and len(units[-1].split()) <= 3 and not _has_place(units[-1])  # "rank 0" and ...
        if units and (not names_rank or bare_subject):
            units[-1] += " " + part
        else:
            units.append(part)
    return units


def _has_place(text: str) -> bool:
    return any(_covers(phrases, text) for phrases in OP_PHRASES.values()) or _covers(FAILURE_PHRASES, text)


def _place(group: Group) -> tuple[list[str], list[str]]:
    return FAILURE_PHRASES if group.op is None and group.site is None and not group.funcs else _place_phrases(group)


def _said_together(group: Group, units: list[str], world_size: int, majority: bool, others: list[Group]) -> bool:
    """Some clause puts these ranks in their place, and none puts them only in another group's."""
    own = _place(group)
    said = wrong = False
    for unit in units:
        if not _names_ranks(group.ranks, unit, world_size, majority):
            continue
        if _covers(own, unit):
            said = True
        elif any(other.op and _covers(OP_PHRASES.get(other.op, ([], [])), unit) for other in others):
            wrong = True
    return said and not wrong


def _group_text(group: Group, failed: bool) -> dict[str, str]:
    who = ranks_text(group.ranks)
    if failed:
        return {"en": f"{who} failed first", "zh": f"{who} 最先失败"}
    if group.op is None:
        return {"en": f"{who} is outside any collective", "zh": f"{who} 不在任何 collective 里"}
    # the site in backticks: shown as Markdown, `<module>` would read as a tag
    return {"en": f"{who} wait{'s' if len(group.ranks) == 1 else ''} in {group.op} (`{group.site}`)",
            "zh": f"{who} 停在 {group.op}(`{group.site}`)"}


def grade_run(items: list[DiagnosisItem], answer: str, evidence: dict, lang: str = "en") -> dict:
    """The diagnosis of this run: the "ranks" item from its evidence, the others from the rubric.

    Same shape as `diagnose.grade`: {correct, score, feedback: [{item, prompt, covered, missing,
    model_answer}]}; falls back to `grade` when the run neither hung nor crashed.
    """
    found = facts(evidence)
    if found is None:
        return grade(items, answer, lang)
    text = clean(answer[:LONG_LIMIT], LONG_LIMIT)
    units = clauses(text)
    majority = majority_groups(found)
    covered, missing, gained, total, required_missing = [], [], 0.0, 0.0, False
    for index, group in enumerate(found.odd):
        others = [other for other in found.groups if other is not group and other.op != group.op]
        # Groups of equal size (2 ranks: rank 0 here, rank 1 there): after the first is named,
        # "the others" names the rest.
        ok = _said_together(group, units, found.world_size, majority=index > 0 and not majority_groups(found),
                            others=others)
        label = _group_text(group, failed=found.failed is not None)[lang]
        total += 2.0
        gained += 2.0 if ok else 0.0
        (covered if ok else missing).append(label)
        required_missing |= not ok
    for group in majority:
        others = [other for other in found.groups if other is not group and other.op != group.op]
        ok = _said_together(group, units, found.world_size, majority=True, others=others)
        total += 1.0
        gained += 1.0 if ok else 0.0
        (covered if ok else missing).append(_group_text(group, failed=False)[lang])
    model = "; ".join(_group_text(group, found.failed is not None and group in found.odd)[lang]
                      for group in found.odd + majority)
    prompt = {"en": "Which ranks are not where the others are, and which call is each one in?",
              "zh": "哪些 rank 和其他 rank 不在同一处?各自停在哪个调用里?"}[lang]
    rest = grade([item for item in items if item.id != "ranks"], answer, lang) if items else None
    feedback = [{"item": "ranks", "prompt": prompt, "covered": covered, "missing": missing,
                 "model_answer": model + "."}]
    if rest is not None and rest["feedback"]:
        rest_total = sum(point.weight for item in items if item.id != "ranks" for point in item.points)
        gained += rest["score"] * rest_total
        total += rest_total
        required_missing |= any(point.required and point.text.get(lang) in entry["missing"]
                                for item, entry in zip([i for i in items if i.id != "ranks"], rest["feedback"])
                                for point in item.points)
        feedback += rest["feedback"]
    score = gained / total if total else 0.0
    return {"correct": score >= PASS_SCORE and not required_missing, "score": round(score, 3), "feedback": feedback}
