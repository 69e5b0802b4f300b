"""Text charts for the playground: memory against capacity, the pipeline timeline, the rank grid.

Each is a pure function returning a rich Text, so tests read what a learner sees without a
terminal; the playground puts them in Static widgets.
"""

from __future__ import annotations

from rich.text import Text

from tutor.sizing.display import format_value
from tutor.sizing.pipeline_schedule import Timeline
from tutor.sizing.rank_grid import RankGrid

MEMORY_PARTS = (("weights", "dodger_blue2"), ("grads", "medium_purple"), ("optimizer", "dark_orange"),
                ("activations", "green3"))
GROUP_COLORS = ("dodger_blue2", "dark_orange", "green3", "medium_purple", "gold3", "deep_pink3", "turquoise2",
                "salmon1", "chartreuse3", "orchid", "steel_blue1", "light_goldenrod2")


def memory_bar(memory: dict, labels: dict[str, str], width: int = 60, lang: str = "en") -> Text:
    """Stacked bar of the per-GPU memory, scaled so the GPU's capacity is the bar's full width
    (or the total, when it does not fit: then the part past capacity is marked)."""
    capacity = memory.get("capacity") or 0
    total = memory.get("total") or sum(memory.get(name) or 0 for name, _ in MEMORY_PARTS)
    scale = max(capacity, total) or 1
    bar = Text()
    used = 0
    for name, color in MEMORY_PARTS:
        cells = round((memory.get(name) or 0) / scale * width)
        bar.append("█" * cells, style=color)
        used += cells
    if capacity and total <= capacity:
        bar.append("░" * max(0, width - used), style="grey42")
    elif capacity:
        edge = round(capacity / scale * width)
        bar = bar[:edge] + Text("▌", style="bold red") + Text(bar.plain[edge:], style="red")
    bar.append("\n")
    for name, color in MEMORY_PARTS:
        bar.append("■ ", style=color)
        bar.append(f"{labels[name]} {format_value(memory.get(name) or 0, 'GB', 1, lang)}   ")
    bar.append("\n")
    fits = memory.get("fits")
    verdict = labels["fits"] if fits else labels["over"]
    bar.append(f"{labels['total']} {format_value(total, 'GB', 1, lang)} / {format_value(capacity, 'GB', 1, lang)} · ",
               style="bold")
    bar.append(verdict, style="bold green" if fits else "bold red")
    return bar


def pipeline_chart(timeline: Timeline, width: int = 72, max_rows: int = 16) -> Text:
    """One row per stage; forward passes in blue, backward in green, idle (the bubble) shaded red.

    A long timeline is compressed: each column covers several slots and shows what most of them
    hold, so the bubble's share stays visible at any size.
    """
    grid = timeline.grid
    span = len(grid[0])
    per_column = max(1, -(-span // width))
    chart = Text()
    stages = range(len(grid)) if len(grid) <= max_rows else list(range(max_rows - 1)) + [len(grid) - 1]
    styles = {None: "red", False: "black on dodger_blue2", True: "black on green3"}
    for stage in stages:
        chart.append(f"{stage:>3} ", style="grey62")
        row = grid[stage]
        run_style, run = None, []
        for start in range(0, span, per_column):
            cells = row[start:start + per_column]
            busy = [cell for cell in cells if cell is not None]
            if len(busy) * 2 < len(cells):
                kind, glyph = None, "░"
            else:
                microbatch, _, kind = busy[0]
                glyph = str(microbatch % 10) if per_column == 1 else "█"
            if run and kind != run_style:  # one styled span per run keeps long rows cheap to draw
                chart.append("".join(run), style=styles[run_style])
                run = []
            run_style = kind
            run.append(glyph)
        chart.append("".join(run), style=styles[run_style])
        chart.append("\n")
    if len(grid) > max_rows:
        chart.append(f"    … {len(grid) - max_rows} more stages\n", style="grey62")
    return chart


def rank_grid_chart(grid: RankGrid, dimension: str, max_nodes: int = 16) -> Text:
    """Nodes as rows of GPUs; each GPU colored by its group along `dimension`.

    For TP the color is the TP group (ranks that differ only in TP share it); for CP, PP and DP
    it is the rank's index along that dimension (its CP slice, pipeline stage, DP replica).
    """
    chart = Text()
    nodes = -(-grid.world_size // grid.gpus_per_node)
    for node in range(min(nodes, max_nodes)):
        chart.append(f"node {node:>3} ", style="grey62")
        for local in range(grid.gpus_per_node):
            rank = node * grid.gpus_per_node + local
            if rank >= grid.world_size:
                break
            coordinates = grid.coordinates(rank)
            if dimension == "tp":
                key = grid.group(rank, "tp")[0]
                color = GROUP_COLORS[(key // grid.tp) % len(GROUP_COLORS)]
                label = str(coordinates["tp"])
            else:
                color = GROUP_COLORS[coordinates[dimension] % len(GROUP_COLORS)]
                label = str(coordinates[dimension])
            chart.append(f" {label:>2} ", style=f"black on {color}")
        chart.append("\n")
    if nodes > max_nodes:
        chart.append(f"… {nodes - max_nodes} more nodes ({grid.world_size} GPUs)\n", style="grey62")
    return chart
