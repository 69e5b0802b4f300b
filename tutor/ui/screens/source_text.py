"""A question's reference line as a learner reads it, in the app's language.

Content writes sources for authors: `lesson §worked-examples (70B on 64 GPUs)`, `deep dive
choosing-config §procedure`, `facts.md §6`, `interview-topics.md 1.2`. Shown as written, slugs and
file names leaked into the interface and Chinese mode showed English prose (walkthrough polish 11,
minor 22). Here slugs become the sections' and lessons' titles, the two reference files get names,
and in Chinese the authors' English remarks in parentheses are left out (citations stay: paper
names and tables are looked up as they are).

Before the learner answers, the remarks in parentheses are left out in both languages: authors
write the method and often the answer there (`(6Ψ + 12Ψ/N, N = DP × CP)`, `(shard over DP × CP =
4)`, `(TP = PP = CP = 1, all GPUs to DP)`, `(ask dense or MoE, GPUs, tokens, sequence length
first)`; issue 14 item 6). The whole line comes back with the answer.
"""

from __future__ import annotations

import re

_LESSON = re.compile(r"\blesson §([a-z0-9-]+)")
_DEEP_DIVE = re.compile(r"\bdeep dive ([a-z0-9-]+)(?: §([a-z0-9-]+))?")
_MORE = re.compile(r"(?<=[\s(])§([a-z0-9-]+)")
FILES = {"facts.md": ("reference facts", "参考资料"), "interview-topics.md": ("interview topics", "面试题目表")}
WORDS = {"lesson": ("lesson", "课程"), "and": ("and", "和")}
# The English words of the short remarks Chinese mode keeps (citations stay as written): found by
# listing every question's reference line in Chinese ("(OOM scenario)", "(question 3)").
REMARK_WORDS_ZH = ((r"\bquestion (\d+)", r"第 \1 题"), (r"\bstep (\d+)", r"第 \1 步"),
                   (r"\bclarify first\b", "先澄清"), (r"\bquantify first\b", "先量化"),
                   (r"\bdesign round\b", "设计题"), (r"\bscenario\b", "场景"), (r"\btraining tokens\b", "训练 token"),
                   (r"\bshapes?\b", "形状"), (r"\bscaling limits\b", "扩展的上限"), (r"\bdata pipeline\b", "数据管道"),
                   (r"\bcheck (?=m\b)", "检查 "), (r"(?<=\d) bytes?\b", " 字节"), (r"\bgradient bytes\b", "gradient 字节数"))


def source_text(source: str, lang: str, lessons: dict, remarks: bool = True) -> str:
    """`lessons`: lesson id -> loaded lesson (tutor.content's); unknown slugs are kept as written.
    `remarks=False`: only where to read, without any parenthesised remark (before answering)."""
    zh = lang == "zh"
    titles = {}
    for lesson_id, loaded in lessons.items():
        titles[lesson_id] = loaded.model.title.get(lang)
        for section in loaded.model.sections:
            titles.setdefault(f"§{section.id}", section.title.get(lang))

    def section(slug: str) -> str:
        title = titles.get(f"§{slug}")
        return (f"「{title}」" if zh else f"“{title}”") if title else f"§{slug}"

    def lesson(slug: str) -> str:
        title = titles.get(slug)
        return (f"「{title}」" if zh else f"“{title}”") if title else slug

    shown = source if remarks and not zh else _strip_remarks(source, 3 if remarks else 0)
    shown = _DEEP_DIVE.sub(lambda m: lesson(m.group(1)) + (" › " + section(m.group(2)) if m.group(2) else ""), shown)
    shown = _LESSON.sub(lambda m: f"{WORDS['lesson'][zh]} {section(m.group(1))}", shown)
    shown = _MORE.sub(lambda m: section(m.group(1)), shown)
    for name, words in FILES.items():
        shown = shown.replace(name, words[zh])
    if zh:
        shown = shown.replace(" and ", f" {WORDS['and'][1]} ").replace("; ", "；")
        # a short remark kept in Chinese: its few English words in Chinese ("(1T × 16 bytes ÷ 80 GB)",
        # found in tmux)
        for english, chinese in REMARK_WORDS_ZH:
            shown = re.sub(english, chinese, shown)
    return " ".join(shown.split())


def _strip_remarks(text: str, latin_words: int) -> str:
    """Drop parenthesised remarks with at least `latin_words` Latin words (3: English prose; 0: all)."""
    depth, start, pieces = 0, 0, []
    for index, char in enumerate(text):
        if char == "(":
            if depth == 0:
                pieces.append(text[start:index])
                start = index
            depth += 1
        elif char == ")" and depth:
            depth -= 1
            if depth == 0:
                remark = text[start:index + 1]
                if latin_words and len(re.findall(r"[A-Za-z]{2,}", remark)) < latin_words:
                    pieces.append(remark)
                start = index + 1
    pieces.append(text[start:])
    return re.sub(r"\s+([;,])", r"\1", "".join(pieces)).strip()
