"""`tutor progress [--json]`: attempts, accuracy, streak, mastery per tag and section, review
statistics and the mock-interview trend."""

from __future__ import annotations

from tutor.commands._common import add_json_flag, loaded_content, print_json


def add_arguments(parser) -> None:
    add_json_flag(parser)


def run(args) -> int:
    from tutor.store import Store
    from tutor.store.progress import summary

    content = loaded_content()
    with Store() as store:
        record = summary(store, content)
    if args.json:
        print_json(record)
        return 0
    if not record["attempts"]:
        print(f"No attempts yet. {record['questions_total']} questions are waiting: `tutor start`.")
        _print_review_and_mock(record)
        return 0
    accuracy = f"{record['accuracy']:.0%}"
    print(f"Attempts {record['attempts']}  correct {record['correct']} ({accuracy})  "
          f"questions tried {record['questions_tried']}/{record['questions_total']}  "
          f"streak {record['streak_days']} day(s)  lab runs {record['lab_runs']}")
    print("\nMastery by section")
    for section, entry in record["by_section"].items():
        print(f"  {section:<40} {_bar(entry['mastery'])} {entry['mastery']:>4.0%}  ({entry['tried']}/{entry['questions']} tried)")
    if record["weak_tags"]:
        print(f"\nWeak areas: {', '.join(record['weak_tags'])}")
    _print_review_and_mock(record)
    return 0


def _print_review_and_mock(record: dict) -> None:
    review, mock = record["review"], record["mock"]
    if review["cards"]:
        ratings = ", ".join(f"{name} {count}" for name, count in review["by_rating"].items())
        print(f"\nReview: {review['cards']} cards, {review['due']} due now (`tutor review`); "
              f"{review['reviews']} reviews ({ratings})")
    if mock["by_format"]:
        print(f"\nMock interviews: {mock['finished']} finished, {mock['abandoned']} abandoned"
              + (f", {mock['running']} interrupted (`tutor mock --resume`)" if mock["running"] else ""))
        for format_id, trend in mock["by_format"].items():
            if trend["finished"]:
                scores = " → ".join(f"{score:.0%}" for score in trend["recent"])
                print(f"  {format_id:<8} best {trend['best']:.0%}  last {trend['last']:.0%}  trend {scores}")


def _bar(fraction: float, width: int = 20) -> str:
    filled = round(fraction * width)
    return "█" * filled + "·" * (width - filled)
