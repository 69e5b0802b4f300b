"""Walkthrough polish 6: Chinese text on screen has no stray spaces ("按课上讲的 来", "job 里 交替地",
"以下， 而且"). The YAML texts are folded, and Markdown renders a fold as a space; the Markdown
panes (tutor/ui/widgets/prose.py) unfold Chinese first (tutor/ui/cjk_text.py). Read here as
Textual renders it: markdown-it's inline text, a soft break as one space."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from tutor.ui.cjk_text import FULL_WIDTH, unfold

IDEOGRAPH = "\u3400-\u9fff"
STRAY = re.compile(f"[{IDEOGRAPH}] [{IDEOGRAPH}]|[{FULL_WIDTH}] | [{FULL_WIDTH}]|[{IDEOGRAPH}）][,;:!?]|[,;:!?] ?[{IDEOGRAPH}]")


def _shown(markdown: str) -> list[str]:
    """Each paragraph's text as the Markdown widget draws it, code spans left out."""
    found = []
    for token in MarkdownIt("gfm-like").parse(markdown):
        if token.type == "inline":
            found.append("".join(" " if child.type == "softbreak" else "\n" if child.type == "hardbreak" else
                                 "␣" if child.type == "code_inline" else child.content
                                 for child in token.children or []))
    return found


def _strays(markdown: str) -> list[str]:
    return [text[max(0, m.start() - 8):m.end() + 8] for text in _shown(markdown) for m in STRAY.finditer(text)]


def _lab_texts() -> dict[str, str]:
    from tutor.content import load
    from tutor.labs.catalog import all_labs
    from tutor.ui.screens.labs_text import brief_markdown

    load()
    return {name: brief_markdown(entry, "zh", "started", len(entry.lab.hints), "~/labs/x/train.py")
            for name, entry in all_labs().items()}


def test_chinese_lab_briefs_show_no_stray_spaces():
    texts = _lab_texts()
    assert len(texts) >= 20
    folded = {name: _strays(markdown) for name, markdown in texts.items()}
    assert sum(map(len, folded.values())) > 20  # the folds this test exists to find (seen before the fix)
    strays = {name: _strays(unfold(markdown)) for name, markdown in texts.items()}
    assert not {name: found for name, found in strays.items() if found}


def test_chinese_lessons_show_no_stray_spaces():
    from tutor.content import load
    from tutor.content.render import render_lesson

    strays = {}
    for lesson_id, lesson in load().lessons.items():
        rendered = render_lesson(lesson.model, "zh")
        for section in lesson.model.sections:
            body = rendered.section(section.id).body
            found = _strays(unfold(body))
            if found:
                strays[f"{lesson_id}/{section.id}"] = found
    assert not strays


def test_unfolding_keeps_english_code_lists_and_latin_words():
    assert unfold("a line\nand the next") == "a line\nand the next"
    assert unfold("在 4 个\nrank 上跑") == "在 4 个\nrank 上跑"  # a Latin word keeps its space
    assert unfold("前面都\n正常，一到\n第一步") == "前面都正常，一到第一步"
    assert unfold("以下，\n而且 `a ， b` 结束 。") == "以下，而且 `a ， b` 结束。"
    assert unfold("- 一\n- 二\n```\n代码 ， x\n代码\n```") == "- 一\n- 二\n```\n代码 ， x\n代码\n```"
    assert unfold("硬换行  \n下一行") == "硬换行  \n下一行"


def _chinese_strings() -> dict[str, str]:
    import importlib
    import pkgutil

    import tutor.ui.screens
    import tutor.ui.widgets
    from tutor.ui.strings import STRINGS

    for package in (tutor.ui.screens, tutor.ui.widgets):  # each module registers its strings on import
        for module in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package.__name__}.{module.name}")
    return {key: value[1] for key, value in STRINGS.items() if isinstance(value, tuple)}


def test_the_app_s_chinese_strings_and_news_use_full_width_punctuation():
    """Found driving the app in tmux at 80×24: "F2:English", "任务,埋好了" (What's new), "{files}:每次",
    "rank,{backend}". Format fields ({timeout:g}) are left out of the reading."""
    from importlib import resources

    import yaml

    half = re.compile(r"[,;:](?=[^\s\d/])")
    texts = {key: value for key, value in _chinese_strings().items() if re.search(f"[{IDEOGRAPH}]", value)}
    news = yaml.safe_load(resources.files("tutor.ui").joinpath("news.yaml").read_text(encoding="utf-8"))
    texts.update({f"news {index}": entry["zh"] for index, entry in enumerate(news)})
    assert len(texts) > 200
    wrong = {key: value for key, value in texts.items() if half.search(re.sub(r"\{[^}]*\}", "{}", value))}
    assert not wrong


def test_half_width_punctuation_between_chinese_is_made_full_width_on_screen():
    assert unfold("上（Megatron-LM 的切法）: 每对 linear") == "上（Megatron-LM 的切法）：每对 linear"
    assert unfold("任务,埋好了") == "任务，埋好了"
    assert unfold("见 `a:b` 中，比例 1:2 的") == "见 `a:b` 中，比例 1:2 的"
    assert unfold("- 哪个 rank 在别处?停在哪个调用?") == "- 哪个 rank 在别处？停在哪个调用？"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_every_bullet_on_home_is_followed_by_a_space(fixture_content, lang):
    """Walkthrough polish 6: Chinese Home's What's new read "•实验：…" while English read "• Labs";
    a bullet is "• " in both languages, as the Markdown panes draw one."""
    from textual.geometry import Region

    from tests.ui.helpers import settle
    from tutor.ui.app import TutorApp

    app = TutorApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        news = app.screen.query_one("#news")
        lines = [strip.text.strip() for strip in news.render_lines(Region(0, 0, news.size.width, news.size.height))]
        bullets = [line for line in lines if "•" in line]
        assert len(bullets) == 3, lines
        assert all(re.search(r"•(?! \S)", line) is None for line in bullets), bullets


def test_the_playground_s_chinese_scenario_names_use_full_width_punctuation():
    """Walkthrough polish 6, in the playground's worked-example list: "同一个 70B 不开 CP:activation
    放不下了", "1T 稠密模型放 8192 张 H100:TP 8、PP 16、DP 64,full recompute" (a Select's label,
    which no Markdown unfolding reaches)."""
    from tutor.content import load

    half = re.compile(r"[,;:](?=[^\s\d/])")
    titles = {scenario.id: scenario.title.zh for lesson in load().lessons.values()
              for section in lesson.model.sections for scenario in section.scenarios}
    assert len(titles) >= 8
    assert not {key: value for key, value in titles.items() if half.search(value)}



def test_every_interface_string_is_written_as_one_bilingual_text():
    """Issue 15: one bilingual type, so a translator reads every Chinese string of the app as a
    `T(en, zh)` in its source — the screens' own tables (labs, mock, review) included, which were
    written as (en, zh) tuples and turned into `T`s by `register`."""
    import ast
    from pathlib import Path

    from tutor.text import T
    from tutor.ui.strings import STRINGS

    root = Path(__file__).resolve().parents[2] / "tutor" / "ui"
    written_otherwise = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "register" and node.args:
                table = node.args[0]
                written_otherwise += [f"{path.name}: {ast.literal_eval(key)}" for key, value in
                                      zip(table.keys, table.values)
                                      if not (isinstance(value, ast.Call) and getattr(value.func, "id", None) == "T")]
    assert not written_otherwise
    assert all(type(value) is T for value in STRINGS.values())
