"""Chinese prose uses full-width punctuation next to Chinese characters (issue 20).

"训练一个模型,每隔几步存一次" reads as a machine's output to a Chinese engineer; inside Chinese
text the comma, colon, semicolon, question and exclamation marks are the full-width ones
(，：；？！). Half-width marks stay where they belong: code spans, code blocks, command lines,
indented formula lines, and between Latin characters ("TP 4, PP 4"). Phrase lists are what an
answer is matched against, not text a learner reads, so they are not checked; of a lab, the
learner-facing title, brief, hints and diagnosis (its prompts, rubric texts and model answers)
are checked. In labs, where every Chinese field has been converted, half-width parentheses
around Chinese words are caught too ("（第 4 步）", not "(第 4 步)"); a call such as
exp(分数 − 最大值) keeps its ASCII parentheses.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

from tests.content.test_own_words import CJK, CONTENT_GLOBS, REPO, prose_lines

HALF_WIDTH_NEXT_TO_CHINESE = re.compile(
    r"(?<=[\u3400-\u4dbf\u4e00-\u9fff])[,;:?!]|[,;:?!](?=[\u3400-\u4dbf\u4e00-\u9fff])")
INLINE_CODE = re.compile(r"`[^`]*`")
NOT_PROSE_KEYS = {"phrases"}
LAB_PROSE_KEYS = {"title", "brief", "hints", "diagnosis"}
# A half-width parenthesis pair holding Chinese, unless it is a call: exp(分数 − 最大值).
HALF_WIDTH_PARENS_AROUND_CHINESE = re.compile(
    r"(?<!exp)(?<!log)(?<!max)(?<!min)(?<!sqrt)\(([^()`\n]*[\u3400-\u4dbf\u4e00-\u9fff][^()`\n]*)\)")


def half_width_marks(text: str) -> list[str]:
    """Each half-width mark touching a Chinese character in the prose of `text`, with context."""
    found = []
    for line in prose_lines(text):
        prose = INLINE_CODE.sub("`", line)
        found += [prose[max(0, m.start() - 8):m.end() + 8] for m in HALF_WIDTH_NEXT_TO_CHINESE.finditer(prose)]
    return found


def half_width_parens(text: str) -> list[str]:
    """Each half-width parenthesis pair around Chinese words in the prose of `text`."""
    return [m.group() for line in prose_lines(text)
            for m in HALF_WIDTH_PARENS_AROUND_CHINESE.finditer(INLINE_CODE.sub("`", line))]


@lru_cache(maxsize=4)
def chinese_prose(root: Path = REPO) -> list[tuple[str, str]]:
    """(path:line, text) for every Chinese string a learner reads (read once per root: two tests use it)."""
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


def test_diagnosis_fields_of_a_lab_are_prose_but_their_phrases_are_not(tmp_path):
    lab = tmp_path / "labs" / "01-x"
    lab.mkdir(parents=True)
    (lab / "lab.yaml").write_text(
        "title: {en: T, zh: 标题}\n"
        "diagnosis:\n"
        "  - id: ranks\n"
        "    prompt: {en: \"Which rank?\", zh: \"哪个 rank 卡住了?\"}\n"
        "    points:\n"
        "      - id: culprit\n"
        "        text: {en: rank 0, zh: \"rank 0 停下了,停在 gather 里\"}\n"
        "        phrases: {en: [rank 0], zh: [\"0号,卡住\"]}\n"
        "    model_answer: {en: \"Fix it.\", zh: \"修法:对标志做 all_reduce(MAX)\"}\n",
        encoding="utf-8")
    found = [context for _, text in chinese_prose(tmp_path) for context in half_width_marks(text)]
    assert len(found) == 3, found  # the prompt's ?, the rubric text's comma, the model answer's colon


def test_half_width_parentheses_around_chinese_are_found():
    assert half_width_parens("停在 gather(finish)里，loss 是 NaN(空 batch)") == ["(空 batch)"]
    assert half_width_parens("exp(分数 − 最大值) 的和；context(cfg.max_len)") == []
    assert half_width_parens("`f(第 4 步)` 在代码里") == []


def test_labs_use_full_width_parentheses_around_chinese():
    bad = [f"{where}: {pair!r}" for where, text in chinese_prose() if where.startswith("labs/")
           for pair in half_width_parens(text)]
    assert not bad, f"{len(bad)} half-width parentheses around Chinese text in labs:\n" + "\n".join(bad)
