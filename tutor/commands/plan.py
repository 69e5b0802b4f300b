"""`tutor plan`: the lesson's recipe for a model on N GPUs — best layout, why, and ranked alternatives.

JSON (DESIGN §5): {"best": {tp, pp, cp, ep, dp, vpp, ...every `tutor size` key}, "alternatives": [...],
"steps": [{"id", "text"}]}; `best` is null when no layout fits (exit status 1); exit status 2 when
the best layout carries an error (a throughput above the peak).
"""

from __future__ import annotations

import sys

from tutor.commands._common import add_json_flag, add_lang_flag, lang_of, print_json
from tutor.commands.size import (_whole, add_hardware_flags, add_model_train_flags, hardware_from, model_from,
                                 throughput_from, train_from)


def add_arguments(parser) -> None:
    add_model_train_flags(parser)
    parser.add_argument("--gpus", type=_whole, required=True, help="GPUs to plan for")
    parser.add_argument("--alternatives", type=int, default=10, metavar="N", help="alternatives to list (default 10)")
    add_hardware_flags(parser)
    add_json_flag(parser)
    add_lang_flag(parser)


def run(args) -> int:
    from tutor.sizing import plan
    from tutor.sizing.text import plan_lines

    lang = lang_of(args)
    model = model_from(args)
    result = plan(model, train_from(args), args.gpus, hardware_from(args), throughput_from(args),
                  alternatives=max(0, args.alternatives), lang=lang)
    if args.json:
        print_json(result)
    else:
        print("\n".join(plan_lines(result, model.name, lang)))
    if result["best"] is None:
        return 1
    if result["best"]["errors"]:  # e.g. a throughput above the hardware's peak: the plan is not usable
        print(f"tutor: the best layout carries an error: {result['best']['errors'][0]}", file=sys.stderr)
        return 2
    return 0
