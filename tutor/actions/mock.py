"""A mock interview, as the learner sits it: start, resume or abandon one left running, answer each
stage, end it. `tutor mock` and the app's Mock screen call these.

`tutor.interview.session.MockSession` is the interview itself (the plan, the clock, grading,
follow-ups) and touches no store. Everything it means for the learner's history is recorded
here, through `tutor.store.mocks` and the attempt and review functions, so that the rows stay
durable as it goes: the session when it starts (before its first stage is shown), each stage as
it ends (with the new plan when a follow-up joined it), the report when it closes. A bank
question's answer joins the attempts (mode "mock"), and each question's review card is rated
once per interview, after its last stage. Ending early is one rule for both front ends: an
interview ended in its first minute is recorded as abandoned (left out of the trend, its answers
kept), later it is finished.
"""

from __future__ import annotations

from tutor.interview.clock import Clock, SystemClock, stamp
from tutor.interview.session import MockSession, SessionError, StageResult
from tutor.store import mocks
from tutor.store.db import Store

EARLY_END_S = 60
"""An interview ended within this many seconds of its start is recorded as abandoned, not finished."""


class Interview(MockSession):
    """A `MockSession` bound to the store it is recorded in: what `start` and `resume` give the front
    ends, so that `answer` and `end` need only the session."""

    store: Store
    id: int


def waiting(store: Store) -> list[dict]:
    """Interviews left running (interrupted), newest first: {id, format, mode, started_at, answered, stages}."""
    from tutor.interview.history import running

    return running(store)


def start(store: Store, library, format_id: str, mode: str = "strict", clock: Clock | None = None,
          seed: int | None = None, fuzz: bool = True) -> Interview:
    """A new interview, written down before its first stage is shown (`SessionError` if it cannot be).
    `fuzz` False makes review intervals exact (tests)."""
    from tutor.interview.history import asked_counts

    session = Interview.plan(library, format_id, mode, clock, seed=seed, fuzz=fuzz, asked=asked_counts(store))
    session.id = mocks.start_mock(store, format_id, mode, session.started_at, session.state())
    session.store = store
    return session


def resume(store: Store, library, session_id: int, clock: Clock | None = None, fuzz: bool = True) -> Interview:
    """An interrupted interview, from its rows, at the first stage not answered (`SessionError` if
    there is no such interview running, or its questions are gone)."""
    session = Interview.restore(library, session_id, mocks.mock_session(store, session_id),
                                  mocks.mock_stages(store, session_id), clock, fuzz)
    session.store = store
    return session


def abandon(store: Store, library, session_id: int, clock: Clock | None = None) -> None:
    """Record an interrupted interview as abandoned; its answered stages stay in the history."""
    try:
        session = resume(store, library, session_id, clock)
    except SessionError:
        # Its questions are gone (content changed): keep the stages, close the session without a report.
        mocks.close_mock(store, session_id, "abandoned", stamp((clock or SystemClock()).now()))
        return
    _close(session, session.abandon())


def answer(session: Interview, text: str, *, timed_out: bool = False, lang: str = "en") -> StageResult:
    """Grade and record the answer to the stage on screen; the report is written when it was the last."""
    planned = len(session.stages)
    result = session.submit(text, timed_out=timed_out, lang=lang)
    mocks.record_mock_stage(session.store, session.id, result.stage.key, result.started_at, result.ended_at,
                            result.score, result.answer, result.detail(),
                            session.state() if len(session.stages) != planned else None)
    _remember(session, result, lang)
    if session.done:
        finish(session)
    return result


def finish(session: Interview) -> dict:
    """End the interview (stages not reached score 0) and record its report."""
    return _close(session, session.finish())


def ends_early(session: Interview) -> bool:
    """Whether ending now would record the interview as abandoned (see the module)."""
    from datetime import datetime

    started = datetime.fromisoformat(session.started_at)
    return (session.clock.now() - started).total_seconds() < EARLY_END_S


def end(session: Interview) -> tuple[dict, bool]:
    """End the interview before its last stage: (its report, whether it was recorded as abandoned)."""
    early = ends_early(session)
    return _close(session, session.abandon() if early else session.finish()), early


def _close(session: Interview, report: dict) -> dict:
    mocks.close_mock(session.store, session.id, session.status, report["ended_at"], report)
    return report


def _remember(session: Interview, result: StageResult, lang: str) -> None:
    from tutor.interview.review import Outcome, ReviewQueue, question_item
    from tutor.store import Attempt, record_attempt

    stage = result.stage
    if stage.question_id in session.library.bank.questions and result.verdict.get("parsed") is not None:
        record_attempt(session.store, Attempt(stage.question_id, result.answer, result.correct, result.score,
                                              step_id=stage.step_id, seed=stage.seed, hints_used=result.hints_used,
                                              elapsed_s=round(result.elapsed_s, 2), lang=lang, mode="mock"))
    group = [item for item in session.stages if item.question_id == stage.question_id]
    if stage.key != group[-1].key:
        return  # a design question (or a repeated one) is reviewed once, after its last stage
    answered = [item for item in session.results if item.stage.question_id == stage.question_id]
    outcome = Outcome(all(item.correct for item in answered), sum(item.hints_used for item in answered),
                      sum(item.elapsed_s for item in answered), sum(item.stage.budget_s for item in answered))
    ReviewQueue(session.store, fuzz=session.fuzz, now=session.clock.now).record(question_item(stage.question_id),
                                                                               outcome)
