"""The metrics panel of a perf lab run: headline numbers, per-rank step times, the trace summary.

`metrics_text(evidence, lang)` is a pure function of a run's (or a check's) evidence, so tests
read what a learner sees without a terminal; `LabMetrics` is the Static the Labs screen mounts
and feeds with `show(evidence, lang)`. Each rank's bar is its step time; the solid part is the
time the rank was busy (not waiting in a collective), so a straggler stands out as the one
solid bar among hollow ones.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from tutor.labs.check_names import check_detail
from tutor.text import T
from tutor.ui.guard import Guarded

BAR_WIDTH = 32
CATEGORY_STYLE = {"data-loading": "dark_orange", "communication": "dodger_blue2", "compute": "green3",
                  "straggler": "deep_pink3"}
PARTS = (("data", "dark_orange"), ("communication", "dodger_blue2"), ("launch", "gold3"),
         ("straggler", "deep_pink3"))
LABELS = {
    "en": {"empty": "No measurements yet: run the lab to see step time, MFU and the trace summary.",
           "step": "step", "timed": " (median of the timed steps)", "tokens": "tokens/s", "mfu": "MFU",
           "of_measured": "of the measured peak",
           "of_published": "of the published peak", "ranks": "Step time per rank, timed steps (solid: busy, hollow: waiting)",
           "summary": "Trace summary", "profiled": "profiled steps {steps}, slower: the profiler is on", "traces": "Traces (open in https://ui.perfetto.dev)",
           "speedup": "speedup over the shipped program", "data": "data wait", "communication": "exposed comm",
           "launch": "launch overhead", "straggler": "straggler",
           "shipped": "shipped program, its profiled steps"},
    "zh": {"empty": "还没有测量结果：运行这个 lab，就能看到 step time、MFU 和 trace 摘要。",
           "step": "step", "timed": "（计时 step 的中位数）", "tokens": "tokens/s", "mfu": "MFU",
           "of_measured": "（相对实测峰值）",
           "of_published": "（相对公布峰值）", "ranks": "每个 rank 的 step time，计时 step（实心：在忙，空心：在等）",
           "summary": "Trace 摘要", "profiled": "profile 的第 {steps} 步，开着 profiler 所以更慢", "traces": "Trace 文件（用 https://ui.perfetto.dev 打开）",
           "speedup": "相对原程序的加速", "data": "等数据", "communication": "暴露的通信",
           "launch": "launch 开销", "straggler": "straggler",
           "shipped": "原程序（它被 profile 的那几步）"},
}

# Chinese takes full-width brackets and colons
ASIDE = T("({text})", "（{text}）")
HEADING = T("{text}: ", "{text}：")


def metrics_text(evidence: dict | None, lang: str = "en", width: int = BAR_WIDTH) -> Text:
    """Everything the panel shows for one evidence dict (a run's, or a check's)."""
    labels = LABELS.get(lang, LABELS["en"])
    metrics = (evidence or {}).get("metrics") or {}
    summary = (evidence or {}).get("summary") or {}
    if not metrics.get("step_time_s") and not metrics.get("speedup"):
        return Text(labels["empty"], style="dim")
    text = Text()
    _headline(text, metrics, labels)
    _rank_chart(text, metrics, summary, labels, width)
    if summary.get("fractions"):
        _summary(text, summary, labels, width, lang)
    elif metrics.get("shipped_summary"):
        text.append(f"\n{labels['shipped']}: ", style="bold")
        text.append(check_detail(str(metrics["shipped_summary"].get("message") or ""), lang))
    traces = (evidence or {}).get("trace_files") or []
    if traces:
        text.append(f"\n\n{labels['traces']}\n", style="bold")
        for path in traces:
            text.append(f"  {path}\n", style="underline")
    return text


def _headline(text: Text, metrics: dict, labels: dict) -> None:
    parts = []
    if metrics.get("step_time_s"):
        parts.append(f"{labels['step']} {metrics['step_time_s'] * 1e3:.1f} ms{labels['timed']}")
    if metrics.get("tokens_per_s"):
        parts.append(f"{metrics['tokens_per_s']:,.0f} {labels['tokens']}")
    if metrics.get("mfu"):
        parts.append(f"{labels['mfu']} {metrics['mfu']:.1%} {labels['of_measured']}")
    if metrics.get("mfu_published"):
        parts.append(f"{metrics['mfu_published']:.1%} {labels['of_published']}")
    text.append(" · ".join(parts), style="bold")
    if metrics.get("speedup"):
        text.append(f"\n{labels['speedup']}: ")
        text.append(f"{metrics['speedup']:.2f}×", style="bold green" if metrics["speedup"] > 1 else "bold red")


def _rank_chart(text: Text, metrics: dict, summary: dict, labels: dict, width: int) -> None:
    per_rank = {int(rank): seconds for rank, seconds in (metrics.get("per_rank_step_time_s") or {}).items()
                if seconds}
    if not per_rank:
        return
    busy = {int(rank): seconds for rank, seconds in (summary.get("per_rank_busy_s") or {}).items()}
    longest = max(per_rank.values())
    slowest = (summary.get("slowest_rank") or {}).get("rank")
    text.append(f"\n\n{labels['ranks']}\n", style="bold")
    for rank in sorted(per_rank):
        cells = max(1, round(per_rank[rank] / longest * width))
        # The busy share comes from the profiled steps; the bar's length from the timed ones.
        share = min(1.0, busy[rank] / summary["step_time_s"]) if rank in busy and summary.get("step_time_s") else 1.0
        solid = round(cells * share)
        style = "deep_pink3" if rank == slowest and summary.get("category") == "straggler" else "green3"
        text.append(f"  rank {rank:<3}")
        text.append("█" * solid, style=style)
        text.append("░" * (cells - solid), style="grey50")
        text.append(" " * (width - cells) + f" {per_rank[rank] * 1e3:7.1f} ms\n")


def _summary(text: Text, summary: dict, labels: dict, width: int, lang: str) -> None:
    category = summary.get("category") or ""
    steps = summary.get("steps_profiled") or []
    if steps:  # its step times come from other steps than the headline's (walkthrough minor 8)
        shown = f"{steps[0]}–{steps[-1]}" if len(steps) > 1 else str(steps[0])
        text.append("\n" + ASIDE.format(lang, text=labels["profiled"].format(steps=shown)), style="dim")
    text.append("\n" + HEADING.format(lang, text=labels["summary"]), style="bold")
    if category:  # shown once a diagnosis was tried (before, the evidence is blinded)
        text.append(f"{category} ({summary.get('finding', '')})", style=f"bold {CATEGORY_STYLE.get(category, '')}")
    text.append("\n")
    # the measurement's own words, in the learner's language (as `tutor lab run --lang zh` prints them)
    text.append(check_detail(str(summary.get("message") or ""), lang) + "\n")
    fractions = summary["fractions"]
    for name, color in PARTS:
        share = fractions.get(name) or 0.0
        # padded by terminal cells, not characters: a Chinese label is twice as wide as it is long
        text.append(f"  {labels[name]}" + " " * max(1, 16 - cell_len(labels[name])))
        text.append("█" * round(min(1.0, share) * width), style=color)
        text.append(f" {share:.0%}\n")


class LabMetrics(Static, metaclass=Guarded):
    """The metrics panel; the Labs screen calls `show(evidence, lang)` when a run or check finishes."""

    DEFAULT_CSS = """
    LabMetrics { height: auto; padding: 0 1; }
    """

    def show(self, evidence: dict | None, lang: str = "en") -> None:
        # Bars as wide as the pane allows: at 80 columns a 32-cell bar wrapped its "ms" onto the
        # next line (walkthrough minor 19); 26 cells are the label and the figure beside a bar.
        room = (self.size.width or (self.parent.size.width if self.parent else 0) or 80) - 26
        self.update(metrics_text(evidence, lang, width=max(8, min(BAR_WIDTH, room))))
