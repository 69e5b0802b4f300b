"""`tutor mock`: a timed mock interview on the terminal; its history, and the report as Markdown.

    tutor mock [--format pitch|design|led|debug|hang|behavioural|rapid] [--mode strict|practice] [--lang en|zh]
    tutor mock --resume | --abandon          an interview interrupted by quitting
    tutor mock --formats | --history [--json]
    tutor mock --export [PATH] [--session ID]

Answers are typed (or piped) on standard input, each ended by an empty line; `:quit` leaves
the interview to resume later, `:end` finishes it now, `:hint` and `:lesson` work in practice
mode. With `--json` the questions go to stderr and the report is the one JSON object on stdout.
"""

from __future__ import annotations

import sys

from tutor.commands._common import add_json_flag, add_lang_flag, interview_library, lang_of, print_json
from tutor.errors import UserInputError

FORMAT_IDS = ("pitch", "design", "led", "debug", "hang", "behavioural", "rapid")  # tutor.interview.formats.FORMATS


def add_arguments(parser) -> None:
    parser.add_argument("--format", choices=FORMAT_IDS, help="which interview (default: ask)")
    parser.add_argument("--mode", choices=("strict", "practice"), default="strict",
                        help="strict: no hints, no lesson, cut off at time up (default); practice: hints, verdicts")
    parser.add_argument("--seed", type=int, help="draw the same questions and numbers again")
    resume = parser.add_mutually_exclusive_group()
    resume.add_argument("--resume", action="store_true", help="continue the interrupted interview")
    resume.add_argument("--abandon", action="store_true", help="record the interrupted interview as abandoned")
    parser.add_argument("--formats", action="store_true", help="list the formats")
    parser.add_argument("--history", action="store_true", help="past interviews and the trend")
    parser.add_argument("--export", nargs="?", const="", metavar="PATH",
                        help="write a report as Markdown (default mock-ID.md; - for stdout)")
    parser.add_argument("--session", type=int, metavar="ID", help="which interview --export writes (default: latest)")
    add_json_flag(parser)
    add_lang_flag(parser)


def run(args) -> int:
    from tutor.interview.clock import SystemClock
    from tutor.interview.session import SessionError
    from tutor.store import Store

    lang = lang_of(args)
    if args.formats:
        return _formats(args, lang)
    with Store() as store:
        if args.history:
            return _history(store, args, lang)
        if args.export is not None:
            return _export(store, args, lang)
        library = interview_library(lang)
        try:
            session = _open_session(store, library, args, SystemClock())
        except SessionError as error:
            raise UserInputError(str(error)) from None
        if session is None:
            return 0
        from tutor.commands.mock_loop import run_interview

        out = sys.stderr if args.json else sys.stdout
        report = run_interview(session, lang, out)
        if report is not None and args.json:
            print_json(report)
        return 0


def _open_session(store, library, args, clock):
    from tutor.actions import mock

    waiting = mock.waiting(store)
    if waiting and not (args.resume or args.abandon):
        entry = waiting[0]
        choice = _ask(f"An interrupted {entry['format']} interview (#{entry['id']}, started {entry['started_at']}, "
                      f"{entry['answered']} of {entry['stages']} answered) is waiting. [r]esume or [a]bandon? ")
        if choice not in ("r", "a"):
            raise UserInputError(f"an interrupted mock interview (#{entry['id']}) is waiting: "
                                 "run `tutor mock --resume` or `tutor mock --abandon`")
        args.resume, args.abandon = choice == "r", choice == "a"
    if args.resume:
        if not waiting:
            raise UserInputError("no interrupted mock interview to resume")
        return mock.resume(store, library, waiting[0]["id"], clock)
    if args.abandon:
        if not waiting:
            raise UserInputError("no interrupted mock interview to abandon")
        for entry in waiting:
            mock.abandon(store, library, entry["id"], clock)
        print(f"Recorded {len(waiting)} interrupted interview(s) as abandoned; their answers are kept.",
              file=sys.stderr)
        if args.format is None:
            return None
    format_id = args.format or _choose_format()
    return mock.start(store, library, format_id, args.mode, clock, seed=args.seed)


def _ask(prompt: str) -> str:
    """One keystroke-line answer on a terminal; "" when there is no terminal to ask."""
    if not sys.stdin.isatty():
        return ""
    try:
        return input(prompt).strip().lower()[:1]
    except EOFError:
        return ""


def _choose_format() -> str:
    from tutor.interview.formats import FORMATS

    if not sys.stdin.isatty():
        raise UserInputError(f"choose a format: --format {'|'.join(FORMATS)}")
    for index, spec in enumerate(FORMATS.values(), start=1):
        print(f"  {index}. {spec.name.en:<28} {spec.blurb.en}")
    answer = _ask("Which interview (1-5)? ")
    if not answer.isdigit() or not 1 <= int(answer) <= len(FORMATS):
        raise UserInputError("no format chosen")
    return list(FORMATS)[int(answer) - 1]


def _formats(args, lang: str) -> int:
    from tutor.interview.formats import FORMATS

    listing = [{"id": spec.id, "name": spec.name.to_json(), "blurb": spec.blurb.to_json(),
                "minutes": round(spec.total_s / 60, 1),
                "followups": spec.max_followups} for spec in FORMATS.values()]
    if args.json:
        print_json({"formats": listing})
        return 0
    for entry in listing:
        print(f"{entry['id']:<11} {entry['name'][lang]:<28} {entry['minutes']:>5g} min  {entry['blurb'][lang]}")
    return 0


def _history(store, args, lang: str) -> int:
    from tutor.store.progress import mock_summary

    record = mock_summary(store)
    if args.json:
        print_json(record)
        return 0
    if not record["sessions"]:
        print("No mock interviews yet: `tutor mock --format pitch` takes thirty seconds.")
        return 0
    for entry in record["sessions"]:
        score = "–" if entry["score"] is None else f"{entry['score']:.0%}"
        print(f"#{entry['id']:<4} {entry['started_at'][:16].replace('T', ' ')}  {entry['format']:<7} {entry['mode']:<9}"
              f" {entry['status']:<10} {score:>5}")
    for format_id, trend in record["by_format"].items():
        scores = " → ".join(f"{score:.0%}" for score in trend["recent"])
        print(f"\n{format_id}: {trend['finished']} finished, best {trend['best']:.0%}; recent {scores}"
              if trend["finished"] else f"\n{format_id}: none finished yet")
    return 0


def _export(store, args, lang: str) -> int:
    from pathlib import Path

    from tutor.interview.report import report_markdown
    from tutor.store.mocks import latest_reported_mock, mock_session

    session = mock_session(store, args.session) if args.session is not None else latest_reported_mock(store)
    if session is None or session["report"] is None:
        raise UserInputError(f"no report for mock interview {args.session}" if args.session is not None
                             else "no finished mock interview to export yet")
    text = report_markdown(session["report"], lang)
    if args.export == "-":
        sys.stdout.write(text)
        return 0
    target = Path(args.export or f"mock-{session['id']}-{session['format']}.md")
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UserInputError(f"cannot write {target}: {error.strerror}") from None
    if args.json:
        print_json({"session": session["id"], "path": str(target)})
    else:
        print(f"wrote {target}")
    return 0
