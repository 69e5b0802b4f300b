"""Every lesson renders in both languages, and every number in it is the engine's (or a sourced fact).

The expected text of each figure is computed here straight from `tutor.sizing` (evaluate, the
formula's result unit, format_value), independently of `tutor.content.render`.
"""

from __future__ import annotations

import re

import pytest

from tests.helpers import REPO
from tutor.content.loader import load_content
from tutor.content.models.base import LANGS, PLACEHOLDER
from tutor.content.render import join_cjk_lines, render_lesson

CONTENT = load_content([REPO])
LESSON_IDS = sorted(CONTENT.lessons)


def engine_text(figure, lang: str) -> str:
    from tutor.sizing import registry
    from tutor.sizing.display import format_value
    from tutor.sizing.engine import evaluate

    if figure.fact is not None:
        return format_value(float(figure.fact), figure.unit, figure.digits, lang, from_unit=figure.fact_unit)
    value = float(evaluate(figure.formula, **figure.inputs))
    unit = registry.get(figure.formula).unit
    return format_value(value, figure.unit, figure.digits, lang, from_unit=unit)


def test_the_lesson_bank_loads_without_problems():
    lesson_problems = [str(problem) for problem in CONTENT.problems if "lessons" in problem.path.parts]
    assert lesson_problems == []
    assert {"recipe", "choosing-config", "flops-mfu", "mixed-precision-fp8", "overlap-limits",
            "debugging-slow-hung"} <= set(LESSON_IDS)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_every_figure_in_the_text_is_the_engines_value(lesson_id: str, lang: str):
    lesson = CONTENT.lessons[lesson_id].model
    rendered = render_lesson(lesson, lang)
    expected = {name: engine_text(figure, lang) for name, figure in lesson.figures.items()}
    assert {name: figure.text for name, figure in rendered.figures.items()} == expected
    for source, shown in zip(lesson.sections, rendered.sections, strict=True):
        raw = source.body.get(lang)
        # Line breaks next to Chinese text are joined when rendering; all else is the raw text
        # with each placeholder replaced by the engine's value.
        assert squash(shown.body) == squash(PLACEHOLDER.sub(lambda match: expected[match.group(1)], raw))
        assert "{{" not in shown.body and "}}" not in shown.body
        assert shown.title == source.title.get(lang)


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_line_breaks_inside_chinese_paragraphs_are_joined():
    text = "一张卡要存它参与计算的全部\n参数的 state，而且\n第一个 stage 最满。\n\n- 列表\n- 第二项\n\n```\n代码\n保留\n```"
    assert join_cjk_lines(text) == (
        "一张卡要存它参与计算的全部参数的 state，而且第一个 stage 最满。\n\n- 列表\n- 第二项\n\n```\n代码\n保留\n```")
    assert join_cjk_lines("每卡 70 GB\n的 state") == "每卡 70 GB 的 state"
    assert join_cjk_lines("English lines —\nstay as they are.") == "English lines —\nstay as they are."
    assert join_cjk_lines("停在哪里——\n往往是另一个") == "停在哪里——往往是另一个"


# DESIGN §4, "Reference figures the engine must reproduce (from the lesson)": each as the
# lesson states it, in the section where it stands.
REFERENCE = [
    # 70B, 64 GPUs, TP4 PP4 CP2 DP2
    ("worked-examples", "ex70_state_total", "1120 GB"),
    ("worked-examples", "ex70_state_per_gpu", "70 GB"),
    ("worked-examples", "ex70_params_per_gpu", "4.4B"),
    ("worked-examples", "ex70_distopt", "39 GB"),
    ("worked-examples", "ex70_act_layer", "285 MB"),
    ("worked-examples", "ex70_act_stage", "23 GB"),
    ("worked-examples", "ex70_act_stage_no_cp", "46 GB"),
    ("worked-examples", "ex70_m", "256"),
    ("worked-examples", "ex70_bubble", "1.2%"),
    # Llama 3 405B, TP8 PP16
    ("worked-examples", "l3_state_per_gpu", "50.6 GB"),
    # 1T dense, 8192 H100, 2T tokens, seq 4K, GBS 4096
    ("trillion-design", "t_state_total", "16 TB"),
    ("trillion-design", "t_min_gpus", "200"),
    ("trillion-design", "t_state_per_gpu", "125 GB"),
    ("trillion-design", "t_params_per_gpu", "7.8B"),
    ("trillion-design", "t_distopt", "48 GB"),
    ("trillion-design", "t_m", "64"),
    ("trillion-design", "t_bubble", "23%"),
    ("trillion-design", "t_bubble_interleaved", "6%"),
    ("trillion-design", "t_flops", "1.2e25 FLOPs"),
    ("trillion-design", "t_days", "43 days"),
    ("trillion-design", "t_tokens_per_s", "540K tokens/s"),
    ("trillion-design", "t_ckpt", "12 TB"),
    ("trillion-design", "t_ckpt_per_gpu", "1.5 GB"),
    # Llama 3 reliability: 466 interruptions in 54 days ≈ one per 2.8 h
    ("trillion-design", "l3_interruptions", "466"),
    ("trillion-design", "l3_snapshot_days", "54 days"),
    ("trillion-design", "l3_mtbf", "2.8 h"),
    # 8B on 32 H100 at 40% MFU ≈ 260K tokens/s (the lesson shows it to the thousand)
    ("running-fast", "b8_tokens_per_s", "264K tokens/s"),
]


@pytest.fixture(scope="module")
def recipe_en():
    return render_lesson(CONTENT.lessons["recipe"].model, "en")


@pytest.mark.parametrize(("section_id", "name", "text"), REFERENCE, ids=[row[1] for row in REFERENCE])
def test_design_reference_figures_appear_as_the_lesson_states_them(recipe_en, section_id, name, text):
    assert recipe_en.figures[name].text == text
    assert text in recipe_en.section(section_id).body
    assert name in recipe_en.section(section_id).figures


def test_reference_figures_that_the_lesson_rounds():
    figures = render_lesson(CONTENT.lessons["recipe"].model, "en").figures
    assert round(figures["b8_tokens_per_s"].value, -4) == 260_000
    assert round(figures["t_tokens_per_s"].value, -4) == 540_000
    assert 42.5 <= figures["t_days"].value <= 43.5


def test_chinese_figures_use_chinese_units():
    figures = render_lesson(CONTENT.lessons["recipe"].model, "zh").figures
    assert figures["t_days"].text == "43 天"
    assert figures["t_tokens_per_s"].text == "54 万 tokens/s"
    assert figures["l3_mtbf"].text == "2.8 小时"
    assert figures["nccl_timeout"].text == "10 分钟"


# Where one figure's input is another figure's result, the input is written out in the YAML
# (the engine's content checks evaluate each figure on its own); these pairs must agree.
CHAINED = [
    ("recipe", "ex70_bubble", "microbatches", "ex70_m"),
    ("recipe", "ex70_dp_bytes", "params", "ex70_params_per_gpu"),
    ("recipe", "t_bubble", "microbatches", "t_m"),
    ("recipe", "t_bubble_interleaved", "microbatches", "t_m"),
    ("recipe", "t_distopt", "dp", "t_dp"),
    ("recipe", "t_m", "dp", "t_dp"),
    ("choosing-config", "g3_pp2_state", "dp", "g3_pp2_dp"),
    ("choosing-config", "g3_pp4_state", "dp", "g3_pp4_dp"),
    ("choosing-config", "g3_pp8_state", "dp", "g3_pp8_dp"),
    ("choosing-config", "g3_pp4_m", "dp", "g3_pp4_dp"),
    ("choosing-config", "g3_pp8_m", "dp", "g3_pp8_dp"),
    ("choosing-config", "g3_pp4_bubble", "microbatches", "g3_pp4_m"),
    ("choosing-config", "g3_pp8_bubble", "microbatches", "g3_pp8_m"),
]


@pytest.mark.parametrize(("lesson_id", "figure", "input_name", "source"), CHAINED,
                         ids=[f"{row[1]}.{row[2]}" for row in CHAINED])
def test_an_input_taken_from_another_figure_matches_it(lesson_id, figure, input_name, source):
    lesson = CONTENT.lessons[lesson_id].model
    source_value = render_lesson(lesson, "en").figures[source].value
    assert lesson.figures[figure].inputs[input_name] == source_value


@pytest.mark.parametrize(("lesson_id", "figure", "source"), [
    ("recipe", "young_ckpt", "l3_mtbf"),
    ("debugging-slow-hung", "young_l3", "l3_mtbf_unexpected"),
    ("debugging-slow-hung", "daly_l3", "l3_mtbf_unexpected"),
])
def test_checkpoint_intervals_use_the_mean_time_between_failures_shown(lesson_id, figure, source):
    lesson = CONTENT.lessons[lesson_id].model
    hours = render_lesson(lesson, "en").figures[source].value  # mtbf_hours gives hours
    assert lesson.figures[figure].inputs["mtbf_s"] == pytest.approx(hours * 3600, abs=1)


def test_the_placement_comparison_holds(recipe_en):
    """The text says DP's whole step moves less than one micro-batch of TP over the 80 layers."""
    assert recipe_en.figures["ex70_tp_bytes"].value * 80 > recipe_en.figures["ex70_dp_bytes"].value


def test_the_gpt3_layout_follows_the_recipe():
    """PP 2 leaves no headroom on an 80 GB A100, PP 4 fits: the text picks PP 4."""
    figures = render_lesson(CONTENT.lessons["choosing-config"].model, "en").figures
    memory, activations = figures["a100_mem"].value, figures["g3_act_stage"].value
    assert figures["g3_pp2_state"].value + activations > 0.95 * memory
    assert figures["g3_pp4_state"].value + activations < 0.6 * memory


def test_changing_a_formula_changes_the_lesson(monkeypatch):
    from tutor.sizing import engine

    before = render_lesson(CONTENT.lessons["recipe"].model, "en").figures["ex70_state_total"].text
    real = engine.evaluate
    monkeypatch.setattr(engine, "evaluate", lambda name, **inputs: 2 * real(name, **inputs))
    after = render_lesson(CONTENT.lessons["recipe"].model, "en")
    assert (before, after.figures["ex70_state_total"].text) == ("1120 GB", "2240 GB")
    assert "2240 GB" in after.section("worked-examples").body


# A number followed by a unit in the prose is a figure typed by hand. The only ones allowed are
# the scenario's inputs that the text states as assumptions, and plain constants.
TYPED_FIGURE = re.compile(r"(?<![\w.{])\d[\d,.]*\s?(?:GB/s|GB|TB|MB|MiB|GiB|KB|TFLOP/s|FLOPs|days|tokens/s|天|小时|分钟|万|亿|%)")
ALLOWED_INPUTS = {"40%", "100%", "1 天"}
CODE = re.compile(r"```.*?```|`[^`]*`", re.S)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_no_figure_is_typed_into_the_prose(lesson_id: str, lang: str):
    lesson = CONTENT.lessons[lesson_id].model
    typed = []
    for section in lesson.sections:
        prose = CODE.sub("", section.body.get(lang))
        typed += [(section.id, found) for found in TYPED_FIGURE.findall(prose)]
    assert [item for item in typed if item[1] not in ALLOWED_INPUTS] == []
