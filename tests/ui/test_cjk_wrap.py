"""Issue 16 item 2: Chinese prose wrapped only at spaces. At 80 columns a Markdown paragraph and a
Static broke "attention" into "attent" / "ion", left "每个 rank" alone on a line, and started a line
with "，". Now a Chinese line breaks between characters, keeps Latin and code words whole, and no
line starts with closing punctuation; English wraps exactly as before."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.app import App
from textual.geometry import Region
from textual.widgets import Markdown, Static
from textual.widgets._markdown import MarkdownParagraph

import tutor.ui.app  # noqa: F401  (installs the line breaking, as the app does)

ZH = ("每个 rank 在反向传播结束后都要做一次梯度的all-reduce，这一步走的是节点之间的InfiniBand网络，"
      "所以DP放在最外层：它一步只通信一次，而且可以和反向传播重叠，对带宽的要求最低。TP则必须留在同一个节点内的NVLink上，"
      "因为它每一层都要通信两次（attention 和 MLP 各一次），跨节点会慢得多。")
EN = ("Data parallelism sits outermost: it communicates once per step, a gradient all-reduce that overlaps "
      "with the backward pass, so it tolerates InfiniBand; tensor parallelism stays inside the NVLink node.")
WORDS = ("all-reduce", "InfiniBand", "NVLink", "attention", "MLP", "rank")


class Panes(App):
    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def compose(self):
        yield Markdown(self.text)
        yield Static(self.text, id="static")


async def _lines(text: str, width: int) -> dict[str, list[str]]:
    app = Panes(text)
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        shown = {}
        for name, widget in (("markdown", app.query_one(MarkdownParagraph)), ("static", app.query_one("#static"))):
            strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
            shown[name] = [strip.text.rstrip() for strip in strips if strip.text.strip()]
            shown[name + "_width"] = widget.content_region.width
        return shown


@pytest.mark.parametrize("width", [80, 50])
async def test_chinese_breaks_between_characters_and_keeps_words_whole(width):
    shown = await _lines(ZH, width)
    for name in ("markdown", "static"):
        lines, room = shown[name], shown[name + "_width"]
        assert "".join(lines).replace(" ", "") == ZH.replace(" ", ""), lines  # nothing lost
        for word in WORDS:
            assert any(word in line for line in lines), (word, lines)
        assert not any(line.lstrip()[:1] in "，。；：、）" for line in lines), lines
        assert all(cell_len(line) >= room - 12 for line in lines[:-1]), lines  # filled, not ragged


async def test_english_wraps_as_before():
    import rich._wrap

    from tutor.ui import cjk_wrap

    shown = await _lines(EN, 80)
    saved = rich._wrap.words
    original = rich._wrap.re_word
    rich._wrap.words = lambda text: ((m.start(), m.end(), m.group(0)) for m in original.finditer(text))
    try:
        before = await _lines(EN, 80)
    finally:
        rich._wrap.words = saved
    assert rich._wrap.words is cjk_wrap.words
    assert shown == before
