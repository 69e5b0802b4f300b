"""`tutor ask` and `tutor check` (DESIGN §5) on the fixture content."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run_tutor
from tutor.store import Store, attempts

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "content"
ENV = {"TUTOR_CONTENT": str(FIXTURE)}


def tutor_json(*args: str, input: str | None = None) -> dict:
    result = run_tutor(*args, "--json", env=ENV, input=input)
    payload = json.loads(result.stdout)
    # `tutor check` exits 1 on a wrong answer (issue 14 item 8), 0 on a right one
    assert result.returncode == (1 if args[0] == "check" and not payload["correct"] else 0), result.stderr
    return payload


@pytest.mark.timeout(60)
def test_ask_json_hides_the_answer_unless_revealed():
    shown = tutor_json("ask", "fx-distopt")
    assert {"id", "kind", "seed", "prompt", "steps"} <= set(shown)
    assert shown["kind"] == "numeric" and shown["seed"] == 0
    assert shown["prompt"]["en"].startswith("70B params, TP 4") and "70B" in shown["prompt"]["zh"]
    assert [set(step) >= {"id", "kind", "prompt"} and "answer" not in step for step in shown["steps"]] == [True]
    revealed = tutor_json("ask", "fx-distopt", "--reveal")
    assert revealed["steps"][0]["answer"] == {"value": 39.375, "unit": "GB", "tolerance": 0.05,
                                              "text": {"en": "39.4 GB", "zh": "39.4 GB"}}


@pytest.mark.timeout(60)
def test_ask_seed_changes_numbers_reproducibly():
    from tutor.content.loader import load_content
    from tutor.grading.dispatch import step_prompt
    from tutor.grading.variant import draw

    question = load_content([FIXTURE]).questions["fx-distopt"].model
    prompts = {step_prompt(question, question.steps[0], draw(question, seed))["en"] for seed in range(1, 9)}
    assert len(prompts) > 1
    shown = tutor_json("ask", "fx-distopt", "--seed", "3")
    assert shown["prompt"]["en"] == step_prompt(question, question.steps[0], draw(question, 3))["en"]
    assert shown == tutor_json("ask", "fx-distopt", "--seed", "3")


@pytest.mark.timeout(60)
def test_check_records_the_attempt(tutor_home):
    verdict = tutor_json("check", "fx-distopt", "≈39 GB")
    assert verdict["correct"] and verdict["score"] == 1 and verdict["recorded"]
    assert {"correct", "score", "parsed", "expected", "feedback"} <= set(verdict)
    assert verdict["expected"]["value"] == 39.375 and verdict["explain"]["en"]
    wrong = tutor_json("check", "fx-distopt", "52.5 GB")
    assert not wrong["correct"] and wrong["mistake"] == "forgot-cp-in-shard" and wrong["expected"] is None
    unreadable = tutor_json("check", "fx-distopt", "no idea")
    assert unreadable["parsed"] is None and not unreadable["recorded"]
    with Store() as store:
        rows = attempts(store, "fx-distopt")
    assert [(row.answer, row.correct) for row in rows] == [("≈39 GB", True), ("52.5 GB", False)]


@pytest.mark.timeout(60)
def test_check_reads_stdin_and_self_assessment(tutor_home):
    verdict = tutor_json("check", "fx-open", "-", "--self-assess", "partly", input="It syncs once per step.")
    assert verdict["self_assessed"] and verdict["score"] == 0.5 and verdict["expected"]["model_answer"]
    with Store() as store:
        assert attempts(store, "fx-open")[0].self_assessed


@pytest.mark.timeout(60)
def test_design_progress_over_steps(tutor_home):
    first = tutor_json("check", "fx-design", "dense or moe?", "--step", "ask")
    assert first["design"]["next"] == "memory" and not first["design"]["correct"]
    second = tutor_json("check", "fx-design", "16 TB", "--step", "memory")
    assert second["design"]["correct"] and second["design"]["score"] == 1


@pytest.mark.timeout(60)
def test_text_output_in_chinese():
    result = run_tutor("check", "fx-formula", "6Ψ + 12Ψ/N", "--lang", "zh", env=ENV)
    assert result.returncode == 0 and "正确" in result.stdout


@pytest.mark.timeout(60)
@pytest.mark.parametrize("args", [
    ("ask", "no-such-question"), ("check", "no-such-question", "1"), ("ask", "fx-distopt", "--seed", "-1"),
    ("check", "fx-distopt", "1", "--step", "nope"), ("check", "fx-distopt", "1", "--self-assess", "yes"),
    ("ask", "fx-distopt", "--seed", "many"),
])
def test_bad_input_is_one_line_and_exit_2(args):
    result = run_tutor(*args, env=ENV)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.timeout(60)
def test_check_exit_status_tells_right_from_wrong(tutor_home):
    """Scripts can tell: 0 right, 1 wrong; plain output has no raw dict and no Markdown."""
    first = tutor_json("ask", "fx-distopt", "--reveal")["steps"][0]["answer"]["text"]["en"]
    right = run_tutor("check", "fx-distopt", first, env=ENV)
    wrong = run_tutor("check", "fx-distopt", "1 GB", "--reveal", env=ENV)
    assert right.returncode == 0 and wrong.returncode == 1
    for output in (right.stdout, wrong.stdout):
        assert "{'en'" not in output and "**" not in output and "`" not in output


@pytest.mark.timeout(60)
def test_a_wrong_open_answer_counts_its_missing_points_and_keeps_the_model_answer_for_reveal(tutor_home):
    """As Practice before F5: the wrong attempt printed every missing rubric point and the model
    answer, ready to be pasted into the next `tutor check`."""
    model = tutor_json("ask", "fx-open", "--reveal")["steps"][0]["answer"]["model_answer"]["en"]
    wrong = run_tutor("check", "fx-open", "It is the simplest to set up.", env=ENV)
    assert wrong.returncode == 1 and "Not yet said:" in wrong.stdout and "Missing:" not in wrong.stdout
    assert model[:30] not in wrong.stdout and "--reveal" in wrong.stdout
    revealed = run_tutor("check", "fx-open", "It is the simplest to set up.", "--reveal", env=ENV)
    assert model[:30] in revealed.stdout and "Missing:" in revealed.stdout
