"""`read`: an answer cut into clauses and fragments, each clause marked bare (a run of terms),
asked, copied from the question or prescribing a fix, with the subjects written once joined to
the fragments they govern (a label before a colon, a head before a list, the words before a
bracket).
"""

from __future__ import annotations

import re
from functools import lru_cache

from tutor.grading.claims.asking import _ALTERNATIVE, COPY_SHARE, _asks, _content_words, _prompt_words
from tutor.grading.claims.boundaries import _ASIDE, _FRAGMENT, clause_breaks, formulas_inline
from tutor.grading.claims.folding import _CJK, _PUNCTUATION, _words, expand_shorthand, fold
from tutor.grading.claims.model import Clause, Fragment, Reading, _extension
from tutor.grading.claims.negation import _negations
from tutor.grading.claims.term_lists import (
    _ZH_QUESTION_WORDS,
    LIST_PIECES,
    _bare,
    _framed_enumerations,
    _items,
    _listing,
    _spec_line,
    _terms_cut_by_stops,
)
from tutor.grading.normalize import LONG_LIMIT, clean


@lru_cache(maxsize=2048)
def read(answer: str, prompts: tuple[str, ...] = (), lists: bool = True) -> Reading:
    """The answer in clauses and fragments, each marked bare, copied or negated (cached: the
    diagnosis grader asks about the same clause once per group and phrase list; never mutated).
    `lists=False` reads a piece of an answer whose whole was already judged (a diagnosis's clause
    "ranks 1-3 sit in all_reduce" is not a run of terms just because it is short)."""
    text = _REFUTED_QUOTE.sub(" ", formulas_inline(expand_shorthand(clean(answer[:LONG_LIMIT], LONG_LIMIT))))
    prompt_words = _prompt_words(prompts, bool(_CJK.search(text)))
    clauses: list[Clause] = []
    total = 0
    raws, asked, joined, labelled, specs, heads, relatives = [], [], [], [], [], [], []
    start = 0
    carried = ahead = ""
    referent = relative = False
    for match in [*clause_breaks(text), None]:
        raw = carried + (text[start:match.start()] if match else text[start:])
        label_words = len(_words(fold(carried))) if carried else 0
        spec = bool(carried) and _spec_line(raw[len(carried):])
        head, head_referent, head_relative = carried or ahead, referent and not carried, relative and not carried
        carried = ahead = ""
        referent = relative = False
        if match and _label(raw, match.group()):
            # "Bwd grads: E5M2" is one statement, the label its subject; the label stays a clause
            # of its own as well ("Data loading: …" names its category first).
            carried = raw + " "
        elif match and _head(raw, match.group()):
            # A longer head extends the clause after it: "TP needs the fastest links: inside the node"
            # says where TP goes (`Fragment.base`); so does a negated one, whose claim carries its own
            # negation ("Not included: attention's QKᵀ and AV").
            ahead = raw
        elif match and _CONSEQUENCE.fullmatch(match.group()):
            # "E4M3 has more precision, so it is used for the activations", "…, which suits gradients",
            # "E4M3精度高，所以用在前向": the clause after goes on about the statement before it
            ahead = " ".join(_FRAGMENT.split(_ASIDE.sub(" ", raw).rstrip(" ,，"))[-1].split()[-REFERENT_WORDS:])
            if match.group().strip().casefold() == "which":
                # "Not at .item(), which only waits": "which" is about what was named, affirmed; the
                # negation before it denies the place, not what the relative clause says of it
                denied = list(_RELATIVE_NEGATION.finditer(ahead))
                ahead = ahead[denied[-1].end():] if denied else ahead
                relative = True
            referent = True
        elif match and match.group().strip().casefold() == "but" and _PREDICATE_AFTER_ASIDE.match(text[match.end():].lstrip()):
            # "The save is rank-0-only but has a collective hidden inside it": a predicate after "but" with no
            # subject of its own is said of the clause before, as one after "so" is (round 7, 2026-12-04: the
            # collective and the rank-0-only code it hides in were read apart). Read as an extension: a claim may
            # join the two, a contradiction does not
            ahead = " ".join(_FRAGMENT.split(_ASIDE.sub(" ", raw).rstrip(" ,，"))[-1].split()[-REFERENT_WORDS:])
            referent = True
        if raw and raw.strip():
            raws.append(raw)
            labelled.append(label_words)
            specs.append(spec)
            asked.append(match is not None and ("?" in match.group() or "？" in match.group()))
            # a question after "so" asks only itself ("We use PPO, so how many GPUs?")
            heads.append("" if head_referent and asked[-1] else head)
            relatives.append(head_relative)
            joined.append(match is not None and not _PUNCTUATION.search(match.group()))
        if match:
            start = match.end()
    # A clause cut off at a conjunction asks with its sentence when it is itself a question's
    # part: "PPO or GRPO, so how many model copies?" asks in both halves; "We use PPO, so how
    # many GPUs?" states the algorithm.
    for index in range(len(raws) - 2, -1, -1):
        if joined[index] and asked[index + 1] and _ALTERNATIVE.search(raws[index]):
            asked[index] = True
    previous_prescribes = in_fix = False
    for raw, ends_asking, after_conjunction, label_words, spec, head, after_which in zip(
            raws, asked, [False, *joined[:-1]], labelled, specs, heads, relatives):
        fragments: list[Fragment] = []
        words: list[str] = []
        pieces: list[list[str]] = []
        asides = _ASIDE.findall(raw)
        # "ranks 0, 2, 3 cut nothing": a list of rank numbers is the subject, not three fragments
        outside = _RANK_LIST.sub(lambda match: re.sub(r"\s?[,，、]\s?", " ", match.group()), _ASIDE.sub(" ", raw))
        # "one all_reduce of [loss, tokens, cut] on every rank": a list in square brackets is one thing
        # (a tensor's contents, as code writes it), not three fragments cutting "on every rank" off
        outside = _BRACKET_LIST.sub(lambda match: re.sub(r"\s?[,，、]\s?", " ", match.group()), outside)
        # ... and so is a line of code in backticks, its arguments apart by commas: "in `log`, `stats =
        # funcol.all_reduce(torch.tensor([loss_sum, tokens, cut_sum]), "sum", group)` on every rank" is one call
        # made on every rank (round 6, 2026-12-03: cut at its commas, the call lost "on every rank")
        outside = _CODE_SPAN.sub(lambda match: re.sub(r"\s?,\s?", " ", match.group()), outside)
        listed = 0  # fragments outside brackets: an aside explains, it is not an item of a list
        outside_pieces, conditions = _with_their_conditions(_FRAGMENT.split(outside))
        for index, piece in enumerate([*outside_pieces, *(part for aside in asides for part in _FRAGMENT.split(aside))]):
            folded = fold(piece)
            if not folded:
                continue
            previous = fragments[-1] if fragments and index < len(outside_pieces) else None
            inherited = (previous is not None and (previous.negations or previous.inherited)
                         and bool(_OR_ITEM.match(folded)) and len(folded.split()) <= OR_ITEM_WORDS)
            condition = conditions[index] if index < len(conditions) else None
            unmarked = _UNMARKED_CONDITION.match(folded) if condition is None else None
            fragments.append(Fragment(folded, folded.replace(" ", ""), _negations(folded), inherited,
                                      condition_end=len(fold(condition)) if condition
                                      else unmarked.start("verb") if unmarked else None))
            pieces.append(_words(folded))
            words += pieces[-1]
            listed += index < len(outside_pieces)
        if not fragments:
            continue
        outside_count = listed
        if not outside_count:
            listed = len(fragments)  # all in brackets: "(async, sharded, Young, MTBF)" is a list too
        label = fold(_ASIDE.sub(" ", head))
        aside_extensions = _aside_extensions(raw, fragments, outside_count)
        aside_items: list[Fragment] = []
        if (outside_count and len(fragments) - outside_count >= LIST_PIECES
                and len(_words(fold(outside))) - label_words <= LABEL_WORDS
                and _listing(pieces[outside_count:])):
            # "Checkpoint (async, sharded, Young, MTBF, restart)": a short head and a run of terms in
            # brackets; the head stays a statement, the terms state nothing but an enumeration
            aside_items, fragments = aside_extensions, fragments[:outside_count]
            aside_extensions = []
        fragments += _gloss_extensions(raw, fragments, outside_count)
        fragments += aside_extensions + _enumeration_extensions(fragments[:outside_count]) + _scope_extensions(
            fragments[:outside_count]) + _apposition_extensions(fragments[:outside_count], label_words)
        if label_words:  # a short label is the subject of every fragment after it
            fragments += [_extension(label, fragments[index], index) for index in range(1, outside_count)]
        elif label:
            fragments.append(_extension(label, fragments[0], 0))
            if after_which and outside_count > 1 and _PREDICATE_AFTER_ASIDE.match(fragments[1].text):
                # the relative clause was an aside between the subject and its verb: "activations and
                # weights, which need precision, go in E4M3" says the activations go in E4M3. Written, not
                # an extension (`Fragment.base` None): the sentence says it, and a contradiction may read it
                # ("GPU 0, which gets the long documents, computes longer" puts the work on rank 0).
                # The predicate alone stays, as the reader's extension of it: it may state a point, but it
                # asserts no contradiction without the subject, which may set it up to refute ("The tempting
                # move, which a teammate had already done, was to raise the NCCL timeout" raises nothing:
                # round 6, 2026-12-03, a right hang story refused on its orphaned "was to raise the timeout").
                joined_text = f"{label} {fragments[1].text}".strip()
                predicate = fragments[1]
                fragments[1] = Fragment(joined_text, joined_text.replace(" ", ""), _negations(joined_text),
                                        predicate.inherited)
                predicate.base = 1
                fragments.append(predicate)
        _deny_whole_sentence(fragments, outside_count)
        total += len(words)
        content = _content_words(words)
        copied = bool(prompt_words) and len(content) >= 3 and len(content & prompt_words) >= COPY_SHARE * len(content)
        alone = len(raws) == 1 and len(fragments) == 1
        prescribes = bool(_PRESCRIBES.match(fragments[0].text)) or (after_conjunction and previous_prescribes)
        # A fix under its label goes on to the next part's label or to the story told in the past: "Fix: keep two
        # numbers instead of tensors … Memory per step is constant" says what the fixed run does (`without_fix`).
        # Only a short label opens it: "The fix is to put both branches in one order: …" is a fix said in one sentence.
        if label_words and _FIX_LABEL.match(label):
            in_fix = True
        elif label and _PART_LABEL.match(label) or in_fix and PAST_TENSE.search(raw):
            in_fix = False
        prescribes = prescribes or in_fix
        # "Use drop_last so every rank gets the same number of batches": the clause after an imperative
        # is its purpose, a prescription too (the imperative itself may state a fact: "use E4M3 for …").
        previous_prescribes = prescribes or bool(_IMPERATIVE.match(fragments[0].text))
        # A label is the subject of what follows it ("Launch-bound compute: many tiny ops, .item() sync per
        # micro-batch"); whether the statement is a run of terms is judged on its own words.
        listed -= _framed_enumerations(outside)
        bare = lists and not spec and _bare(words[label_words:], raw, listed, alone,
                               [pieces[0][label_words:], *pieces[1:]] if label_words else pieces)
        items = _items(fragments, outside_count, label, in_first=bool(label_words)) if bare else aside_items
        clauses.append(Clause(fragments, bare=bare, copied=copied,
                              question=ends_asking or _asks(raw, words), marked=ends_asking, prescribes=prescribes,
                              items=items))
    _objects_said_before(clauses)
    for clause in clauses:
        _withdraw_hedged(clause)
    _withdraw_retracted(clauses)
    if lists:
        _terms_cut_by_stops(clauses)
    worded = [clause for clause in clauses if clause.fragments]
    return Reading(clauses, total, bare=bool(worded) and all(clause.bare for clause in worded),
                   copied=bool(worded) and all(clause.copied for clause in worded))


# A reading quoted and then turned down states nothing: 'The tempting wrong read: "100% means compute-bound,
# so the GPUs are maxed out." No. The counter only says …' (round 5, 2026-12-03: a right answer refused on the
# reading it quoted to reject). Only a quotation: a bare "No." after a plain statement answers the question as
# often as it takes the statement back (`_RETRACTION`).
_REFUTED_QUOTE = re.compile(r"[\"“「『][^\"“”「」『』]{3,400}[\"”」』]\s*(?:[.。!！:：]|-+)?\s*(?:no|nope|wrong|false|not true|not so|"
                            r"that'?s wrong|that is wrong|that'?s not (?:true|right)|不对|错|错了|不是这样)\s*(?:[.。!！,，:：;；]|-|$)",
                            re.IGNORECASE)


# A negation of the whole statement, said before it: "It is not true that NVLink is ten times faster than
# InfiniBand (450 vs 50 GB/s)", "I don't think TP has to stay inside the node, or on NVLink", "并不是TP
# 每一层都要通信（都在关键路径上）". Its reach is the clause; the words before a bracket, joined to the
# aside by the reader, and a short piece after a comma lose the cue at the clause's start, so they
# inherit it. A piece with its own subject is a statement of its own ("I don't think it's the network,
# it's the loader"), and so is one the speaker turns to ("rather", "instead", "其实").
_WHOLE_NEGATION = re.compile(r"^(?:it is|it s|that is|that s)\snot\s(?:true|the case|so|that)\b|"
                             r"^i\s(?:do|did)\snot\s(?:think|believe|agree)\b|^i\swould\snot\ssay\b|"
                             r"^(?:并不是|并非|不是说|我不认为|我不觉得|我不同意)")
_OWN_SUBJECT = re.compile(r"^(?:it|it s|that|that s|this|they|we|i|you|the\s\w+\s(?:is|are|was|were)|rather|instead|"
                          r"actually|but|rank\s\d|ranks\s\d)\b|^(?:其实|而是|是|它|这|那|我们|我)")
INHERITED_PIECE_WORDS = 4


def _deny_whole_sentence(fragments: list[Fragment], outside: int) -> None:
    """Marks as negated what a whole-statement negation at the clause's start reaches (`_WHOLE_NEGATION`):
    the asides (fragments from `outside` on that the reader did not add), the reader's extensions, short
    pieces and Chinese ones."""
    if not fragments or not _WHOLE_NEGATION.match(fragments[0].text):
        return
    for index, fragment in enumerate(fragments[1:], start=1):
        if fragment.negations or _OWN_SUBJECT.match(fragment.text):
            continue
        if (fragment.base is not None or index >= outside or len(fragment.text.split()) <= INHERITED_PIECE_WORDS
                or _CJK.search(fragment.text)):
            fragment.inherited = True


# A candidate taking back what they just said: "raise num_workers... actually no, workers won't help",
# "加 num_workers，不对，…". Only explicit retractions: a bare "no" answers the question as often.
_RETRACTION = re.compile(r"^(?:actually,? no|no,? wait|wait,? no|scratch that|on second thought|i take (?:that|it) back|"
                         r"correction|let me correct (?:that|myself)|不对|说错了|更正一下|更正|收回|不不)$")


# A candidate who says they do not know what they just said: "maybe CP helps, I'm not sure", "……，我不确定".
# The hedge ends the fragment (or is all of it); "not sure, but it is the loader" commits to what follows.
_HEDGE = re.compile(r"(?:^|\s)(?:(?:i m|i am|but i m|but i am|though i m|though i am)\s)?(?:not (?:really |entirely |totally |100 )?sure|"
                    r"not certain|unsure|(?:i )?do not know|no idea)(?:\s(?:though|tbh|honestly|about that|about this|"
                    r"about it))?$|(?:我|但我|但是我)?(?:不太?确定|说不准|拿不准|不知道对不对|不太清楚)(?:吧|啊)?$")


def _withdraw_retracted(clauses: list[Clause]) -> None:
    """What a retraction takes back states nothing: the fragments before it in its clause, or, when it
    opens its clause, the clause before it; the retraction itself states nothing either."""
    for index, clause in enumerate(clauses):
        marks = [at for at, fragment in enumerate(clause.fragments)
                 if fragment.base is None and _RETRACTION.match(fragment.text)]
        if not marks:
            continue
        if marks[-1] == 0 and index > 0:
            clauses[index - 1].fragments = []
        cut = marks[-1]
        kept = []
        for at, fragment in enumerate(clause.fragments):
            if at <= cut or (fragment.base is not None and fragment.base <= cut):
                continue  # the reader's extensions of a withdrawn fragment go with it
            if fragment.base is not None:
                fragment.base -= cut + 1  # still the index of the fragment it extends
            kept.append(fragment)
        clause.fragments = kept


# A condition with no comma after it, ended by the imperative it sets off: "if no sentence end fits cut at
# start + max_len" (a negation in the condition does not reach the cut).
_UNMARKED_CONDITION = re.compile(r"^(?:(?:the\s)?(?:fix|solution)\s)?(?:if|when|whenever)\s(?:\S+\s){1,6}?(?P<verb>cut|split|break|truncate|pad|fall back|"
                                 r"hard cut|force a cut|take|use|call|stop|skip|drop|raise|retry)\b")
# A guess said on its own after what it is said of: "so it was a bad link somewhere, probably".
_HEDGE_ALONE = re.compile(r"(?:probably|i guess|i suppose|perhaps|or something|or so i think|i think|大概吧|可能吧|应该吧|我猜)")
# A step put off until a cause is confirmed: "if it turns out to be the loader we could add workers later".
_DEFERRED = re.compile(r"^(?:if|in case|once|should)\s(?:\w+\s){0,6}?turns?\sout\b|^(?:如果|要是|假如)(?:真|确实|最后|后来)(?:是|发现)")
_OR_ELSE = re.compile(r"^(?:or|either)\s|^(?:或者|还是|要么)")


def _withdraw_hedged(clause: Clause) -> None:
    """A hedge takes back only what it is said of: the fragment it ends, or, said on its own, the
    fragment before it ("maybe CP helps, I'm not sure") and the alternatives that one closes. A step
    put off until its cause "turns out" to be true is not taken either."""
    dropped: set[int] = set()
    for at, fragment in enumerate(clause.fragments):
        if fragment.base is None and _DEFERRED.search(fragment.text):
            dropped.add(at)
            continue
        hedge = (_HEDGE.search(fragment.text) or _HEDGE_ALONE.fullmatch(fragment.text)) if fragment.base is None else None
        if hedge is None:
            continue
        dropped.add(at)
        written = [before for before in range(at) if clause.fragments[before].base is None]
        if hedge.start() == 0 and written:
            dropped.add(written[-1])
            # the alternatives it is unsure between, all of them: "maybe A, or maybe B, not sure"
            while len(written) > 1 and _OR_ELSE.match(clause.fragments[written[-1]].text):
                written.pop()
                dropped.add(written[-1])
    if dropped:
        clause.fragments = [fragment for at, fragment in enumerate(clause.fragments) if at not in dropped
                            and (fragment.base is None or fragment.base not in dropped)]
        # what extends a kept fragment points at its new place
        for fragment in clause.fragments:
            if fragment.base is not None:
                fragment.base -= sum(1 for at in dropped if at < fragment.base)


_BRACKET_LIST = re.compile(r"\[[^\[\]]{1,80}\]")
_CODE_SPAN = re.compile(r"`[^`\n]{1,300}`")
_RANK_LIST = re.compile(r"\b(?:ranks?|r|gpus?)\s?\d+(?:\s?[,，、]\s?(?:r|rank\s?)?\d+)+(?![\d.])", re.IGNORECASE)


# A clause that says when (or if) the next one holds, cut from it by a comma: "when the workers are
# forked, the lock is still held", "fork worker的时候，锁还被持有". The two are one statement, whose
# parts a claim may need together (`_FRAGMENT` would put the fork and the lock in two fragments).
# Chinese says "if" first too, glued to what follows (round 7, 2026-12-04): "如果是硬件，卡住的步数会随机" is one
# counterfactual, as "if it were hardware, the step would wander" is.
_LEADING_CONDITION = re.compile(r"^\s*(?:(?:when|whenever|while|once|if|as soon as|at the moment|by the time|each time|"
                                r"every time)\s|(?:如果|要是|假如|假设|万一))", re.IGNORECASE)
# ... and so is a short scope said first, a prepositional phrase without a verb: "At 128K on 405B, CP 16
# keeps each GPU at 8K tokens", "For 70B at seq 8K with TP 4, that's 46 GB" (numbers-first answers
# refused, 2026-12-03: the length and what holds at it sat in two fragments).
_LEADING_SCOPE = re.compile(r"^\s*(?:at|for|with|on|under|beyond|past|above|below|up to)\s(?!(?:first|the same time|least|most|"
                            r"example|instance|once|the other hand|top of that|now|all|this|that|those|these)\b)", re.IGNORECASE)
SCOPE_WORDS = 8
_TRAILING_CONDITION = re.compile(r"(?:的时候|时候|之时|的同时|期间|那一刻|时|的话)\s*$")
# ... and a statement that says it holds at the moment just said: "fork出新的worker，这时锁是被持有的",
# "the workers are forked, at which point the lock is held".
_AT_THAT_MOMENT = re.compile(r"^\s*(?:这时|此时|那时|当时|这个时候|那个时候|这一刻|那一刻|at that (?:moment|point|time)|at which point|"
                             r"by then|just then)", re.IGNORECASE)


def _with_their_conditions(pieces: list[str]) -> tuple[list[str], list[str | None]]:
    """`pieces` with a condition joined to the piece after it: a clause's first piece that starts
    with "when", "if" …, and a Chinese piece that ends with 时, 的时候 …; and a piece that starts
    with 这时, "at that moment" … joined to the piece before it. With each piece, the condition it
    starts with, if it was joined to one (a negation inside it does not reach the rest:
    `Fragment.condition_end`)."""
    joined: list[str] = []
    conditions: list[str | None] = []
    for index, piece in enumerate(pieces):
        condition = _TRAILING_CONDITION.search(pieces[index - 1]) or index == 1 and (
            _LEADING_CONDITION.match(pieces[0]) or _LEADING_SCOPE.match(pieces[0]) and len(pieces[0].split()) <= SCOPE_WORDS)
        if joined and (condition or _AT_THAT_MOMENT.match(piece)):
            if condition and conditions[-1] is None:
                conditions[-1] = joined[-1]
            joined[-1] = f"{joined[-1]} {piece}"
        else:
            joined.append(piece)
            conditions.append(None)
    return joined, conditions


# A fragment that goes on with a verb and no subject of its own, after a relative clause in commas.
_PREDICATE_AFTER_ASIDE = re.compile(r"^(?:is|are|was|were|go|goes|get|gets|use|uses|take|takes|need|needs|stay|stays|"
                                    r"run|runs|sit|sits|wait|waits|must|should|can|will|fit|fits|has|have|to|in|into|as|"
                                    r"cast|casts|stored|kept|compute|computes|computed|finish|finishes|arrive|arrives|lag|lags|"
                                    r"do|does|did|hold|holds|receive|receives|block|blocks|hang|hangs|calls|called|reads|writes)\s")


# "… has --use-distributed-optimizer but not --overlap-grad-reduce or --overlap-param-gather. Add both.":
# an imperative whose object is only a pronoun acts on what the clause before it named, whatever
# that clause said of it (here, that it was missing).
_PRONOUN_OBJECT = re.compile(r"^(?:so |then |and )?(?:add|enable|turn on|turn|switch on|set|use|pass|flip on|apply)\s"
                             r"(?:both|them|those|these|the two|both of them)(?:\s(?:on|flags|in|too))?$|"
                             r"^(?:把)?(?:两个|它们|这两个|这俩)都?(?:打开|加上|开上|开启|开)$")


def _objects_said_before(clauses: list[Clause]) -> None:
    for previous, clause in zip(clauses, clauses[1:]):
        if len(clause.fragments) != 1 or not _PRONOUN_OBJECT.match(clause.fragments[0].text):
            continue
        verb = clause.fragments[0].text.split()[0]
        for fragment in previous.fragments:
            if fragment.base is not None:
                continue
            kept, cursor = [], 0
            for start, end in sorted(fragment.negations):
                kept.append(fragment.text[cursor:start])
                cursor = end
            kept.append(fragment.text[cursor:])
            clause.fragments.append(_extension(verb, Fragment(" ".join(" ".join(kept).split()), "", []), 0))


# An enumeration cut at its commas: "all-reduce loss, tokens and cut tokens on every rank" is one
# statement about its items, whose verb and tail `_FRAGMENT` puts in different fragments. Its middle
# items are short, and its last one starts with "and"/"or" after a few words (和/及/与/或 in Chinese,
# whose 、 is the enumeration comma: "对loss、token数和截断数做一次all-reduce").
ENUMERATION_ITEM_WORDS = 3
ENUMERATION_ITEMS = 8  # middle items: a longer run is a list of terms, and reading it costs O(n²)
ENUMERATION_ITEM_CHARS = 8  # a Chinese item, in characters
_LAST_ITEM = re.compile(r"^(?:\S+\s){0,2}?(?:and|or|plus|as well as)\s")
_ZH_LAST_ITEM = re.compile(rf"^[^\s]{{0,{ENUMERATION_ITEM_CHARS}}}?(?:和|及|与|或|跟)")


# Where the step before it applies, cut off by a comma: "do one all_reduce of all three at each log, on every rank".
_SCOPE = re.compile(r"(?:and\s)?(?:on|across|for|by)\s(?:every|all|each)(?:\sthe)?\s(?:ranks?|gpus?|processes|workers)|everywhere|"
                    r"(?:在|对)?(?:所有|每个)\s?(?:rank|卡|进程)\s?(?:上|都)?")


# A restatement after a comma is said of the fragment before it: "NDR IB is 400 Gb/s, i.e. 50 GB/s per GPU"
# gives IB its 50 GB/s (round 6, a right answer refused); "即"/"也就是" the same in Chinese.
# Not one with a subject of its own: "TP stays at 8, i.e. PP goes across nodes" puts nothing across nodes for TP.
_RESTATES = re.compile(r"(?:i e|ie|that is|in other words|也就是说|也就是|即)(?:\s|$|(?=[\u3400-\u9fff]))")
_DIMENSION_NAMED = re.compile(r"\b(?:tp|pp|dp|cp|ep|fsdp|zero|tensor|pipeline|data|context|expert|rank|ranks)\b|"
                          r"(?<![a-z])(?:tp|pp|dp|cp|ep)(?![a-z])")


# A sum goes on after a comma: "activations take 46 GB, plus 39 GB of state it is over 80 GB", "activation 大约
# 46 GB，再加上 39 GB 的 model state 就超过 80 GB 了" say the activations are part of what overflows (round 7).
_ADDS = re.compile(r"(?:plus|再加上|加上|再加)(?:\s|$|(?=[\u3400-\u9fff]))")


def _scope_extensions(fragments: list[Fragment]) -> list[Fragment]:
    """The fragment before a scope cut off by a comma, with the scope: "…, on every rank"; the one
    before a restatement, with it: "…, i.e. 50 GB/s per GPU"; and the one before a sum's next term,
    with it: "…, plus 39 GB of state is over 80 GB"."""
    return [_extension(fragments[index - 1].text, fragment, index - 1) for index, fragment in enumerate(fragments)
            if index and (_SCOPE.fullmatch(fragment.text) or _ADDS.match(fragment.text)
                          or _RESTATES.match(fragment.text) and not _DIMENSION_NAMED.search(fragment.text))]


# A rank named alone before a comma is the subject of what follows, as terse notes write it: "rank 213, last
# into every reduce-scatter", "r0, still in the loop" (round 14, 2026-12-06: the two were read apart). Read as an
# extension: a claim may join them, a contradiction does not.
_RANK_ALONE = re.compile(r"(?:rank|ranks|r|gpu|node)\s?\d+(?:\s\d+){0,3}")


def _apposition_extensions(fragments: list[Fragment], label_words: int) -> list[Fragment]:
    """`label_words`: the words of a label the first fragment opens with ("who: rank 213, …")."""
    if len(fragments) < 2:
        return []
    subject = " ".join(fragments[0].text.split()[label_words:])
    if not _RANK_ALONE.fullmatch(subject):
        return []
    return [_extension(subject, fragments[1], 0)]


def _enumeration_extensions(fragments: list[Fragment]) -> list[Fragment]:
    """A fragment for each enumeration over several of `fragments`: the head's fragment (the first
    item at its end), at most ENUMERATION_ITEMS middle items, and the last item with what follows
    it, joined."""
    extensions = []
    for start in range(len(fragments) - 1):
        for end in range(start + 1, min(len(fragments), start + 2 + ENUMERATION_ITEMS)):
            piece = fragments[end]
            last = _LAST_ITEM.match(piece.text)
            if last or _ZH_LAST_ITEM.match(piece.compact):
                # ", and ranks 1-3 wait …" right after the head joins two statements; after an item
                # it ends the list ("weights, Adam state, and the RNG in the checkpoint")
                if not (last and last.group().split()[0] in _CONJUNCTIONS and end == start + 1):
                    text = " ".join(fragment.text for fragment in fragments[start:end + 1])
                    extensions.append(Fragment(text, text.replace(" ", ""), _negations(text), False, start))
                break
            if not _short_item(piece):
                break
    return extensions


_CONJUNCTIONS = frozenset({"and", "or", "plus", "as"})


def _short_item(fragment: Fragment) -> bool:
    if _CJK.search(fragment.text):
        return len(fragment.compact) <= ENUMERATION_ITEM_CHARS
    return len(fragment.text.split()) <= ENUMERATION_ITEM_WORDS


# The words before a bracket that its aside is about: those after the last comma, dash, sign or colon,
# at most four ("6 = 2 (fwd) + 4 (bwd)" puts fwd on the 2 and bwd on the 4).
_ASIDE_HEAD_CUT = re.compile(r"[,，、—–;；:：=+×*→)]|\s-\s|->")
ASIDE_HEAD_WORDS = 4  # "E4M3 for fprop (…)" is four words folded: e4 m3 for fprop


def _aside_extensions(raw: str, fragments: list[Fragment], outside: int) -> list[Fragment]:
    """Each piece of each aside joined to the words before its bracket ("checkpoints (sharded, async,
    fp32 weights + Adam)" says the checkpoints are sharded). The aside pieces are the fragments from
    index `outside` on, in the order `read` made them."""
    extensions = []
    index = outside
    for match in _ASIDE.finditer(raw):
        head = " ".join(_words(fold(_ASIDE_HEAD_CUT.split(_ASIDE.sub(" ", raw[:match.start()]))[-1]))[-ASIDE_HEAD_WORDS:])
        for piece in _FRAGMENT.split(match.group(1)):
            if not fold(piece):
                continue
            if head:
                extensions.append(_extension(head, fragments[index], index))
            index += 1
    return extensions


# An aside of a word or two, no number, glosses the word before it: "the workers were started (forked)
# while the writer thread held the lock" says they were forked while it was held, which the aside read
# apart ("forked" alone) did not (round 4, 2026-12-03: a right stalled-loader answer refused). The gloss
# is read in its place, as an extension (it may state a claim, never deny one). Only a verb form glossing
# one of its kind ("started (forked)", "waiting (blocked)"): "the bubble (fwd) is small" keeps its aside apart.
_VERB_FORM = re.compile(r"(?:ed|ing)$")


def _gloss_extensions(raw: str, fragments: list[Fragment], outside: int) -> list[Fragment]:
    extensions = []
    for match in _ASIDE.finditer(raw):
        gloss = fold(match.group(1))
        if not gloss or len(gloss.split()) > 1 or not _VERB_FORM.search(gloss):
            continue
        before = _words(fold(_ASIDE.sub(" ", raw[:match.start()])))
        after = _words(fold(_ASIDE.sub(" ", raw[match.end():])))
        form, glossed = (_VERB_FORM.search(before[-1]) if before else None), _VERB_FORM.search(gloss)
        if form is None or glossed is None or form.group() != glossed.group():
            continue
        for index, fragment in enumerate(fragments[:outside]):
            words = fragment.text.split()
            at = next((at for at, word in enumerate(words) if word == before[-1] and (
                at + 1 == len(words) or (after and words[at + 1] == after[0]))), None)
            if at is not None:
                text = " ".join([*words[:at + 1], gloss, *words[at + 1:]])
                extensions.append(Fragment(text, text.replace(" ", ""), _negations(text), fragment.inherited, index))
                break
    return extensions


# The words a fix starts with: its label ("Fix:", "修法："), or an imperative that prescribes.
# Not "use …": "Use E5M2 for the forward activations" states which format goes where (fp8-matmul).
# ... and the run after the fix, said as what the fix brings: "With running totals of correct tokens and real
# tokens, token_accuracy gives the same number and rank 0's memory stays flat", "after the fix every rank
# sees the same flag", "修完之后显存是平的" describe the fixed run, not this one (round 6, 2026-12-03: a right
# post-mortem was refused as saying the memory stayed flat). Only "with" before the fix's own words: "with
# four ranks, rank 0 …" describes the run.
_PRESCRIBES = re.compile(r"^(?:(?:the\s)?fix|to\sfix|solution|make|let|ensure|have\s(?:every|all|each)|instead|"
                         r"(?:with|after|once)\s(?:the|that|this|my|our|this|a|the)\s(?:fix|change|patch)|once\sfixed|"
                         r"with\s(?:two\s|the\s|a\s)?(?:running|local)\s(?:totals?|counters?|counts?|sums?)|"
                         r"修法|修复|修|解决|办法|让|改成|改为|改用|统一|应该|要让|修完|改完|修好)(?:\s|$|(?=[\u3400-\u9fff]))")

# A fix's label and another part's, after which the fix ends (`tutor.labs.run_diagnosis.without_fix`); the
# story after a fix is told in the past (`run_diagnosis._story_after` reads it too).
_FIX_LABEL = re.compile(r"^(?:the\s)?(?:fix|solution|修法|修复|解决办法|解决方法)(?!\s(?:is|first)\b)(?:\s|$)")
_PART_LABEL = re.compile(r"^(?:why|where|cause|root cause|the cause|ranks|what happened|the bug|mechanism|"
                         r"原因|为什么|位置|现象)(?:\s|$)")
PAST_TENSE = re.compile(r"\b(?:was|were|had|did|got|went|hung|died|crashed|failed|entered|called|created|waited|"
                        r"timed out|blocked|skipped|returned|broke|ran|used|reached|sat|stopped|raised)\b", re.IGNORECASE)

_IMPERATIVE = re.compile(r"^(?:use|give|add|call|pad|drop|pack|balance|assign|split|cut|truncate|replace|move|put|keep|"
                         r"remove|avoid|set|switch|wrap|merge|run|do|用|改|加|换)(?:\s|$|(?=[\u3400-\u9fff]))")
_OR_ITEM = re.compile(r"^(?:or|nor|或者|或)(?:\s|(?=[\u3400-\u9fff]))")
OR_ITEM_WORDS = 5

LABEL_WORDS = 3


def _label(raw: str, boundary: str) -> bool:
    """A short label before a colon ("Fwd (activations + weights):", "DP:", "前向："), which the
    statement after it is about; not one holding a negation ("Not data loading: …" stays apart).
    A short question asked and answered is one too: "What changed? Code, data, nodes" (not a
    bare term asked: "Sharded? Async?")."""
    mark = boundary.strip()
    if mark not in (":", "：", "?", "？") or not raw.strip():
        return False
    folded = fold(_ASIDE.sub(" ", raw))
    words = _words(folded)
    if not 0 < len(words) <= LABEL_WORDS or _negations(folded):
        return False
    return mark in (":", "：") or words[0] in _WH_WORDS or bool(_ZH_QUESTION_WORDS.intersection(words))


_WH_WORDS = frozenset("what which how why where when who".split())


def _head(raw: str, boundary: str) -> bool:
    """A statement before a colon that is no label, which the clause after it completes ("DP can live
    on the slowest links for two reasons: …", "Not counted: …"): longer than a label, or negated."""
    return boundary.strip() in (":", "：") and bool(raw.strip()) and not _label(raw, boundary)


_RELATIVE_NEGATION = re.compile(r"\b(?:not|never|no)\b|n['’]t\b", re.IGNORECASE)
_CONSEQUENCE = re.compile(r"\s(?:so|hence|thus|therefore|because|since|which)\s|所以|因此|因为", re.IGNORECASE)
REFERENT_WORDS = 12
