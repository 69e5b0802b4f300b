"""Lesson tables that fit the reader: a Markdown table wider than the pane is reflowed as a list,
one item per row, each cell named by its column (walkthrough M9: at 80 columns the "Three worked
configurations" table lost its TP/PP/CP columns to `…`). Pure text in, text out."""

from __future__ import annotations

import re

from rich.cells import cell_len

_NUMBER = re.compile(r"^[~≈<>]?\s*\d[\d,.\s]*(%|[kKMBGT]\b)?$")
_INDEX_HEADERS = ("", "#", "No.", "序号", "编号")
"""A first column that only numbers the rows: its figure is the item's name ("**1** — stage: …")."""
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", body)]


def _width(rows: list[list[str]]) -> int:
    """Cells of one column padded to its widest, plus the borders, as Textual draws a table. In
    terminal cells, not characters: a Chinese character takes two, so a Chinese table measured by
    len() "fitted" at 80 columns and was drawn squeezed, its "#" column empty (issue 16)."""
    columns = max(len(row) for row in rows)
    widest = [max((cell_len(row[i]) if i < len(row) else 0) for row in rows) for i in range(columns)]
    return sum(widest) + 3 * columns + 1


def _as_list(header: list[str], rows: list[list[str]]) -> list[str]:
    items = []
    for row in rows:
        first = row[0] if row else ""
        if header and header[0] not in _INDEX_HEADERS and _NUMBER.match(first):
            # a bare figure says nothing without its column: "8,192 — TP: 8 …" was the GPU count of
            # Llama 3's table at 80 columns (found in tmux); a name ("70B, seq 8K") stands alone
            first = f"{header[0]}{_colon(header[0])}{first}"
        rest = [f"{name}{_colon(name)}{value}" for name, value in zip(header[1:], row[1:]) if value]
        items.append(f"- **{first}**" + (" — " + " · ".join(rest) if rest else ""))
    return items


def _colon(name: str) -> str:
    """A Chinese column name takes a full-width colon ("得分：60%"), an English one ": "."""
    return "：" if re.search("[\u3400-\u9fff]", name) else ": "


def fit_tables(markdown: str, width: int) -> str:
    """Every table of `markdown` that is wider than `width` columns, rewritten as a list."""
    lines = markdown.split("\n")
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.lstrip().startswith("|") and index + 1 < len(lines) and _SEPARATOR.match(lines[index + 1]):
            end = index + 2
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                end += 1
            header = _cells(line)
            rows = [_cells(row) for row in lines[index + 2:end]]
            if _width([header, *rows]) > width:
                out.extend(_as_list(header, rows))
            else:
                out.extend(lines[index:end])
            index = end
            continue
        out.append(line)
        index += 1
    return "\n".join(out)
