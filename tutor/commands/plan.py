"""`tutor plan`: the lesson's recipe for a model on N GPUs — best layout, why, and ranked alternatives.

JSON (DESIGN §5): {"best": {tp, pp, cp, ep, dp, vpp, ...every `tutor size` key}, "alternatives": [...],
"steps": [{"id", "text"}]}; `best` is null when no layout fits (exit status 1); exit status 2 when
the best layout carries an error (a throughput above the peak).
"""

from __future__ import annotations

import sys

from tutor.commands._common import add_json_flag, add_lang_flag, lang_of, print_json
import argparse

from tutor.commands.size import (_number, _whole, add_hardware_flags, add_model_train_flags, add_saving_flags,
                                 hardware_from, model_from, savings_from, throughput_from, train_from)
from tutor.errors import UserInputError
from tutor.text import T


def _reserve(text: str) -> float:
    text = text.strip()
    if text in ("0", "0%"):
        return 0.0
    percent = text.endswith("%")
    try:
        value = _number(text.rstrip("%")) / (100 if percent else 1)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"the reserve is a share of GPU memory, e.g. 10% or 0.1: {error}") from None
    if value >= 1:
        raise argparse.ArgumentTypeError(f"the reserve must be below 100%, got {text!r}")
    return value


def _sizes(text: str) -> tuple[int, ...]:
    try:
        return tuple(_whole(part) for part in text.split(","))
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"sizes as a comma-separated list (8,16,64): {error}") from None


def add_arguments(parser) -> None:
    add_model_train_flags(parser)
    parser.add_argument("--gpus", type=_whole, required=True, help="GPUs to plan for")
    parser.add_argument("--alternatives", type=int, default=10, metavar="N", help="alternatives to list (default 10)")
    choices = parser.add_argument_group("what the plan may use")
    sharding = choices.add_mutually_exclusive_group()
    sharding.add_argument("--zero", type=int, choices=(0, 1, 2, 3),
                          help="ZeRO stage over DP × CP (0: none; default: Megatron's distributed optimizer, "
                               "or ZeRO-2 where that does not fit)")
    sharding.add_argument("--fsdp", action="store_true", help="fully sharded data parallel (counted as ZeRO-3)")
    choices.add_argument("--recompute", choices=("none", "selective", "full"),
                         help="use this recompute (default: the lightest that fits)")
    choices.add_argument("--flash", action=argparse.BooleanOptionalAction, default=True, help="FlashAttention")
    choices.add_argument("--sp", action=argparse.BooleanOptionalAction, default=True, help="sequence parallelism")
    choices.add_argument("--reserve", type=_reserve, default=None, metavar="FRACTION",
                         help="memory kept free, e.g. 10%% (default) or 0.05")
    choices.add_argument("--ep", type=_sizes, metavar="SIZES", help="EP sizes to try, e.g. 8,64 (default: all)")
    choices.add_argument("--tp", type=_sizes, metavar="SIZES", help="TP sizes to try, e.g. 1 or 4,8 (default: all)")
    add_saving_flags(choices)
    choices.add_argument("--published", action="store_true",
                         help="plan under the preset's published settings (deepseek-v3: TP 1, EP 64, ZeRO-1, BF16 "
                              "moments, norm/up-projection recompute, FP8 activations, seq 4096, batch 15360)")
    add_hardware_flags(parser)
    add_json_flag(parser)
    add_lang_flag(parser)


def run(args) -> int:
    from tutor.sizing.planner import plan, Options
    from tutor.sizing.text import plan_lines

    from tutor.sizing.rules import RESERVE

    lang = lang_of(args)
    model = model_from(args)
    if args.ep and not model.is_moe:
        raise UserInputError("--ep needs a mixture-of-experts model (--experts)")
    # Neither switch: the planner's choice (the distributed optimizer, or ZeRO-2 where it does not fit).
    sharding = "zero3" if args.fsdp else (None if args.zero is None else
                                          ("none" if args.zero == 0 else f"zero{args.zero}"))
    options = Options(sharding=sharding, recompute=args.recompute, flash=args.flash, sp=args.sp,
                      reserve=RESERVE if args.reserve is None else args.reserve, ep=args.ep, tp=args.tp,
                      moments=args.moments or "fp32", savings=savings_from(args))
    train = train_from(args)
    if args.published:
        options, train = _published(args, options, train)
    result = plan(model, train, args.gpus, hardware_from(args), throughput_from(args),
                  alternatives=max(0, args.alternatives), lang=lang, options=options)
    if args.published:
        from tutor.sizing.presets import recipe

        source = recipe(args.model)["source"]
        result["steps"].insert(0, {"id": "published", "text": T(
            f"Planned under the published settings of {model.name}: {source}.",
            f"按 {model.name} 公开的训练设置规划：{source}。").get(lang)})
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


def _published(args, options, train):
    """The preset's recorded recipe (tutor.sizing.presets.RECIPES) where the command line gives nothing else:
    --tp, --ep, --zero, --moments, --seq and --global-batch typed beside --published win (`--moments fp32`
    shows what the BF16 moments save); the activation savings are added to any typed. To plan without one of
    them, leave out --published and type the others."""
    from dataclasses import replace

    from tutor.sizing.presets import recipe

    if not args.model:
        raise UserInputError("--published needs --model PRESET")
    settings = recipe(args.model)
    options = replace(options, tp=options.tp or settings["tp"], ep=options.ep or settings["ep"],
                      sharding=options.sharding or settings["sharding"],
                      moments=args.moments or settings["moments"],
                      savings=tuple(dict.fromkeys(options.savings + settings["savings"])))
    given = {name: getattr(train, name) for name in ("seq", "global_batch") if name not in train.assumed
             and getattr(args, name) is not None}
    train = replace(train, seq=given.get("seq", settings["seq"]),
                    global_batch=given.get("global_batch", settings["global_batch"]), assumed=())
    return options, train
