"""The hang view of a run: every rank's stack side by side, the collectives each rank made, lined up
by position, and the first divergence, marked once the learner has answered.

`hang_texts(shown, lang)` is a pure function of `tutor.labs.hangreport.view(...)`, so tests read
what a learner sees without a terminal; `LabHangView` lays those texts out.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from tutor.ui.guard import Guarded

STATE_STYLE = {"done": "dim", "waiting": "bold yellow", "issued": "yellow", "failed": "bold red"}
LABELS = {
    "en": {"stacks": "Stacks (the program's frames, innermost first)", "timeline": "Collectives by position",
           "p2p": "Point-to-point", "divergence": "First divergence", "hidden": "The first divergence is marked "
           "here once you have answered the diagnosis.", "failed": "failed", "outside": "outside any collective",
           "none": "no stack", "step": "step", "first": "← first"},
    "zh": {"stacks": "调用栈（程序自己的帧，最内层在上）", "timeline": "按位置对齐的 collective", "p2p": "点对点",
           "divergence": "第一个分歧", "hidden": "回答诊断之后，这里会标出第一个分歧。", "failed": "失败",
           "outside": "不在任何 collective 里", "none": "没有调用栈", "step": "step", "first": "← 第一个"},
}


def stack_texts(shown: dict, lang: str = "en") -> list[Text]:
    """One text per rank: who, where it waits (or how it failed), then its frames."""
    labels = LABELS.get(lang, LABELS["en"])
    texts = []
    for stack in shown["stacks"]:
        text = Text()
        text.append(f"rank {stack['rank']}", style="bold")
        text.append(f" · {labels['step']} {'-' if stack['step'] is None else stack['step']}\n", style="dim")
        if stack["waiting_in"]:  # a rank the timeout ended still names the call it was in
            text.append(f"{stack['waiting_in']}", style="bold yellow")
            text.append(f"  {stack['site'] or ''}\n", style="dim")
        if stack["failure"]:
            text.append(f"{labels['failed']}: {stack['failure']}\n", style="bold red")
        elif not stack["waiting_in"]:
            text.append(f"{labels['outside']}\n", style="italic")
        for frame in stack["frames"] or [labels["none"]]:
            text.append(f"  {frame}\n")
        texts.append(text)
    return texts


def timeline_table(shown: dict, lang: str = "en") -> Table | Text:
    labels = LABELS.get(lang, LABELS["en"])
    if not shown["collectives"]:
        return Text("")
    ranks = list(shown["collectives"][0]["ranks"])
    table = Table(title=labels["timeline"], title_justify="left", box=None, padding=(0, 1), expand=False)
    table.add_column("#", justify="right", style="dim")
    for rank in ranks:
        table.add_column(f"rank {rank}")
    table.add_column("")
    for row in shown["collectives"]:
        cells = [Text(str(row["position"] + 1))]
        for rank in ranks:
            cell = row["ranks"][rank]
            cells.append(Text("—", style="dim") if cell is None else
                         Text(f"{cell['op']} {cell['state']}", style=STATE_STYLE.get(cell["state"], "")))
        marked = row["diverges"]
        cells.append(Text(labels["first"], style="bold red") if marked else Text(""))
        table.add_row(*cells, style="on grey23" if marked else None)
    return table


def divergence_text(shown: dict, lang: str = "en") -> Text:
    labels = LABELS.get(lang, LABELS["en"])
    text = Text()
    if shown["p2p"]:
        text.append(f"{labels['p2p']}\n", style="bold")
        for rank, calls in shown["p2p"].items():
            text.append(f"  rank {rank}: ")
            for call in calls:
                if call:
                    text.append(f"{call['op']} ", style=STATE_STYLE.get(call["state"], ""))
            text.append("\n")
    divergence = shown["first_divergence"]
    if divergence:
        text.append(f"{labels['divergence']}: ", style="bold red")
        text.append(divergence["text"].get(lang) or divergence["text"]["en"])
    elif shown["outcome"] in ("hang", "crash"):
        text.append(labels["hidden"], style="dim italic")
    return text


class LabHangView(Vertical, metaclass=Guarded):
    """Fed by the Labs screen with `show(shown, lang)` (a `hangreport.view` dict)."""

    DEFAULT_CSS = """
    LabHangView { height: auto; }
    LabHangView #hang-stacks { height: auto; }
    LabHangView .hang-rank { width: 1fr; height: auto; border: round $secondary; padding: 0 1; }
    LabHangView #hang-title, LabHangView #hang-timeline, LabHangView #hang-divergence { height: auto; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="hang-title")
        yield Horizontal(id="hang-stacks")
        yield Static(id="hang-timeline")
        yield Static(id="hang-divergence")

    def show(self, shown: dict | None, lang: str = "en") -> None:
        stacks = self.query_one("#hang-stacks", Horizontal)
        stacks.remove_children()
        if shown is None:
            for name in ("#hang-title", "#hang-timeline", "#hang-divergence"):
                self.query_one(name, Static).update("")
            return
        self.query_one("#hang-title", Static).update(Text(LABELS.get(lang, LABELS["en"])["stacks"], style="bold"))
        stacks.mount_all([Static(text, classes="hang-rank") for text in stack_texts(shown, lang)])
        self.query_one("#hang-timeline", Static).update(timeline_table(shown, lang))
        self.query_one("#hang-divergence", Static).update(divergence_text(shown, lang))
