"""`tutor lab evidence NAME`, `tutor lab mystery`, `tutor lab run NAME --debug detail|barrier`
(the hang labs' tools) and how the CLI reads and prints a diagnosis (graded by `tutor.actions.labs`).

Registered by `tutor.commands.lab`; heavy imports stay inside the handlers.
"""

from __future__ import annotations

import sys

from tutor.commands._common import add_json_flag, lang_of, print_json
from tutor.errors import TutorError, UserInputError
from tutor.text import T

LABELS = {
    "next": T("Next: `tutor lab evidence {lab} --fr` (flight recorder), `tutor lab run {lab} --debug detail` or "
              "`--debug barrier`",
              "下一步：`tutor lab evidence {lab} --fr`（flight recorder）、`tutor lab run {lab} --debug detail` 或 "
              "`--debug barrier`"),
    "running": T("mystery {case}: {ranks} ranks; running…", "谜题 {case}：{ranks} 个 rank；运行中…"),
    "your_diagnosis": T('Your diagnosis: `tutor lab mystery --answer "which ranks, which call, which line, why"`',
                        '你的诊断：`tutor lab mystery --answer "哪些 rank、哪个调用、哪一行、为什么" --lang zh`'),
    "scenario": T("The scenario: {title} ({lab}), {ranks} ranks, {args}", "场景：{title}（{lab}），{ranks} 个 rank，{args}"),
    "right": T("right: score {score:.0%}", "正确：得分 {score:.0%}"),
    "not_yet": T("not yet: score {score:.0%}", "还不对：得分 {score:.0%}"),
    "model_answer": T("  model answer: {answer}", "  参考答案：{answer}"),
    "model_later": T("The model answer comes after a pass, or with --give-up.",
                     "通过之后才能看参考答案，或者用 --give-up。"),
}
ERRORS = {
    "empty": T("the answer is empty", "答案是空的"),
    "long": T("the answer is longer than {limit:,} characters", "答案超过了 {limit:,} 个字符"),
    "no_run": T("no run of {lab} yet: `tutor lab run {lab}` first", "{lab} 还没运行过：先 `tutor lab run {lab}`"),
    "no_mystery": T("no mystery yet: `tutor lab mystery` draws and runs one",
                    "还没有谜题：`tutor lab mystery` 会抽一个并运行"),
    "unfinished": T("the current mystery has not run to the end: `tutor lab mystery` draws a new one",
                    "当前的谜题没有运行到结束：`tutor lab mystery` 会重新抽一个"),
    "answer_first": T("answer first (`tutor lab mystery --answer ...`), then --reveal",
                      "先回答（`tutor lab mystery --answer ...`），再 --reveal"),
}

def add_parsers(sub) -> None:
    sub.choices["run"].add_argument("--debug", choices=("detail", "barrier"), default=None,
                                    help="detail: TORCH_DISTRIBUTED_DEBUG=DETAIL; barrier: a monitored_barrier "
                                         "at every step boundary")
    evidence = sub.add_parser("evidence", help="the last run's hang or crash, rank by rank: stacks, collectives, "
                                               "torchrun's first failure, the flight recorder")
    evidence.add_argument("name")
    evidence.add_argument("--fr", action="store_true", help="also read the flight-recorder dumps with torchfrtrace")
    add_json_flag(evidence)
    mystery = sub.add_parser("mystery", help="a random hang scenario, unnamed: run it, diagnose it, reveal it")
    mystery.add_argument("--seed", type=int, default=None, help="draw a reproducible case")
    mystery.add_argument("--timeout", type=float, metavar="S", help="no-progress limit in seconds")
    mystery.add_argument("--answer", metavar="TEXT", help="grade your diagnosis of the current case (- reads stdin)")
    mystery.add_argument("--reveal", action="store_true", help="name the current case's scenario")
    add_json_flag(mystery)


def debug_spec(spec, args):
    from tutor.labs.hangtools import with_debug

    return with_debug(spec, getattr(args, "debug", None))


def read_answer(text: str) -> str:
    """A diagnosis from the command line (or stdin for -): empty or over the cap is one line."""
    from tutor.actions import MAX_ANSWER_CHARS

    answer = sys.stdin.read() if text == "-" else text
    if not answer.strip():
        raise UserInputError(ERRORS["empty"])
    if len(answer) > MAX_ANSWER_CHARS:
        raise UserInputError(ERRORS["long"].filled(limit=MAX_ANSWER_CHARS))
    return answer


def run_evidence(args, entry) -> int:
    from tutor.labs.hangreport import answered, latest, text, view
    from tutor.store import Store

    with Store() as store:
        found = latest(store, entry.name)
        if found is None:
            raise TutorError(ERRORS["no_run"].filled(lab=entry.name))
        row_id, evidence = found
        reveal = answered(store, entry.name, row_id)
    shown = view(evidence, reveal=reveal, flight_recorder=args.fr)
    if args.json:
        print_json(shown)
    else:
        print("\n".join(text(shown, entry.name, lang_of(args))))
        if evidence["outcome"] in ("hang", "crash"):
            print("\n" + LABELS["next"].format(lang_of(args), lab=entry.name))
    return 0


def run_mystery(args) -> int:
    from tutor.labs import mystery

    lang = lang_of(args)
    if args.answer is not None or args.reveal:
        return _mystery_followup(args, lang)
    case = mystery.draw(args.seed)
    if not args.json:
        # No program arguments: each lab's flags (--save-every, --filter-step…) name its scenario.
        print(LABELS["running"].format(lang, case=case.id, ranks=case.world_size), flush=True)
    evidence = mystery.run(case, timeout_s=args.timeout)
    from tutor.labs.hangreport import text, view

    shown = view(evidence, reveal=False)
    if isinstance(shown.get("launcher"), dict):
        shown["launcher"] = {key: value for key, value in shown["launcher"].items() if key != "command"}
    if args.json:
        print_json({"mystery": case.public(), "evidence": shown})
    else:
        print("\n".join(text(shown, "mystery", lang, answer_command='tutor lab mystery --answer "..."')))
        print("\n" + LABELS["your_diagnosis"].get(lang))
    return 0


def _mystery_followup(args, lang: str) -> int:
    from tutor.labs import mystery
    from tutor.labs.hangreport import text, view

    current = mystery.current()
    if current is None:
        raise UserInputError(ERRORS["no_mystery"])
    case, run_dir, was_answered = current
    evidence = mystery.evidence_of(run_dir)
    if evidence is None:
        raise UserInputError(ERRORS["unfinished"])
    result: dict = {"mystery": case.public()}
    if args.answer is not None:
        from tutor.actions.labs import answer_mystery
        from tutor.store import Store

        with Store() as store:
            verdict = answer_mystery(store, case, run_dir, read_answer(args.answer), evidence, lang)
        result["verdict"] = verdict
        result["evidence"] = view(evidence, reveal=True)
    if args.reveal:
        if not (was_answered or args.answer is not None):
            raise UserInputError(ERRORS["answer_first"])
        result["reveal"] = mystery.reveal(case, lang)
    if args.json:
        print_json(result)
        return 0
    if "verdict" in result:
        print_verdict(result["verdict"], lang)
        print("\n" + "\n".join(text(result["evidence"], "mystery", lang)[-3:]))
    if "reveal" in result:
        shown = result["reveal"]
        print("\n" + LABELS["scenario"].format(lang, title=shown["title"], lab=shown["lab"], ranks=shown["world_size"],
                                              args=" ".join(shown["args"])) + f"\n\n{shown['brief'].rstrip()}")
        for answer in shown["model_answers"]:
            print(f"\n  {answer}")
    return 0


def print_verdict(verdict: dict, lang: str) -> None:
    print(LABELS["right" if verdict["correct"] else "not_yet"].format(lang, score=verdict["score"]))
    for item in verdict["feedback"]:
        print(f"\n{item['prompt']}")
        for point in item["covered"]:
            print(f"  ✓ {point}")
        for point in item["missing"]:
            print(f"  ✗ {point}")
        if item.get("model_answer"):
            print(LABELS["model_answer"].format(lang, answer=item["model_answer"]))
    for note in verdict.get("notes") or []:
        print(f"\n{note}")
    if not verdict["correct"]:
        print("\n" + LABELS["model_later"].get(lang))
