"""A hang or crash diagnosis graded against the run's own evidence (`grade_run`).

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

from tutor.content.models.lab import DiagnosisItem
from tutor.grading.claims.clauses import PAST_TENSE
from tutor.grading.normalize import LONG_LIMIT, clean
from tutor.labs.hangfacts import Facts, Group, facts, majority_groups
from tutor.labs.hangview import ranks_text
from tutor.labs.rank_mentions import (
    about_the_others, cleared_ranks, every_rank_first, mentions_ranks, mutual_ranks, names_exactly, numbered,
    opens_on_the_others, others_as_object, rest_as_every_rank, subject_ranks,
)
from tutor.labs.evidence_words import OP_NAME, camel_words, ranks_before_calls, transport_timeouts_named
from tutor.labs.process_groups import misplaced_in_group, names_a_group
from tutor.grading.claims.rank_words import as_ranks, named_after, numbers_as_digits, relative_places

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
FAILURE_PHRASES = (["failed", "fails", "crashed", "crash", "died", "dies", "exception", "error",
                    "raised", "aborted", "aborts", "abort", "sigabrt", "killed by a signal"],
                   ["挂", "崩", "失败", "报错", "异常", "死了", "abort", "中止"])
# How a rank that died of OutOfMemoryError is said to have failed: where the run's evidence holds
# an OOM, "rank 0 ran out of GPU memory" places it; after another error it does not.
OOM_PHRASES = (["oom", "out of memory", "out of gpu memory", "out of cuda memory", "out of device memory",
                "outofmemoryerror", "memory blew up"],
               ["OOM", "爆显存", "显存爆了", "显存不够", "显存不足", "显存溢出", "内存溢出", "显存耗尽", "显存用完", "out of memory"])
CLAUSE = re.compile("|".join([
    # a sentence may end inside its quote or code span: "... 0.08 MiB is free.` Ranks 0, 2, 3 ..."
    r"\.+[`'\"’”]*(?=\s|$)", r"[;!?\n。；：！？]+",
    # not "train.py:109", "unbound_buffer.cc:78" (quoted, s33) nor "local_rank: 0"; nor "pg 1: ranks 0, 2, 3",
    # a process group and the ranks on it (s35 df6a)
    r"(?<!\.py)(?<!rank)(?<!pg\s\d)(?<!pg\d)(?<!pg\s\"\d\"):(?!\d)",
    r",(?!\s*\d)", r"(?<!\d)\s*,", r"[，、](?!\s*\d)", r"(?<!\d)[，、]",  # not inside "ranks 0, 2, 3"
    r"\s(?:while|whereas)\s", r"\s(?=and then\s)",  # "and then" kept: "… and then recv at line 109" goes on (`_THEN_CALL`)
    r"\s[/|]\s",  # "r0 broadcast / r1-3 all_gather"
    # before ranks: an arrow ("guarded by rank==0 -> ranks 1..3 never join"), a bracket ("(others: grad allreduce)")
    r"\s?(?:->|→|=>|⇒)\s?(?=(?:the\s)?(?:ranks?\s?\d|r\d|others?\b|rest\b|\d+\s?号))",
    r"\s?\((?=(?:the\s)?(?:others?|rest)\b)",
    r"(?<!ranks)(?<!rank)(?<!everyone)(?<!all)\sbut\s", r"而", r"但是", r"但",
    r"\s(?:and|so|then|hence|thus)\s(?=(?:the\s)?(?:ranks?\b|r\d|others?\b|rest\b|non[- ]?zero\sranks?\b))",
    # "Rank 0 (all_reduce) vs ranks 1-3 (all_gather)": a contrast of two groups
    r"\s(?:vs\.?|versus)\s(?=(?:the\s)?(?:ranks?\s?#?\d|r\d|others?\b|rest\b))",
]))
# A rank whose program returned but whose process waits for a non-daemon thread (the rank runner's
# exit joins them, as the interpreter does), and a rank that exited cleanly: the words for each.
AT_EXIT = (["thread", "threads", "join", "at exit", "still alive", "still running", "never exits", "did not exit",
            "has not exited", "not exited", "still there", "still around", "is left", "never goes away", "remains",
            # "r1 alive (r0 exit 0)", "rank 1's process stays up" (round 14)
            "alive", "stays up", "still up", "stays alive", "keeps running", "hangs around",
            # "the upload rank (rank 1) is the one left" (round 15); "left" alone is gone
            "the one left", "only one left", "left running", "left hanging", "still hanging"],
           ["线程", "join", "退出时", "还活着", "还在", "没退出", "没有退出", "没走", "留着", "活着"])
EXITED = (["exited", "has exited", "exits", "process exits", "is gone", "exit code 0", "exit 0", "process ended", "returned 0", "exits with 0",
           "exited with 0", "exits with code 0", "exited with code 0", "exits cleanly", "exited cleanly", "exits 0",
           # "rank 0 went away cleanly" (round 4)
           "went away cleanly", "goes away cleanly", "shut down cleanly", "terminated cleanly", "quit cleanly"],
          # Chinese writes the code word too: "rank 0已经exit 0" (round 14)
          ["已经退出", "已退出", "退出了", "正常退出", "进程结束", "以 0 退出", "退出码 0", "退出码是 0", "退出码为 0",
           "exit 0", "exit code 0", "exited", "exitcode 0"])

# The fix said first or in words: "The fix first: …", "To fix it I would order the pair by rank, rank 0
# sending first" prescribes as "Fix:" does.
# Said so, the fix is its sentence: the story may follow with no label ("Fix first: copy under the lock. Rank 1 …").
_FIX_LABEL = re.compile(r"(?:^|(?<=[\s.;,。；，]))(?:(?:the\s+)?(?:fix|solution|修法|修复|解决办法|解决方法)\s*[:：]|"
                        r"(?P<sentence>(?:the\s+)?(?:fix|solution)\s+first\s*[:：]|to\s+fix\s+(?:it|this|that)\b|the\s+fix\s+is\b|"
                        r"i\s+would\s+fix\s+(?:it|this)\b))", re.IGNORECASE)


# Another part of the answer after its fix: "Fix: … Why: … Where: rank 0 is in …" puts the ranks last.
_PART_LABEL = re.compile(r"(?:^|(?<=[\s.;,。；，]))(?:why(?: it hangs| it happens)?|where|cause|root cause|the cause|ranks|"
                         r"which ranks?|which process|what happens|what happened|the bug|the story|how|mechanism|原因|为什么|位置|在哪|"
                         r"哪个 ?rank|现象)\s*[:：]|"
                         # the story after a fix said first: "The fix first: … Here is what happened. …", and
                         # "Fix: use all_reduce in should_stop. Here's why. At step 5 rank 0 …" (s35 df6a: the
                         # whole story was read as the fix, no rank placed)
                         r"(?:here|this)(?:\s+is|['’]s)\s+(?:why|what\s+happened|how\s+it\s+(?:broke|happened|hangs|hung))\b|原因如下|下面是原因",
                         re.IGNORECASE)


_SENTENCE_END = re.compile(r"\.(?=\s)|[。！？!?](?=\s?\S)")


# A fix is prescribed in the present; the story after it with no label of its own is told in the past:
# "Fix: in make_groups, call job_group('grads') and then job_group('metrics') on every rank … The groups
# were created in different orders. … ranks 0/2/3 used pg 1 and rank 1 used pg 2" (s35 df6a: the story
# was read as the fix, no rank placed). "Fix: rank 0 sends first. Rank 1 receives first." stays the fix.
def _story_after(text: str, start: int, end: int) -> int:
    """Where the story begins after a fix labelled at `start` (before `end`): the first sentence after the
    fix's first one told in the past."""
    sentence = _SENTENCE_END.search(text, start, end)
    while sentence is not None:
        following = _SENTENCE_END.search(text, sentence.end(), end)
        if PAST_TENSE.search(text, sentence.end(), following.end() if following else end):
            return sentence.end()
        sentence = following
    return end


def without_fix(text: str) -> str:
    """The answer without its fix: from a fix label to the next part's label (or the end). The ranks are
    placed outside the fix: "Fix: rank 0 sends first, rank 1 receives first" prescribes, it does not
    put rank 1 in the culprit's place."""
    kept, cursor = [], 0
    for fix in _FIX_LABEL.finditer(text):
        if fix.start() < cursor:
            continue
        kept.append(text[cursor:fix.start()])
        after = _PART_LABEL.search(text, fix.end())
        cursor = after.start() if after else len(text)
        if fix.group("sentence"):
            # "Fix first: … . Rank 0 waits in …": a fix said first is one sentence, the story follows it
            end = _SENTENCE_END.search(text, fix.end())
            cursor = min(cursor, end.end()) if end else cursor
        else:
            cursor = _story_after(text, fix.end(), cursor)
    kept.append(text[cursor:])
    return " ".join(part.strip() for part in kept if part.strip())


def _covers(phrases: tuple[list[str], list[str]], text: str) -> bool:
    """Whether the clause says one of the phrases, not negated (`tutor.grading.claims`)."""
    from tutor.grading.claims.clauses import read
    from tutor.grading.claims.matching import polarity

    return polarity([[*phrases[0], *phrases[1]]], read(text, (), False)) is True


# A rank waiting at the end of training has left the loop: the words people use for that place.
LEFT_LOOP = (["left the loop", "leaves the loop", "left the training loop", "broke out", "breaks out", "exited the loop",
              "stopped training", "finished", "end of training", "final gather", "last gather", "final all gather",
              "gather at the end"],
             ["退出了循环", "退出循环", "跳出循环", "退出了训练循环", "停止训练", "结束训练", "训练结束", "先退出",
              "最后的 gather", "最终的 gather", "最后的 all gather", "最终的 all gather", "最后那个 gather", "收尾的 gather"])


def _place_phrases(group: Group) -> tuple[list[str], list[str]]:
    en, zh = OP_PHRASES.get(group.op or "", ([], []))
    names = [name.replace("_", " ") for name in group.funcs] + _line_of(group.site)
    if "finish" in group.funcs or "end of training" in group.funcs:
        en, zh = [*en, *LEFT_LOOP[0]], [*zh, *LEFT_LOOP[1]]
    if "waits for a thread at exit" in group.funcs:
        en, zh = [*en, *AT_EXIT[0]], [*zh, *AT_EXIT[1]]
    return list(en) + names, list(zh) + names


_FILE_LINE = re.compile(r"^(?P<file>[\w.-]+\.py):(?P<line>\d+)\b")


def _line_of(site: str | None) -> list[str]:
    """The line the evidence's stacks put the group at, as a candidate quotes it from them: it names
    the call as well as the call's name does ("both wait at train.py:109 forever")."""
    found = _FILE_LINE.match(site or "")
    if found is None:
        return []
    return [f"{found['file']}:{found['line']}", f"{found['file']} line {found['line']}"]


# A clause that goes on about the subject before it: it starts with "it" or with a verb ("then
# waits in all_gather", "卡在…"), after a connective. "The gradient all-reduce then times out" has a
# subject of its own.
_CONNECTIVE = re.compile(r"^(?:(?:and|so|but|also|then|and then|after that|然后|所以|于是|接着)\s*)*", re.IGNORECASE)
# "…only to rank 0, which broke out of the loop": a relative pronoun goes on about the clause before
_PRONOUN = re.compile(r"^(?:it|it['’]s|which|who|它(?!们))(?![A-Za-z])", re.IGNORECASE)
# A clause about a function of the program: "evaluate() is only called on rank 0".
_CALL_SUBJECT = re.compile(r"^(?:the\s)?[A-Za-z_][\w.]*\(\)|"
                           # "evaluate is gated behind a rank-zero check": the function said without its brackets
                           r"^(?:the\s)?[A-Za-z_][\w.]*\s(?:is|was)\s(?:only\s)?(?:gated|guarded|called|wrapped|run|"
                           r"executed|invoked|skipped|behind|under|inside)\b|"
                           # "evaluate contains a collective": what the function holds (s33 round 3: joined to the
                           # ranks before it, it put them in evaluate)
                           r"^(?!(?:they|it|this|that|which|who|everyone|everybody|nobody|all|both|each)\b)"
                           r"[A-Za-z_][\w.]*\s(?:contains|holds|has|issues|wraps|shards)\b")
_GOES_ON = re.compile(r"^(?:(?:is|was|are|were|waits?|waiting|hangs?|hung|stuck|blocks?|blocked|sits?|never|still|"
                      r"calls?|called|enters?|goes|went|gets?|got|reaches|reached|does|did|can['’]?t|cannot|then|"
                      # "The other ranks' errors are 'Connection closed by peer', raised in the gradient all_reduce"
                      r"raised|thrown)\b|"
                      r"在|卡|等|停|进|调用|也|还|就|才|又|再|一直)", re.IGNORECASE)


# A clause opened by "when": its subject follows ("When they all called the gradient all-reduce, …").
_SUBORDINATE = re.compile(r"^(?:when|as|once|after|since|until)\s+", re.IGNORECASE)
# "… and then recv at train.py:109": the next call of the clause's ranks, with no subject of its own.
_THEN_CALL = re.compile(rf"^(?:(?:and\s+)?then\s+(?:calls?\s+|enters?\s+|into\s+|goes\s+(?:in)?to\s+)?(?:the\s+)?|"
                        # "rank 0 先 send 完成了，然后 recv 在 train.py:109 等"
                        rf"(?:然后|接着|随后|再)\s?(?:调用|进入|进了|卡在|停在|在)?\s?)(?:dist\.)?"
                        rf"{OP_NAME}\w*(?:\(\))?(?!\w|\s+(?:times?|timed|fails?|failed|hangs?|hung|is|was|never|returns?|"
                        r"errors?|raises?|aborts?|completes?|completed)\b|\s?(?:超时|失败|报错|完成))", re.IGNORECASE)


def _open_brackets(text: str) -> int:
    """How many brackets the text opens and does not close."""
    return sum(text.count(mark) for mark in "(（[") - sum(text.count(mark) for mark in ")）]")


# A bracket that opens with a rank of its own: "(rank 0 exited 0)", "（0号正常退出了）"; not "(rank 1's)".
_RANK_BRACKET = re.compile(r"\s?[(（](?=\s?(?:(?:ranks?\s?\d+|r\d+)(?![\w'’])|\d+\s?号))", re.IGNORECASE)


def _rank_aside(part: str) -> list[str]:
    """A clause that names a rank, then another rank in a bracket, as two statements: "rank 1 never exits
    (rank 0 exited 0)", "rank 1没退出（rank 0 exit 0）" (s36 df8b: both were read as the culprits). A bracket
    of ranks after a clause that names none stays an example of it ("the sends pair up fine (rank 0
    sends at line 89, rank 1 receives at line 82)")."""
    aside = _RANK_BRACKET.search(part)
    if aside is None or not mentions_ranks(part[:aside.start()]):
        return [part]
    return [part[:aside.start()], part[aside.end():]]


def clauses(answer: str, joiner: str = " ") -> list[str]:
    """The answer in clauses; a clause without a rank joins the one before it (it goes on about it),
    and so does one after a bare subject ("rank 0 and rank 1 both wait in recv"), one that starts
    with "it" ("It waits in the all-reduce with the others") and the second half of a mutual wait
    ("rank 0 waits for rank 1 and rank 1 for rank 0"). A clause without a rank that puts something
    in a call of its own, after one that already placed its ranks, stands alone: "Rank 0 crashed.
    The gradient all-reduce then times out" does not put rank 0 in the all-reduce."""
    units: list[str] = []
    for part in (piece.strip() for p in CLAUSE.split(answer) for piece in _rank_aside(p)):
        if not part:
            continue
        lead = part[_CONNECTIVE.match(part).end():]
        they = _THEY.match(lead)
        if they and units and (others_as_object(units[-1]) or len(subject_ranks(units[-1], 1 << 12) or ()) == 1):
            # "they" after one rank is the others ("rank 0 is in the gather; they have moved on to backward"),
            # and so after the others named as what a rank waits for ("rank 0 … waited for the other three.
            # They had skipped save_checkpoint …"): the clause is about them
            units.append("the others" + lead[they.end():])
            continue
        named_after = _THAT_IS_RANK.match(lead)
        if named_after and units:
            units[:] = _named_after(units, named_after.group(1) or named_after.group(2), part, joiner)
            continue
        if units and _OBJECT_RANK.match(part):
            part = _OBJECT_RANK.sub(lambda found: found.group(1) + " its peer", part, count=1)
            lead = part[_CONNECTIVE.match(part).end():]
        # A rank only waited for ("…里等rank0", "waiting for rank 0") is the object, not who the clause
        # is about: "rank1~3没进evaluate，已经到了下一步，在backward的all-reduce里等rank0" places ranks 1-3.
        # "…, and all four time out at train.py:70": a count of ranks as the subject of its own clause
        names_rank = mentions_ranks(_AWAITED.sub(" ", part)) or bool(_ALL_COUNT.match(lead))
        # "rank 0" and ..., "both stages (rank 0" and rank 1) are waiting ...: a subject with no verb of its own;
        # not the tail of an aside ("rank 1 process (pid 20115, --upload-rank 1), rank 0 exited 0")
        # ... nor when the piece opens on the others: "rank 1 at step 4, the rest in loss.backward()" says
        # where each is (s37 fresh batch: read as one clause about rank 1)
        bare_subject = (units and not opens_on_the_others(lead) and (len(units[-1].split()) <= 5 or bool(_APPOSITIVE.match(units[-1])))
                        and not _WAIT_VERB.search(_APPOSITIVE.sub(" ", units[-1])) and not _ENDS_ON_VERB.search(units[-1])
                        and not (_STATE.search(units[-1]) and mentions_ranks(units[-1]))
                        and not units[-1].rstrip().endswith(")") and not _ALL_COUNT.match(lead)
                        and not _has_place(units[-1]) and not cleared_ranks(units[-1]))
        pronoun = bool(_PRONOUN.match(lead))
        own_subject = (not names_rank and not pronoun and not _GOES_ON.match(lead) and bool(units)
                       and (_has_place(part) or _CALL_SUBJECT.match(lead)) and _has_place(units[-1]))
        # "Then every rank's all_reduce in average_gradients goes to its own 'grads'": every rank is its
        # subject, placed; it does not go on about the clause before it ("On the other ranks grads is created first")
        # … and after "when": "When they all called the gradient all-reduce in average_gradients, ranks 0/2/3
        # used pg 1" (s35 df6a: joined to the clause before, it put ranks 0, 2, 3 alone in the all-reduce)
        own_subject = bool(own_subject) or (not names_rank and every_rank_first(_SUBORDINATE.sub("", lead))
                                            and _has_place(part))
        # "rank 0's last ops are recv at train.py:97 and then recv at train.py:109, waiting": the next call
        # of the same rank, no subject of its own (s35 df6a: read as nobody's); "and then the all-reduce
        # times out" has one
        own_subject = own_subject and not _THEN_CALL.match(part)
        mutual = bool(units) and names_rank and mutual_ranks(units[-1] + ", " + part, 1 << 12) is not None
        # the verb of a subject cut off by a comma: "The all_gather in data_positions, a collective
        # …, is where rank 0 sits" (the subject names no rank, the verb's clause does)
        cut_subject = bool(units) and names_rank and re.match(r"(?:is|was)\s", lead) is not None \
            and not mentions_ranks(units[-1])
        # a comma inside a bracket does not end the statement: "The error is the same on every rank (gloo
        # timeout, 6000 ms) in average_gradients -> all_reduce" (s36 df8b: the call was cut off from every rank)
        in_aside = bool(units) and not names_rank and _open_brackets(units[-1]) > 0
        if units and ((not names_rank and not own_subject) or bare_subject or pronoun or mutual or cut_subject or in_aside):
            units[-1] += joiner + part
        else:
            units.append(part)
    return units


# The error first, its rank after: "… torch.OutOfMemoryError: CUDA out of memory. Tried to allocate
# 0.58 MiB. That's rank 1 at step 4." (s35 df6a: the OOM was read as nobody's). A short clause that
# only says whose it was; "这是 rank 1 的报错", "那是1号".
_THAT_IS_RANK = re.compile(r"^(?:that|this)(?:['’]s|\s+is|\s+was)\s+(?:on\s+|from\s+)?((?:rank|r)\s?\d+)\b"
                           r"(?=(?:\s+(?:at|in|on|during)\s+(?:step|iteration)\s?\d+)?\s*$)|"
                           r"^(?:这|那)就?是\s?((?:rank|r)\s?\d+|\d+\s?号)(?=\s?(?:的报错|的错误|的栈|在第\s?\d+\s?步)?\s*$)",
                           re.IGNORECASE)


def _named_after(units: list[str], rank: str, part: str, joiner: str) -> list[str]:
    """The clauses before "That's rank 1" that name no rank (or that rank), said of it: at most three,
    back to the last one about another rank."""
    start = len(units)
    while start > 0 and len(units) - start < 3 and subject_ranks(units[start - 1], 1 << 12) in (
            None, subject_ranks(rank, 1 << 12)):
        start -= 1
    return units[:start] + [rank + ": " + joiner.join([*units[start:], part])]


# "Rank 1, the rank that writes the metrics, ends up …", "rank 0 (the writer), …": a rank and what it is,
# a subject still waiting for its verb (the verbs inside the appositive are not the clause's)
_APPOSITIVE = re.compile(r"^(?:(?:ranks?|gpus?|workers?|process(?:es)?)\s?\d+|\d+\s?号\S{0,2})\s*,\s*(?:the|its|our)\s[^,]*$",
                         re.IGNORECASE)


# "等rank0", "waiting for rank 1", "waiting in the all-reduce for rank 1": after a wait, "for" names
# the rank waited for; and the ranks ("its all_reduce in evaluate waits for ranks 1-3", s33 dfr1: read as
# placing ranks 1-3 in evaluate).
_AWAITED = re.compile(r"(?:等待?|\b(?:wait(?:s|ing|ed)?|blocked|stuck)\b[^,，;；。]*?\b(?:for|on))\s*(?:the\s+)?"
                      r"(?:ranks?\s*\d+(?:\s?[-–]\s?\d+)?|r\d+\b|\d+\s*号)", re.IGNORECASE)
# A piece that opens on the rank it is about ("… also calls recv first, from rank 0"): the object of the
# clause before, cut off at its comma, not a subject of its own.
# Joined to it as "its peer": the clause stays about its own subject.
_OBJECT_RANK = re.compile(r"^\s*(from|to|for|with|by|against|than)\s+(?:the\s+)?(?:rank\s*\d+|r\d+\b|\d+\s*号)",
                          re.IGNORECASE)
_ALL_COUNT = re.compile(r"^all\s+(?:two|three|four|eight|\d+)\s+(?:ranks\s+)?(?:are|were|time|times|timed|wait|waits|waited|hang|"
                        r"hung|fail|failed|die|died|sit|sat|block|blocked|stuck)\b", re.IGNORECASE)
_THEY = re.compile(r"^(?:they|those|these)(?:\s+(?:ranks|three|two))?\b(?!\s+(?:are|were)\s+(?:all\s+)?(?:the\s+)?same\b)", re.IGNORECASE)


_WAIT_VERB = re.compile(r"\b(?:is|are|was|were|waits?|waiting|stuck|hangs?|hung|blocked|sits?|failed|fails|died|crashed|"
                        r"active|busy|spinning|spins|loops|looping|idle|"
                        r"calls?|runs?|left|exited|enters?|does|gets?|got|reach(?:es|ed)?|arriv(?:es|ed)|goes|went|moves?|moved|"
                        # "rank 0 exits with 0, rank 1 stays": a clause with a verb of its own, not a bare subject
                        r"exits?|stays?|stayed|remains?|remained|lingers?|returns?|returned|finish(?:es|ed)?|logs?|logged|"
                        r"prints?|printed|"
                        # "rank 0 used pg 2, ranks 1/2/3 used pg 1": two clauses, not a subject and its verb (s35 df6a)
                        r"used|uses|has|had|holds|held|hits?|saw|sees)\b|停|卡|等|挂|崩|在|调用|进|退出|跑|用", re.IGNORECASE)


# A state said of a rank is its predicate: "r1 still alive, r0 exited 0" (s37 fresh batch: read as one
# subject, "r1 … r0"); said of no rank it is a label ("still alive: rank 1 (uploader)").
# ... and an exit said of it, in Chinese with the code word ("rank 0已经exit 0", round 14)
_STATE = re.compile(r"\b(?:alive|gone|dead|done|exited|exit\s0)\b|还活着|活着|已经退出|已退出|退出了|已经\s?exit", re.IGNORECASE)


# A short clause that ends on the verb of its rank is a sentence, not a subject waiting for its verb:
# "…, and only rank 0 appends. The other three ranks were waiting for it in the all-reduce" (s35 df6a:
# the others were joined to "only rank 0" and read as rank 0). Not a noun after the rank ("rank 0 and
# rank 1, both stages").
_ENDS_ON_VERB = re.compile(r"(?:\branks?\s?\d+|\br\d+|\d+\s?号)\s+(?:only\s+|also\s+|alone\s+|then\s+)?"
                           r"(?!(?:ranks|stages|processes|workers|gpus|devices|does|is|was|has)\b)[a-z]{3,}(?:s|ed)\s*$",
                           re.IGNORECASE)


def _has_place(text: str) -> bool:
    return (any(_covers(phrases, text) for phrases in OP_PHRASES.values()) or _covers(FAILURE_PHRASES, text)
            or _covers(OOM_PHRASES, text))


def _place(group: Group) -> tuple[list[str], list[str]]:
    if group.op is None and group.site == "exited":
        return EXITED
    if group.op is None and group.site is None and not group.funcs:
        if group.out_of_memory:
            return [*FAILURE_PHRASES[0], *OOM_PHRASES[0]], [*FAILURE_PHRASES[1], *OOM_PHRASES[1]]
        return FAILURE_PHRASES
    return _place_phrases(group)


# Calls said in order within a clause: "rank 0 does broadcast then all_gather", "先broadcast再all_gather".
# An arrow between calls is an order too ("broadcast → all_gather"), spaced or not.
_SEQUENCE = re.compile(r"\s(?:then|after that|afterwards|followed by|and later)\s|\s?(?:→|->|⟶|⇒)\s?|然后|之后|接着|随后|"
                       r"(?<=[A-Za-z_)\s])再(?=\s?[A-Za-z])", re.IGNORECASE)
_TIMED_OUT = re.compile(r"\b(?:time|times|timed|timing)\s+out\b|超时", re.IGNORECASE)
_STUCK = re.compile(r"\b(?:waits?|waiting|stuck|hangs?|hung|blocks?|blocked|sits?|sitting)\b|卡|等|停|阻塞", re.IGNORECASE)


def _placing_step(unit: str, own: tuple[list[str], list[str]] | None = None) -> str:
    """The part of a clause that says where its ranks are. In a sequence of calls a hung rank is in
    the first one it reached and could not leave ("rank 0 does broadcast then all_gather": in the
    broadcast), unless a later step says it waits there ("got through the broadcast, then waits in
    all_gather"). With the group's own place (`own`): a wait in it, then a failure in no call, is
    where the ranks were ("ranks 0, 2, 3 were waiting in backward for rank 1's gradients, then failed
    with 'Connection closed by peer'": the failure is how their wait ended; s35 df6a: read as placed
    in the failure alone)."""
    steps = _SEQUENCE.split(unit)
    if len(steps) == 1:
        return unit
    for step in steps[1:]:
        if _STUCK.search(step) and _has_place(step):
            return step
    chosen = next((step for step in steps if _has_place(step)), unit)
    if own is not None and not any(_covers(phrases, chosen) for phrases in OP_PHRASES.values()):
        return next((step for step in steps if _STUCK.search(step) and _covers(own, step)), chosen)
    return chosen


# Evidence quoted whole: 'rank 0 raised "Timed out waiting 3000ms for recv operation" at the end of
# loss.backward()' puts rank 0 in backward, not in a recv; a stack quoted for rank 1 ("…, main
# (train.py:127)") does not put it at rank 0's line. Three words or more between the quotes: a call
# quoted alone ('rank 0 is in "all_gather"') still places.
_QUOTED = re.compile(r'"(?:[^"\s]+\s+){2,}[^"]*"|“(?:[^”\s]+\s+){2,}[^”]*”')
# A count of collectives is no place: "rank 1 has only 3 all-reduces" (to the others' 4).
_COUNTED = re.compile(r"\b(?:only\s+)?(?:\d+|one|two|three|four|five)\s+(?:gradient\s+)?(?:all[-_ ]?reduces|all[-_ ]?gathers|"
                      r"broadcasts|collectives)\b", re.IGNORECASE)


def _said_together(group: Group, units: list[str], world_size: int, majority: bool,
                   others: list[Group], culprit: bool = False, twins: list[Group] = (),
                   everyone: list[Group] = ()) -> tuple[bool, bool, bool]:
    """(named, placed, misplaced): some clause names exactly these ranks; one such clause puts them in their
    place and no other group's, and none puts them only in another group's place.

    `twins`: the other groups waiting in the same collective at another site (rank 0 in the
    all-reduce inside `evaluate`, the others in the gradient all-reduce in `backward`); the op
    names neither, so between twins only the functions on their stacks tell the places apart."""
    own = _place(group)
    named = placed = wrong = decided = False
    # Ranks of this group placed in its own place a few at a time: "ranks 0, 2 and 3 wait in the grads
    # all-reduce on pg 1, rank 1 in the same all-reduce on pg 2" places all four (group-order, where
    # the process group, not the call, tells them apart).
    in_parts: set[int] = set()
    everyone_here = set(group.ranks) == set(range(world_size))
    others_here = False  # "the others" put in this place, where this group is every rank
    part_first = False  # a part of the set put in its place before the whole set was
    placed_waiting = False  # the whole set placed by a clause that says they wait there
    call_said = False  # the group's call named in a clause so far
    for whole in units:
        unit = _placing_step(whole, own)
        call_said |= _covers(own, unit)
        # a quoted message or stack is evidence: it may place the clause's ranks, it puts them nowhere else (`_QUOTED`)
        plain_whole = _QUOTED.sub(" ", whole)
        plain = _placing_step(plain_whole, own)
        if not names_exactly(group.ranks, whole, world_size, majority):
            about = subject_ranks(whole, world_size)
            part = about if len(group.ranks) > 1 else None
            if part and part < set(group.ranks) and _covers(own, unit) and not any(
                    other.op and _covers(OP_PHRASES.get(other.op, ([], [])), plain) for other in others):
                in_parts |= part  # alone, a part of the set is the wrong set (below); all the parts are the set
            elif (part and part < set(group.ranks) and everyone_here and call_said and names_a_group(whole)
                  and not any(_covers(phrases, plain) for phrases in OP_PHRASES.values())):
                # Every rank in the one call, told apart by process group, the call said once: "ranks
                # 0/2/3 used pg 1 and rank 1 used pg 2", "rank0、2、3的all_reduce在pg 1上，rank1的在pg 2上"
                # (s35 df6a: rank 1 read as placed nowhere). A wrong group is `misplaced_in_group`'s.
                in_parts |= part
            elif (about is None and everyone_here and about_the_others(whole) and _covers(own, unit)
                  and not any(other.op and _covers(OP_PHRASES.get(other.op, ([], [])), unit) for other in others)):
                # "The others wait in the gradient all_reduce in pg 1 for rank 1, and rank 1 waits alone in
                # the same all_reduce in pg 2": where every rank is in this group, the others are the ranks
                # the other parts leave out
                others_here = True
            # between twins: this group's function named, and not the twin's own place as well. The
            # whole clause, not its placing step: "Rank 0 does send then recv" beside both ranks in recv
            # still says rank 0 alone is where the culprit pair is.
            in_own = (_place_specific(group, plain_whole) and not any(_place_specific(twin, plain_whole) for twin in twins)
                      if twins else _covers(own, plain_whole))
            subject = about if culprit and numbered(whole) else None
            if subject and subject <= set(group.ranks) and group.op and not _covers(OP_PHRASES.get(group.op, ([], [])), unit) \
                    and any(_covers(phrases, plain) for op, phrases in OP_PHRASES.items() if op != group.op):
                # a part of the set put in another call ("both in recv: rank 0 is in send"), or first
                # in one ("rank 0 does send→recv": in the send, `_placing_step`)
                wrong = True
            # a part of the set in its own place, after the set was placed, goes on about it ("both ranks
            # are in recv: rank 0 in recv(src=1), rank 1 in recv(src=0)"); first, it is the wrong set
            if subject and not (placed and subject <= set(group.ranks)) and in_own and not any(
                    other.op and _covers(OP_PHRASES.get(other.op, ([], [])), whole) for other in others) and not any(
                    set(other.ranks) == subject and _covers(_place(other), whole) for other in everyone or others):
                # another set of ranks put in the culprit's place ("rank 3 failed first"); not when the
                # clause puts them in their own place and only passes the culprit's line on the way
                # ("rank 1 is in pieces(), called from make_batch in main (line 93)", rank 0 at line 93)
                if subject < set(group.ranks) and part and _covers(own, unit):
                    part_first = True  # wrong unless the other parts follow ("rank 0: in recv. rank 1: in recv")
                else:
                    wrong = True
            continue
        named = True
        if decided:
            continue  # the first clause that places them decides; later ones explain ("rank 0 broadcasts first")
        elsewhere = any(other.op and _covers(OP_PHRASES.get(other.op, ([], [])), plain) for other in others)
        elsewhere |= any(_place_specific(twin, plain) for twin in twins) and not _place_specific(group, unit)
        if _covers(own, unit) and not (elsewhere and not _place_specific(group, unit)):
            placed = decided = True
            placed_waiting = bool(_STUCK.search(unit) or _TIMED_OUT.search(unit))
        elif elsewhere:
            wrong = decided = True
    if in_parts and others_here:
        in_parts = set(group.ranks)
    if in_parts == set(group.ranks) and not wrong and (placed or not decided):
        return True, True, False
    # a part placed alone, the other parts never: the wrong set, even where the set's order is said after
    # ("0号在recv上阻塞，两边都先recv后send" names only rank 0 as stuck)
    # ... unless the whole set is then said to wait there ("rank 1's all_reduce is on pg 2, the others on pg 1,
    # and all four time out at train.py:70"): the part was the detail of where they all wait
    wrong |= part_first and not placed_waiting
    return named, placed and not wrong, wrong


def _others(group: Group, found: Facts) -> list[Group]:
    """The groups waiting in another call than `group`'s (its places are not `group`'s)."""
    return [other for other in found.groups if other is not group and other.op != group.op]


def _placed_by_number(group: Group, units: list[str], found: Facts) -> bool:
    return _said_together(group, units, found.world_size, majority=False, others=_others(group, found), culprit=True,
                          twins=_twins(group, found), everyone=found.groups)[1]


def _twins(group: Group, found: Facts) -> list[Group]:
    return [other for other in found.groups if other is not group and group.op and other.op == group.op
            and other.site != group.site]


def _place_specific(group: Group, unit: str) -> bool:
    """The clause names this group's own function (save_checkpoint), not only an op name."""
    names = [name.replace("_", " ") for name in group.funcs]
    return bool(names) and _covers((names, names), unit)


# "Rank 0 never leaves the all_gather" puts rank 0 in it: the negation is of leaving, not of the place.
_NEVER_LEAVES = re.compile(r"\b(?:never|does not|doesn['’]t|did not|didn['’]t|can['’]?t|cannot|could not|couldn['’]t)\s+"
                           r"(?:leaves?|left|returns? from|returned from|gets? out of|got out of|gets? past|got past|"
                           r"comes? out of|came out of|gets? through|got through)(?=\s+(?:the\s|its\s|dist\.|\w+\())",
                           re.IGNORECASE)


# A failure that follows the culprit's ("1-3号是被连带挂掉的", "the others got torn down") puts no rank
# in the culprit's place: they were taken down where they waited.
_COLLATERAL = re.compile(r"\b(?:got|were|are|get|was|is)\s+(?:then\s+|just\s+|only\s+)?(?:torn down|taken down|brought down|"
                         r"killed(?!\s+by\s+(?:a\s+)?sig))|\b(?:tore|torn|take|took|taken|brought|bring)\s+(?:them\s+)?down\b|"
                         r"被?连带(?:着)?(?:挂掉|挂了|挂|崩掉|崩了|崩|退出|杀掉)?|跟着(?:挂掉|挂了|挂|崩掉|崩了|崩|退出)|被(?:带崩|拖垮|拖死|杀掉|杀死|杀|\s?kill\w*)",
                         re.IGNORECASE)


# A relative clause that says what other ranks do not do: "rank 0 waits in an all_gather that
# ranks 1-3 never reach", "the all-reduce of a step workers 1-3 never run", "a broadcast that the
# others only call after their all_gather". It goes: the clause is about its own subject, and the
# ranks and calls in it are not where that is (s33 round 3: rank 0 was read as named with ranks 1-3).
_RANK_REF = (r"(?:(?:ranks?|gpus?|workers?|process(?:es)?|r)\s?\d+(?:\s?(?:-|–|to)\s?\d+)?|the others|the other ranks|"
             r"the rest|everyone else|nobody else|no other rank)")
_NOT_DONE = (r"(?=\s+(?:will\s+|would\s+)?(?:never|do not|don['’]t|does not|doesn['’]t|did not|didn['’]t|cannot|can['’]t|"
             r"won['’]t|only)\b)")
_RELATIVE_RANKS = re.compile(rf"\b(that|which|step|call|collective|gather|reduce|broadcast|barrier)\s+{_RANK_REF}{_NOT_DONE}"
                             r"[^,;.\n，；。]*",
                             re.IGNORECASE)


# An aside about calls that went through before the hang places no rank: "(last ops before the hang:
# rank 1 send / rank 0 recv at lines 100/97)", "rank 0's last ops are recv at train.py:97 (gradients
# from rank 1, done) and then recv at train.py:109" (s35 df6a: rank 1 read as in a send). Not an aside
# that says a rank waits ("(ranks 1-3 are done with forward and wait in the all-reduce)").
_HISTORY = (r"\bbefore\s+the\s+(?:hang|deadlock|stall|timeout)\b|"
            # not "(rank 0 in send, not done)": a call that did not go through is a place
            r"(?<!not\s)(?<!n['’]t\s)(?<!never\s)(?<!yet\s)\b(?:done|completed|succeeded)\b|"
            r"(?<![没未])(?:已完成|已经完成|完成了)|卡住之前|之前的")
_HISTORY_ASIDE = re.compile(rf"[(（](?=[^()（）]*(?:{_HISTORY}))[^()（）]*[)）]", re.IGNORECASE)


def _without_history(text: str) -> str:
    return _HISTORY_ASIDE.sub(
        lambda aside: aside.group() if _STUCK.search(re.sub(_HISTORY, " ", aside.group(), flags=re.IGNORECASE)) else " ", text)


def _stays_in(text: str) -> str:
    text = transport_timeouts_named(_without_history(text))
    text = _RELATIVE_RANKS.sub(lambda match: "" if match.group(1).lower() in ("that", "which") else match.group(1),
                               text)
    return _COUNTED.sub(" some calls ", _COLLATERAL.sub(" stopped ", _NEVER_LEAVES.sub("stays in", text)))


def _group_text(group: Group, failed: bool) -> dict[str, str]:
    who, who_zh = ranks_text(group.ranks), ranks_text(group.ranks, "zh")
    if failed:
        return {"en": f"{who} failed first", "zh": f"{who_zh} 最先失败"}
    if group.op is None and group.site == "exited":
        return {"en": f"{who} exited", "zh": f"{who_zh} 已经退出"}
    if group.op is None:
        return {"en": f"{who} is outside any collective", "zh": f"{who_zh} 不在任何集合通信里"}
    # the site in backticks: shown as Markdown, `<module>` would read as a tag
    return {"en": f"{who} wait{'s' if len(group.ranks) == 1 else ''} in {group.op} (`{group.site}`)",
            "zh": f"{who_zh} 停在 {group.op}（{_site_zh(group.site)}）"}


_SITE = re.compile(r"^(?P<line>.+?) in (?P<func>\S+)$")
MODEL_JOIN = {"en": ("; ", "."), "zh": ("；", "。")}
"""How the model answer's sentences about each group are joined, and how it ends."""


def _site_zh(site: str | None) -> str:
    """"train.py:65 in main" as Chinese writes it: "`train.py:65`，`main` 里"; the script's top
    level (`<module>`) is 模块顶层, no English word."""
    found = _SITE.match(site or "")
    if found is None:
        return f"`{site}`"
    func = "模块顶层" if found["func"] == "<module>" else f"`{found['func']}` 里"
    return f"`{found['line']}`，{func}"


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
    from tutor.grading.claims.clauses import read
    from tutor.grading.claims.folding import expand_shorthand

    digits = numbers_as_digits(expand_shorthand(clean(answer[:LONG_LIMIT], LONG_LIMIT)), found.world_size)
    text = rest_as_every_rank(relative_places(named_after(digits)), found.world_size)
    whole = read(text, tuple(item.prompt.get(code) for item in items for code in ("en", "zh")))
    # A run of terms or the prompts pasted back place no rank; the whole answer decides, since a
    # clause of it ("ranks 1-3 sit in all_reduce") is read without the list rule.
    # Parts joined by a comma, so a negation in one ("1-3号没有batch了") does not reach the next ("退出循环").
    # The ranks are placed outside the fix (`without_fix`).
    units = [] if whole.bare or whole.copied else clauses(_stays_in(without_fix(ranks_before_calls(camel_words(text)))), ", ")
    cleared = set().union(*(cleared_ranks(unit) for unit in units)) if units else set()
    units = [unit for unit in units if not cleared_ranks(unit)]
    majority = majority_groups(found)
    covered, missing, gained, total, required_missing = [], [], 0.0, 0.0, False
    culprit_placed = False
    wrong_culprit = False  # another rank put in the culprit's place, or the culprit put elsewhere
    in_wrong_group = misplaced_in_group(units, evidence, found.world_size)  # `process_groups`
    for index, group in enumerate(found.odd):
        others = _others(group, found)
        # Groups of equal size (2 ranks: rank 0 here, rank 1 there): after the first is named,
        # "the others" names the rest.
        named, placed, misplaced = _said_together(group, units, found.world_size, everyone=found.groups,
                                                  majority=index > 0 and not majority, others=others,
                                                  culprit=not (index > 0 and not majority),
                                                  twins=_twins(group, found))
        if not placed and not majority and len(found.odd) == 2 and (
                _placed_by_number(group, units, found) if index else _placed_by_number(found.odd[1], units, found)):
            # ... and the other way round: "rank 1 waits in its DataLoader; the others wait in the
            # all-reduce" names rank 0 as the others, rank 1 by its number, in either order.
            named, placed, misplaced = ((True, True, False) if index else
                                        _said_together(group, units, found.world_size, majority=True, others=others,
                                                       twins=_twins(group, found)))
        if in_wrong_group:
            named = placed = False  # "rank 0 waits alone in pg 2" where the flight recorder has rank 1 there
        wrong_culprit |= (misplaced and not placed) or in_wrong_group
        denied = bool(cleared & set(group.ranks))  # "Rank 0 is not the problem": the culprit cleared
        wrong_culprit |= denied
        total += 2.0
        gained += 2.0 if placed else 0.0
        if placed:
            culprit_placed = True
            covered.append(_group_text(group, failed=found.failed is not None)[lang])
        else:
            # Named only where another group waits ("rank 1 exited" when rank 0 did) is a wrong set, not
            # the right ranks with the call missing.
            missing.append(part_wrong("denied" if denied else "culprit-place" if named and not misplaced else "culprit",
                                      lang))
        required_missing |= not placed
    for group in majority:
        if found.failed is not None and group.op is None and group.site is None and not group.funcs:
            continue  # after a crash, ranks killed with no stack and no pending collective: nowhere to name
        if group.site == "exited" and not _said_together(group, units, found.world_size, majority=True,
                                                         others=[])[0]:
            continue  # ranks that exited cleanly need not be named; named, they must be placed right
        others = _others(group, found)
        named, placed, _ = _said_together(group, units, found.world_size, majority=True, others=others,
                                          twins=_twins(group, found))
        total += 1.0
        gained += 1.0 if placed else 0.0
        if placed:
            covered.append(_group_text(group, failed=False)[lang])
        else:
            missing.append(part_wrong("others-place" if named else "others", lang))
            required_missing = True  # the prompt asks where the others wait: "rank 0 is in all_gather" is half of it
    join, end = MODEL_JOIN.get(lang, MODEL_JOIN["en"])
    model = join.join(_group_text(group, found.failed is not None and group in found.odd)[lang]
                      for group in found.odd + majority)
    prompt = {"en": "Which ranks are not where the others are, and which call is each one in?",
              "zh": "哪些 rank 和其他 rank 不在同一处？各自停在哪个调用里？"}[lang]
    rest_items = [item for item in items if item.id != "ranks"]
    feedback = [{"item": "ranks", "prompt": prompt, "ok": not missing, "covered": covered, "missing": missing,
                 "model_answer": model + end}]
    notes: list[str] = []
    if rest_items:
        rest = grade(rest_items, as_ranks(answer, found.world_size), lang, reveal=True)
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
