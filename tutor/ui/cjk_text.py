"""Chinese prose without the spaces that line folding leaves in it (walkthrough polish 6).

The Chinese texts are folded at about 100 columns in their YAML files, and Markdown renders a
soft line break as a space: "按课上讲的⏎来" became "按课上讲的 来" on screen. Chinese puts no space
between two characters, nor next to full-width punctuation; between a Chinese character and a
Latin word it keeps one (the texts write "在 4 个 rank 上"). So a line break inside a paragraph
is dropped where both sides are Chinese or one is full-width punctuation, and spaces next to
full-width punctuation go, outside code. Done here, where every Chinese text reaches the screen,
rather than by unfolding each content file (new labs and lessons are folded the same way).
Code fences, tables, lists, headings and hard breaks keep their lines.
"""

from __future__ import annotations

import re

IDEOGRAPH = "\u3400-\u9fff"
# Only marks that English never uses: a dash or curly quote may sit between spaces in English.
FULL_WIDTH = "，。；：、（）！？「」『』《》【】"
_CHINESE = re.compile(f"[{IDEOGRAPH}{FULL_WIDTH}]")
_BLOCK_START = re.compile(r"\s*([-*+] |\d+[.)] |#|\||>|```|~~~)")
_SPACE_AFTER = re.compile(f"(?<=[{FULL_WIDTH}]) +(?=\\S)")
_SPACE_BEFORE = re.compile(r"(?<=\S) +(?=[，。；：、（）！？「」『』《》【】])")
_BETWEEN_CHARACTERS = re.compile(f"(?<=[{IDEOGRAPH}]) +(?=[{IDEOGRAPH}])")  # "15.6 万亿 个 token"
# "*（NVIDIA 面试）*": the bracket moves out of the emphasis, so that a fold before it can go.
_MARKED_BRACKET = re.compile(r"(?<![^\s])(\*{1,2}|_{1,2})([（「『《【])")
_QUOTE = re.compile(r"\s*>\s?")
_LIST_ITEM = re.compile(r"\s*([-*+]|\d+[.)]) ")
# "**算 memory。** model state": a run-in heading ends in full-width punctuation, then a space.
# The punctuation moves out of the emphasis ("**算 memory**。model state"): with the space simply
# dropped, "。**m" would no longer close the bold (CommonMark's flanking rule).
_MARKED_SPACE = re.compile(f"([{FULL_WIDTH}]+)(\\*{{1,2}}|_{{1,2}}) +(?=\\S)")
_MARKED_END = re.compile(f"([{FULL_WIDTH}]+)(\\*{{1,2}}|_{{1,2}})\\s*$")  # "次。）*⏎动手": the same at a fold
# "（Megatron-LM 的切法）: 每对", "任务,埋好了": ASCII punctuation between Chinese text reads as a
# slip; next to a Chinese character or a full-width bracket it becomes full-width (outside code).
_HALF = {",": "，", ";": "；", ":": "：", "!": "！", "?": "？"}
_HALF_AFTER_CHINESE = re.compile(f"(?<=[{IDEOGRAPH}）」』》】])([,;:!?]) ?(?=\\S|$)")
_HALF_BEFORE_CHINESE = re.compile(f"(?<=\\S)([,;:!?]) ?(?=[{IDEOGRAPH}（「『《【])")
_CODE = re.compile(r"(`+)[^`]*?\1")


def unfold(markdown: str) -> str:
    """`markdown` with the folding of its Chinese paragraphs undone (English passes unchanged)."""
    if not markdown or not _CHINESE.search(markdown):
        return markdown
    out: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            out.append(line)
            continue
        if fenced:
            out.append(line)
            continue
        line = _MARKED_END.sub(r"\2\1", _MARKED_BRACKET.sub(r"\2\1", line))
        previous = out[-1] if out else ""
        quoted = _QUOTE.match(line) and _QUOTE.match(previous)  # two lines of one blockquote
        rest = line[_QUOTE.match(line).end():] if quoted else line
        if previous[-1:] in _HALF and rest.strip() and (re.match(f"[{IDEOGRAPH}）」』》】]", previous[-2:-1])
                                                        or re.match(f"\\s*[{IDEOGRAPH}]", rest)):
            out[-1] = previous = previous[:-1] + _HALF[previous[-1]]  # "stage 3:⏎平时" reads "stage 3：平时"
        if (out and previous.strip() and rest.strip() and not previous.endswith(("  ", "\\"))
                and not _BLOCK_START.match(rest) and (quoted or not _BLOCK_START.match(previous)
                                                    or (_LIST_ITEM.match(previous) and line[:1].isspace()))
                and previous.rstrip()[-1:] not in ("", ">") and _joins(previous.rstrip()[-1], rest.lstrip()[0])):
            out[-1] = previous.rstrip() + rest.lstrip()
        else:
            out.append(line)
    tidied, fenced = [], False
    for line in out:
        fence = line.lstrip().startswith(("```", "~~~"))
        fenced = fenced != fence
        tidied.append(line if fenced or fence else _tidy(line))
    return "\n".join(tidied)


def _joins(last: str, first: str) -> bool:
    """Whether a fold between these two characters is dropped."""
    if last in FULL_WIDTH or first in FULL_WIDTH:
        return True
    return bool(re.match(f"[{IDEOGRAPH}]", last) and re.match(f"[{IDEOGRAPH}]", first))


def _tidy(line: str) -> str:
    """Spaces next to full-width punctuation dropped, outside code spans and Markdown markers."""
    pieces, last = [], 0
    for code in _CODE.finditer(line):
        pieces.append(_spaces(line[last:code.start()]))
        pieces.append(code.group(0))
        last = code.end()
    pieces.append(_spaces(line[last:]))
    return "".join(pieces)


def _spaces(prose: str) -> str:
    prose = _MARKED_SPACE.sub(r"\2\1", prose)
    prose = _HALF_AFTER_CHINESE.sub(lambda m: _HALF[m.group(1)], prose)
    prose = _HALF_BEFORE_CHINESE.sub(lambda m: _HALF[m.group(1)], prose)
    return _BETWEEN_CHARACTERS.sub("", _SPACE_BEFORE.sub("", _SPACE_AFTER.sub("", prose)))
