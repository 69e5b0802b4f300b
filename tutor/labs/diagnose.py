"""`tutor lab diagnose`: grade the learner's diagnosis, item by item.

Each diagnosis item (which ranks, which call, which category, why) has key points, each a claim
graded by the grading package (`tutor.grading.claims`): stated in one clause with the right
polarity, a bare list of terms or the question pasted back stating nothing, a stated
contradiction costing the point. A perf lab's "which category" item takes exactly one of the
four categories: naming another one as the cause is a contradiction. The answer is only ever
searched, never evaluated.

A failed attempt says which item is wrong, not the missing text: the model answer is shown
only after a pass or an explicit give-up (`reveal=True`).
"""

from __future__ import annotations

import re

from tutor.content.models.lab import DiagnosisItem
from tutor.grading.claims.clauses import read
from tutor.grading.claims.folding import _CJK
from tutor.grading.claims.model import Clause, Reading
from tutor.grading.claims.points import judge
from tutor.grading.normalize import LONG_LIMIT, clean
from tutor.grading.claims.rank_words import numbers_as_digits, rank_synonyms

PASS_SCORE = 0.6
# The four places step time goes (lesson §slow-training); a perf lab's category item is one of
# them, named by its point id, and saying another is the cause contradicts it.
CATEGORIES: dict[str, tuple[list[str], list[str], str, str]] = {
    "data-loading": (["data loading", "data loader", "dataloader", "input pipeline", "data bound", "loading bound",
                      "input bound", "io bound", "data starved", "input starved"],
                     ["数据加载", "数据读取", "dataloader", "data loading"], "data loading", "数据加载"),
    "communication": (["communication", "comm bound", "exposed comm", "network bound"],
                      ["通信", "communication"], "communication", "通信"),
    "launch-bound": (["compute", "launch bound", "kernel launch", "launch overhead", "cpu bound", "host bound"],
                     ["计算", "launch bound", "compute"], "compute", "计算"),
    "straggler": (["straggler", "load imbalance", "imbalance"], ["straggler", "负载不均", "不均衡", "慢节点"],
                  "a straggler", "straggler"),
}


PARTS = {
    "culprit": ("the ranks you name as the odd ones out are not the right set",
                "你说的出问题的 rank 不对（要恰好是那几个）"),
    "culprit-place": ("right ranks, but not the call they wait in", "rank 对了，但它们停在的调用不对"),
    "others": ("where the other ranks are is not said", "没说清其他 rank 在哪里"),
    "others-place": ("the call the other ranks wait in is not right", "其他 rank 停在的调用不对"),
    "item": ("not right yet", "还不对"),
    "left-out": ("left out: {point}", "没说到：{point}"),
    "denied": ("you said it the other way round", "说成了相反的意思"),
}


def part_wrong(part: str, lang: str, **fields: str) -> str:
    """Which part of a diagnosis is wrong, without the answer (`fields` fill "left-out", said only
    after a pass)."""
    en, zh = PARTS[part]
    return (zh if lang == "zh" else en).format(**fields)


def settle(feedback: list[dict], items: list[DiagnosisItem], lang: str) -> None:
    """After a pass, each item as the verdict has it. An item short of its share with nothing wrong
    in it ("not right yet": every required point said, since the diagnosis passed) is right when it
    states something, and the points it left out are named, as the model answers now are; "not
    right yet" beside a passing verdict would contradict it (exposed-comm: the fix said, the cause
    not, half the item's weight)."""
    by_id = {item.id: item for item in items}
    for entry in feedback:
        item = by_id.get(entry["item"])
        if item is None or entry["ok"] or entry["missing"] != [part_wrong("item", lang)]:
            continue
        entry["ok"] = bool(entry["covered"])
        entry["missing"] = [part_wrong("left-out", lang, point=point.text.get(lang)) for point in item.points
                            if point.text.get(lang) not in entry["covered"]]


def grade(items: list[DiagnosisItem], answer: str, lang: str = "en", reveal: bool = False,
          prompts: tuple[str, ...] = ()) -> dict:
    """{correct, score, required_ok, notes, feedback: [{item, prompt, ok, covered, missing, model_answer}]}.

    Correct at PASS_SCORE of the points' weight, with every `required` point stated and
    nothing contradicted. `covered` lists the points the answer stated; `missing` says which
    part is wrong (a contradiction named, "said the other way round", "not right yet"), never
    the missing text; `model_answer` is None unless the diagnosis passed (or `reveal`).
    """
    # the ranks as the rubric writes them: "the first process", "GPU 1", "零号" (rank 0, rank 1, 0号)
    text = rank_synonyms(numbers_as_digits(clean(answer[:LONG_LIMIT], LONG_LIMIT)))  # never raise here
    from tutor.grading.rubric import WRONG_CAP, credit, on_topic, stating

    from tutor.grading.claims.self_answered import as_labels

    # "why? it's a non-daemon thread …": a question asked and answered at once labels its answer
    reading = stating(read(as_labels(text), prompts or tuple(item.prompt.get(code) for item in items for code in ("en", "zh"))))
    total = gained = 0.0
    feedback = []
    required_ok = True
    honest = True  # nothing said the other way round, contradicted or a second category named
    contradicted = False
    wrong_main = False  # another category named as the cause
    for item in items:
        covered, missing = [], []
        item_total = item_gained = 0.0
        item_required = True
        for point in item.points:
            verdict = judge(point, reading, describing=True)
            item_total += point.weight
            if verdict.contradiction is not None:
                item_gained -= point.weight
                contradicted = True
                missing.append(verdict.contradiction.feedback.get(lang))
            elif verdict.counts:
                item_gained += point.weight
                covered.append(point.text.get(lang))
            elif verdict.denied:
                missing.append(part_wrong("denied", lang))
            item_required &= verdict.counts or not point.required
            required_ok &= item_required
            honest &= not (verdict.denied or verdict.contradiction is not None)
        clash = _category_clash(item, reading, lang)
        if clash:
            honest = False
            wrong_main = True
            missing += clash
            item_gained, required_ok = min(item_gained, 0.0), False
        # an item with a required point unsaid is not right, whatever its other points add up to
        ok = item_gained >= PASS_SCORE * item_total and not missing and item_required
        if not ok and not missing:
            missing.append(part_wrong("item", lang))
        total += item_total
        gained += item_gained
        feedback.append({"item": item.id, "prompt": item.prompt.get(lang), "ok": ok, "covered": covered,
                         "missing": sorted(set(missing), key=missing.index), "model_answer": item.model_answer.get(lang)})
    share = max(0.0, gained / total) if total else 0.0
    # A stated contradiction fails the diagnosis, as it fails an open answer: "every rank calls the
    # gather too" beside the right ranks is a wrong post-mortem, whatever else it gets right.
    correct = share >= PASS_SCORE and required_ok and not contradicted
    if not (correct or reveal):
        for entry in feedback:
            entry["model_answer"] = None
    points = [point for item in items for point in item.points]
    # A perf diagnosis lifted only with a required part said (the category or the fix): its other
    # points are easy to brush with a wrong cause ("rank 1 has a slower CPU core").
    main_said = not any(point.required for point in points) or any(
        point.required and point.text.get(lang) in entry["covered"] for item, entry in zip(items, feedback)
        for point in item.points)
    about = on_topic(points, reading, reading) if 0 < share < 1 else True
    topical = 0 < share < 1 and honest and main_said and about
    # `score`: partial credit as for open answers (`rubric.credit`); `share`: the weight stated.
    score = credit(share, correct, topical)
    if (wrong_main or not about) and not correct:
        score = min(score, WRONG_CAP)  # a wrong category, or an answer mostly about something else
    return {"correct": correct, "score": round(score, 3), "share": round(share, 4), "gained": gained, "wrong_main": wrong_main, "about": about,
            "on_topic": topical, "honest": honest, "required_ok": required_ok, "contradicted": contradicted, "feedback": feedback, "notes": _notes(reading, lang)}


def give_up(items: list[DiagnosisItem], lang: str = "en") -> list[dict]:
    """The model answers, shown after an explicit give-up (recorded as such by the caller)."""
    return [{"item": item.id, "prompt": item.prompt.get(lang), "model_answer": item.model_answer.get(lang)}
            for item in items]


# A category named only to rule it out: "the dataloader is fine", "数据加载没问题", right after it.
# ... or said to be too little to matter: "no_sync defers the all-reduce, so comm is small" (round 14, 2026-12-06).
_DISMISSED = re.compile(r"^\s*(?:(?:is|are|was|looks?|seems?|stays?)\s+)?(?:(?:very\s|tiny\s)?(?:fine|ok|okay|healthy|normal|"
                        r"small|tiny|negligible|minor|minimal|marginal)|not it|not the (?:problem|bottleneck|issue|cause|culprit))\b")
_DISMISSED_ZH = re.compile(r"^(?:也|都)?(?:很|也很)?(?:没问题|没有问题|没事|正常|不是瓶颈|不是问题|不是原因|很少|可以忽略|不多)")
# A category granted only to be corrected: "it looks like data loading, but it's communication"; also
# the candidate's own first guess ("I first thought it was compute, but ... data loading": round 4).
_CONCEDED = re.compile(r"\b(?:looks? like|seems? like|seems? to be|appears? to be|at first|at first sight|you might think|"
                       r"one might think|i (?:first|initially) (?:thought|suspected|assumed|guessed)|"
                       r"my first (?:guess|thought|instinct|suspicion))\b|看起来像|看上去像|乍看|以为|像是")


def _dismissed(key: str, clause: Clause) -> bool:
    from tutor.grading.claims.matching import find

    en, zh = CATEGORIES[key][:2]
    for fragment in clause.fragments:
        span = find([*en, *zh], fragment)
        if span is not None:
            tail = fragment.text[span[1]:]
            if _DISMISSED.match(tail) or _DISMISSED_ZH.match(tail.replace(" ", "")):
                return True
    return False


# "both ranks compute the same tokens", "rank 1 computes longer", "its trace shows it computing longer":
# compute the verb, said of ranks, is what they do, not the compute category; nor is compute the amount of
# work held equal in a comparison ("the compute per rank is identical", "the same compute on each rank").
# The same for compute as what is left once the lost time is gone ("synthetic data cuts the step to
# the compute alone", "just the compute remains"): a measurement, not the compute category.
_COMPUTING = re.compile(r"\b(?:ranks?(?:\s\d+)?|both|each|they|all|gpus?|the others)\s(?:\w+\s)?(?:computes?|computing|computed)\b|"
                        r"\bit\s(?:computes|computing|computed)\b|"
                        # "the second (rank 1) computes longer": a verb's third person or past is never the category
                        r"\b(?:computes|computed)\b|"
                        r"\b(?:just|only|down to)\s(?:the\s)?compute\b(?!\s(?:bound|category))|\bcompute\s(?:alone|only|remains|is left)\b|"
                        r"\bcompute\s(?:per\s(?:rank|gpu|step|token)\s)?(?:is|stays|remains)\s(?:the\s)?(?:same|identical|unchanged|equal|constant)\b|"
                        r"\b(?:the\s)?same\s(?:amount\sof\s)?compute\b")


def _computing_only(clause: Clause) -> bool:
    from tutor.grading.claims.matching import find

    en, zh = CATEGORIES["launch-bound"][:2]
    return all(_COMPUTING.search(fragment.text) and find([word for word in [*en, *zh] if word != "compute"],
                                                         fragment) is None
               for fragment in clause.fragments if find([*en, *zh], fragment) is not None)


CATEGORY_WORDS = 8  # a clause this short that names two categories names them as the answer, not as detail
# The category said as the conclusion of a story told in time order ("First I compared one rank with two:
# the compute per rank is identical … So the category is communication") is labelled as much as one said first.
_CATEGORY_LABEL = re.compile(r"^(?:(?:so|thus|hence|therefore|overall|in short|in sum|all in all|then|and|that makes|which makes)\s)?"
                             r"(?:the\s)?(?:category|categories|bottleneck category|类别|分类|类型|归类)\b|"
                             r"^(?:所以|因此|综上|总之)?(?:类别|分类|类型|归类)")


# ... and so is the conclusion a candidate draws after ruling others out ("So: data loading.", "So compute, but not
# the heavy kind", "Launch-bound."), where the clauses before it name the categories checked ("First thing I
# checked was whether it's the allreduce …": round 15, 2026-12-06, read as naming communication).
_CONCLUSION = re.compile(r"^(?:so|thus|hence|therefore|overall|verdict|conclusion|in short|所以|因此|结论|综上)\b[\s:：,]*"
                         r"(?:(?:it['’]?s|it is|this is|that['’]?s|the job is|i['’]?d say|这是|是)\s?)?")
CONCLUSION_WORDS = 4


def _concludes(clause: Clause, drawn: bool) -> bool:
    """The clause opens with its category as a conclusion ("so" and a few words: `drawn`), or is only a
    category ("Launch-bound."; in a list of checks, "Comm: one rank vs two look the same" is one too,
    so a drawn conclusion comes first)."""
    from dataclasses import replace

    from tutor.grading.claims.matching import stated

    if not clause.fragments:
        return False
    first = clause.fragments[0]
    lead = _CONCLUSION.match(first.text)
    if drawn and lead is None:
        return False
    if not drawn and (len(first.text.split()) > 2 or _CJK.search(first.text)):
        return False  # "模型逐 token 计算" is how the model computes, not a verdict
    head = " ".join(first.text[lead.end():].split()[:CONCLUSION_WORDS]) if lead else first.text
    alone = replace(clause, fragments=[replace(first, text=head)])
    return any(stated([[*en, *zh]], alone) and not _dismissed(key, clause) for key, (en, zh, _, _) in CATEGORIES.items())


_HEDGE = re.compile(r"\b(?:either|or|partly|partially|part|mix|mixed|combination|both|and/or|maybe)\b|或者|要么|一部分|一半|也有|混合|都有|还是")


def _hedged(clause: Clause, own: list[str], others: list[str]) -> bool:
    """One fragment of the clause names its own category and another with a hedge between them."""
    from dataclasses import replace

    from tutor.grading.claims.matching import stated

    for fragment in clause.fragments:
        alone = replace(clause, fragments=[fragment])
        said = {key for key in [*own, *others] if stated([[*CATEGORIES[key][0], *CATEGORIES[key][1]]], alone)
                and not _dismissed(key, alone)}
        if said & set(own) and said & set(others) and _HEDGE.search(fragment.text):
            return True
    return False


def _category_clash(item: DiagnosisItem, reading: Reading, lang: str) -> list[str]:
    """A category item whose category statement names another one too, or another one instead
    ("It's a straggler: … DataLoader workers"). The statement is the first clause that asserts a
    category: not one that rules it out ("the dataloader is fine; it's the all-reduce") nor one that
    grants it only to correct it ("it looks like data loading, but it's really communication")."""
    from tutor.grading.claims.matching import stated

    own = [point.id for point in item.points if point.id in CATEGORIES]
    if not own:
        return []
    stating = [clause for clause in reading.clauses if clause.states]
    # "Category: data loading" says which one, wherever it stands: the evidence before it may name
    # compute as what is left ("with synthetic data the step shrinks to just the compute")
    labelled = [clause for clause in stating if clause.fragments and _CATEGORY_LABEL.match(clause.fragments[0].text)]
    labelled = (labelled or [clause for clause in stating if _concludes(clause, drawn=True)]
                or [clause for clause in stating if _concludes(clause, drawn=False)])
    stating = labelled or stating
    for index, clause in enumerate(stating):
        named = {key for key, (en, zh, _, _) in CATEGORIES.items()
                 if stated([[*en, *zh]], clause) and not _dismissed(key, clause)
                 and not (key == "launch-bound" and _computing_only(clause))}
        own_said = any(judge(point, Reading([clause], 0, False, False)).counts and not _dismissed(point.id, clause)
                       for point in item.points if point.id in CATEGORIES)
        if not named and not own_said:
            continue
        conceded = _CONCEDED.search(" ".join(fragment.text for fragment in clause.fragments))
        if conceded and any(stated([[*en, *zh]], later) for later in stating[index + 1:] for en, zh, _, _ in CATEGORIES.values()):
            continue
        others = [key for key in CATEGORIES if key in named and key not in own]
        words = sum(len(fragment.text.split()) for fragment in clause.fragments if fragment.base is None)
        # two categories as the answer: "data loading or communication", "Category: data loading, compute";
        # in a long clause, two hedged in one fragment ("It's either launch-bound compute or a straggler",
        # "partly data loading and partly compute": s37 fresh batch, both passed)
        both_given = own_said and others and (clause in labelled or words <= CATEGORY_WORDS
                                              or _hedged(clause, own, others)) and not conceded
        if not both_given and (own_said or not others):
            return []  # "Straggler — rank 1 computes longer": its own category, then the detail
        shown = ", ".join(CATEGORIES[key][2 if lang == "en" else 3] for key in others)
        return [{"en": f"exactly one category is the cause; you named {shown}",
                 "zh": f"原因只属于一类，你说的是 {shown}"}[lang]]
    return []


def _notes(reading: Reading, lang: str) -> list[str]:
    from tutor.grading.rubric import reading_notes

    return [getattr(message, lang) for message in reading_notes(reading)]


def grade_lab(items: list[DiagnosisItem], answer: str, evidence: dict | None, lang: str = "en") -> dict:
    """The one diagnosis grader the CLI and the app share: against the run's evidence when it
    hung or crashed, else against the lab's rubric alone."""
    if evidence is not None and evidence.get("outcome") in ("hang", "crash"):
        from tutor.labs.run_diagnosis import grade_run

        verdict = grade_run(items, answer, evidence, lang)
    else:
        verdict = grade(items, answer, lang)
    if verdict["correct"]:
        settle(verdict["feedback"], items, lang)
    return verdict
