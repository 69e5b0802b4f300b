"""The learner's use cases, each in one place, each recording its history in one place.

The two front ends — the CLI (`tutor.cli`, `tutor.commands`) and the app (`tutor.ui`) — call
these and render what they return; neither grades, records or schedules on its own, so an
answer given in one cannot count differently in the other:

- `practice.answer`: a practice step (grade, record the attempt, rate the question's card);
- `review.due_tasks` / `review.answer`: a due review item;
- `labs.run` / `labs.check` / `labs.diagnose` / `labs.give_up`: a lab;
- `mock.start` / `mock.resume` / `mock.answer` / `mock.finish` / `mock.abandon`: a mock interview.

Layering: this package sits under the front ends and over the core (`interview`, `labs`,
`grading`, `content`, `store`); it never imports `tutor.ui` or textual (import-linter contracts
in pyproject.toml). The store is passed in: the CLI opens one per command, the app shares one.
"""

from tutor.grading.normalize import LONG_LIMIT as MAX_ANSWER_CHARS

__all__ = ["MAX_ANSWER_CHARS"]
