"""`tutor lab evidence NAME`, `tutor lab mystery`, `tutor lab run NAME --debug detail|barrier`
(the hang labs' tools) and how the CLI reads and prints a diagnosis (graded by `tutor.actions.labs`).

Registered by `tutor.commands.lab`; heavy imports stay inside the handlers.
"""

from __future__ import annotations

import sys

from tutor.commands._common import add_json_flag, add_lang_flag, lang_of, print_json
from tutor.errors import TutorError, UserInputError



def add_parsers(sub) -> None:
    sub.choices["run"].add_argument("--debug", choices=("detail", "barrier"), default=None,
                                    help="detail: TORCH_DISTRIBUTED_DEBUG=DETAIL; barrier: a monitored_barrier "
                                         "at every step boundary")
    evidence = sub.add_parser("evidence", help="the last run's hang or crash, rank by rank: stacks, collectives, "
                                               "torchrun's first failure, the flight recorder")
    evidence.add_argument("name")
    evidence.add_argument("--fr", action="store_true", help="also read the flight-recorder dumps with torchfrtrace")
    add_json_flag(evidence)
    add_lang_flag(evidence)
    mystery = sub.add_parser("mystery", help="a random hang scenario, unnamed: run it, diagnose it, reveal it")
    mystery.add_argument("--seed", type=int, default=None, help="draw a reproducible case")
    mystery.add_argument("--timeout", type=float, metavar="S", help="no-progress limit in seconds")
    mystery.add_argument("--answer", metavar="TEXT", help="grade your diagnosis of the current case (- reads stdin)")
    mystery.add_argument("--reveal", action="store_true", help="name the current case's scenario")
    add_json_flag(mystery)
    add_lang_flag(mystery)


def debug_spec(spec, args):
    from tutor.labs.hangtools import with_debug

    return with_debug(spec, getattr(args, "debug", None))


def read_answer(text: str) -> str:
    """A diagnosis from the command line (or stdin for -): empty or over the cap is one line."""
    from tutor.actions import MAX_ANSWER_CHARS

    answer = sys.stdin.read() if text == "-" else text
    if not answer.strip():
        raise UserInputError("the answer is empty")
    if len(answer) > MAX_ANSWER_CHARS:
        raise UserInputError(f"the answer is longer than {MAX_ANSWER_CHARS:,} characters")
    return answer


def run_evidence(args, entry) -> int:
    from tutor.labs.hangreport import answered, latest, text, view
    from tutor.store import Store

    with Store() as store:
        found = latest(store, entry.name)
        if found is None:
            raise TutorError(f"no run of {entry.name} yet: `tutor lab run {entry.name}` first")
        row_id, evidence = found
        reveal = answered(store, entry.name, row_id)
    shown = view(evidence, reveal=reveal, flight_recorder=args.fr)
    if args.json:
        print_json(shown)
    else:
        print("\n".join(text(shown, entry.name, lang_of(args))))
        if evidence["outcome"] in ("hang", "crash"):
            print(f"\nNext: `tutor lab evidence {entry.name} --fr` (flight recorder), "
                  f"`tutor lab run {entry.name} --debug detail` or `--debug barrier`")
    return 0


def run_mystery(args) -> int:
    from tutor.labs import mystery

    lang = lang_of(args)
    if args.answer is not None or args.reveal:
        return _mystery_followup(args, lang)
    case = mystery.draw(args.seed)
    if not args.json:
        # No program arguments: each lab's flags (--save-every, --filter-step…) name its scenario.
        print(f"mystery {case.id}: {case.world_size} ranks; running…", flush=True)
    evidence = mystery.run(case, timeout_s=args.timeout)
    from tutor.labs.hangreport import text, view

    shown = view(evidence, reveal=False)
    if isinstance(shown.get("launcher"), dict):
        shown["launcher"] = {key: value for key, value in shown["launcher"].items() if key != "command"}
    if args.json:
        print_json({"mystery": case.public(), "evidence": shown})
    else:
        print("\n".join(text(shown, "mystery", lang, answer_command='tutor lab mystery --answer "..."')))
        print('\nYour diagnosis: `tutor lab mystery --answer "which ranks, which call, which line, why"`')
    return 0


def _mystery_followup(args, lang: str) -> int:
    from tutor.labs import mystery
    from tutor.labs.hangreport import text, view

    current = mystery.current()
    if current is None:
        raise UserInputError("no mystery yet: `tutor lab mystery` draws and runs one")
    case, run_dir, was_answered = current
    evidence = mystery.evidence_of(run_dir)
    if evidence is None:
        raise UserInputError("the current mystery has not run to the end: `tutor lab mystery` draws a new one")
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
            raise UserInputError("answer first (`tutor lab mystery --answer ...`), then --reveal")
        result["reveal"] = mystery.reveal(case, lang)
    if args.json:
        print_json(result)
        return 0
    if "verdict" in result:
        print_verdict(result["verdict"])
        print("\n" + "\n".join(text(result["evidence"], "mystery", lang)[-3:]))
    if "reveal" in result:
        shown = result["reveal"]
        print(f"\nThe scenario: {shown['title']} ({shown['lab']}), {shown['world_size']} ranks, "
              f"{' '.join(shown['args'])}\n\n{shown['brief'].rstrip()}")
        for answer in shown["model_answers"]:
            print(f"\n  {answer}")
    return 0


def print_verdict(verdict: dict) -> None:
    print(f"{'right' if verdict['correct'] else 'not yet'}: score {verdict['score']:.0%}")
    for item in verdict["feedback"]:
        print(f"\n{item['prompt']}")
        for point in item["covered"]:
            print(f"  ✓ {point}")
        for point in item["missing"]:
            print(f"  ✗ {point}")
        if item.get("model_answer"):
            print(f"  model answer: {item['model_answer']}")
    for note in verdict.get("notes") or []:
        print(f"\n{note}")
    if not verdict["correct"]:
        print("\nThe model answer comes after a pass, or with --give-up.")
