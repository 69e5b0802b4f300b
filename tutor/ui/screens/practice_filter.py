"""The practice list's search, as LeetCode's problem list has: words and field filters in one line.

`kind:numeric tag:memory is:unsolved bubble` keeps the numeric questions tagged memory, not solved
yet, whose id, title, tags or section mention "bubble". Fields and values are read in both languages
(`类型:数值 状态:未解决`), a full-width colon too; a value matches a prefix (`kind:num`). Pure
functions, tested without a terminal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tutor.ui.strings import STRINGS

FIELDS = {"kind": "kind", "类型": "kind", "题型": "kind", "tag": "tag", "标签": "tag",
          "section": "section", "章节": "section", "is": "status", "status": "status", "状态": "status"}
STATUSES = {"solved": "solved", "done": "solved", "已解决": "solved", "解决": "solved", "做对": "solved",
            "unsolved": "unsolved", "todo": "unsolved", "未解决": "unsolved", "没做对": "unsolved",
            "tried": "tried", "attempted": "tried", "做过": "tried",
            "wrong": "wrong", "failed": "wrong", "做错": "wrong",
            "new": "new", "untried": "new", "没做过": "new", "未做": "new"}
# Every kind's id and its names in both languages (STRINGS' "kind.*"), what `kind:` reads.
KIND_NAMES = {name.lower() for key, names in STRINGS.items() if key.startswith("kind.")
              for name in (key.removeprefix("kind."), *names)}
_TOKEN = re.compile(r"(\S+?)[:：](\S*)|(\S+)")


@dataclass
class Query:
    words: list[str] = field(default_factory=list)
    fields: dict[str, list[str]] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)
    """Values the filter could not read (an unknown status), said back to the learner."""
    unknown_kinds: list[str] = field(default_factory=list)
    """Kinds no question has (`kind:xyz`), said back with the kinds there are."""

    @property
    def empty(self) -> bool:
        return not self.words and not self.fields


def parse(line: str) -> Query:
    query = Query()
    for name, value, word in _TOKEN.findall((line or "").lower()[:500]):
        if word or FIELDS.get(name) is None:
            query.words.append(word or f"{name}:{value}")
            continue
        if not value:
            continue
        kind = FIELDS[name]
        if kind == "status":
            status = next((status for key, status in STATUSES.items() if key.startswith(value)), None)
            if status is None:
                query.unknown.append(value)
                continue
            value = status
        elif kind == "kind" and not any(name.startswith(value) for name in KIND_NAMES):
            query.unknown_kinds.append(value)
            continue
        query.fields.setdefault(kind, []).append(value)
    return query


def status_of(result: bool | None) -> set[str]:
    """The status words a question's best result answers to (True: solved once, False: tried only)."""
    if result is True:
        return {"solved", "tried"}
    if result is False:
        return {"unsolved", "tried", "wrong"}
    return {"unsolved", "new"}


def matches(question, result: bool | None, query: Query, section_title: dict[str, str]) -> bool:
    """Whether a question is kept: every field filter holds (any of its values), every word is found."""
    kind_names = {question.kind, *(name.lower() for name in STRINGS.get(f"kind.{question.kind}", ()))}
    tags = [tag.lower() for tag in question.tags]
    section = " ".join([question.section or "", *section_title.values()]).lower()
    checks = {
        "kind": lambda value: any(name.startswith(value) for name in kind_names),
        "tag": lambda value: any(value in tag for tag in tags),
        "section": lambda value: value in section,
        "status": lambda value: value in status_of(result),
    }
    for kind, values in query.fields.items():
        if not any(checks[kind](value) for value in values):
            return False
    # The id too: `tutor questions`, `tutor ask ID` and the lessons name questions by id, and
    # "hang-causes" typed into the search found nothing (found in tmux).
    haystack = " ".join([question.id, question.title.get("en"), question.title.get("zh"), *kind_names, *tags,
                         section]).lower()
    return all(word in haystack for word in query.words)
