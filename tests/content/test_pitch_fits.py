"""The 30-second pitch the content teaches fits in the 30 seconds the app gives it (issue 20).

The pitch round cuts an answer where its spoken time (tutor/interview/spoken.py: 150 English words
or 300 Chinese characters a minute) passes the format's cap, and grades only what was said before.
A pitch the lesson or the question shows as the model answer must therefore fit whole: the first
run of this test measured the lesson's pitch at 54 s (135 words) and the question's zh model
answer at 85 s. One measurement per text, milliseconds in all.
"""

from __future__ import annotations

from tutor.content import load
from tutor.content.render import render_lesson
from tutor.grading.dispatch import grade
from tutor.interview.formats import FORMATS
from tutor.interview.spoken import measure

CAP_S = FORMATS["pitch"].spoken_s


def _quotes(markdown: str) -> list[str]:
    """The block quotes of a rendered section: the pitch as said."""
    quotes, current = [], []
    for line in markdown.splitlines() + [""]:
        if line.startswith(">"):
            current.append(line[1:].strip())
        elif current:
            quotes.append(" ".join(current))
            current = []
    return quotes


def test_the_lesson_pitch_fits_in_both_languages():
    library = load()
    lesson = next(loaded.model for loaded in library.lessons.values()
                  if any(section.id == "pitch" for section in loaded.model.sections))
    seen = {}
    for lang in ("en", "zh"):
        quotes = _quotes(render_lesson(lesson, lang).markdown("pitch"))
        assert quotes, f"no pitch quoted in the {lang} lesson"
        for quote in quotes:
            spoken = measure(quote, CAP_S)
            assert not spoken.cut, f"{lang}: {spoken.seconds:.1f} s, {spoken.words} words: {quote}"
            seen[lang] = seen.get(lang, 0) + 1
    assert seen["zh"] >= 2, "the zh lesson gives the English pitch and a Chinese one"
    # what the lesson teaches is an answer: the pitch question's rubric passes each quote
    question = library.questions["pitch-30-seconds"].model
    for lang in ("en", "zh"):
        for quote in _quotes(render_lesson(lesson, lang).markdown("pitch")):
            assert grade(question, quote).correct, quote


def test_every_pitch_model_answer_fits():
    from tutor.interview.scenarios import installed

    answers = [("pitch-30-seconds", lang, getattr(step.model_answer, lang))
               for step in load().questions["pitch-30-seconds"].model.steps for lang in ("en", "zh")]
    answers += [(key, lang, getattr(step.model_answer, lang)) for key, loaded in installed().scenarios.items()
                if loaded.model.format == "pitch" for step in loaded.model.steps for lang in ("en", "zh")]
    too_long = [f"{key} {lang}: {measure(text, CAP_S).seconds:.1f} s" for key, lang, text in answers
                if measure(text, CAP_S).cut]
    assert len(answers) >= 4 and not too_long, too_long


def test_a_long_pitch_is_cut():
    """The measure this file relies on does cut: the old 135-word pitch would not fit."""
    long_pitch = " ".join(["word"] * 135)
    spoken = measure(long_pitch, CAP_S)
    assert spoken.cut and round(spoken.seconds) == 54
