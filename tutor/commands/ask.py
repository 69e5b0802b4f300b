"""`tutor ask ID [--seed N] [--lang L] [--json] [--reveal]`: show one variant of a question.

Seed 0 is the question as written; any other seed draws fresh numbers (the same ones every
time for that seed). The expected answers stay hidden unless `--reveal` (for authors and tests).
"""

from __future__ import annotations

from tutor.commands._common import add_json_flag, add_lang_flag, lang_of, loaded_content, print_json
from tutor.errors import TutorError, UserInputError
from tutor.text import T
from tutor.units import UNITLESS

WORDS = {
    "plain_number": T("a plain number", "纯数字"), "in_unit": T("in {unit}", "单位 {unit}"),
    "within": T("   answer {shown}, within ±{tolerance}", "   {shown}，误差 ±{tolerance}"),
    "symbols": T("   symbols: ", "   可用符号："), "answer": T("   answer: ", "   答案："),
    "answer_with": T("\nAnswer with: ", "\n作答："),
    "example_rules": T("e.g. {layout}; rules: ", "例如 {layout}；规则："), "rule_separator": T("; ", "；"),
}


def add_arguments(parser) -> None:
    parser.add_argument("id", metavar="ID", help="question id (see `tutor questions`)")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="variant: 0 = as written, any other number = fresh numbers (default 0)")
    parser.add_argument("--reveal", action="store_true", help="also show the expected answers")
    add_json_flag(parser)
    add_lang_flag(parser)


def find_question(content, question_id: str):
    """The question with this id, or a one-line error naming the closest ids."""
    import difflib

    loaded = content.questions.get(question_id)
    if loaded is None:
        close = difflib.get_close_matches(question_id, list(content.questions), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see `tutor questions`"
        raise UserInputError(f"no question {question_id!r}{hint}")
    return loaded.model


def checked_seed(seed: int) -> int:
    if seed < 0 or seed > 2**31:
        raise UserInputError(f"--seed must be between 0 and {2**31}, got {seed}")
    return seed


def run(args) -> int:
    from tutor.grading.dispatch import expected_answer, step_prompt
    from tutor.grading.variant import VariantError, draw

    question = find_question(loaded_content(), args.id)
    seed = checked_seed(args.seed)
    try:
        variant = draw(question, seed)
    except VariantError as error:
        raise TutorError(f"{error}; run `tutor validate`") from None
    steps = []
    for step in question.steps:
        entry = {"id": step.id, "kind": step.kind, "prompt": step_prompt(question, step, variant),
                 **_answer_form(step)}
        if args.reveal:
            entry["answer"] = expected_answer(question, step, variant)
        steps.append(entry)
    prompt = _question_prompt(question, variant)
    if args.json:
        print_json({"id": question.id, "kind": question.kind, "seed": seed, "title": question.title.model_dump(),
                    "section": question.section, "tags": list(question.tags), "source": question.source,
                    "prompt": prompt, "steps": steps})
        return 0
    _print(question, seed, prompt, steps, lang_of(args), args.reveal)
    return 0


def _question_prompt(question, variant) -> dict[str, str]:
    from tutor.grading.variant import render

    return {lang: render(question.prompt.get(lang), variant.values, lang) for lang in ("en", "zh")}


def _answer_form(step) -> dict:
    """How the answer is written: the unit, the symbols, the options (never the answer itself)."""
    if step.kind == "numeric":
        return {"unit": step.answer.unit, "tolerance": step.answer.tolerance}
    if step.kind == "formula":
        from tutor.grading import engine

        catalog = engine.symbol_catalog()
        return {"symbols": [{"symbol": catalog[name].display, **T(catalog[name].en, catalog[name].zh).to_json()}
                            for name in engine.formula_symbols(step.formula)]}
    if step.kind == "choice":
        return {"multiple": step.multiple,
                "options": [{"id": option.id, "text": option.text.model_dump()} for option in step.options]}
    return {}


def _print(question, seed: int, prompt: dict, steps: list[dict], lang: str, reveal: bool) -> None:
    print(f"{question.title.get(lang)}  [{question.id}, {question.kind}, seed {seed}]")
    print()
    print(prompt[lang])
    for number, step in enumerate(steps, 1):
        if len(steps) > 1:
            print(f"\n{number}. ({step['id']}, {step['kind']}) {step['prompt'][lang]}")
        elif step["prompt"][lang] != prompt[lang]:
            print(step["prompt"][lang])
        if step["kind"] == "numeric":
            plain = step["unit"] in UNITLESS
            shown = WORDS["plain_number"].get(lang) if plain else WORDS["in_unit"].format(lang, unit=step["unit"])
            print(WORDS["within"].format(lang, shown=shown, tolerance=f"{step['tolerance']:.0%}"))
        elif step["kind"] == "formula":
            shown = ", ".join(f"{s['symbol']} ({s[lang]})" for s in step["symbols"])
            print(WORDS["symbols"].get(lang) + shown)
        elif step["kind"] == "choice":
            for option in step["options"]:
                print(f"   {option['id']}) {option['text'][lang]}")
        if reveal:
            print(WORDS["answer"].get(lang) + _shown_answer(step["answer"], lang))
    step_flag = f" --step {steps[0]['id']}" if len(steps) > 1 else ""
    seed_flag = f" --seed {seed}" if seed else ""
    print(WORDS["answer_with"].get(lang) + f"tutor check {question.id} \"…\"{step_flag}{seed_flag}")


def _shown_answer(answer: dict, lang: str) -> str:
    if "text" in answer:
        return answer["text"][lang]
    if "formula" in answer:
        return answer["formula"]
    if "options" in answer:
        return ", ".join(answer["options"])
    if "rules" in answer:
        from tutor.grading.config_parse import show_layout

        layout = show_layout(answer["example"]) if answer.get("example") else "—"
        return WORDS["example_rules"].format(lang, layout=layout) + \
            WORDS["rule_separator"].get(lang).join(rule[lang] for rule in answer["rules"])
    return answer["model_answer"][lang]
