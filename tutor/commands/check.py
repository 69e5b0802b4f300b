"""`tutor check ID ANSWER [--step S] [--seed N] [--json] [--reveal] [--self-assess A]`.

Grades one answer to one step (the first step unless `--step`), prints the verdict and records
the attempt in the learner's history and rates the question's review card, as the app's
Practice screen does (`tutor.actions.practice`; an answer that could not be read at all is not
an attempt and is not recorded). The expected answer is shown when the answer is right or with
`--reveal`; before that, a wrong open or clarify answer hears how many points it missed, not
their text, and not the model answer (as Practice before F5). ANSWER `-`
reads the answer from standard input; so does an answer that starts with `-` given after `--`
(`tutor check overlap-switches -- --overlap-param-gather`). Exits 0 when the answer is right,
1 when it is wrong or unreadable (2 for a usage error). For a design question the output also gives the
question's score so far, from the latest attempt at each step.
"""

from __future__ import annotations

import sys

from tutor.commands._common import (add_json_flag, add_lang_flag, lang_of, loaded_content, print_json,
                                    read_answer)
from tutor.commands.ask import checked_seed, find_question
from tutor.errors import StoreError, TutorError, UserInputError
from tutor.text import T

STDIN_LIMIT = 1 << 20
WORDS = {
    "expected": T("Expected: ", "答案："),
    "passing_layout": T("A layout that passes: ", "一个符合规则的配置："),
    "try_again": T("Try again, or add --reveal to see the answer.", "再试一次，或加 --reveal 看答案。"),
    "store_unusable": T("(not recorded: the learner database cannot be used, see above)",
                        "（未记录：学习记录数据库无法使用，见上）"),
    "unreadable": T("(not recorded: the answer could not be read)", "（未记录：答案无法识别）"),
}


def add_arguments(parser) -> None:
    parser.add_argument("id", metavar="ID", help="question id (see `tutor questions`)")
    parser.add_argument("answer", metavar="ANSWER", help="your answer, quoted; - reads it from standard input")
    parser.add_argument("--step", metavar="S", default=None, help="step id of a multi-step question (default: first)")
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="the variant you were asked (default 0)")
    parser.add_argument("--reveal", action="store_true", help="show the expected answer even when wrong")
    parser.add_argument("--self-assess", choices=("yes", "partly", "no"), default=None,
                        help="open and clarify steps: grade yourself against the model answer (recorded as such)")
    add_json_flag(parser)
    add_lang_flag(parser)


def run(args) -> int:
    from tutor.grading.dispatch import StepNotFound, expected_answer, find_step
    from tutor.grading.variant import VariantError

    question = _question(args.id)
    seed = checked_seed(args.seed)
    answer = read_answer(args.answer, STDIN_LIMIT)
    try:
        step = find_step(question, args.step)
    except StepNotFound as error:
        raise UserInputError(str(error)) from None
    if args.self_assess and step.kind not in ("open", "clarify"):
        raise UserInputError(f"--self-assess is for open and clarify steps; step {step.id!r} is {step.kind}")
    from tutor.actions.practice import answer as answer_step, design_progress
    from tutor.store import Store

    try:
        store = Store()
    except StoreError as error:  # the verdict is still given; the learner is told why it was not kept
        store, unusable = None, str(error)
    try:
        try:
            answered = answer_step(store, question, step, seed, answer, lang=lang_of(args),
                                   self_assessment=args.self_assess)
        except VariantError as error:
            raise TutorError(f"{error}; run `tutor validate`") from None
        verdict = answered.verdict
        reveal = args.reveal or verdict.correct or verdict.self_assessed  # graded against the model answer
        payload = {"question": question.id, "step": step.id, "seed": seed, **verdict.to_json(reveal)}
        if not reveal and step.kind in ("open", "clarify"):  # as Practice shows it before F5
            from tutor.grading.rubric import conceal

            payload["feedback"] = {lang: conceal(verdict.feedback[lang], step, lang) for lang in ("en", "zh")}
        if args.reveal and step.kind == "config":
            from tutor.grading.variant import draw

            payload["expected"] = expected_answer(question, step, draw(question, seed))
        payload["explain"] = T(step.explain.en, step.explain.zh).to_json() if step.explain is not None and reveal \
            else None
        payload["recorded"] = answered.recorded
        if answered.not_recorded_because is not None:
            reason = unusable if store is None else answered.not_recorded_because
            payload["not_recorded_because"] = reason
            print(f"tutor: not recorded: {reason}", file=sys.stderr)
        elif len(question.steps) > 1 and store is not None:
            payload["design"] = design_progress(store, question, seed)
    finally:
        if store is not None:
            store.close()
    status = 0 if verdict.correct else 1  # scripts can tell a wrong answer from a right one
    if args.json:
        print_json(payload)
        return status
    _print(payload, lang_of(args), reveal)
    return status


def _question(question_id: str):
    """The one question, from the validated content index (tutor.content.index) rather than a load of
    every file, as plain records (no pydantic import: issue 18); an unknown id falls back to the full
    load for its "did you mean" error."""
    from tutor.content.index import plain_question

    found, problems = plain_question(question_id)
    if found is None:
        return find_question(loaded_content(), question_id)
    if problems:
        print(f"tutor: note: {problems} content problem(s) skipped; run `tutor validate`", file=sys.stderr)
    return found


def _print(payload: dict, lang: str, reveal: bool) -> None:
    words = {key: text.get(lang) for key, text in WORDS.items()}
    mark = "✓" if payload["correct"] else "✗"
    print(f"{mark} {payload['feedback'][lang]}")
    expected = payload.get("expected")
    if reveal and expected is not None and not payload["correct"] and "text" in expected:
        print(words["expected"] + expected["text"][lang])
    elif reveal and isinstance(expected, dict) and "formula" in expected and not payload["correct"]:
        print(words["expected"] + expected["formula"])
    elif reveal and isinstance(expected, dict) and expected.get("example") and not payload["correct"]:
        from tutor.grading.config_parse import show_layout

        layout = show_layout(expected["example"])
        print(words["passing_layout"] + layout)
    elif reveal and isinstance(expected, list) and not payload["correct"] and expected:
        print(words["expected"] + ", ".join(expected))
    if payload["explain"]:
        print(payload["explain"][lang])
    if not reveal and not payload["correct"] and payload["parsed"] is not None:
        print(words["try_again"])
    if payload.get("not_recorded_because"):
        print(words["store_unusable"])
    elif not payload["recorded"]:
        print(words["unreadable"])
    if "design" in payload:
        print(payload["design"]["feedback"][lang])
