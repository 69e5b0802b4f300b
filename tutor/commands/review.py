"""`tutor review`: answer what is due — questions with new numbers, lab diagnoses — rated by the grade.

    tutor review [--limit N] [--lang en|zh]      one item after another; an empty line submits
    tutor review --json                          what is due, and the review statistics

Each answer reschedules its card (FSRS): wrong → again soon; right with a hint or slowly →
hard; right → good; right and fast → easy. `:hint` shows a hint, `:skip` leaves an item due,
`:quit` stops.
"""

from __future__ import annotations

import sys

from tutor.commands._common import add_json_flag, add_lang_flag, lang_of, print_json
from tutor.interview.clock import stamp_text
from tutor.text import T

WORDS = {
    "none": T("Nothing is due. {cards} card(s){next}.", "没有到期的复习。共 {cards} 张卡{next}。"),
    "next": T("; the next falls due {when}", "；下一张 {when} 到期"),
    "item": T("[{index}/{total}] review", "[{index}/{total}] 复习"),
    "how": T("Answer, then an empty line. :hint, :skip, :quit.",
             "作答后空一行提交。:hint 提示，:skip 跳过，:quit 退出。"),
    "due": T("Next review of this item: {when}.", "这道题下次复习：{when}。"),
    "no_more": T("No more hints.", "没有更多提示了。"),
    "done": T("Reviewed {count}; {left} still due.", "复习了 {count} 道；还有 {left} 道到期。"),
}


def say(key: str, lang: str, **values: object) -> str:
    return WORDS[key].format(lang, **values)


def add_arguments(parser) -> None:
    parser.add_argument("--limit", type=int, default=20, help="most items in one sitting (default 20)")
    add_json_flag(parser)
    add_lang_flag(parser)


def run(args) -> int:
    from tutor.errors import UserInputError
    from tutor.interview.review import ReviewQueue
    from tutor.store import Store
    from tutor.store.progress import review_summary as stats

    if args.limit < 1:
        raise UserInputError("--limit must be at least 1")
    lang = lang_of(args)
    with Store() as store:
        queue = ReviewQueue(store)
        due = queue.due(limit=args.limit)
        if args.json:
            print_json({"due": _listing(store, due), "stats": stats(store, queue.now())})
            return 0
        if not due:
            record = stats(store, queue.now())
            print(say("none", lang, cards=record["cards"],
                      next=say("next", lang, when=stamp_text(record["next_due"])) if record["next_due"] else ""))
            return 0
        return _session(store, queue, due, lang)


def _listing(store, due: list[str]) -> list[dict]:
    import random

    from tutor.interview.review_tasks import task_for
    from tutor.interview.scenarios import Library
    from tutor.store import reviews

    library = Library.installed()
    listing = []
    for item_id in due:
        task = task_for(item_id, library, store, random.Random(0))
        due_at = reviews.due_at(store, item_id)
        listing.append({"item": item_id, "kind": task.kind if task else None, "title": task.title if task else None,
                        "step": task.step.id if task is not None and task.kind == "question" else None,
                        "due_at": due_at, "installed": task is not None})
    return listing


def _session(store, queue, due: list[str], lang: str) -> int:
    import random
    import time

    from tutor.actions.review import answer, due_tasks
    from tutor.interview.present import verdict_markdown
    from tutor.interview.review_tasks import lab_feedback_markdown
    from tutor.commands._common import interview_library
    from tutor.interview.terminal import LineReader, read_answer

    library, reader = interview_library(lang), LineReader()
    tasks = due_tasks(store, library, queue, random.Random(), limit=len(due))
    reviewed = 0
    for index, task in enumerate(tasks, start=1):
        print(f"\n{'─' * 72}\n{say('item', lang, index=index, total=len(tasks))}\n\n{task.prompt_markdown(lang)}")
        print(say("how", lang), flush=True)
        started, hints = time.monotonic(), 0
        typed = read_answer(reader)
        while typed.command == ":hint":
            available = task.hints()
            print(f"→ {available[hints].get(lang)}" if hints < len(available) else say("no_more", lang), flush=True)
            hints = min(hints + 1, len(available))
            typed = read_answer(reader)
        if typed.command == ":quit" or (typed.eof and not typed.text):
            break
        if typed.command in (":skip", ":end", ":lesson"):
            continue
        result = answer(task, typed.text, store, hints_used=hints, elapsed_s=round(time.monotonic() - started, 2),
                        lang=lang, queue=queue)
        reviewed += 1
        print(verdict_markdown(result.verdict, lang) if task.kind == "question"
              else lab_feedback_markdown(result.verdict, lang))
        print(say("due", lang, when=stamp_text(result.due_next)), flush=True)
        if typed.eof:
            break
    print(say("done", lang, count=reviewed, left=len(queue.due(limit=10_000))), file=sys.stdout)
    return 0
