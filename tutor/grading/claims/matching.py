"""Whether a clause states a claim: the phrases of its concepts found in one fragment, with the
polarity the negation cues give them, and, for a contradiction, only where it is asserted (not
after "if", not as a supposition, not of a time that is over, not as the object of a comparison).
"""

from __future__ import annotations

import re
from functools import lru_cache

from tutor.grading.claims.binding import bound_spans
from tutor.grading.claims.folding import _CJK, DECIMAL_POINT, fold
from tutor.grading.claims.model import Clause, Fragment, Reading
from tutor.grading.claims.negation import _inside_negated_word, _negated
from tutor.grading.normalize import LONG_LIMIT, clean


def enumerates(forms: list[list[list[str]]], clause: Clause) -> bool:
    """Whether half the items of a list clause (and at least two) each state one of these forms with
    their head."""
    if not clause.items or clause.copied:
        return False
    hits = sum(any(stated(form, Clause([item])) for form in forms) for item in clause.items)
    return hits >= max(2, (len(clause.items) + 1) // 2)


@lru_cache(maxsize=8192)
def pattern(phrase: str) -> re.Pattern | None:
    """A phrase as a pattern over folded text: English as whole words with endings, Chinese anywhere."""
    folded = fold(clean(phrase, LONG_LIMIT))
    if not folded:
        return None
    if _CJK.search(folded):
        compact = folded.replace(" ", "")
        # a number in a Chinese phrase is the whole number: "5 天" is not in "85 天", nor in "8.5 天" (round 8: a
        # plan of 85 days was read as one of 5 days)
        before = rf"(?<![\d{DECIMAL_POINT}])" if compact[0].isdigit() else ""
        after = rf"(?![\d{DECIMAL_POINT}])" if compact[-1].isdigit() else ""
        return re.compile(before + _DIGITS_APART.join(re.escape(char) for char in compact) + after)
    words = folded.split(" ")
    last = folded[-1]
    doubled = f"|{re.escape(last)}(?:ed|ing|able)" if last.isalpha() and last not in "aeiouy" else ""
    # The adverb of a long word is the word ("asynchronously", "automatically"); not of a short one
    # ("full" is not "fully", "hard" not "hardly").
    final = folded.rsplit(" ", 1)[-1]
    adverb = "|ly|ally" if len(final) >= ADVERB_STEM and final.isalpha() else ""
    # Words may be run together or apart ("all reduce" = "allreduce"); English endings allowed. Not two
    # numbers: "1/4" folds to "1 4", which must not be found in "14 GPUs" (nor "1/5" in "15/1024").
    joined = _escape(words[0])
    for before, word in zip(words, words[1:]):
        joined += (_NUMBERS_APART if before[-1:].isdigit() and word[:1].isdigit() else " ?") + _escape(word)
    ending = rf"(?:s|es|ed|d|ing|able{doubled}{adverb})?"
    if len(final) == 1 and final.isalpha():
        # a symbol takes no ending: "K/V" (read "k v") is not in "4K vs 128K", nor "m" in "10 ms" (round 6, the
        # K/V exchange credited on "at 4K vs 128K")
        ending = ""
    if "/" in phrase and _FRACTION.fullmatch(folded):
        # a fraction is not the front of another: "1/(4p)" folds to "1 4 p", where "1/4" would be found
        # (a wrong "bubble ≈ 1/(4p)" was credited with the quarter, 2026-12-03)
        return re.compile(r"(?<!\w)" + joined + r"(?!\w)(?! [a-rt-z](?!\w))")
    if final.endswith("e") and not final.endswith("ee") and (len(final) >= 4 or final == "use") and final.isalpha():
        # a silent e goes before -ing and -able: "replacing", "using", "tokenizing"
        return re.compile(r"(?<!\w)(?:" + joined + ending + "|" + joined[:-1] + r"(?:ing|able))(?!\w)")
    return re.compile(r"(?<!\w)" + joined + ending + r"(?!\w)")


ADVERB_STEM = 6
# Two numbers side by side are a space or a decimal point apart ("6 4 tb" is "6.4 TB", folded "6ǀ4 tb").
_NUMBERS_APART = f"[ {DECIMAL_POINT}]"
_DIGITS_APART = f"[ {DECIMAL_POINT}]?"


def _escape(word: str) -> str:
    return re.escape(word).replace(DECIMAL_POINT, _NUMBERS_APART)


_FRACTION = re.compile(r"\d+ \d+")


@lru_cache(maxsize=8192)
def _leads(phrases: tuple[str, ...]) -> tuple[tuple[str, bool, re.Pattern], ...]:
    """Each phrase's pattern with the text it must start with: an English phrase's first word (a
    match starts a word with it; a single word less its last letter, for the silent e of "using"),
    a Chinese phrase's first character (found anywhere)."""
    leads = []
    for phrase in phrases:
        compiled = pattern(phrase)
        if compiled is None:
            continue
        folded = fold(clean(phrase, LONG_LIMIT))
        if _CJK.search(folded):
            leads.append((folded.replace(" ", "")[0], True, compiled))
        else:
            words = folded.split(" ")
            leads.append((words[0] if len(words) > 1 or len(words[0]) < 2 else words[0][:-1], False, compiled))
    return tuple(leads)


@lru_cache(maxsize=16384)
def _word_starts(text: str) -> frozenset[str]:
    """Every start of every word of a folded fragment: "allreduce" holds "a", "al", "all", …"""
    return frozenset(word[:end] for word in _WORD.findall(text) for end in range(1, len(word) + 1))


_WORD = re.compile(r"\w+")


def find(phrases: list[str], fragment: Fragment) -> tuple[int, int] | None:
    """Where the first of the phrases (in their order, not the leftmost) that the fragment says is.
    Written by hand for speed: a search per phrase of every concept took most of the grading time, and
    most phrases' first word is in no word of the fragment (`_leads`), which a set lookup tells."""
    return next(_matches(phrases, fragment), None)


def _matches(phrases: list[str], fragment: Fragment):
    """The span of each phrase the fragment says (its first match), in the phrases' order."""
    text = fragment.text
    starts = _word_starts(text)
    for lead, anywhere, compiled in _leads(tuple(phrases)):
        if (lead in text) if anywhere else (lead in starts):
            match = compiled.search(text)
            if match:
                yield match.span()


def stated(concepts: list[list[str]], clause: Clause, extended: bool = True, describing: bool = False,
           rivals: list[list[str]] | None = None) -> bool | None:
    """Whether the clause states these concepts together: True, False (negated), None (not said).

    The concepts must sit in one fragment (between commas): "E4M3 for activations, gradients in
    E5M2" does not put E5M2 on the activations. `extended=False` reads a contradiction, which
    costs points: only as written, without the subjects the reader joined to fragments
    (`Fragment.base`), and only where it is asserted (`_asserted`). `rivals`: what competes with
    each concept; where the fragment names a rival of the first, and always in a contradiction,
    the other concepts must be bound to it (`binding`): "E4M3 and the forward E5M2" does not put
    E4M3 on the forward, "dY in E5M2 for dX = dY·W" puts E5M2 on no W."""
    found_negated = False
    for fragment in clause.fragments:
        if not extended and fragment.base is not None:
            continue
        spans = []
        for phrases in concepts:
            span = find(phrases, fragment)
            if span is None:
                break
            spans.append(span)
        if rivals and len(spans) == len(concepts):
            values = _spans_of(rivals[0], fragment)
            if values or not extended:  # a contradiction costs the point: said of its thing, rivals or not
                things = [span for phrases in rivals[1:] for span in _spans_of(phrases, fragment)]
                spans = bound_spans([_spans_of(phrases, fragment) for phrases in concepts], values, things,
                                    fragment) or []
        if len(spans) == len(concepts) and not extended and not _asserted(fragment.text, spans, describing):
            continue
        if len(spans) == len(concepts) and _inside_negated_word(fragment.text, spans):
            found_negated |= fragment.base is None
            continue
        if len(spans) == len(concepts):
            every = _every_span(concepts, fragment) if fragment.negations else None
            if not _negated(fragment, spans, every):
                return True
            # One concept said twice, once before the cue: "pg 2 instead of pg 1" affirms pg 2 (the first
            # phrase in the list's order is pg 1, the rejected one); a phrase the cue governs is not all of it
            if len(concepts) == 1 and every and any(end <= min(cue for cue, _ in fragment.negations)
                                                     and not _negated(fragment, [(start, end)], every)
                                                     for start, end in every):
                return True
            found_negated |= fragment.base is None  # an extension may state a claim, never deny one
    return False if found_negated else None


# A contradiction is a claim about the run or the design as it is, so it is not read
# - after "if" or "whether" ("If TP went across nodes, every layer would wait", "check whether it is
#   the network"), nor after what must or should be ("NCCL requires every rank to issue them in the
#   same order", "drop_last makes every rank get the same number of batches");
# - when a modal after it judges a supposition ("TP across nodes would be far too slow", "TP跨机会很慢");
# - when it is said of a time that is over ("its memory is fine at first but grows");
# - with one of its concepts the object of a comparison ("TP needs more communication than DP",
#   "TP的通信比DP更多": DP is not the heavy one);
# - across two statements joined by "and" ("E4M3 for activations and weights and E5M2 for gradients"
#   does not put E5M2 on the activations).
# ... nor after a reading it sets up to refute ("It's tempting to read 100% as saturated", "误以为"), nor one
# it gives to others, set up to be corrected ("People often say FSDP is cheaper than DDP, but that's not the
# point", "people's first instinct is num_workers=0, but …", "很多人以为 …": round 4, 2026-12-03, right
# answers refused on the wrong idea they named to reject).
_SUPPOSED_EN = {
    # ... and a supposition announced ("Run the counterfactual: TP 16 across two nodes", round 7)
    "condition": r"if|whether|unless|suppose|supposing|imagine|counterfactual|counterfactually|hypothetically",
    "set up to refute": r"tempting to|easy to (?:think|assume|read|conclude)|(?:one|you) might (?:think|assume)",
    # "The tempting move, which a teammate had already done, was to raise the NCCL timeout" (round 6, 2026-12-03)
    "the tempting one": r"the (?:tempting|naive|obvious wrong) (?:move|fix|idea|thing|answer|read|reading|option|guess)",
    # "someone might plan on 90% MFU, but 40% is realistic"
    "an expectation": r"(?:someone|somebody|people|you|one) might (?:plan on|plan for|expect|budget)",
    # the usual suspect named to be set aside: "People often blame a bad GPU when it's always the same step, but this
    # is deterministic" was refused as "a bad GPU"
    "what people do": r"(?:some|many|most) people|(?:people|many|folks|teams|newcomers) (?:often|sometimes|usually|commonly|"
                      r"typically|tend to|first)|(?:people|folks) (?:think|assume|say|claim|believe|suggest|propose)|"
                      r"people s (?:first )?(?:idea|instinct|reflex|guess)|a common (?:mistake|trap|reflex) is|"
                      r"(?:everyone|everybody) (?:first )?(?:assumed|thought|blamed|suspected)",
    # ... and so in a story, the team's idea the speaker pushed back on: "The team's first instinct was to bump the NCCL
    # timeout to an hour. I pushed back" (round 5, 2026-12-03: a right hang story lost its action to the raise it
    # refused), "my lead wanted to raise the timeout"
    # the option set aside: "CP pays off where the alternative is full recompute or TP across nodes" (s37 fresh batch)
    "the alternative": r"the (?:only |other )?alternatives? (?:is|are|would be|being)|otherwise (?:you d|you would|we d|we would|you|we) "
                       r"(?:have|need|had) to",
    "the team's idea": r"(?:the team|my team|our team|everyone|everybody|my manager|my lead|the on call) s (?:first )?"
                       r"(?:idea|instinct|reflex|guess|reaction|suggestion|plan)|"
                       r"(?:the team|my team|our team|my manager|my lead|a colleague|a teammate|a coworker|someone|somebody|"
                       r"others) (?:had )?(?:already )?(?:first )?(?:wanted|suggested|proposed|pushed for|asked for|tried)|"
                       # the colleague's belief, quoted to be denied (round 6, 2026-12-03): 'The colleague thinks "the timeout
                       # is the problem", but it isn't' was refused as the timeout blamed
                       r"(?:the|my|a|our) (?:colleague|teammate|coworker|lead|manager) (?:thinks|assumes|believes|claims|says)",
}
_SUPPOSED_ZH = {
    "condition": r"如果|假如|要是|假设|是否|万一|若",
    "what people do": r"误以为|容易以为|很多人|有人以为|常有人说|有人说|有些人会|有人会",
    "the team's idea": r"(?:团队|大家|同事|组里|老板|别人|其他人)(?:的)?第一反应|有人建议|同事建议|有同事说",
    "the alternative": r"替代方案是|替代的办法是|另一个选择是|否则就?得|不然就?得|要么就?得",
}
_SUPPOSING = re.compile(r"\b(?:" + "|".join(_SUPPOSED_EN.values()) + r")\b|" + "|".join(_SUPPOSED_ZH.values()))
# In a diagnosis, which describes a run, what must be is the rule or the fix, not the run ("a collective
# completes only when all ranks call it too", "the sampler assumes every rank has as many"); in a design
# answer "we should put TP across nodes" is the design, so this is read only for a diagnosis.
_PRESCRIBING = re.compile(r"\b(?:should|must|needs? to|has to|have to|requires?|required|expects?|assumes?|makes?|"
                          r"ensures?|in order to|when)\b|应该|必须|需要|要求|假定|默认|让|使|保证|确保")
_JUDGED_AFTER = re.compile(r"\b(?:would|could|might)\b|\bwill be\b|^.{0,6}会")
# not the speaker's own plan: "I would use E4M3 for the gradients" says what they would do
_MODAL_BETWEEN = re.compile(r"(?<!\bi )(?<!\bwe )(?<!\byou )\b(?:would|could|might)\b")
_EARLIER = re.compile(r"\b(?:at first|initially|in the beginning|early on|at the start)\b|起初|刚开始|开始时|一开始")
_COMPARED = re.compile(r"(?:\bthan|\bcompared (?:to|with)|\bversus|\bvs|比|相比)\s?$|"
                       # ... and so is a later item of the comparison's object: "CP is cheaper than full recompute
                       # or pushing TP past the node" does not push TP past the node (round 5, 2026-12-03)
                       r"\b(?:than|compared (?:to|with)|versus|vs)\s(?:\S+\s){1,4}(?:or|nor)\s(?:\S+\s)?$")
_NEXT_STATEMENT = re.compile(r"\band\s(?:\S+\s){0,5}$")


# Advice under a condition is advice: "if it hangs, raise the NCCL timeout", "if it's slow add more GPUs"
# prescribe what to do, as the same words without "if" do; only the condition itself is supposed. The
# advice starts at its adverb, which a phrase may hold: "if it hangs, just restart from the checkpoint"
# says "just restart" (round 3, 2026-12-03: the pitch's restart-hang was not read under the "if").
_ADVICE = re.compile(r"^(?:if|when|whenever|once)\s(?P<condition>(?:\S+\s){1,5}?)(?P<advice>(?:(?:then|just|simply|i d|i would|"
                     r"i will|we d|we would|we will|we can|you can|i can)\s)?(?P<verb>raise|increase|add|restart|bump|buy|"
                     r"disable|turn off|drop|remove|replace|retry|reduce|lower|double|halve|switch|rerun|kill|ignore|extend|"
                     r"scale|throw|skip|set))\b")


# ... but a verb right after the condition's subject is the condition's own verb: "if we raise it to an
# hour, the job doesn't stop failing" supposes the raise (a right answer refused, 2026-12-03), where "if
# it hangs, raise the timeout" advises it.
_SUBJECT_ONLY = re.compile(r"(?:we|you|i|they|he|she|someone|somebody|anyone|one|people|the colleague|they d|we d|you d)"
                           r"(?:\s(?:just|simply|only|ever|also|really|now))?")


# An imperative with its outcome after "and" is a supposition, English's conditional without "if": "Raise
# it to an hour and that's 500 GPU-hours", "Stretch TP across nodes and those all-reduces eat the step"
# suppose the raise and the stretch (round 7, 2026-12-04: right answers refused on the move they refute).
# The outcome has a subject of its own; "raise it and dump the flight recorder" is two imperatives, and
# "just raise it and ..." is advice. Not in a diagnosis, whose fix may say what it brings ("raise the
# timeout and the hang goes away").
_IMPERATIVE_THEN = re.compile(r"^(?:(?:so|now|then|ok|okay)\s)?(?:raise|increase|bump|extend|double|triple|halve|set|crank|stretch|spread|"
                              r"span|push|put|move|add|drop|remove|split|shard|scale|run|use|go|take|give|make|turn)\s"
                              r"(?:\S+\s){0,8}?(?P<join>and)\s(?:then\s)?(?:the|that|that s|it|it s|it ll|you|you re|you ll|"
                              r"you d|we|we re|your|our|those|these|this|every|each|all|nothing|there|they|everyone|"
                              r"everything)\s")


def _asserted(text: str, spans: list[tuple[int, int]], describing: bool) -> bool:
    ordered = sorted(spans)
    first, last = ordered[0][0], max(end for _, end in ordered)
    supposition = None if describing else _IMPERATIVE_THEN.match(text)
    if supposition and last <= supposition.start("join"):
        return False
    advice = _ADVICE.match(text)
    if advice and _SUBJECT_ONLY.fullmatch(advice.group("condition").strip()):
        advice = None  # the condition's own verb, not an imperative after it
    supposed = text[advice.start("advice"):first] if advice and first >= advice.start("advice") else text[:first]
    if _SUPPOSING.search(supposed) or _JUDGED_AFTER.search(text[last:]):
        return False
    # In a diagnosis, which tells the run as it was, a modal between the parts is a supposition too:
    # "with one scale per tensor, E4M3 would flush the small end of a gradient tensor to zero" is why
    # the gradients do not take E4M3 (s37 fresh batch). Not in a design answer, where "TP would span
    # the nodes" is the plan.
    if describing and _MODAL_BETWEEN.search(text[first:last]):
        return False
    if describing and _PRESCRIBING.search(text[:first]):
        return False
    outside = "".join(" " if any(low <= index < high for low, high in ordered) else char for index, char in enumerate(text))
    if _EARLIER.search(outside):
        return False
    if any(_NEXT_STATEMENT.search(text[before[1]:after[0]]) for before, after in zip(ordered, ordered[1:])):
        return False
    return not any(_COMPARED.search(text[:start]) for start, _ in spans)


def _about_a_rival(clause: Clause, subject: list[str], rivals: list[str]) -> bool:
    """The statement names one of the rival subjects and not the point's own (`KeyPoint.said_of`)."""
    whole = Fragment(" ".join(fragment.text for fragment in clause.fragments), "", [])
    return find(rivals, whole) is not None and find(subject, whole) is None


def _spans_of(phrases: list[str], fragment: Fragment) -> list[tuple[int, int]]:
    """Every match of each of the phrases in the fragment."""
    return _every_span([phrases], fragment)


def _every_span(concepts: list[list[str]], fragment: Fragment) -> list[tuple[int, int]]:
    """Where each phrase of these concepts matches in the fragment, every match of each: a cue that is
    a concept's own word keeps its meaning wherever it stands. "my_documents skips documents shorter
    than 10 tokens and that skips a different number on each rank" states the different counts, whose
    claim lists "skips" (round 6, 2026-12-03: the second "skips" was read as a cue denying them)."""
    text = fragment.text
    starts = _word_starts(text)
    return [match.span() for phrases in concepts for lead, anywhere, compiled in _leads(tuple(phrases))
            if ((lead in text) if anywhere else (lead in starts)) for match in compiled.finditer(text)]


def polarity(concepts: list[list[str]], reading: Reading, extended: bool = True, describing: bool = False,
             listed: bool = False, rivals: list[list[str]] | None = None,
             said_of: tuple[list[str], list[str]] | None = None) -> bool | None:
    """Across the answer: True when some stating clause affirms it, False when it is only denied.
    `listed`: a bare list of terms is read too (a contradiction: "时间：6ND 除以 8000 × 989T × 90% MFU"
    earns nothing as a list, but the wrong figure in it is still said)."""
    seen = None
    for clause in reading.clauses:
        if clause.copied or (clause.bare and not listed):
            continue
        if said_of and _about_a_rival(clause, *said_of):
            continue
        said = stated(concepts, clause, extended, describing, rivals)
        if said:
            return True
        if said is False:
            seen = False
    return seen
