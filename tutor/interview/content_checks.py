"""`tutor validate` checks for interview content (`interview/*.yaml` beside lessons/ and questions/).

Picked up by `tutor.content.validate.engine_checks()`. The interview folder is found beside the
content being validated; each scenario is then checked as the question it is (sections, step ids,
expected values for seeds 0–4, units, prompts — the bank's own checks), plus what only a scenario
has: exhibit placeholders that are inputs, a full set of rank dumps for a hang, follow-up topics
(and `probes` only on follow-ups), a candidate-led round's `structure` naming its open step's
points, references to bank questions that exist, and at least one thing to ask in every format.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tutor.content.loader import Content, Problem


def check_interview(content: Content) -> Iterable[Problem]:
    """The interview content loaded with the rest (`content.interview`), when a root has one."""
    folders = [root / "interview" for root in _roots(content) if (root / "interview").is_dir()]
    if not folders:
        return
    if content.roots:
        interview = content.interview
    else:  # `tutor validate FILE...`: the content was put together file by file, without its roots
        from tutor.content.loader import InterviewContent, load_interview

        interview = InterviewContent()
        for each in folders:
            load_interview(each, interview)
    folder = folders[0]
    yield from interview.problems
    yield from _check_ids_and_refs(content, interview)
    yield from _check_as_questions(content, interview)
    for entry in interview.scenarios.values():
        yield from _check_exhibit(entry)
        yield from _check_followup(entry)
        yield from _check_structure(entry)
    yield from _check_coverage(content, interview, folder)


def _roots(content: Content) -> list[Path]:
    """The content roots the loaded files come from (lessons/x.yaml, questions/x.yaml, labs/NN/lab.yaml)."""
    found: dict[Path, None] = {}
    for loaded in [*content.lessons.values(), *content.questions.values()]:
        found[loaded.path.resolve().parent.parent] = None
    for loaded in content.labs.values():
        found[loaded.path.resolve().parent.parent.parent] = None
    return list(found)


def _check_ids_and_refs(content: Content, interview) -> Iterable[Problem]:
    for scenario_id, entry in interview.scenarios.items():
        if scenario_id in content.questions:
            other = content.questions[scenario_id]
            yield entry.problem(f"scenario id {scenario_id!r} is also a bank question ({other.path.name}); "
                                "review cards and history refer to ids, so they must differ", "id")
    for ref in interview.refs:
        target = content.questions.get(ref.model.question)
        if target is None:
            yield ref.problem(f"unknown bank question {ref.model.question!r}", "question")
        elif ref.model.format == "design" and len(target.model.steps) < 2:
            yield ref.problem(f"{ref.model.question!r} has one step; the design format asks a multi-step question",
                              "question")
        if ref.model.format == "followup" and not ref.model.topics:
            yield ref.problem("a follow-up needs `topics`: the stage tags it may follow", "topics")


def _check_as_questions(content: Content, interview) -> Iterable[Problem]:
    """The bank's own question checks, run on the scenarios (with the lessons, for sections)."""
    from tutor.content.validate import check_question_links
    from tutor.grading.content_checks import check_questions

    as_bank = Content(lessons=content.lessons, questions=dict(interview.scenarios))
    yield from check_question_links(as_bank)
    yield from check_questions(as_bank)


def _check_exhibit(entry) -> Iterable[Problem]:
    from tutor.grading.variant import placeholders

    scenario = entry.model
    exhibit = scenario.exhibit
    known = set(scenario.given) | set(scenario.derive)
    if exhibit is not None and exhibit.text is not None:
        names = {lang: placeholders(exhibit.text.get(lang)) for lang in ("en", "zh")}
        for lang, found in names.items():
            for name in sorted(found - known):
                yield entry.problem(f"{{{name}}} in the {lang} exhibit is not an input (given or derive)",
                                    "exhibit", "text", lang)
        if names["en"] != names["zh"]:
            differing = ", ".join(sorted(names["en"] ^ names["zh"]))
            yield entry.problem(f"en and zh exhibits use different inputs: {differing}", "exhibit", "text")
    if scenario.format == "hang":
        ranks = [stack.rank for stack in exhibit.stacks] if exhibit is not None else []
        if len(ranks) < 2:
            yield entry.problem("a hang scenario shows every rank's stack dump (exhibit.stacks)", "exhibit")
        elif ranks != list(range(len(ranks))):
            yield entry.problem(f"exhibit.stacks must list ranks 0..{len(ranks) - 1} once each, in order; got {ranks}",
                                "exhibit", "stacks")
    if scenario.format in ("debug", "hang") and exhibit is None:
        yield entry.problem(f"a {scenario.format} scenario needs an exhibit (what the candidate is shown)", "id")


def _check_followup(entry) -> Iterable[Problem]:
    scenario = entry.model
    if scenario.format == "followup":
        if not scenario.topics:
            yield entry.problem("a follow-up needs `topics`: the stage tags it may follow", "id")
        if len(scenario.steps) != 1:
            yield entry.problem("a follow-up is one question: give it exactly one step", "steps")
    elif scenario.topics:
        yield entry.problem("`topics` is for follow-ups; this scenario's format is " + scenario.format, "topics")


def _check_structure(entry) -> Iterable[Problem]:
    scenario = entry.model
    if scenario.format == "led":
        if len(scenario.steps) != 1 or scenario.steps[0].kind != "open":
            yield entry.problem("a candidate-led round is one open step (the blank page)", "steps")
            return
        if not scenario.structure:
            yield entry.problem("a candidate-led round needs `structure`: its points in the expected order", "id")
        known = {point.id for point in scenario.steps[0].points}
        for name in scenario.structure:
            if name not in known:
                yield entry.problem(f"structure names {name!r}, which is not a point of the open step "
                                    f"({', '.join(sorted(known))})", "structure")
        if len(set(scenario.structure)) != len(scenario.structure):
            yield entry.problem("structure lists a point twice", "structure")
    elif scenario.structure:
        yield entry.problem("`structure` is for candidate-led rounds (format: led); this one is " + scenario.format,
                            "structure")
    if scenario.probes != "weak" and scenario.format != "followup":
        yield entry.problem("`probes` is for follow-ups; this scenario's format is " + scenario.format, "probes")


def _check_coverage(content: Content, interview, folder: Path) -> Iterable[Problem]:
    from tutor.interview.formats import FORMATS
    from tutor.interview.scenarios import Library

    library = Library(content, interview)
    for format_id, spec in FORMATS.items():
        if not spec.draw(library):
            yield Problem(folder, 1, f"nothing to ask in the {format_id!r} format: {spec.needs}")
    if not library.followups():
        yield Problem(folder, 1, "no follow-ups: add scenarios with `format: followup` or references to bank questions")


CHECKS = [check_interview]
