"""Recognise the usual wrong numbers and say what the learner probably did.

Three sources, tried in order:
1. the step's declared `mistakes` (its own, or built-ins by id: the wrong value is the engine
   formula recomputed with some inputs changed — e.g. CP left out of the optimizer shard);
2. unit slips: GiB written as GB (or the reverse), a percentage off by 100, an SI prefix off
   by 10^3k;
3. a factor of a parallel size: the answer is the expected value times or divided by TP, PP,
   CP, EP, DP, N or a product of them (total instead of per GPU).
A wrong value is matched with the step's own tolerance.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.grading import engine
from tutor.grading.quantity import Reading
from tutor.grading.verdict import Message

if TYPE_CHECKING:  # annotations only: the graders read models and plain records alike (tutor.content.records)
    from tutor.content.models.base import Text
    from tutor.content.models.question import Mistake, NumericStep

GIB_PER_GB = 2**30 / 1e9


def _text(en: str, zh: str):
    """A built-in mistake's feedback as a plain record: the graders read it as they read a `Text`, and
    defining it does not import pydantic (a numeric `tutor check`, issue 18)."""
    from tutor.content.records import record

    return record("Text", {"en": en, "zh": zh}, ("en", "zh"))


@dataclass(frozen=True)
class Builtin:
    """A mistake every question may name by id."""

    formula: str | None
    inputs: Mapping[str, object]
    feedback: Text


BUILTINS: dict[str, Builtin] = {
    "forgot-cp-in-shard": Builtin(None, {"cp": 1}, _text(
        en="That is the optimizer sharded over DP only. CP ranks hold the same weights, so the distributed "
           "optimizer shards over DP × CP.",
        zh="这是只沿 DP 切 optimizer 的结果。CP 的卡持有同一份 weight，所以 distributed optimizer 沿 DP × CP 切。")),
    "sixteen-bytes": Builtin("model_state_per_gpu", {}, _text(
        en="That is 16 bytes per parameter, the state before sharding. With the distributed optimizer each GPU "
           "keeps 6 bytes per parameter plus 12/N of the optimizer state.",
        zh="这是每参数 16 字节，也就是切分前的 model state。开了 distributed optimizer 以后，每卡每参数只留 6 字节，"
           "再加 12/N 的 optimizer state。")),
    "forgot-cp": Builtin(None, {"cp": 1}, _text(
        en="That leaves CP out. Context parallel splits the sequence, so each GPU holds 1/CP of it.",
        zh="这里漏了 CP。CP 切的是 sequence，每卡只存 1/CP。")),
    "forgot-tp": Builtin(None, {"tp": 1}, _text(
        en="That leaves TP out. Tensor parallel splits this across the TP ranks.",
        zh="这里漏了 TP。TP 会把它切到 TP 组的各张卡上。")),
    "forgot-pp": Builtin(None, {"pp": 1}, _text(
        en="That leaves PP out. Each pipeline stage holds only its own layers.",
        zh="这里漏了 PP。每个 pipeline stage 只存自己那几层。")),
    "no-interleaving": Builtin("bubble_fraction", {}, _text(
        en="That is the bubble without interleaving. With v virtual stages per GPU it shrinks to (p − 1)/(v·m).",
        zh="这是不开 interleaving 时的 bubble。每卡 v 个 virtual stage 时，bubble 降到 (p − 1)/(v·m)。")),
}


@dataclass(frozen=True)
class Diagnosis:
    """A recognised mistake: its id and what to tell the learner."""

    id: str
    message: Message


def declared_value(step: NumericStep, mistake: Mistake, inputs: Mapping[str, object]) -> float:
    """The wrong value a declared mistake stands for, in base units (EngineError if it cannot compute)."""
    builtin = BUILTINS.get(mistake.id)
    formula = mistake.formula or (builtin.formula if builtin else None) or step.answer.formula
    changed = {**(builtin.inputs if builtin else {}), **mistake.inputs}
    merged = {**inputs, **changed}
    wanted = set(engine.formula_symbols(formula)) | {"model", "gpu"}
    return engine.evaluate_base(formula, {key: value for key, value in merged.items() if key in wanted})


def declared_feedback(mistake: Mistake) -> Text | None:
    builtin = BUILTINS.get(mistake.id)
    return mistake.feedback or (builtin.feedback if builtin else None)


def diagnose(step: NumericStep, inputs: Mapping[str, object], reading: Reading, expected: float,
             display_unit: str, context: Mapping[str, object] | None = None) -> Diagnosis | None:
    """What the learner probably did to get `reading` instead of `expected`, if the engine can tell.

    `inputs` are the formula's; `context` adds the question's other inputs (an EP that is not in
    the formula, the GPU count of a per-GPU figure), so a slip by their factor is named too."""
    tolerance = step.answer.tolerance
    for mistake in step.mistakes:
        try:
            wrong = declared_value(step, mistake, inputs)
        except engine.EngineError:
            continue
        feedback = declared_feedback(mistake)
        if feedback is not None and close(reading.value, wrong, tolerance) and not close(wrong, expected, tolerance):
            return Diagnosis(mistake.id, Message(feedback.en, feedback.zh))
    everything = {**(context or {}), **inputs}
    return (known_slip(step.answer.formula, everything, reading.value, expected, tolerance)
            or total_slip(everything, reading.value, expected, tolerance)
            or unit_slip(reading, expected, tolerance, display_unit)
            or factor_slip(everything, reading.value, expected, tolerance))


def _number(inputs: Mapping[str, object], name: str) -> float | None:
    value = inputs.get(name)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def known_slip(formula: str, inputs: Mapping[str, object], value: float, expected: float,
               tolerance: float) -> Diagnosis | None:
    """The classic slips of a formula family, recomputed by the engine's own rules (issue 14 item 3):
    8ND for 6ND, the ring factor left out, the wall-clock bubble for the schedule's, 2 bytes per
    parameter, hours written as days."""
    if formula.startswith("train_") and close(value, expected * 8 / 6, tolerance):
        return Diagnosis("eight-nd", Message(
            "That is 8·N·D: the FLOPs with full recomputation (hardware work, HFU). Training compute is 6·N·D: "
            "2 forward + 4 backward per parameter per token.",
            "这是 8·N·D，即 full recompute 时硬件做的量（HFU）。训练计算量是 6·N·D：前向 2、反向 4。"))
    if formula == "dp_grad_bytes":
        dp = _number(inputs, "dp") or 0
        if dp > 1 and close(value, expected / (2 * (dp - 1) / dp), tolerance):
            return Diagnosis("no-ring-factor", Message(
                "That is the gradient size alone. A ring all-reduce sends 2(d−1)/d of it from each GPU "
                "(a reduce-scatter, then an all-gather).",
                "这只是梯度本身的大小。ring all-reduce 每卡要发送它的 2(d−1)/d（先 reduce-scatter 再 all-gather）。"))
    if formula in ("bubble_fraction", "bubble_wallclock"):
        p, m = _number(inputs, "pp"), _number(inputs, "microbatches")
        if p and m and p > 1:
            other = (p - 1) / (m + p - 1) if formula == "bubble_fraction" else (p - 1) / m
            if close(value, other, tolerance) and not close(other, expected, tolerance):
                if formula == "bubble_fraction":
                    return Diagnosis("wallclock-bubble", Message(
                        "That is (p − 1)/(m + p − 1), the bubble's share of the wall-clock step; the question asks "
                        "(p − 1)/m, the bubble relative to the useful compute.",
                        "这是 (p − 1)/(m + p − 1)，bubble 占整个 step 墙钟时间的比例；题目问的是 (p − 1)/m，相对有效计算的比例。"))
                return Diagnosis("ideal-bubble", Message(
                    "That is (p − 1)/m, the bubble relative to the compute; the question asks its share of the "
                    "wall-clock step, (p − 1)/(m + p − 1).",
                    "这是 (p − 1)/m，相对计算的比例；题目问的是占墙钟时间的比例 (p − 1)/(m + p − 1)。"))
    params = _number(inputs, "params")
    if params and formula.startswith(("model_state", "distopt")):
        symbols = set(engine.formula_symbols(formula))  # a total (model_state_bytes) is not divided
        shard = 1.0
        for name in ("tp", "pp"):
            shard *= (_number(inputs, name) or 1.0) if name in symbols else 1.0
        if close(value, 2 * params / shard, tolerance) and not close(2 * params / shard, expected, tolerance):
            return Diagnosis("weights-only", Message(
                "That is 2 bytes per parameter: the bf16 weights only. Model state also holds the gradients and "
                "Adam's fp32 master weights and moments: 16 bytes per parameter before sharding.",
                "这是每参数 2 字节，只有 bf16 weight。model state 还包括 gradient 和 Adam 的 fp32 master weight 与动量："
                "切分前每参数 16 字节。"))
    return None


def total_slip(inputs: Mapping[str, object], value: float, expected: float, tolerance: float) -> Diagnosis | None:
    """The total over all GPUs given for a per-GPU figure (before prefix slips: ×1024 is not ×1000)."""
    gpus = _number(inputs, "gpus")
    if gpus and gpus > 1 and close(value, expected * gpus, tolerance):
        return Diagnosis("total-not-per-gpu", Message(
            f"That is the total over all {gpus:g} GPUs; the question asks per GPU.",
            f"这是全部 {gpus:g} 张卡的总量；题目问的是每卡。"))
    return None


def unit_slip(reading: Reading, expected: float, tolerance: float, display_unit: str) -> Diagnosis | None:
    value = reading.value
    decimal_bytes = reading.unit in ("KB", "MB", "GB", "TB", "PB")
    if decimal_bytes and close(value * GIB_PER_GB, expected, tolerance):
        return Diagnosis("gib-for-gb", Message(
            "Your number is in GiB (2^30 bytes) but labelled GB. The lesson uses GB = 10^9 bytes: "
            "1 GiB ≈ 1.074 GB.",
            "这个数是按 GiB（2^30 字节）算的，却写成了 GB。本课用 GB = 10^9 字节：1 GiB ≈ 1.074 GB。"))
    if reading.binary and close(value / GIB_PER_GB, expected, tolerance):
        return Diagnosis("gb-for-gib", Message(
            "Your number is in GB (10^9 bytes) but labelled GiB; 1 GiB = 2^30 bytes ≈ 1.074 GB.",
            "这个数是按 GB（10^9 字节）算的，却写成了 GiB；1 GiB = 2^30 字节 ≈ 1.074 GB。"))
    if display_unit in ("s", "min", "h", "days"):
        for factor, written, meant in ((24.0, "hours", "days"), (1 / 24.0, "days", "hours"), (60.0, "minutes", "hours"),
                                       (1 / 60.0, "hours", "minutes")):
            if close(value * factor, expected, tolerance):
                return Diagnosis("time-unit-slip", Message(
                    f"Your number is right in {meant} but written as {written}: check the unit (1 day = 24 h).",
                    f"这个数按{ {'days': '天', 'hours': '小时', 'minutes': '分钟'}[meant]}算是对的，但单位写成了"
                    f"{ {'days': '天', 'hours': '小时', 'minutes': '分钟'}[written]}：检查单位（1 天 = 24 小时）。"))
    if display_unit == "%" and (close(value * 100, expected, tolerance) or close(value / 100, expected, tolerance)):
        return Diagnosis("percent-slip", Message(
            "Off by a factor of 100: check percent versus fraction (23% = 0.23).",
            "差了 100 倍：注意百分比和小数（23% = 0.23）。"))
    for power in (3, 6, 9, 12):
        for factor in (10.0 ** power, 10.0 ** -power):
            if close(value, expected * factor, tolerance):
                return Diagnosis("prefix-slip", Message(
                    f"Off by a factor of 10^{power if factor > 1 else -power}: check the unit prefix (K, M, G, T).",
                    f"差了 10^{power if factor > 1 else -power} 倍：检查单位前缀（K、M、G、T）。"))
    return None


def factor_slip(inputs: Mapping[str, object], value: float, expected: float, tolerance: float) -> Diagnosis | None:
    """The answer is expected × or ÷ a parallel size (or a product of them)."""
    sizes = {name: float(value) for name in (*engine.PARALLEL_DIMS, "vpp", "n_shard", "gpus")
             for value in [inputs.get(name)] if isinstance(value, (int, float)) and float(value) > 1}
    gpus = sizes.get("gpus")
    if gpus and close(value, expected * gpus, tolerance):
        return Diagnosis("total-not-per-gpu", Message(
            f"That is the total over all {gpus:g} GPUs; the question asks per GPU.",
            f"这是全部 {gpus:g} 张卡的总量；题目问的是每卡。"))
    if "tp" in sizes and "pp" in sizes and close(value, expected * sizes["tp"] * sizes["pp"], tolerance):
        return Diagnosis("total-not-per-gpu", Message(
            "That is the total for one model replica (TP × PP GPUs); the question asks per GPU.",
            "这是一份模型副本（TP × PP 张卡）的总量；题目问的是每卡。"))
    for direction in ("over", "under"):
        names = [name for name, size in sizes.items() if name != "gpus"
                 and close(value, expected * size if direction == "over" else expected / size, tolerance)]
        if names:
            labels = " or ".join(engine.DIM_LABELS.get(name, name) for name in names)
            size = sizes[names[0]]
            if direction == "over":
                return Diagnosis(f"factor-{names[0]}", Message(
                    f"{size:g}× too large, the size of {labels}: did you leave out a division by {labels}?",
                    f"大了 {size:g} 倍，正好是 {labels}：是不是漏除了 {labels}?"))
            return Diagnosis(f"factor-{names[0]}", Message(
                f"{size:g}× too small, the size of {labels}: did you divide by {labels} where it does not apply?",
                f"小了 {size:g} 倍，正好是 {labels}：是不是多除了 {labels}?"))
    return None


def close(value: float, target: float, tolerance: float) -> bool:
    """|value − target| ≤ tolerance · |target| (relative; exact when the target is 0)."""
    return abs(value - target) <= tolerance * abs(target)
