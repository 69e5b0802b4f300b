"""Answer checking (DESIGN §5–6): quantities, graders by step kind, verdicts.

Each name is imported from the module that defines it (docs/grading.md); this package file
imports nothing, so importing one grader stays cheap for the CLI:

    tutor.grading.variant: draw(question, seed) -> Variant   # seed 0 = `given`; others draw `vary`
    tutor.grading.dispatch: grade(question, "≈39 GB", step_id=None, seed=0) -> Verdict   # never raises on learner text
                            expected_answer(question, step, variant)   # what --reveal shows
                            find_step, step_prompt, StepNotFound
    tutor.grading.verdict: Verdict (.correct, .score, .feedback["zh"], .to_json()), Message
    tutor.grading.design: combine(question, {step_id: (correct, score)})   # a design question's partial credit
    tutor.grading.quantity: parse_quantity(text, unit, dimension, factor)   # `54万 tokens/s` -> readings in base units
    tutor.grading.rubric: grade_rubric, covers
"""
