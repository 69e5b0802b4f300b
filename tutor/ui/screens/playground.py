"""Playground: edit a model, a batch, a layout and a GPU; see memory, bubble and ranks at once."""

from __future__ import annotations

import re
import unicodedata

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Checkbox, Header, Input, Label, Select, Static, TabbedContent, TabPane

from tutor.ui.guard import callback
from tutor.ui.screens.base import SectionScreen
from tutor.text import T
from tutor.ui.strings import STRINGS, text
from tutor.ui.widgets.footer import TutorFooter
from tutor.ui.widgets.text_field import TextField
import tutor.ui.widgets.safe  # noqa: F401  (page moves in a Select's overlay made safe)

NUMBER_FIELDS = ("params", "seq", "micro_batch", "global_batch", "tokens", "gpus", "tp", "pp", "cp", "ep", "dp",
                 "vpp", "mfu")
CHOICE_FIELDS = {"sharding": ("none", "distopt", "zero1", "zero2", "zero3"),
                 "recompute": ("none", "selective", "full")}
SWITCH_FIELDS = ("sp", "flash")
SCHEDULES = ("auto", "gpipe", "1f1b", "interleaved")
COLOR_BY = ("tp", "cp", "pp", "dp", "ep")
# What a number box takes: digits, e-notation and K/M/B/G/T, also full-width (a Chinese input method
# left on typed "１６", which the box dropped whole, as it did "1,024"; found in tmux), and commas
# between groups of three (`_count_text`).
NUMBER_CHARS = r"[0-9０-９.．eEｅＥkKMBGTｋＫＭＢＧＴ_,，]*"
DEFAULTED_FIELDS = ("params", "seq", "micro_batch", "global_batch", "gpus", "dp")
"""Boxes that, left empty, take the model's count, the training defaults of the specs or the
layout the engine resolves (GPUs = TP·PP·CP·DP, DP = GPUs/(TP·PP·CP))."""
MAX_SIMULATED_PASSES = 40_000
NARROW_BELOW = 100
"""Screen width (columns) under which the form narrows."""
TAB_PANELS = {"tab-pipeline": "pipeline-chart", "tab-ranks": "rank-chart", "tab-checks": "checks",
              "tab-derivation": "derivation"}
TRAFFIC_STEPS = (("dp", "dp_grad_bytes"), ("tp", "tp_bytes_per_layer"), ("pp", "pp_bytes_per_microbatch"),
                 ("cp", "cp_bytes_per_layer"))
DEFAULT = {"model": "lesson-70b", "gpus": 64, "tp": 4, "pp": 4, "cp": 2, "seq": 8192, "micro_batch": 1,
           "global_batch": 512, "sharding": "distopt", "gpu": "h100-80gb"}


class PlaygroundScreen(SectionScreen):
    """Every change is re-sized by the engine at once (`tutor.sizing.scenario.report`)."""

    CSS_PATH = "playground.tcss"

    BINDINGS = [
        Binding("f3", "cycle_color", "Color ranks by", id="color"),
        Binding("f4", "cycle_schedule", "Schedule", id="schedule"),
        Binding("f8", "toggle_form", "Form", id="form"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._settings: dict = dict(DEFAULT)
        self._color_by = 0
        self._schedule = 0
        self._filling = False
        self._report: dict | None = None
        self._specs: tuple = ()  # what `_report` was sized from (scenario.specs)
        self._error: str | None = None
        self._stale: set[str] = set()
        """Tabs whose panel shows older settings than the form (redrawn when opened)."""

    def compose(self) -> ComposeResult:
        from tutor.sizing.hardware import GPUS
        from tutor.sizing.presets import MODELS

        # Narrow or not from the start: set on the first resize instead, the class restyled the
        # whole screen right after it was first styled.
        self.set_class(self.app.size.width < NARROW_BELOW, "-narrow")
        yield Header(show_clock=False)
        with Horizontal(id="playground"):
            with VerticalScroll(id="settings"):
                yield Select([], id="scenario", prompt="…", allow_blank=True, compact=True)
                with Horizontal(classes="field-row"):
                    yield Label(id="label-model", classes="field-label")
                    yield Select([(name, name) for name in MODELS], id="field-model", allow_blank=False, compact=True)
                with Horizontal(classes="field-row"):
                    yield Label(id="label-gpu", classes="field-label")
                    yield Select([(name, name) for name in GPUS], id="field-gpu", allow_blank=False, compact=True)
                for name in NUMBER_FIELDS:
                    with Horizontal(classes="field-row"):
                        yield Label(id=f"label-{name}", classes="field-label")
                        yield TextField(id=f"field-{name}", restrict=NUMBER_CHARS, compact=True)
                for name, choices in CHOICE_FIELDS.items():
                    with Horizontal(classes="field-row"):
                        yield Label(id=f"label-{name}", classes="field-label")
                        yield Select([(choice, choice) for choice in choices], id=f"field-{name}",
                                     allow_blank=False, compact=True)
                for name in SWITCH_FIELDS:
                    yield Checkbox(id=f"field-{name}", value=True, compact=True)
            with Vertical(id="results"):
                yield Static(id="memory-chart", classes="panel")
                with TabbedContent(id="result-tabs"):
                    # Each tab scrolls: the derivation alone has ~30 steps (walkthrough M4).
                    for pane, panel in TAB_PANELS.items():
                        with TabPane(pane, id=pane):
                            with VerticalScroll(classes="tab-scroll"):
                                yield Static(id=panel)
        yield TutorFooter()

    def on_mount(self) -> None:
        super().on_mount()
        # Typed numbers are watched, not messaged: a watcher runs as the value changes, so the
        # charts are redrawn in the same frame as the keystroke (an Input.Changed message bubbles
        # up after that frame and its redraw waits for the next one, ~20 ms later).
        for name in NUMBER_FIELDS:
            self.watch(self.query_one(f"#field-{name}", Input), "value", self._typed, init=False)
        self.load_settings(self._settings)

    @callback
    def _typed(self) -> None:
        if not self._filling:
            self._left_example()
            self.recompute()

    def _left_example(self) -> None:
        """A learner's edit makes the picked worked example's name untrue ("70B on 64 GPUs: TP 4,
        PP 4, CP 2, DP 2" stayed up with CP 1, walkthrough polish 9): the picker offers them again."""
        picker = self.query_one("#scenario", Select)
        if not picker.is_blank() and not self._still_shows(self._scenarios()[picker.value]):
            picker.clear()

    def _still_shows(self, example: dict) -> bool:
        """Whether the form still holds every setting the example sets (the Select.Changed of its
        own filling arrives after it, and a setting it leaves open, MFU say, keeps it true)."""
        try:
            form = self._read_form()
        except ValueError:
            return False
        for name, value in example.items():
            shown = form.get(name)
            if name == "gpu":
                value = _gpu_name(str(value))
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                if not isinstance(shown, (int, float)) or abs(float(shown) - float(value)) > 1e-9 * abs(float(value)):
                    return False
            elif str(shown) != str(value):
                return False
        return True

    # -- settings in and out

    def load_settings(self, settings: dict) -> None:
        """Fill the form (a lesson scenario, or the default) and size it."""
        self._settings = {**{"sp": True, "flash": True}, **settings}
        self._filling = True
        try:
            self.query_one("#field-model", Select).value = str(self._settings.get("model", "lesson-70b"))
            self.query_one("#field-gpu", Select).value = _gpu_name(self._settings.get("gpu", "h100"))
            for name in NUMBER_FIELDS:
                value = self._settings.get(name)
                self.query_one(f"#field-{name}", Input).value = "" if value is None else _number_text(value)
            for name, choices in CHOICE_FIELDS.items():
                self.query_one(f"#field-{name}", Select).value = str(self._settings.get(name, choices[0]))
            for name in SWITCH_FIELDS:
                self.query_one(f"#field-{name}", Checkbox).value = bool(self._settings.get(name, True))
        finally:
            self._filling = False
        self.recompute()

    def _read_form(self) -> dict:
        from tutor.units import CountError, parse_count

        settings: dict = {"model": self.query_one("#field-model", Select).value,
                          "gpu": self.query_one("#field-gpu", Select).value}
        for name in NUMBER_FIELDS:
            raw = self.query_one(f"#field-{name}", Input).value.strip()
            if raw:
                try:
                    settings[name] = parse_count(_count_text(raw))
                except CountError as error:  # say which box: "not a number: '.'" alone did not
                    # A pasted 5,000 digits were quoted whole and filled every panel (found in tmux).
                    said = {lang: error.text(lang).replace(raw, raw[:24] + "…") if len(raw) > 32 else error.text(lang)
                            for lang in ("en", "zh")}
                    box = _box_name(name)
                    raise CountError(T(f"{box.en}: {said['en']}", f"{box.zh}：{said['zh']}")) from None
        for name in CHOICE_FIELDS:
            settings[name] = self.query_one(f"#field-{name}", Select).value
        for name in SWITCH_FIELDS:
            settings[name] = self.query_one(f"#field-{name}", Checkbox).value
        return settings

    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _changed(self, event) -> None:
        if self._filling:
            return
        if getattr(event, "select", None) is not None and event.select.id == "scenario":
            if not event.select.is_blank():
                self.load_settings(self._scenarios()[event.value])
            else:
                self.recompute()  # the memory panel's title drops the example's name
            return
        self._left_example()
        self.recompute()

    # -- sizing and drawing

    def recompute(self) -> None:
        """Size the form's settings and redraw every panel (synchronous: the engine takes ~1 ms)."""
        from tutor.errors import TutorError
        from tutor.sizing.errors import SizingError
        from tutor.sizing.report import size
        from tutor.sizing.scenario import specs

        try:
            self._settings = self._read_form()
            # `scenario.report` in two steps: the empty boxes' placeholders read the same specs
            self._specs = specs(self._settings)
            self._report = size(*self._specs, lang=self.app.lang)
            self._error = None
        except (SizingError, ValueError) as error:
            # In the learner's language: the engine's and the count reader's errors carry both; one
            # about a box says the box's label, not the engine's name ("global_batch must be positive").
            if isinstance(error, SizingError) and error.field in NUMBER_FIELDS:
                self._error = error.named(_box_name(error.field)).get(self.app.lang)
            else:
                self._error = error.text(self.app.lang) if isinstance(error, TutorError) else str(error)
        self._draw(self.app.lang)

    def _show_defaults(self, lang: str) -> None:
        """An empty Params, Seq. length, Micro-batch, Global batch, GPUs or DP box shows, greyed,
        what the report just sized with: an emptied Seq. length sized 4,096 tokens, half the
        example's 8,192, and the activations halved with nothing on screen saying why; with GPUs
        cleared it sized TP·PP·CP·DP GPUs and said "fits" without saying how many (found in tmux,
        issue 16). Blank while the settings do not size: no box claims a value nothing is using
        (DP kept "auto: 2" under a TP typed as "e", and after GPUs went to 128 too)."""
        used = {} if self._error is not None or self._report is None else _sized_with(self._specs, self._report)
        for name in DEFAULTED_FIELDS:
            value = used.get(name)
            self.query_one(f"#field-{name}", Input).placeholder = (
                "" if self._settings.get(name) or value is None else text("playground.auto_value", lang, value=value))

    def on_resize(self) -> None:
        """Below 100 columns the form narrows to 31 columns with short labels, so the results get the
        rest (at 80×24 the form took half the width and the charts wrapped into the fold)."""
        narrow = self.size.width < NARROW_BELOW
        if narrow != self.has_class("-narrow"):
            self.set_class(narrow, "-narrow")
            self._label_fields(self.app.lang)
            self.call_after_refresh(self.recompute)  # the charts are drawn to the new width

    def _label_fields(self, lang: str) -> None:
        short = self.has_class("-narrow")

        def label(name: str) -> str:
            return text(f"field.{name}.short" if short and f"field.{name}.short" in STRINGS else f"field.{name}", lang)

        for name in ("model", "gpu", *NUMBER_FIELDS, *CHOICE_FIELDS):
            self.query_one(f"#label-{name}", Label).update(label(name))
        for name in SWITCH_FIELDS:
            self.query_one(f"#field-{name}", Checkbox).label = label(name)

    def render_texts(self, lang: str) -> None:
        self._label_fields(lang)
        scenarios = self._scenarios(lang)
        scenario = self.query_one("#scenario", Select)
        scenario.set_options([(title, key) for key, title in scenarios["_titles"].items()])
        scenario.prompt = text("playground.scenario", lang)
        tabs = self.query_one("#result-tabs", TabbedContent)
        for pane, key in (("tab-pipeline", "pipeline"), ("tab-ranks", "ranks"), ("tab-checks", "checks"),
                          ("tab-derivation", "derivation")):
            tabs.get_tab(pane).label = text(f"playground.{key}", lang)
        if self._report is not None or self._error is not None:
            self.recompute()

    def _draw(self, lang: str) -> None:
        from tutor.ui.widgets.charts import memory_bar

        memory_panel = self.query_one("#memory-chart", Static)
        memory_panel.border_title = text("playground.memory", lang)
        picker = self.query_one("#scenario", Select)
        if not picker.is_blank():
            # The picker's one line cuts the name ("The same 1T with interleaving (v ="): whole here.
            memory_panel.border_title += " · " + str(self._scenarios(lang)["_titles"].get(picker.value, ""))
        self._show_defaults(lang)
        if self._error is not None:
            # Every panel that depends on the settings says why it is empty: no chart, bubble or
            # derivation of the last valid value stays on screen (walkthrough M5). Text, not
            # markup: the message may quote what was typed.
            message = Text(f"✗ {self._error}", style="bold red")
            _update(memory_panel, message)
            for panel in TAB_PANELS.values():
                _update(self.query_one(f"#{panel}", Static), message)
            return
        report = self._report
        labels = {key: text(f"playground.{key}", lang)
                  for key in ("weights", "grads", "optimizer", "activations", "fits", "over", "total")}
        width = max(20, min(60, self.query_one("#results").size.width - 6))
        chart = memory_bar(report["memory"], labels, width=width, lang=lang)
        chart.append("\n")
        stage = self._stage_note(lang)
        if stage:
            chart.append(stage + "\n", style="dim")
        chart.append_text(self._throughput(lang))
        _update(memory_panel, chart)
        self._stale.update(TAB_PANELS)
        self._draw_tab(self.query_one("#result-tabs", TabbedContent).active, lang)

    def _stage_note(self, lang: str) -> str:
        """Whose memory the bar is (walkthrough minor 4): the engine sizes the first, fullest
        pipeline stage when it counts Ψ from the model's shape, and the even split Ψ/(TP·PP) when
        Ψ is stated (the lesson's round 1T); either way the bar says which, with both counts."""
        from tutor.sizing.display import format_auto

        steps = {step["id"]: step for step in self._report["steps"]}
        first, even, weights = steps.get("first_stage_params"), steps.get("params_per_gpu"), steps.get("weights")
        if first is None or even is None or weights is None:
            return ""
        first_count = format_auto(first["value"], "params", 1, lang)
        if "first_stage_params" in weights.get("substituted", ""):
            return text("playground.stage_first", lang, params=first_count)
        return text("playground.stage_even", lang, params=format_auto(even["value"], "params", 1, lang),
                    first=first_count)

    def _throughput(self, lang: str) -> Text:
        """Tokens/s, step time, MFU and training days from the engine, or what they need."""
        from tutor.sizing.display import format_auto, format_value

        speed = self._report.get("throughput") or {}
        if self._report["errors"]:
            # The bar of a layout the engine rejects is marked with why, not left to read "fits"
            # (found in tmux: global batch 1 on DP 2 showed "42.2 GB · fits" and two blank lines).
            return Text("✗ " + "\n✗ ".join(_finding(error, lang) for error in self._report["errors"]),
                        style="bold red")
        if speed.get("tokens_per_s") is None:
            return Text(text("playground.no_speed", lang), style="dim")
        parts = [text("playground.speed", lang, tokens=format_auto(speed["tokens_per_s"], "tokens/s", 1, lang),
                      step=format_auto(speed["step_time_s"], "s", 1, lang),
                      mfu=format_value(speed["mfu"], "%", 0, lang))]
        if self._report.get("train_time_s") is not None:
            parts.append(text("playground.days", lang, days=format_auto(self._report["train_time_s"], "s", 1, lang)))
        return Text(" · ".join(parts), style="bold")

    def _draw_tab(self, tab: str, lang: str) -> None:
        """Draw only the tab on screen; the others are drawn when they are opened."""
        if self._report is None or self._error is not None or tab not in TAB_PANELS:
            return
        self._stale.discard(tab)
        panel = self.query_one(f"#{TAB_PANELS[tab]}", Static)
        if tab == "tab-pipeline":
            _update(panel, self._pipeline(lang))
        elif tab == "tab-ranks":
            _update(panel, self._ranks(lang))
        elif tab == "tab-checks":
            _update(panel, self._checks(lang))
        elif tab == "tab-derivation":
            _update(panel, self._derivation(lang))

    @on(TabbedContent.TabActivated, "#result-tabs")
    def _tab_opened(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id in self._stale:
            self._draw_tab(event.pane.id, self.app.lang)

    def _pipeline(self, lang: str):
        from tutor.sizing.display import format_value
        from tutor.sizing.pipeline_schedule import simulate
        from tutor.ui.widgets.charts import pipeline_chart

        pp, vpp = int(self._settings.get("pp") or 1), int(self._settings.get("vpp") or 1)
        m = self._report["pipeline"]["microbatches"]
        if pp == 1:
            return text("playground.no_pipeline", lang)
        if self._report["errors"] or not m or m < 1 or m != int(m):
            # m = global batch / (DP × micro-batch) must be a whole number of micro-batches: a
            # half-typed global batch gives m = 0.5, which no schedule can run (walkthrough B1).
            reasons = [_finding(error, lang) for error in self._report["errors"]]
            return Text("✗ " + "\n✗ ".join(reasons or [text("playground.bad_m", lang, m=_number_text(m))]),
                        style="bold red")
        asked = kind = SCHEDULES[self._schedule]
        if kind == "auto":
            kind = "interleaved" if vpp > 1 else "1f1b"
        fallback = ""
        if kind == "interleaved" and (vpp == 1 or m % pp):
            # Said, not done silently (walkthrough minor 3: F4 seemed to show "1f1b" twice).
            fallback = text("playground.fallback", lang, v=vpp, m=int(m), p=pp) + "\n"
            kind = "1f1b"
        chunks = vpp if kind == "interleaved" else 1
        if pp * m * chunks * 2 > MAX_SIMULATED_PASSES:
            return text("playground.too_long", lang, passes=pp * m * chunks * 2)
        timeline = simulate(kind, pp, int(m), chunks)
        # The numbers, then the chart, then how to read it: at 80×24 the notes above the chart
        # pushed it below the fold.
        shown = Text(fallback, style="yellow")
        shown.append(text("playground.bubble", lang, kind=kind, p=pp, m=int(m), v=chunks,
                          ideal=format_value(timeline.bubble_vs_ideal, "%", 1, lang),
                          wall=format_value(timeline.bubble_wallclock, "%", 1, lang),
                          engine=format_value(self._report["pipeline"]["bubble"], "%", 1, lang)) + "\n", style="bold")
        width = max(20, self.query_one("#results").size.width - 8)
        shown.append_text(pipeline_chart(timeline, width=width))
        notes = [text("playground.auto", lang, kind=kind)] if asked == "auto" else []
        notes.append(text("playground.legend", lang))
        per_column = -(-timeline.makespan // width)
        if per_column > 1:
            notes.append(text("playground.compressed", lang, slots=per_column))
        shown.append("\n" + "\n".join(notes) + "\n", style="dim")
        return shown

    def _ranks(self, lang: str):
        from tutor.sizing.rank_grid import RankGrid
        from tutor.ui.widgets.charts import rank_grid_chart

        s = self._settings
        tp, cp, pp = int(s.get("tp") or 1), int(s.get("cp") or 1), int(s.get("pp") or 1)
        gpus = int(s.get("gpus") or tp * cp * pp * int(s.get("dp") or 1))
        grid = RankGrid(tp=tp, cp=cp, pp=pp, dp=max(1, gpus // (tp * cp * pp)))
        dimension = COLOR_BY[self._color_by]
        heading = Text(text("playground.ranks_by", lang, dimension=dimension.upper()) + "\n")
        ep = int(s.get("ep") or 1)
        if dimension == "ep":
            if ep <= 1:
                return heading + Text("\n" + text("playground.no_ep", lang))
            if (grid.cp * grid.dp) % ep:
                return heading + Text("\n" + text("playground.bad_ep", lang, ep=ep, dpcp=grid.cp * grid.dp),
                                      style="bold red")
            heading.append(text("playground.ep_folding", lang, ep=ep) + "\n")
        return heading + Text("\n") + rank_grid_chart(grid, dimension, ep=ep)

    def _checks(self, lang: str) -> Text:
        from tutor.sizing.display import format_value

        out = Text()
        for error in self._report["errors"]:
            out.append(f"✗ {_finding(error, lang)}\n", style="bold red")
        for warning in self._report["warnings"]:
            out.append(f"! {_finding(warning, lang)}\n", style="yellow")
        if not out:
            out.append(f"✓ {text('playground.all_good', lang)}\n", style="green")
        bubble = self._report["pipeline"].get("bubble")
        if isinstance(bubble, (int, float)) and not self._report["errors"]:
            out.append(text("playground.bubble_line", lang, bubble=format_value(bubble, "%", 1, lang)) + "\n")
        return out

    def _derivation(self, lang: str) -> Text:
        """Every step of the engine's report, then the traffic of each dimension in one place."""
        from tutor.sizing.display import format_auto

        out = Text()
        for step in self._report["steps"]:
            out.append(step["id"], style="bold")
            out.append(f"  {step['formula']}\n    {step['substituted']}\n")
        values = {step["id"]: step.get("value") for step in self._report["steps"]}
        traffic = [text(f"playground.traffic_{dim}", lang, size=format_auto(values[step], "B", 1, lang))
                   for dim, step in TRAFFIC_STEPS if isinstance(values.get(step), (int, float))]
        if traffic:
            out.append("\n" + text("playground.traffic", lang) + "\n", style="bold")
            out.append("\n".join(f"  {line}" for line in traffic) + "\n")
        return out

    def action_toggle_form(self) -> None:
        """Hide the settings to give the charts the whole width (at 80 columns the form takes half
        of it and the pipeline chart starts below the fold), or show them again."""
        form = self.query_one("#settings")
        form.display = not form.display
        if form.display:
            self.query_one("#field-gpus", Input).focus()
        else:
            self.query_one("#result-tabs", TabbedContent).focus()
        self.call_after_refresh(self.recompute)  # the charts are drawn to the new width

    def action_cycle_color(self) -> None:
        self._color_by = (self._color_by + 1) % len(COLOR_BY)
        self.query_one("#result-tabs", TabbedContent).active = "tab-ranks"
        self._draw_tab("tab-ranks", self.app.lang)

    def action_cycle_schedule(self) -> None:
        self._schedule = (self._schedule + 1) % len(SCHEDULES)
        self.query_one("#result-tabs", TabbedContent).active = "tab-pipeline"
        self._draw_tab("tab-pipeline", self.app.lang)

    def _scenarios(self, lang: str | None = None) -> dict:
        """Worked examples from the lessons: id -> settings, plus `_titles`: id -> title."""
        from tutor.content import load

        lang = lang or self.app.lang
        found: dict = {"_titles": {}}
        for loaded in load().lessons.values():
            for section in loaded.model.sections:
                for scenario in section.scenarios:
                    found[scenario.id] = dict(scenario.settings)
                    found["_titles"][scenario.id] = scenario.title.get(lang)
        return found


def _update(panel: Static, content) -> None:
    """Update a panel, asking Textual for a new layout only when its number of lines changes:
    a full layout of this screen costs far more than drawing the charts themselves."""
    from rich.text import Text

    plain = content.plain if isinstance(content, Text) else str(content)
    lines = plain.count("\n") + 1
    panel.update(content, layout=lines != getattr(panel, "_tutor_lines", None))
    panel._tutor_lines = lines


def _box_name(name: str) -> T:
    """A number box's label without its note ("DP (blank: derive)" is "DP"), to name it in a message."""
    return T(*(re.split(r" \(|（", text(f"field.{name}", lang))[0] for lang in ("en", "zh")))


def _finding(finding, lang: str) -> str:
    return finding.get(lang, finding.get("en", "")) if isinstance(finding, dict) else str(finding)


def _number_text(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _gpu_name(name: str) -> str:
    from tutor.sizing.hardware import gpu

    return gpu(str(name)).name


def _sized_with(specs: tuple, report: dict) -> dict[str, str]:
    """The parameter count the report sized (a preset's own, or counted from its shape), the
    sequence and batches of the specs the report was built from and the GPUs and DP of its
    resolved layout, written as the boxes take them."""
    from tutor.sizing.display import format_value
    from tutor.sizing.validate import resolve

    _model, train, parallel, *_ = specs
    layout = resolve(parallel)  # as `size` resolves it: GPUs and DP both known
    used = {name: _number_text(getattr(train, name)) for name in ("seq", "micro_batch", "global_batch")}
    used.update(gpus=_number_text(layout.gpus), dp=_number_text(layout.dp))
    if isinstance(report.get("params"), (int, float)):
        # 70B, 8.03B, 1T: what the box accepts, two decimals at most (405.85B fits the narrow box).
        shown = format_value(report["params"], "params", 2)
        number = shown.rstrip("KMBT")
        used["params"] = f"{float(number):g}{shown[len(number):]}"
    return used


_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?[kKMBGT]?")


def _count_text(raw: str) -> str:
    """A box's text as `parse_count` reads it: full-width forms as ASCII (NFKC), and `1,024` as 1024
    when the commas sit between groups of three; any other comma is left for its error."""
    written = unicodedata.normalize("NFKC", raw).strip()
    return written.replace(",", "") if _GROUPED.fullmatch(written) else written
