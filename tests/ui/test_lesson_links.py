"""Walkthrough minor 17: "Diagnosing slow training" and "Diagnosing hangs" linked no labs, though
slow-dataloader and checkpoint-rank0 match them exactly (only §placement offered tp-mlp)."""

from __future__ import annotations

from tutor.content import load


def test_the_diagnosis_sections_offer_their_labs():
    content = load()
    sections = {section.id: section for section in content.lessons["recipe"].model.sections}
    assert "slow-dataloader" in sections["slow-training"].labs
    assert "checkpoint-rank0" in sections["hangs"].labs
    for section in sections.values():
        for lab in section.labs:
            assert lab in content.labs, (section.id, lab)


def test_gpt3_by_hand_opens_its_worked_example_with_the_lesson_s_figures():
    """Walkthrough minor 17: `g` on "GPT-3 175B by hand", a worked example, said "This section has
    no worked example to open." The scenario it opens is the section's own answer: PP 4, DP 32,
    35 GB of state and 10.3 GB of first-stage activations on an 80 GB A100, bubble 6.2%."""
    from tutor.sizing.scenario import report

    sections = {section.id: section for section in load().lessons["choosing-config"].model.sections}
    scenarios = sections["gpt3-by-hand"].scenarios
    assert scenarios, "GPT-3 175B by hand has no scenario for the playground"
    out = report(scenarios[0].settings)
    assert not out["errors"], out["errors"]
    values = {step["id"]: step["value"] for step in out["steps"]}
    memory = out["memory"]
    assert round(memory["model_state"] / 1e9) == 35 and round(memory["activations"] / 1e9, 1) == 10.3
    assert values["microbatches"] == 48 and round(values["bubble"], 3) == 0.062  # m = 1536 / DP 32


def test_the_self_test_asks_all_its_questions_before_any_sketch():
    """Walkthrough polish 16: "Answer out loud before you read the sketch", then each sketch printed
    right under its question, with nothing to reveal: reading a question was reading its answer."""
    sections = {section.id: section for section in load().lessons["recipe"].model.sections}
    body = sections["self-test"].body
    asked = {"en": ['"Design the distributed training', '"GPU utilization is low', '"Training hangs at step N',
                    '"Why is DP the outermost'],
             "zh": ["“Design the distributed training", "“GPU utilization is low", "每次训练都卡死在同一个 step N",
                    "DP 为什么排在最外层"]}
    sketched = {"en": ["Ask first", "Quantify step time", "The same step every time", "Because it communicates least"],
                "zh": ["动手算之前", "先拿到 step time", "固定卡在同一步", "DP 的通信最少"]}
    for lang in ("en", "zh"):
        text = body.get(lang)
        questions = [text.index(question) for question in asked[lang]]
        sketches = [text.index(sketch) for sketch in sketched[lang]]
        assert max(questions) < min(sketches), lang
