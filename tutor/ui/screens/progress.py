"""Progress: totals, streak, mastery per lesson section and per tag, weak areas."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Header, Static

from tutor.ui.guard import from_thread
from tutor.ui.screens.base import SectionScreen
from tutor.ui.strings import plural, text, when
from tutor.ui.widgets.footer import TutorFooter


SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(scores: list[float]) -> str:
    return "".join(SPARKS[min(len(SPARKS) - 1, int(max(0.0, min(1.0, score)) * len(SPARKS)))] for score in scores)


def _review_and_mock_lines(record: dict, lang: str) -> str:
    """Spaced review at a glance, then each mock-interview format's recent scores as a sparkline."""
    review = record.get("review") or {}
    lines = [text("progress.review", lang, cards=plural(review.get("cards", 0), "card", "cards", lang),
                  due=review.get("due", 0), reviews=plural(review.get("reviews", 0), "review", "reviews", lang),
                  next=when(review.get("next_due"), lang))]
    by_format = (record.get("mock") or {}).get("by_format") or {}
    for name, trend in sorted(by_format.items()):
        if trend["recent"]:
            lines.append(text("progress.mock", lang, format=name, spark=sparkline(trend["recent"]),
                              last=f"{trend['last']:.0%}", best=f"{trend['best']:.0%}", n=trend["finished"]))
    if not by_format:
        lines.append(text("progress.no_mock", lang))
    return "\n".join(lines)


def mastery_bar(fraction: float, width: int = 12) -> str:
    filled = round(max(0.0, min(1.0, fraction)) * width)
    return "█" * filled + "░" * (width - filled)


class ProgressScreen(SectionScreen):
    """Where the learner stands, and what to practise next."""

    CSS_PATH = "progress.tcss"

    BINDINGS = [Binding("r", "reload", "Reload", id="reload")]
    _record: dict | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="progress-totals", classes="panel")
        yield Static(id="progress-practice")
        # One scrolling pane for both tables (issue 16: each table scrolled inside the pane too, two
        # scrollbars): the tables show every row, take no focus and no cursor, and the pane scrolls
        # (↑↓, PageUp/PageDown, the mouse).
        with VerticalScroll(id="progress-tables"):
            for name in ("by-section", "by-tag"):
                table = DataTable(id=name, cursor_type="none", zebra_stripes=True)
                table.can_focus = False
                yield table
        yield Static(id="progress-weak")
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.action_reload()

    def on_screen_resume(self) -> None:
        self.action_reload()

    def on_resize(self) -> None:
        if self._record is not None:
            self.render_texts(self.app.lang)  # the titles' column is fitted to the width

    @work(thread=True, exclusive=True)
    def action_reload(self) -> None:
        from tutor.content import load
        from tutor.store.progress import summary

        content = load()
        store = self.app.open_store()
        record = summary(store, content) if store is not None else None
        if record is not None:
            _add_solved(record, store, content)
            record["section_titles"] = {
                f"{lesson_id}/{section.id}": section.title
                for lesson_id, loaded in content.lessons.items() for section in loaded.model.sections
            }
        from_thread(self, self._show, record)

    def _show(self, record: dict | None) -> None:
        self._record = record
        self.render_texts(self.app.lang)

    def render_texts(self, lang: str) -> None:
        totals = self.query_one("#progress-totals", Static)
        totals.border_title = text("progress.title", lang)
        record = self._record
        if record is None:
            totals.update(text("home.store_error", lang, error=self.app.store_error) if self.app.store_error else "…")
            return
        accuracy = f"{record['accuracy']:.0%}" if record["accuracy"] is not None else "–"
        totals.update(text("progress.totals", lang, attempts=plural(record["attempts"], "attempt", "attempts", lang),
                           accuracy=accuracy, tried=record["questions_tried"], total=record["questions_total"],
                           streak=plural(record["streak_days"], "day", "days", lang),
                           labs=plural(record["lab_runs"], "lab run", "lab runs", lang),
                           solved=record["solved"], passed=record["labs_passed"], lab_total=record["labs_total"]))
        titles = record["section_titles"]
        self._fill(self.query_one("#by-section", DataTable), text("progress.section", lang), record["by_section"],
                   lambda key: titles[key].get(lang) if key in titles else key, record["solved_by_section"], lang)
        self._fill(self.query_one("#by-tag", DataTable), text("progress.tag", lang), record["by_tag"], str,
                   record["solved_by_tag"], lang)
        self.query_one("#progress-practice", Static).update(_review_and_mock_lines(record, lang))
        weak = record["weak_tags"]
        self.query_one("#progress-weak", Static).update(
            text("progress.weak", lang, tags=", ".join(weak)) if weak else text("progress.no_weak", lang))

    def _fill(self, table: DataTable, heading: str, rows: dict[str, dict], label, solved: dict[str, int],
              lang: str) -> None:
        """Mastery (the latest attempt of each question, what the learner can do now) beside how
        many were ever solved (Practice's ✓) and tried: one table that agrees with the list
        (walkthrough minor 14: "0% (3/11 tried)" beside questions answered right). A title wider
        than the pane leaves wraps in its column, so every column stays in view (at 80 columns
        the table ran off the pane and scrolled sideways)."""
        from rich.cells import cell_len

        headings = [heading, "", text("progress.mastery", lang), text("progress.solved", lang),
                    text("progress.tried", lang)]
        cells = [[label(key), mastery_bar(entry["mastery"]), f"{entry['mastery']:.0%}",
                  f"{solved.get(key, 0)}/{entry['questions']}", f"{entry['tried']}/{entry['questions']}"]
                 for key, entry in rows.items()]
        widths = [max(map(cell_len, column)) for column in zip(headings, *cells)]
        pane = self.query_one("#progress-tables", VerticalScroll)
        # The pane's width less its scrollbar, the table's border and each column's padding.
        room = pane.content_region.width - pane.styles.scrollbar_size_vertical - table.styles.gutter.width
        room -= sum(widths[1:]) + 2 * table.cell_padding * len(widths)
        wrap = pane.content_region.width > 0 and widths[0] > room
        table.clear(columns=True)
        table.add_column(headings[0], width=max(12, room) if wrap else None)
        table.add_columns(*headings[1:])
        for key, row in zip(rows, cells):
            table.add_row(*row, key=key, height=None if wrap else 1)


def _add_solved(record: dict, store, content) -> None:
    """Questions ever answered right (the best result, as Practice marks them ✓), by section and
    tag, and labs whose check passed: counted here so Progress and Practice say the same."""
    from collections import Counter

    from tutor.labs.catalog import all_labs

    from tutor.store.lab_runs import passed_labs
    from tutor.store.records import ever_solved

    solved = {question_id for question_id, right in ever_solved(store).items() if right}
    solved &= set(content.questions)
    by_section, by_tag = Counter(), Counter()
    for question_id in solved:
        question = content.questions[question_id].model
        by_section[question.section] += 1
        for tag in question.tags:
            by_tag[tag] += 1
    labs = set(all_labs())
    passed = passed_labs(store)
    record.update(solved=len(solved), solved_by_section=dict(by_section), solved_by_tag=dict(by_tag),
                  labs_passed=len(passed & labs), labs_total=len(labs))
