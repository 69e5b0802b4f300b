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

from tutor.content.models import DiagnosisItem
from tutor.grading.normalize import LONG_LIMIT, clean
from tutor.labs.hangview import main_thread
from tutor.labs.hangview import own_process as hangview_own
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
                    "outofmemoryerror", "raised", "aborted", "aborts", "abort", "sigabrt", "killed by a signal"],
                   ["挂", "崩", "失败", "OOM", "爆显存", "显存不够", "报错", "异常", "死了", "abort", "中止"])
OTHERS = (["the others", "other ranks", "the rest", "remaining ranks", "all other ranks", "everyone else"],
          ["其他", "其余", "别的 rank", "剩下"])
BOTH = (["both", "each other", "all ranks", "every rank"], ["都", "互相", "两个", "所有 rank"])
CLAUSE = re.compile(r"\.+(?=\s|$)|[;:!?\n。；：！？]+|,(?!\s*\d)|(?<!\d)\s*,|[，、](?!\s*\d)|(?<!\d)[，、]|\s(?:while|whereas|but|and then)\s|而|但是|但|"
                    r"\sand\s(?=(?:the\s)?(?:ranks?\b|r\d|others?\b|rest\b))")
FRAMEWORK_FUNCS = {"main", "<module>", "forward", "backward", "train_step", "step", "finish"}
# Functions of the shared training loop (tutor.labs.rank.training) a rank is in, and the words that
# name where that rank is: "in backward" for the gradient all-reduce, "in finish" at the end. The
# stacks kept for a run no longer hold the tutor's frames (hangview.learner_stack); the recorder
# notes the tutor's functions a collective was made in (its `via`), and runs kept from before
# still have them on their stacks.
HELPER_FRAMES = {"Trainer.backward": "backward", "Trainer.finish": "finish", "check_run": "end of training",
                 "_wait_for_threads": "waits for a thread at exit"}
# A main thread joining a thread with none of the program's frames under it: the program has
# returned and its rank waits for a non-daemon thread at exit (the rank runner's, as the interpreter's).
AT_EXIT_JOIN = re.compile(r"\bjoin\b[^\n]*threading\.py|threading\.py[^\n]*\bin join\b")
# A rank whose program returned but whose process waits for a non-daemon thread (the rank runner's
# exit joins them, as the interpreter does), and a rank that exited cleanly: the words for each.
AT_EXIT = (["thread", "threads", "join", "at exit", "still alive", "still running", "never exits", "did not exit",
            "has not exited", "not exited"], ["线程", "join", "退出时", "还活着", "还在", "没退出", "没有退出"])
EXITED = (["exited", "has exited", "is gone", "exit code 0", "process ended"], ["已经退出", "退出了", "正常退出", "进程结束"])
# Library frames that name a place the program's own frames do not: a main thread waiting for its
# DataLoader's next batch is in torch's dataloader.py, under the program's `next(...)` line.
# A rank in torch's autograd is in `loss.backward()` (DDP waits there for its gradient all-reduce).
LIBRARY_PLACES = {"torch/utils/data/dataloader.py": ("dataloader", "data loader", "loader"),
                  "torch/autograd/": ("backward",)}


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


_FACTS: dict[int, tuple[dict, Facts | None]] = {}


def facts(evidence: dict) -> Facts | None:
    """The run's hang or crash in groups of ranks; None for a run that neither hung nor crashed.
    Kept for the last few evidence objects (the learner's attempts at one run share it; evidence
    is read from the store and never changed in place)."""
    cached = _FACTS.get(id(evidence))
    if cached is not None and cached[0] is evidence:
        return cached[1]
    found = _facts(evidence)
    if len(_FACTS) >= 8:
        _FACTS.pop(next(iter(_FACTS)))
    _FACTS[id(evidence)] = (evidence, found)
    return found


def _facts(evidence: dict) -> Facts | None:
    if evidence.get("outcome") not in ("hang", "crash"):
        return None
    failed = (evidence.get("summary") or {}).get("first_failure") if evidence["outcome"] == "crash" else None
    by_place: dict[tuple, Group] = {}
    raw = {rank["rank"]: rank.get("stack") for rank in evidence.get("ranks") or []}
    for stack in stacks(evidence):
        if stack.rank == failed:
            continue
        place = stack.waiting_in or _failed_in(evidence, stack.rank) or _exited(evidence, stack.rank)
        op, site = (place or {}).get("op"), (place or {}).get("site")
        funcs = [frame.func for frame in stack.frames if frame.func not in FRAMEWORK_FUNCS]
        own = hangview_own(raw.get(stack.rank) or "")
        via = " ".join((place or {}).get("via") or ())
        funcs += [words for marker, words in HELPER_FRAMES.items() if marker in own or marker in via]
        if own and not stack.frames and AT_EXIT_JOIN.search(main_thread(own)):
            funcs.append(HELPER_FRAMES["_wait_for_threads"])
        funcs += [word for marker, words in LIBRARY_PLACES.items() if marker in own for word in words]
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


def _failed_in(evidence: dict, rank: int) -> dict | None:
    """The collective a rank raised in (its last one, failed): where it was when its peer died
    ("Connection reset by peer" in the all_gather), so it is placed there, not outside any."""
    for entry in evidence.get("ranks") or []:
        if entry.get("rank") == rank and entry.get("collectives"):
            last = entry["collectives"][-1]
            return last if last.get("state") == "failed" else None
    return None


def _exited(evidence: dict, rank: int) -> dict | None:
    """A rank whose process ended with code 0 (a hang at exit leaves the others waiting for one
    that did not): placed at "exited", not with the ranks outside any collective."""
    for entry in evidence.get("ranks") or []:
        if entry.get("rank") == rank and entry.get("exit_code") == 0:
            return {"op": None, "site": "exited"}
    return None


def majority_groups(found: Facts) -> list[Group]:
    return [group for group in found.groups if group not in found.odd]


# ---------------------------------------------------------------- the run's rubric item


def rank_phrases(ranks: list[int]) -> tuple[list[str], list[str]]:
    """Ways to name one rank: rank 0, r0, rank0, gpu 0, 0号, 0 号卡 ..."""
    (rank,) = ranks
    return ([f"rank {rank}", f"r{rank}", f"rank{rank}", f"gpu {rank}", f"worker {rank}", f"process {rank}"],
            [f"{rank}号", f"{rank} 号", f"rank {rank}", f"rank{rank}", f"第{rank}个"])


# Ranks as people name them: "rank 0", "r0", "0号", "ranks 1-3", "r1–r3", "1到3号", "ranks 0, 2 and 3".
# Word edges by ASCII, not \b: in "rank0卡住" or "其余rank1" a CJK character is a word character too.
_RANGE = re.compile(r"(?:(?<![A-Za-z0-9_])(?:ranks?|r|gpus?)\s?)(\d+)\s?(?:-|–|~|\.\.\.?|…|to|through|至|到)\s?(?:r|rank)?\s?(\d+)(?![A-Za-z0-9_])|"
                    r"(?<![A-Za-z0-9_.])(\d+)\s?(?:-|–|~|到|至)\s?(\d+)\s?号", re.IGNORECASE)
# "rank0/2/3", "r0/r2/r3": a slash list, as people type it
_LIST = re.compile(r"(?<![A-Za-z0-9_])ranks\s+(\d+(?:\s*(?:,|and|&|、|和)\s*(?:rank\s*)?\d+)+)|"
                   r"(?<![A-Za-z0-9_])(?:ranks?|r)\s?(\d+(?:\s?/\s?(?:ranks?|r)?\s?\d+)+)(?![A-Za-z0-9_])|"
                   r"(?<![A-Za-z0-9_.])(\d+(?:\s*[、,，和与及/]\s*\d+)+)\s?号", re.IGNORECASE)
# "第4步" is a step, "第0个 rank" a rank.
_SINGLE = re.compile(r"(?:(?<![A-Za-z0-9_])(?:ranks?|r|gpu|worker|process|卡)\s?(\d+)(?![A-Za-z0-9_.])|(?<![A-Za-z0-9_.])(\d+)\s?号|"
                     r"第\s?(\d+)\s?个)", re.IGNORECASE)
# "All ranks except rank 0", "everyone but r0", "除了0号以外的rank": the complement of the ranks after it.
_EXCEPT = re.compile(r"\b(?:(?:all|every|each)\s+(?:(?:other|the)\s+)?(?:ranks?|gpus?|workers?)|everyone|everybody|all)\s+"
                     r"(?:except(?:\s+for)?|but|other than|apart from|besides|save)\s|除了", re.IGNORECASE)
# "rank zero", "rank one": the number written as a word
_WORD_NUMBERS = {"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7"}
_RANK_WORD = re.compile(r"\b(ranks?|gpu|worker|process)\s+(zero|one|two|three|four|five|six|seven)\b", re.IGNORECASE)


_FIX_LABEL = re.compile(r"(?:^|(?<=[\s.;,。；，]))(?:the\s+)?(?:fix|solution|修法|修复|解决办法|解决方法)\s*[:：]", re.IGNORECASE)


def numbers_as_digits(text: str) -> str:
    """ "rank zero" as "rank 0" (a rank is named by number)."""
    return _RANK_WORD.sub(lambda match: f"{match.group(1)} {_WORD_NUMBERS[match.group(2).casefold()]}", text)
_ALL = re.compile(r"\b(?:every|each|all)\s+(?:other\s+)?ranks?\b|\ball\s+(?:the\s+)?ranks\b|所有\s?rank|每个\s?rank|全部",
                  re.IGNORECASE)
_OTHERS = re.compile(r"\b(?:the\s+)?(?:others?|other ranks|the rest|remaining ranks|everyone else)\b|其他|其余|别的|剩下",
                     re.IGNORECASE)
_BOTH = re.compile(r"\bboth\b|\beach other\b|\b(?:the\s)?two\s(?:ranks|stages|processes|workers|gpus)\b|互相|两个|两边|都",
                   re.IGNORECASE)


def named_ranks(text: str, world_size: int) -> set[int] | None:
    """The ranks a clause names, as a set; None when it names none by number."""
    excepted = _EXCEPT.search(text)
    if excepted:
        left_out = named_ranks(text[excepted.end():], world_size)
        if left_out:
            return set(range(world_size)) - left_out or None
    found: set[int] = set()
    rest = text
    for match in _RANGE.finditer(text):
        low, high = (int(g) for g in (match.group(1) or match.group(3), match.group(2) or match.group(4)))
        if low <= high < 4096:
            found |= set(range(low, high + 1))
    rest = _RANGE.sub(" ", rest)
    for match in _LIST.finditer(rest):
        found |= {int(number) for number in re.findall(r"\d+", match.group(1) or match.group(2) or match.group(3))}
    rest = _LIST.sub(" ", rest)
    for match in _SINGLE.finditer(rest):
        found.add(int(match.group(1) or match.group(2) or match.group(3)))
    if not found and _ALL.search(text) and not _OTHERS.search(text):
        # "every rank" beside named ranks is about the rule or the fix ("r1-3 in all_gather. Make
        # every rank gather first"), not a rank set
        found |= set(range(world_size))
    return found or None


# Where a clause turns from its subject to another rank: "ranks 1-3 wait in all_reduce because
# rank 0 is gone", "1-3号在等0号".
_TURN = re.compile(r"\b(?:because|after|since|until|till|for|than|from|on|as|when|once)\b|因为|直到|等待?|由于", re.IGNORECASE)


def subject_ranks(text: str, world_size: int) -> set[int] | None:
    """The ranks a clause is about: None when it starts from "the others" ("the others wait in the
    all-reduce and die only after rank 0 did" is about the others, not rank 0) or names none; the
    ranks named before it turns to another rank ("ranks 1-3 ... only failed because rank 0 was
    gone" is about ranks 1-3)."""
    others = _OTHERS.search(text)
    number = _SINGLE.search(text) or _RANGE.search(text) or _LIST.search(text)
    if others and (number is None or others.start() < number.start()):
        return None
    if number is not None:
        turn = _TURN.search(text, number.end())
        if turn is not None:
            head = named_ranks(text[:turn.start()], world_size)
            if head:
                return head
    return named_ranks(text, world_size)


# A rank named only to be cleared ("Rank 0 is not the problem", "0号没问题"): the clause names no
# culprit, and clearing the culprit is the diagnosis said the other way round. Only a dismissal right
# after the rank: "rank 0 is not in the all-reduce" places it, "rank 1 never arrives" accuses it.
_CLEARED = re.compile(r"^\s*(?:(?:is|are|was|were|seems?|looks?)\s?(?:not|n['’]t)|(?:is|are|was|were)\s+never)\s+"
                      r"(?:really\s+|actually\s+)?(?:the\s+|a\s+|an\s+|at\s+)?(?:problem|culprit|cause|issue|reason|"
                      r"fault|to blame|involved|responsible|one)\b|"
                      r"^\s*(?:is|are|was|were|seems?|looks?)\s+(?:fine|ok|okay|healthy|innocent|normal|not the problem)\b|"
                      r"^\s*(?:是|也)?\s?(?:没问题|没有问题|没事|不是问题|不是原因|不是罪魁|不是元凶|无关|没关系|是正常的|正常)",
                      re.IGNORECASE)


def cleared_ranks(text: str) -> set[int]:
    """The ranks a clause names only to clear them."""
    cleared: set[int] = set()
    for pattern in (_RANGE, _LIST, _SINGLE):
        for match in pattern.finditer(text):
            if _CLEARED.match(text[match.end():]):
                cleared |= named_ranks(match.group(), 1 << 12) or set()
    return cleared


def _names_ranks(ranks: list[int], text: str, world_size: int, majority: bool) -> bool:
    """Whether `text` names exactly this group: its ranks as a set (naming more is not naming
    them), or, for the majority, "the others"."""
    named = subject_ranks(text, world_size)
    if named is not None:
        return named == set(ranks)
    if majority and _OTHERS.search(text):
        return True
    return len(ranks) > 1 and len(ranks) == world_size and bool(_BOTH.search(text))


def _covers(phrases: tuple[list[str], list[str]], text: str) -> bool:
    """Whether the clause says one of the phrases, not negated (`tutor.grading.claims`)."""
    from tutor.grading.claims import polarity, read

    return polarity([[*phrases[0], *phrases[1]]], read(text, (), False)) is True


# A rank waiting at the end of training has left the loop: the words people use for that place.
LEFT_LOOP = (["left the loop", "leaves the loop", "left the training loop", "broke out", "breaks out", "exited the loop",
              "stopped training", "finished", "end of training"],
             ["退出了循环", "退出循环", "跳出循环", "退出了训练循环", "停止训练", "结束训练", "训练结束", "先退出"])


def _place_phrases(group: Group) -> tuple[list[str], list[str]]:
    en, zh = OP_PHRASES.get(group.op or "", ([], []))
    names = [name.replace("_", " ") for name in group.funcs]
    if "finish" in group.funcs or "end of training" in group.funcs:
        en, zh = [*en, *LEFT_LOOP[0]], [*zh, *LEFT_LOOP[1]]
    if "waits for a thread at exit" in group.funcs:
        en, zh = [*en, *AT_EXIT[0]], [*zh, *AT_EXIT[1]]
    return list(en) + names, list(zh) + names


def clauses(answer: str, joiner: str = " ") -> list[str]:
    """The answer in clauses; a clause without a rank joins the one before it (it goes on about it),
    and so does one after a bare subject ("rank 0 and rank 1 both wait in recv")."""
    units: list[str] = []
    for part in (p.strip() for p in CLAUSE.split(answer)):
        if not part:
            continue
        names_rank = bool(_SINGLE.search(part) or _RANGE.search(part) or _OTHERS.search(part) or _BOTH.search(part))
        # "rank 0" and ..., "both stages (rank 0" and rank 1) are waiting ...: a subject with no verb of its own
        bare_subject = (units and len(units[-1].split()) <= 5 and not _WAIT_VERB.search(units[-1])
                        and not _has_place(units[-1]) and not cleared_ranks(units[-1]))
        if units and (not names_rank or bare_subject):
            units[-1] += joiner + part
        else:
            units.append(part)
    return units


_WAIT_VERB = re.compile(r"\b(?:is|are|was|were|waits?|waiting|stuck|hangs?|hung|blocked|sits?|failed|fails|died|crashed|"
                        r"calls?|runs?|left|exited|enters?|does)\b|停|卡|等|挂|崩|在|调用|进|退出|跑", re.IGNORECASE)


def _has_place(text: str) -> bool:
    return any(_covers(phrases, text) for phrases in OP_PHRASES.values()) or _covers(FAILURE_PHRASES, text)


def _place(group: Group) -> tuple[list[str], list[str]]:
    if group.op is None and group.site == "exited":
        return EXITED
    return FAILURE_PHRASES if group.op is None and group.site is None and not group.funcs else _place_phrases(group)


def _said_together(group: Group, units: list[str], world_size: int, majority: bool,
                   others: list[Group], culprit: bool = False, twins: list[Group] = ()) -> tuple[bool, bool, bool]:
    """(named, placed, misplaced): some clause names exactly these ranks; one such clause puts them in their
    place and no other group's, and none puts them only in another group's place.

    `twins`: the other groups waiting in the same collective at another site (rank 0 in the
    all-reduce inside `evaluate`, the others in the gradient all-reduce in `backward`); the op
    names neither, so between twins only the functions on their stacks tell the places apart."""
    own = _place(group)
    named = placed = wrong = decided = False
    for unit in units:
        if not _names_ranks(group.ranks, unit, world_size, majority):
            # between twins: this group's function named, and not the twin's own place as well
            in_own = (_place_specific(group, unit) and not any(_place_specific(twin, unit) for twin in twins)
                      if twins else _covers(own, unit))
            if culprit and _numbered(unit) and subject_ranks(unit, world_size) and in_own and not any(
                    other.op and _covers(OP_PHRASES.get(other.op, ([], [])), unit) for other in others):
                wrong = True  # another set of ranks put in the culprit's place ("rank 3 failed first")
            continue
        named = True
        if decided:
            continue  # the first clause that places them decides; later ones explain ("rank 0 broadcasts first")
        elsewhere = any(other.op and _covers(OP_PHRASES.get(other.op, ([], [])), unit) for other in others)
        elsewhere |= any(_place_specific(twin, unit) for twin in twins) and not _place_specific(group, unit)
        if _covers(own, unit) and not (elsewhere and not _place_specific(group, unit)):
            placed = decided = True
        elif elsewhere:
            wrong = decided = True
    return named, placed and not wrong, wrong


def _twins(group: Group, found: Facts) -> list[Group]:
    return [other for other in found.groups if other is not group and group.op and other.op == group.op
            and other.site != group.site]


def _numbered(unit: str) -> bool:
    """Names ranks by number ("rank 3"), not "every rank" (a fix: "所有rank先gather再broadcast")."""
    return bool(_SINGLE.search(unit) or _RANGE.search(unit) or _LIST.search(unit))


def _place_specific(group: Group, unit: str) -> bool:
    """The clause names this group's own function (save_checkpoint), not only an op name."""
    names = [name.replace("_", " ") for name in group.funcs]
    return bool(names) and _covers((names, names), unit)


def _group_text(group: Group, failed: bool) -> dict[str, str]:
    who = ranks_text(group.ranks)
    if failed:
        return {"en": f"{who} failed first", "zh": f"{who} 最先失败"}
    if group.op is None and group.site == "exited":
        return {"en": f"{who} exited", "zh": f"{who} 已经退出"}
    if group.op is None:
        return {"en": f"{who} is outside any collective", "zh": f"{who} 不在任何 collective 里"}
    # the site in backticks: shown as Markdown, `<module>` would read as a tag
    return {"en": f"{who} wait{'s' if len(group.ranks) == 1 else ''} in {group.op} (`{group.site}`)",
            "zh": f"{who} 停在 {group.op}(`{group.site}`)"}


def grade_run(items: list[DiagnosisItem], answer: str, evidence: dict, lang: str = "en") -> dict:
    """The diagnosis of this run: the "ranks" item from its evidence, the others from the rubric.

    Same shape as `diagnose.grade`: {correct, score, feedback: [{item, prompt, ok, covered, missing,
    model_answer}]}. The culprit ranks are graded as a set (naming every rank is not naming the
    culprit), then where each group waits; `missing` says which part is wrong, never the answer;
    `model_answer` is None until the diagnosis passes. Falls back to `grade` when the run
    neither hung nor crashed.
    """
    from tutor.labs.diagnose import PASS_SCORE, grade, part_wrong

    found = facts(evidence)
    if found is None:
        return grade(items, answer, lang)
    from tutor.grading.claims import read

    from tutor.grading.claims import expand_shorthand

    text = numbers_as_digits(expand_shorthand(clean(answer[:LONG_LIMIT], LONG_LIMIT)))
    whole = read(text, tuple(item.prompt.get(code) for item in items for code in ("en", "zh")))
    # A run of terms or the prompts pasted back place no rank; the whole answer decides, since a
    # clause of it ("ranks 1-3 sit in all_reduce") is read without the list rule.
    # Parts joined by a comma, so a negation in one ("1-3号没有batch了") does not reach the next ("退出循环").
    # The ranks are placed before the fix: "Fix: rank 0 sends first, rank 1 receives first" prescribes,
    # it does not put rank 1 in the culprit's place.
    fix = _FIX_LABEL.search(text)
    units = [] if whole.bare or whole.copied else clauses(text[:fix.start()] if fix else text, ", ")
    cleared = set().union(*(cleared_ranks(unit) for unit in units)) if units else set()
    units = [unit for unit in units if not cleared_ranks(unit)]
    majority = majority_groups(found)
    covered, missing, gained, total, required_missing = [], [], 0.0, 0.0, False
    culprit_placed = False
    wrong_culprit = False  # another rank put in the culprit's place, or the culprit put elsewhere
    for index, group in enumerate(found.odd):
        others = [other for other in found.groups if other is not group and other.op != group.op]
        # Groups of equal size (2 ranks: rank 0 here, rank 1 there): after the first is named,
        # "the others" names the rest.
        named, placed, misplaced = _said_together(group, units, found.world_size,
                                                  majority=index > 0 and not majority_groups(found), others=others,
                                                  culprit=not (index > 0 and not majority_groups(found)),
                                                  twins=_twins(group, found))
        wrong_culprit |= misplaced and not placed
        denied = bool(cleared & set(group.ranks))  # "Rank 0 is not the problem": the culprit cleared
        wrong_culprit |= denied
        total += 2.0
        gained += 2.0 if placed else 0.0
        if placed:
            culprit_placed = True
            covered.append(_group_text(group, failed=found.failed is not None)[lang])
        else:
            missing.append(part_wrong("denied" if denied else "culprit-place" if named else "culprit", lang))
        required_missing |= not placed
    for group in majority:
        if found.failed is not None and group.op is None and group.site is None and not group.funcs:
            continue  # after a crash, ranks killed with no stack and no pending collective: nowhere to name
        others = [other for other in found.groups if other is not group and other.op != group.op]
        named, placed, _ = _said_together(group, units, found.world_size, majority=True, others=others,
                                          twins=_twins(group, found))
        total += 1.0
        gained += 1.0 if placed else 0.0
        if placed:
            covered.append(_group_text(group, failed=False)[lang])
        else:
            missing.append(part_wrong("others-place" if named else "others", lang))
            required_missing = True  # the prompt asks where the others wait: "rank 0 is in all_gather" is half of it
    model = "; ".join(_group_text(group, found.failed is not None and group in found.odd)[lang]
                      for group in found.odd + majority)
    prompt = {"en": "Which ranks are not where the others are, and which call is each one in?",
              "zh": "哪些 rank 和其他 rank 不在同一处？各自停在哪个调用里？"}[lang]
    rest_items = [item for item in items if item.id != "ranks"]
    feedback = [{"item": "ranks", "prompt": prompt, "ok": not missing, "covered": covered, "missing": missing,
                 "model_answer": model + "."}]
    notes: list[str] = []
    if rest_items:
        rest = grade(rest_items, answer, lang, reveal=True)
        rest_total = sum(point.weight for item in rest_items for point in item.points)
        gained += rest["gained"]  # a contradicted why costs its weight here too, as in an open answer
        total += rest_total
        required_missing |= not rest["required_ok"]
        required_missing |= rest["contradicted"]  # a stated contradiction fails it (`diagnose.grade`)
        feedback += rest["feedback"]
        notes = rest["notes"]
    share = max(0.0, gained / total) if total else 0.0
    correct = share >= PASS_SCORE and not required_missing
    if not correct:
        for entry in feedback:
            entry["model_answer"] = None
    from tutor.grading.rubric import WRONG_CAP, credit

    # Partial credit as for open answers, when the culprit is placed (the required part) and
    # nothing in the rest is said the other way round.
    # Also when the culprit is not named but nothing is wrong ("The ranks call the collectives in a
    # different order"): an honest partial post-mortem. Not when a culprit is put elsewhere or cleared.
    culprit_named = any(subject_ranks(unit, found.world_size) for unit in units)
    topical = (not wrong_culprit and not (rest_items and not rest["honest"])
               and (culprit_placed or bool(not culprit_named and rest_items and rest["about"] and rest["share"] > 0)))
    score = credit(share, correct, topical)
    if wrong_culprit and not correct:
        score = min(score, WRONG_CAP)  # a wrong post-mortem (`rubric.WRONG_CAP`)
    return {"correct": correct, "score": round(score, 3), "share": round(share, 4),
            "feedback": feedback, "notes": notes,
            "graded_run": {"world_size": found.world_size, "outcome": found.outcome}}
