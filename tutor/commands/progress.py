"""`tutor progress [--json]`: attempts, accuracy, streak, mastery per tag and section, review
statistics and the mock-interview trend."""

from __future__ import annotations

from tutor.commands._common import add_json_flag, loaded_content, print_json


def add_arguments(parser) -> None:
    add_json_flag(parser)


def run(args) -> int:
    from tutor.store import Store
    from tutor.store.progress import summary

    from tutor.labs.catalog import all_labs
    from tutor.store.progress import solved_counts

    content = loaded_content()
    with Store() as store:
        record = summary(store, content)
        record.update(solved_counts(store, content, all_labs()))
    if args.json:
        print_json(record)
        return 0
    if not record["attempts"]:
        print(f"No attempts yet. {record['questions_total']} questions are waiting: `tutor start`.")
        _print_review_and_mock(record)
        return 0
    accuracy = f"{record['accuracy']:.0%}"
    total = record["questions_total"]
    print(f"Attempts {record['attempts']}  correct {record['correct']} ({accuracy})  "
          f"questions solved {record['solved']}/{total}, tried {record['questions_tried']}/{total}  "
          f"streak {_count(record['streak_days'], 'day')}  labs passed {record['labs_passed']}/{record['labs_total']} "
          f"({_count(record['lab_runs'], 'lab run')})")
    # Mastery is each question's latest score (what the learner can do now); solved counts the
    # questions ever answered right, as Practice's ✓ and the app's Progress do (minor 14: "0% (3/11
    # tried)" beside questions answered right read as a contradiction).
    print("\nMastery by section (latest attempts) · solved (ever right) · tried")
    for section, entry in record["by_section"].items():
        solved = record["solved_by_section"].get(section, 0)
        print(f"  {section:<40} {_bar(entry['mastery'])} {entry['mastery']:>4.0%}  "
              f"solved {solved}/{entry['questions']}  tried {entry['tried']}/{entry['questions']}")
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


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _bar(fraction: float, width: int = 20) -> str:
    filled = round(fraction * width)
    return "█" * filled + "·" * (width - filled)
