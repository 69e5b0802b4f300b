"""The command table: name -> (module in tutor.commands, one-line summary).

Each module exposes `add_arguments(parser)` and `run(args) -> int`, and imports heavy
packages only inside `run`, so building the parser stays cheap.
"""

COMMANDS: dict[str, tuple[str, str]] = {
    "start": ("start", "open the app"),
    "lessons": ("lessons", "list the lessons"),
    "lesson": ("lesson", "show one lesson, with every number computed live"),
    "questions": ("questions", "list practice questions"),
    "ask": ("ask", "show a practice question; --seed for fresh numbers"),
    "check": ("check", "check your answer to a question and record it"),
    "validate": ("validate", "check content files; every problem as path:line: message"),
    "size": ("size", "memory, bubble, FLOPs and time for one configuration"),
    "plan": ("plan", "the recipe's parallel layout for a model on N GPUs, with alternatives"),
    "progress": ("progress", "your attempts, accuracy and streak"),
    "mock": ("mock", "a timed mock interview: pitch, design, debug, hang, rapid fire; history and export"),
    "review": ("review", "spaced review of what you got wrong: due questions and lab diagnoses"),
    "lab": ("lab", "real distributed jobs: list, show, start, run, check, diagnose, reset, evidence, mystery, "
                   "experiment, bandwidth"),
    "serve": ("serve", "the app in a browser tab (textual-serve); loopback only unless --allow-remote"),
    "store": ("store", "where your history lives; check, back up or recover it"),
}
