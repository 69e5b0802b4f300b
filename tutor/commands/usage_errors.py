"""argparse's own errors (a bad choice, a missing name, an unknown flag) in the learner's language.

argparse writes them in English before any command runs, so `tutor lab check --lang zh
--backend xyz` was an English line in Chinese mode (issue 16). Its messages have a few fixed
shapes (CPython's Lib/argparse.py); each is read here by its pattern and said again in Chinese
with the same values. A message of another shape (a type function's own words) keeps its
English, with the Chinese frame around it.
"""

from __future__ import annotations

import re

from tutor.text import T

LINE = T("{prog}: error: {message} (see `{prog} --help`)", "{prog}：错误：{message}（见 `{prog} --help`）")

# (argparse's message, its Chinese): the groups are the values argparse put in.
MESSAGES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern, re.S), zh) for pattern, zh in (
    (r"argument (.+?): invalid choice: (.+) \(choose from (.+)\)", "参数 {0} 不接受 {1}（可选：{2}）"),
    (r"argument (.+?): invalid int value: (.+)", "参数 {0} 要一个整数，不能是 {1}"),
    (r"argument (.+?): invalid float value: (.+)", "参数 {0} 要一个数，不能是 {1}"),
    (r"argument (.+?): invalid (.+?) value: (.+)", "参数 {0} 要 {1} 类型的值，不能是 {2}"),
    (r"argument (.+?): expected one argument", "参数 {0} 后面要跟一个值"),
    (r"argument (.+?): expected at least one argument", "参数 {0} 后面至少要跟一个值"),
    (r"argument (.+?): expected at most one argument", "参数 {0} 后面最多跟一个值"),
    (r"argument (.+?): expected (\d+) arguments?", "参数 {0} 后面要跟 {1} 个值"),
    (r"argument (.+?): not allowed with argument (.+)", "参数 {0} 不能和 {1} 一起用"),
    (r"argument (.+?): ignored explicit argument (.+)", "参数 {0} 不接受值 {1}"),
    (r"the following arguments are required: (.+)", "缺少必需的参数：{0}"),
    (r"one of the arguments (.+) is required", "参数 {0} 必须给出其中一个"),
    (r"unrecognized arguments: (.*)", "不认识的参数：{0}"),
    (r"ambiguous option: (.+) could match (.+)", "选项 {0} 有歧义，可能是 {1}"),
    (r"argument (.+?): (.+)", "参数 {0}：{1}"),
))


def usage_line(prog: str, message: str, lang: str) -> str:
    """The one line a usage error prints (without its newline)."""
    return LINE.format(lang, prog=prog, message=chinese(message) if lang == "zh" else message)


def chinese(message: str) -> str:
    for pattern, zh in MESSAGES:
        found = pattern.fullmatch(message)
        if found:
            return zh.format(*found.groups())
    return message
