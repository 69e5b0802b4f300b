"""`tutor size`: memory, pipeline, FLOPs, throughput and checkpoint figures for one configuration.

Flags and JSON keys: DESIGN §5. The model/train/hardware flags and the text layout are shared
with `tutor plan`. Only the standard library is imported here; the engine loads inside `run`.
"""

from __future__ import annotations

import argparse
import sys

from tutor.commands._common import add_json_flag, add_lang_flag, lang_of, print_json
from tutor.errors import UserInputError
from tutor.units import parse_count
from tutor.text import T


def _number(text: str) -> float:
    from tutor.sizing.errors import typed

    try:
        value = float(parse_count(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text!r}")
    return typed(value, text)  # an error about it names it as typed (`gpus = 1e20`), not as 1e+20


def _whole(text: str) -> int:
    from tutor.sizing.errors import typed

    value = _number(text)
    if not value.is_integer():
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}")
    return typed(int(value), text)


def _fraction(text: str) -> float:
    percent = text.strip().endswith("%")
    value = _number(text.strip().rstrip("%")) / (100 if percent else 1)
    if value > 1:
        raise argparse.ArgumentTypeError(f"is a fraction of peak: write 40% or 0.4, not {text!r}")
    return value


def add_model_train_flags(parser) -> None:
    model = parser.add_argument_group("model")
    model.add_argument("--model", metavar="PRESET", help="llama3-8b, llama3-70b, llama3-405b, gpt3-175b, "
                       "mixtral-8x7b, deepseek-v3, lesson-70b, dense-1t")
    model.add_argument("--params", type=_number, help="parameter count: 70e9, 70B, 1T")
    for flag, text in (("--layers", "transformer layers"), ("--hidden", "hidden size"), ("--heads", "attention heads"),
                       ("--kv-heads", "key/value heads (GQA)"), ("--ffn", "MLP hidden size"),
                       ("--vocab", "vocabulary size"), ("--experts", "experts per MoE layer"),
                       ("--top-k", "experts per token")):
        model.add_argument(flag, type=_whole, help=text)
    model.add_argument("--arch", choices=("gpt", "llama"), help="layer structure, for parameter counts")
    train = parser.add_argument_group("training")
    train.add_argument("--seq", type=_whole, help="sequence length (default 4096)")
    train.add_argument("--micro-batch", type=_whole, help="sequences per micro-batch (default 1)")
    train.add_argument("--global-batch", type=_whole, help="sequences per step (default 1024)")
    train.add_argument("--tokens", type=_number, help="training tokens, e.g. 2T")


def add_hardware_flags(parser) -> None:
    hardware = parser.add_argument_group("hardware")
    hardware.add_argument("--gpu", metavar="NAME", help="a100-40gb, a100-80gb, h100-80gb (default), h800-80gb, "
                          "h200-141gb, b200-192gb, or an alias like h100")
    hardware.add_argument("--gpu-mem-gb", type=_number, help="memory per GPU in GB (1e9 bytes)")
    hardware.add_argument("--peak-tflops", type=_number, help="dense BF16 peak per GPU")
    rate = parser.add_mutually_exclusive_group()
    rate.add_argument("--mfu", type=_fraction, help="assumed MFU: 0.4 or 40%%")
    rate.add_argument("--tokens-per-sec", type=_number, help="measured training tokens per second")
    rate.add_argument("--step-time", type=_number, help="measured seconds per step")
    rate.add_argument("--achieved-tflops", type=_number, help="measured model TFLOP/s per GPU")


def add_saving_flags(group) -> None:
    """DeepSeek-V3's memory savings (arXiv 2412.19437), off by default; `tutor size` and `tutor plan`."""
    group.add_argument("--moments", choices=("fp32", "bf16"), default=None,
                       help="AdamW m and v precision (default fp32): bf16 = 8 bytes of optimizer state "
                            "(DeepSeek-V3 §3.3.3)")
    group.add_argument("--recompute-norm-up", action="store_true",
                       help="recompute RMSNorm and MLA up-projections in backward (DeepSeek-V3 §3.2.3)")
    group.add_argument("--fp8-activations", action="store_true",
                       help="cache Linear inputs in FP8, SwiGLU output recomputed (DeepSeek-V3 §3.3.3)")


def savings_from(args) -> tuple[str, ...]:
    return tuple(name for name, given in (("norm_up", args.recompute_norm_up), ("fp8", args.fp8_activations)) if given)


def add_arguments(parser) -> None:
    add_model_train_flags(parser)
    layout = parser.add_argument_group("parallelism")
    layout.add_argument("--gpus", type=_whole, help="GPUs in all (default TP·PP·CP·DP)")
    for flag in ("--tp", "--pp", "--cp", "--ep", "--dp", "--vpp"):
        layout.add_argument(flag, type=_whole, help="DP defaults to GPUs/(TP·PP·CP)" if flag == "--dp" else None)
    layout.add_argument("--distributed-optimizer", action="store_true", help="Megatron's: 6Ψ + 12Ψ/(DP·CP)")
    layout.add_argument("--zero", type=int, choices=(0, 1, 2, 3), help="ZeRO stage")
    layout.add_argument("--sp", action=argparse.BooleanOptionalAction, default=True, help="sequence parallelism")
    layout.add_argument("--recompute", choices=("none", "selective", "full"), default="none")
    layout.add_argument("--flash", action=argparse.BooleanOptionalAction, default=True, help="FlashAttention")
    add_saving_flags(layout)
    add_hardware_flags(parser)
    failures = parser.add_argument_group("failures and checkpoints")
    failures.add_argument("--days", type=_number, help="length of the run in days")
    failures.add_argument("--interruptions", type=_number, help="interruptions during those days")
    failures.add_argument("--ckpt-write-s", type=_number, help="seconds to write one checkpoint (Young/Daly interval)")
    add_json_flag(parser)
    add_lang_flag(parser)


_SHAPE = ("layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "experts", "top_k", "arch")


def model_from(args):
    from dataclasses import replace

    from tutor.sizing.presets import model_preset
    from tutor.sizing.specs import Model

    base = model_preset(args.model) if args.model else Model()
    shape = {name: getattr(args, name) for name in _SHAPE
             if getattr(args, name) is not None and getattr(args, name) != getattr(base, name)}
    model = replace(base, **shape)
    if model.arch == "gpt" and model.ffn is None and model.hidden is not None:
        # GPT's MLP is 4h wide (Radford et al. 2019, Brown et al. 2020): assumed, and the report says so.
        model = replace(model, ffn=4 * model.hidden, assumed=model.assumed + ("ffn",))
        shape["ffn"] = model.ffn
    if args.params is not None:
        return replace(model, params=args.params)
    if shape and model.architecture_inputs() is not None:
        return replace(model, params=None)  # a changed shape: count Ψ from it rather than keep the preset's
    if model.params is None and model.architecture_inputs() is None:
        raise UserInputError("give --model PRESET, --params, or the architecture (--arch --layers --hidden "
                             "--heads --ffn --vocab)")
    return model


def train_from(args):
    from tutor.sizing.specs import Train

    given = {name: getattr(args, name) for name in ("seq", "micro_batch", "global_batch", "tokens")
             if getattr(args, name) is not None}
    return Train(**given, assumed=() if "global_batch" in given else ("global_batch",))


def hardware_from(args):
    from dataclasses import replace

    from tutor.sizing.hardware import gpu

    hardware = gpu(args.gpu or "h100-80gb")
    custom = {}
    if args.gpu_mem_gb is not None:
        custom["gpu_mem"] = args.gpu_mem_gb * 1e9
    if args.peak_tflops is not None:
        custom["peak_flops"] = args.peak_tflops * 1e12
    return replace(hardware, name=f"{hardware.name} (custom)", source="given on the command line", **custom) \
        if custom else hardware


def throughput_from(args):
    from tutor.sizing.specs import Throughput

    achieved = args.achieved_tflops * 1e12 if args.achieved_tflops is not None else None
    return Throughput(mfu=args.mfu, tokens_per_s=args.tokens_per_sec, step_time=args.step_time,
                      achieved_flops=achieved)


def reliability_from(args):
    from tutor.sizing.specs import Reliability

    return Reliability(days=args.days, interruptions=args.interruptions, ckpt_write_s=args.ckpt_write_s)


def parallel_from(args):
    from tutor.sizing.specs import Parallel

    if args.distributed_optimizer and args.zero:
        raise UserInputError("choose one of --distributed-optimizer and --zero")
    sharding = "distopt" if args.distributed_optimizer else (f"zero{args.zero}" if args.zero else "none")
    layout = {name: getattr(args, name) for name in ("gpus", "tp", "pp", "cp", "ep", "dp", "vpp")
              if getattr(args, name) is not None}
    return Parallel(**layout, sharding=sharding, sp=args.sp, recompute=args.recompute, flash=args.flash,
                    moments=args.moments or "fp32", savings=savings_from(args))


def run(args) -> int:
    from tutor.sizing.text import report_lines
    from tutor.sizing.report import size

    lang = lang_of(args)
    model = model_from(args)
    report = size(model, train_from(args), parallel_from(args), hardware_from(args), throughput_from(args), lang,
                  reliability_from(args))
    if args.json:
        print_json(report)
    elif not report["errors"]:
        print("\n".join(report_lines(report, model.name, lang)))
    if report["errors"]:  # the reason alone: the figures of a layout that cannot run mislead (bubble 200%)
        count, first = len(report["errors"]), report["errors"][0]
        print(T(f"tutor: {count} error(s) in this configuration: {first}",
                f"tutor：这个配置有 {count} 处错误：{first}").get(lang), file=sys.stderr)
        return 2
    return 0
