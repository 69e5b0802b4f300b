"""Which process group each rank's last collective went to, and an answer that puts a rank in
another one. Read by the run's diagnosis (`tutor.labs.run_diagnosis`).

The evidence groups the ranks by the call they wait in; where the ranks wait in the same call on
different process groups (group-order: the logging rank's "grads" is process group 2, the others'
is group 1), only the group tells the odd rank apart. "Rank 0 waits alone in pg 2" is then the
wrong rank, however right the call: the flight recorder says rank 1.
"""

from __future__ import annotations

import re

from tutor.labs.rank_mentions import numbered, subject_ranks

# "pg 2", "process group 2", "group 2", "PG#2", "进程组2", "2号process group", "2号进程组"; 'pg "2"' as the
# flight recorder prints it
_GROUP_NUMBER = re.compile(r"(?<![A-Za-z0-9_])(?:pg|process\s?group|group)\s?#?\s?[\"'“”]?(\d+)(?![\d.])|进程组\s?[\"'“”]?(\d+)|"
                           r"(?<![\d.])(\d+)\s?号\s?(?:process\s?group|进程组|pg|group|组)", re.IGNORECASE)


# A clause that says its ranks do not join, reach or call into the group places them in none: "Rank 1's pg 1
# (metrics) never joins the others' pg 1 all-reduce" (s36 df7b: a right group-order post-mortem read as rank 1
# in pg 1), "rank 1 is not in pg 1", "1号没有进 1号进程组".
_NOT_IN_GROUP = re.compile(r"\b(?:never|not|n['’]t|no longer)\s(?:\w+\s)?(?:joins?|joined|enters?|entered|reach(?:es|ed)?|"
                           r"meets?|met|calls?|called|in|on|into|part of)\b|(?:不|没有?|未)(?:在|进|加入|参与|调用)")


# A clause about making a group numbers it, it does not put the rank there: "MetricsWriter 先 new_group("metrics")
# 拿了 pg 1" on the logging rank, whose gradient all-reduce is in pg 2 (round 15: a right post-mortem read as
# rank 1 waiting in pg 1).
_MAKES_GROUP = re.compile(r"\bnew_group\b|\bnew group\b|\b(?:creates?|created|creating|makes?|made|making|builds?|built|"
                          r"constructs?|constructed|takes?|took|gets?|got|grabs?|grabbed)\s(?:\w+\s){0,2}?(?:pg|process\s?group|group)\b|"
                          r"(?:创建|新建|建了|先建|拿了|占了|拿到|分到)")


def names_a_group(text: str) -> bool:
    """The clause puts its ranks in a process group by number ("pg 2 on rank 1", "rank1的在pg 2上")."""
    return bool(_GROUP_NUMBER.search(text))


def rank_groups(evidence: dict) -> dict[int, str]:
    """Each rank's process group for its last collective (the flight recorder's, else the recorder's
    own `pg`: "1 (grads)"), where the evidence has one."""
    groups = {}
    for rank in evidence.get("ranks") or []:
        entries = rank.get("flight_recorder") or rank.get("collectives") or []
        pg = entries[-1].get("pg") if entries else None
        if pg:
            groups[rank["rank"]] = str(pg).split()[0]
    return groups


def misplaced_in_group(units: list[str], evidence: dict, world_size: int) -> bool:
    """Some clause puts its ranks in one process group by number, and one of them was in another.
    Only where the ranks' groups differ, only a clause that names one group ("pg 2 on rank 1 and pg 1
    on ranks 0, 2, 3" names two and says which is which in a way this does not read), and only about
    some ranks named by number: "All four ranks are in all_reduce, on different process groups, the
    logging rank is in pg 2" is about every rank, and the group is the logging rank's."""
    groups = rank_groups(evidence)
    if len(set(groups.values())) < 2:
        return False
    for unit in units:
        if _NOT_IN_GROUP.search(unit) or _MAKES_GROUP.search(unit):
            continue
        numbers = {next(group for group in match.groups() if group) for match in _GROUP_NUMBER.finditer(unit)}
        ranks = subject_ranks(unit, world_size)
        if len(numbers) == 1 and ranks and ranks < set(range(world_size)) and numbered(unit) and all(
                rank in groups for rank in ranks):
            (said,) = numbers
            # another rank's group: a number no rank's group has is no placement this can judge (the
            # learner's run numbers its groups on from the harness's: "pg 19", "pg 20")
            if said in groups.values() and any(groups[rank] != said for rank in ranks):
                return True
    return False
