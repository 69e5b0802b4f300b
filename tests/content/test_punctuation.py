"""Chinese prose uses full-width punctuation next to Chinese characters (issue 20).

"训练一个模型,每隔几步存一次" reads as a machine's output to a Chinese engineer; inside Chinese
text the comma, colon, semicolon, question and exclamation marks are the full-width ones
(，：；？！). Half-width marks stay where they belong: code spans, code blocks, command lines,
indented formula lines, and between Latin characters ("TP 4, PP 4"). Phrase lists are what an
answer is matched against, not text a learner reads, so they are not checked; of a lab, the
learner-facing title, brief and hints are checked (its diagnosis fields belong to the lab
checker).
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from tests.content.test_own_words import CJK, CONTENT_GLOBS, REPO, prose_lines

HALF_WIDTH_NEXT_TO_CHINESE = re.compile(
    r"(?<=[\u3400-\u4dbf\u4e00-\u9fff])[,;:?!]|[,;:?!](?=[\u3400-\u4dbf\u4e00-\u9fff])")
INLINE_CODE = re.compile(r"`[^`]*`")
NOT_PROSE_KEYS = {"phrases"}
LAB_PROSE_KEYS = {"title", "brief", "hints"}


def half_width_marks(text: str) -> list[str]:
    """Each half-width mark touching a Chinese character in the prose of `text`, with context."""
    found = []
    for line in prose_lines(text):
        prose = INLINE_CODE.sub("`", line)
        found += [prose[max(0, m.start() - 8):m.end() + 8] for m in HALF_WIDTH_NEXT_TO_CHINESE.finditer(prose)]
    return found


def chinese_prose(root: Path = REPO) -> list[tuple[str, str]]:
    """(path:line, text) for every Chinese string a learner reads."""
    found = []
    for pattern in CONTENT_GLOBS:
        for path in sorted(root.glob(pattern)):
            relative = path.relative_to(root).as_posix()
            is_lab = relative.startswith("labs/")
            stack = [(yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader), ())]
            while stack:
                node, keys = stack.pop()
                if isinstance(node, yaml.ScalarNode):
                    if CJK.search(node.value) and not NOT_PROSE_KEYS & set(map(str, keys)) and (
                            not is_lab or (keys and keys[0] in LAB_PROSE_KEYS)):
                        found.append((f"{relative}:{node.start_mark.line + 1}", node.value))
                elif isinstance(node, yaml.SequenceNode):
                    stack.extend((child, keys + (i,)) for i, child in enumerate(node.value))
                elif isinstance(node, yaml.MappingNode):
                    stack.extend((value, keys + (key.value,)) for key, value in node.value)
    return found


def test_half_width_marks_inside_chinese_are_found():
    assert half_width_marks("训练一个模型,每隔几步存一次") == ["训练一个模型,每隔几步存一次"]
    assert half_width_marks("卡死:只有 rank 0") and half_width_marks("在哪一行?")
    assert half_width_marks("DP 2,开 ZeRO")  # a mark before a Chinese character counts too


def test_half_width_marks_where_they_belong_pass():
    assert half_width_marks("TP 4, PP 4，共 16 张卡。") == []
    assert half_width_marks("用 `if rank == 0:` 包起来。") == []
    assert half_width_marks("示例：\n```\nx = 1 # 注释,不算\n```") == []
    assert half_width_marks("export NCCL_DEBUG=INFO  # 打开,看日志") == []
    assert half_width_marks("公式：\n\n    每卡字节数 = 6Ψ + 12Ψ/N,   Ψ = 这张卡上的参数量") == []


def test_chinese_prose_uses_full_width_punctuation():
    bad = [f"{where}: {context!r}" for where, text in chinese_prose() for context in half_width_marks(text)]
    assert not bad, f"{len(bad)} half-width marks inside Chinese text:\n" + "\n".join(bad)
