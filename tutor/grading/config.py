"""Config steps: a TP/PP/CP/EP/DP layout judged by the rules `tutor plan` uses (tutor.sizing.rules).

Many layouts can be right. Each rule below passes or fails with its own feedback line, and the
score is the share of the counted rules passed; the layout is right when every counted rule
passes (lesson §recipe). Only the rules actually judged are listed in the feedback. An invalid
layout (a wrong product, say) scores 0 and is judged only on what its typed sizes show: every
validator error, tp-node, moe-ep and the required sizes; the memory rules need the whole layout.
  layout       the engine's validator finds no error (TP × PP × CP × DP = GPUs, heads ÷ TP, KV
               heads divide the heads and TP or are replicated, PP ≤ layers, batch ÷ (DP ×
               micro-batch), EP folds into DP × CP, seq ÷ 2·CP, …) and m ≥ p (hard, as the planner)
  tp-node      TP ≤ `max_tp` (8, one NVLink node): its all-reduces need NVLink
  fits         model state (distributed optimizer) + first-stage activations fit the GPU less the
               planner's reserve (10%), with full recompute if need be (said in the feedback)
  smallest-pp  no layout with a smaller PP (TP ≤ max_tp, same CP, TP × CP in a node) fits as well
  smallest-cp  no smaller CP with the same TP and PP fits as well (CP is for activations)
  moe-ep       a mixture of experts uses EP > 1; `require: {ep: N}` / `{cp: N}` pin a size
Advisory (named, not counted): m-4p (m ≥ 4p, else the bubble is large), even-stages (uneven
stages allowed, as Llama 3 runs 126 layers on PP 16). `--reveal`'s example is the plan's best.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.grading.config_parse import ConfigError, parse_config, show_layout
from tutor.grading.variant import Variant, resolve
from tutor.grading.verdict import Message, Verdict, join, unreadable
from tutor.sizing.rules import RESERVE, budget, pipeline_ok
from tutor.text import T

if TYPE_CHECKING:  # annotations only: the graders read models and plain records alike (tutor.content.records);
    # the sizing specs are imported when a config step is graded, not at start-up
    from tutor.content.models.question import ConfigStep
    from tutor.sizing.specs import Hardware, Model, Train

RECOMPUTE_LEVELS = ("none", "full")  # with FlashAttention, selective recompute saves nothing more
MODEL_FIELDS = ("params", "arch", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "experts", "top_k")


@dataclass(frozen=True)
class Scenario:
    model: Model
    train: Train
    gpus: int
    hardware: Hardware
    max_tp: int
    min_m_over_p: float
    required: Mapping[str, int]


@dataclass(frozen=True)
class Rule:
    id: str
    passed: bool
    message: Message


def scenario(step: ConfigStep, variant: Variant) -> Scenario:
    """The model, batch, cluster and limits the step describes (SizingError on broken content)."""
    from tutor.sizing.hardware import gpu
    from tutor.sizing.presets import model_preset
    from tutor.sizing.specs import Model, Train

    inputs: dict[str, Any] = resolve(step.inputs, variant.values)
    if "model" in inputs:
        model = model_preset(str(inputs["model"]))
    else:
        model = Model(name="question", **{key: inputs[key] for key in MODEL_FIELDS if key in inputs})
    train = Train(seq=int(inputs.get("seq", 4096)), micro_batch=int(inputs.get("micro_batch", 1)),
                  global_batch=int(inputs.get("global_batch", 1024)), tokens=inputs.get("tokens"))
    hardware = gpu(str(inputs.get("gpu", "h100")))
    require = dict(step.require)
    return Scenario(model, train, int(inputs["gpus"]), hardware, int(require.pop("max_tp", hardware.gpus_per_node)),
                    float(require.pop("min_m_over_p", 4)), {key: int(value) for key, value in require.items()})


def grade_config(step: ConfigStep, variant: Variant, answer: str) -> Verdict:
    from tutor.sizing.errors import SizingError

    where = scenario(step, variant)
    expected = {"gpus": where.gpus, "rules": [rule_text(rule_id, where) for rule_id in ("layout",)]}
    try:
        layout = parse_config(answer)
    except ConfigError as error:
        return unreadable([error.message], expected)
    try:
        rules = judge(where, layout)
    except SizingError as error:
        return unreadable([Message(f"That layout cannot be sized: {error}", f"这个配置算不出来：{error}")], expected)
    expected = {"gpus": where.gpus, "rules": [rule_text(rule.id, where) for rule in rules]}
    counted = [rule for rule in rules if rule.id not in ADVISORY]
    passed = [rule for rule in counted if rule.passed]
    correct = len(passed) == len(counted)
    # An invalid layout is no plan: the rules judged beside it are named, not credited.
    score = len(passed) / len(counted) if all(rule.passed for rule in rules if rule.id == "layout") else 0.0
    head = Message(f"Right: {show_layout(layout)} follows the recipe." if correct else
                   f"Not yet: {len(counted) - len(passed)} of {len(counted)} rules broken.",
                   f"正确：{show_layout(layout)} 符合配方。" if correct else
                   f"还不对：{len(counted)} 条规则里有 {len(counted) - len(passed)} 条没满足。")
    lines = [head] + [_line(rule, where) for rule in rules]
    details = {"rules": [{"id": rule.id, "passed": rule.passed, "advisory": rule.id in ADVISORY,
                          **_line(rule, where).to_json()} for rule in rules]}
    return Verdict(correct, score, layout, expected, join(lines),
                   mistake=None if correct else next(rule.id for rule in counted if not rule.passed), details=details)


def _line(rule: Rule, where: Scenario) -> Message:
    """A failed rule says what is wrong; a passed one says what it checked (the fit says how much);
    advice not taken is marked ⚠ and does not count."""
    if rule.passed and rule.id in RULE_TEXT and rule.id != "fits":
        text = rule_text(rule.id, where)
        return Message(f"✓ {text['en']}", f"✓ {text['zh']}")
    mark = "✓" if rule.passed else ("⚠" if rule.id in ADVISORY else "✗")
    return Message(f"{mark} {rule.message.en}", f"{mark} {rule.message.zh}")


def judge(where: Scenario, layout: Mapping[str, int]) -> list[Rule]:
    """Every rule's outcome for `layout` (SizingError when the numbers cannot be sized at all)."""
    from tutor.sizing.validate import resolve as resolve_layout, resolved, trimmed_stages, validate_split

    from tutor.sizing.errors import SizingError

    typed = _parallel(where, layout, "none")
    try:
        par = resolve_layout(typed)
    except SizingError as error:
        # No DP divides the GPUs: the errors that need none are still said with this one.
        split = [finding.message for finding in validate_split(where.model, where.train, typed).errors]
        return _invalid(where, typed, [error.message, *split])
    dp = resolved(par.dp)
    errors = _errors(where, par)
    if errors:
        return _invalid(where, par, [finding.message for finding in errors])
    train = where.train
    if not pipeline_ok(train.global_batch, dp, train.micro_batch, par.pp):
        m = train.global_batch // (dp * train.micro_batch)
        return _invalid(where, par, [Message(
            f"m = {m} micro-batches per pipeline is fewer than PP {par.pp}: stages sit idle (bubble (p−1)/m = "
            f"{(par.pp - 1) / m:.0%}); a plan needs m ≥ p.",
            f"每条 pipeline 只有 m = {m} 个 micro-batch，少于 PP {par.pp}：有 stage 空转（bubble (p−1)/m = "
            f"{(par.pp - 1) / m:.0%}）；方案至少要 m ≥ p。")])
    rules = [Rule("layout", True, Message("The layout is valid.", "配置合法。")), _tp_node(where, par)]
    level, total = fit_level(where, par)
    rules.append(_fits_rule(where, level, total, lighter_with_zero2(where, par, level) if level else None))
    m = train.global_batch // (dp * train.micro_batch)
    rules.append(Rule("m-4p", par.pp == 1 or m >= where.min_m_over_p * par.pp, Message(
        f"m = {m} micro-batches per pipeline is below {where.min_m_over_p:g}p = {where.min_m_over_p * par.pp:g}: "
        f"the bubble (p−1)/m = {(par.pp - 1) / max(m, 1):.0%} is large (advice: a larger global batch or a smaller PP).",
        f"每条 pipeline 只有 m = {m} 个 micro-batch，少于 {where.min_m_over_p:g}p = {where.min_m_over_p * par.pp:g}："
        f"bubble (p−1)/m = {(par.pp - 1) / max(m, 1):.0%} 偏大（建议加大 global batch 或减小 PP）。")))
    layers = where.model.layers

    # Llama 3's split (one layer fewer on the first and the last stage) is as even as it gets.
    if layers is not None and par.pp > 1 and layers % par.pp and not trimmed_stages(where.model, par.pp):
        fullest = -(-layers // par.pp)
        rules.append(Rule("even-stages", False, Message(
            f"{layers} layers over PP {par.pp} split unevenly (the fullest stage holds {fullest}): allowed, as "
            "Llama 3 runs 126 layers on PP 16, and the fullest stage sets the pace.",
            f"{layers} 层分到 PP {par.pp} 分不匀（最满的 stage {fullest} 层）：允许，Llama 3 就是 126 层配 PP 16，"
            "最满的 stage 决定速度。")))
    if level is not None:
        smaller = _smaller_pp(where, par, level)
        rules.append(Rule("smallest-pp", smaller is None, Message(
            f"PP {par.pp} is more than needed: {smaller} already fits. The recipe takes TP up to the node first, "
            "then the smallest PP that fits.",
            f"PP {par.pp} 开大了：{smaller} 就放得下。配方是先把 TP 开到机内上限，再取放得下的最小 PP。")))
        if par.cp > 1:
            rival = _smaller_cp(where, par, level)
            rules.append(Rule("smallest-cp", rival is None, Message(
                f"CP {par.cp} is more than needed: {rival} fits as well. Add CP for long sequences, only as far "
                "as activations need it.",
                f"CP {par.cp} 开大了：{rival} 也放得下。序列长、activation 放不下时才加 CP，够用即可。")))
    return rules + _sized_rules(where, par)


def _invalid(where: Scenario, par, messages: list[Message]) -> list[Rule]:
    """The layout rule broken (every error in its one line), then the rules the typed sizes still show."""
    layout = Rule("layout", False, Message("; ".join(m.en for m in messages), ";".join(m.zh for m in messages)))
    return [layout, _tp_node(where, par), *_sized_rules(where, par)]


def _tp_node(where: Scenario, par) -> Rule:
    return Rule("tp-node", par.tp <= where.max_tp, Message(
        f"TP {par.tp} is above {where.max_tp}: TP's all-reduces (4 per layer) must stay on NVLink inside a node.",
        f"TP {par.tp} 超过 {where.max_tp}：TP 每层 4 次 all-reduce，必须留在机内走 NVLink。"))


def _sized_rules(where: Scenario, par) -> list[Rule]:
    """EP for a mixture of experts and the sizes the question fixes. Like TP in the node, they are
    judged from the sizes as typed, so an invalid layout (a wrong product) hears them too
    (walkthrough minor 12); a DP neither typed nor derived leaves its requirement unjudged."""
    rules = []
    if where.model.is_moe:
        rules.append(Rule("moe-ep", par.ep > 1, Message(
            "A mixture of experts spreads its experts with EP > 1 (folded into DP × CP, no extra GPUs).",
            "MoE 要用 EP > 1 把 expert 分开（折叠进 DP × CP，不额外占卡）。")))
    for dim, size in where.required.items():
        if dim == "dp" and par.dp is None:
            continue
        rules.append(Rule(f"require-{dim}", getattr(par, dim, None) == size, Message(
            f"The question fixes {dim.upper()} = {size}.", f"题目规定 {dim.upper()} = {size}。")))
    return rules


def _smaller_cp(where: Scenario, par, level: str) -> str | None:
    """A smaller CP with the same TP and PP that is valid (m ≥ p) and fits as lightly, as text."""
    from tutor.sizing.specs import Parallel
    from tutor.sizing.layout_space import divisors

    for cp in [d for d in divisors(par.cp) if d < par.cp]:
        dp = par.dp * par.cp // cp
        rival = Parallel(gpus=where.gpus, tp=par.tp, pp=par.pp, cp=cp, ep=par.ep, dp=dp, vpp=par.vpp,
                         sharding="distopt")
        if _errors(where, rival) or not pipeline_ok(where.train.global_batch, dp, where.train.micro_batch, par.pp):
            continue
        if _fits_within(where, rival, level):
            return show_layout({"tp": par.tp, "pp": par.pp, "cp": cp, "dp": dp})
    return None


def _parallel(where: Scenario, layout: Mapping[str, int], recompute: str):
    from tutor.sizing.specs import Parallel

    return Parallel(gpus=where.gpus, tp=layout.get("tp", 1), pp=layout.get("pp", 1), cp=layout.get("cp", 1),
                    ep=layout.get("ep", 1), dp=layout.get("dp"), vpp=layout.get("vpp", 1), sharding="distopt",
                    recompute=recompute)


def _errors(where: Scenario, par) -> list:
    from tutor.sizing.validate import validate_config

    return validate_config(where.model, where.train, par, where.hardware).errors


def fit_level(where: Scenario, par) -> tuple[str | None, float]:
    """The lightest recompute with which the layout fits, and its bytes per GPU (None if none fits)."""
    from dataclasses import replace

    from tutor.sizing.report import size

    total = 0.0
    for level in RECOMPUTE_LEVELS:
        report = size(where.model, where.train, replace(par, recompute=level), where.hardware)
        total = report["memory"]["total"]
        if total <= budget(where.hardware.gpu_mem):
            return level, total
    return None, total


def lighter_with_zero2(where: Scenario, par, level: str) -> tuple[str, float] | None:
    """A lighter recompute with which the layout fits when the gradients are sharded too (ZeRO-2), as
    `tutor plan` tries it for a dense model after the distributed optimizer; None when there is none.
    The verdict stays the distributed optimizer's (the questions set it); the fits rule says this so
    the grader and the plan tell the learner the same thing about the layout."""
    from dataclasses import replace

    from tutor.sizing.report import size
    from tutor.sizing.layout_space import Options, sharding_choices

    if "zero2" not in sharding_choices(where.model, Options()) or par.dp * par.cp == 1:
        return None
    for lighter in RECOMPUTE_LEVELS[:RECOMPUTE_LEVELS.index(level)]:
        total = size(where.model, where.train, replace(par, recompute=lighter, sharding="zero2"),
                     where.hardware)["memory"]["total"]
        if total <= budget(where.hardware.gpu_mem):
            return lighter, total
    return None


def _fits_within(where: Scenario, par, level: str) -> bool:
    found, _ = fit_level(where, par)
    return found is not None and RECOMPUTE_LEVELS.index(found) <= RECOMPUTE_LEVELS.index(level)


def _fits_rule(where: Scenario, level: str | None, total: float, zero2: tuple[str, float] | None = None) -> Rule:
    from tutor.sizing.display import format_value

    capacity_en = format_value(where.hardware.gpu_mem, "GB", 0)
    also_en = also_zh = ""
    if zero2 is not None:
        lighter, lighter_total = zero2
        how_en = "without recompute" if lighter == "none" else f"with {lighter} recompute"
        how_zh = "不用 recompute" if lighter == "none" else f"只要 {lighter} recompute"
        also_en = (f" With ZeRO-2 (the gradients sharded too, a reduce-scatter after every micro-batch) it fits "
                   f"{how_en}: {format_value(lighter_total, 'GB')}, as `tutor plan` counts it.")
        also_zh = (f"若用 ZeRO-2（梯度也切分，每个 micro-batch 之后一次 reduce-scatter），{how_zh}就放得下："
                   f"每卡 {format_value(lighter_total, 'GB', 1, 'zh')}，与 `tutor plan` 的算法一致。")
    if level is None:
        room = format_value(budget(where.hardware.gpu_mem), "GB", 0)
        return Rule("fits", False, Message(
            f"Does not fit: {format_value(total, 'GB')} per GPU even with full recompute, on {capacity_en} GPUs "
            f"({room} usable after the {RESERVE:.0%} reserve `tutor plan` keeps).",
            f"放不下：即使 full recompute 每卡也要 {format_value(total, 'GB', 1, 'zh')}，卡只有 {capacity_en}"
            f"（留出 `tutor plan` 的 {RESERVE:.0%} 余量后可用 {room}）。"))
    if level == "full":
        return Rule("fits", True, Message(
            f"Fits with full recompute ({format_value(total, 'GB')} of {capacity_en}); that costs an extra forward."
            + also_en,
            f"开 full recompute 才放得下（每卡 {format_value(total, 'GB', 1, 'zh')}，共 {capacity_en}）；代价是多一次 forward。"
            + also_zh))
    return Rule("fits", True, Message(f"Fits: {format_value(total, 'GB')} per GPU of {capacity_en}.",
                                      f"放得下：每卡 {format_value(total, 'GB', 1, 'zh')}，共 {capacity_en}。"))


def _smaller_pp(where: Scenario, par, level: str) -> str | None:
    """A layout with a smaller PP that fits as lightly, shown as text; None when the PP is minimal."""
    from tutor.sizing.specs import Parallel
    from tutor.sizing.layout_space import divisors

    for pp in [d for d in divisors(where.gpus // par.cp) if d < par.pp]:
        # TP and CP share the node in the recipe (70B: TP 4 × CP 2 = 8), so a rival may not push
        # TP × CP past the node unless the learner's own layout already does.
        node = max(where.hardware.gpus_per_node, par.tp * par.cp)
        for tp in sorted((d for d in divisors(where.gpus // (par.cp * pp)) if d <= where.max_tp and d * par.cp <= node),
                         reverse=True):
            dp = where.gpus // (tp * pp * par.cp)
            candidate = Parallel(gpus=where.gpus, tp=tp, pp=pp, cp=par.cp, ep=par.ep, dp=dp, vpp=1, sharding="distopt")
            m = where.train.global_batch // (dp * where.train.micro_batch) if where.train.global_batch % (
                dp * where.train.micro_batch) == 0 else 0
            if pp > 1 and m < where.min_m_over_p * pp or not pipeline_ok(
                    where.train.global_batch, dp, where.train.micro_batch, pp):
                continue
            if not _errors(where, candidate) and _fits_within(where, candidate, level):
                return show_layout({"tp": tp, "pp": pp, "cp": par.cp, "dp": dp})
    return None


RULE_TEXT = {
    "layout": T("valid layout: TP × PP × CP × DP = GPUs; heads, KV heads and the batch divide; PP ≤ layers; "
                "m ≥ p", "配置合法：TP × PP × CP × DP = 卡数；head、KV head、batch 都能整除；PP ≤ 层数；m ≥ p"),
    "tp-node": T("TP inside one NVLink node (≤ {max_tp})", "TP 在机内（≤ {max_tp}）"),
    "fits": T("model state + activations fit in GPU memory less the {reserve} reserve",
              "model state + activation 放得进显存（留 {reserve} 余量）"),
    "m-4p": T("advice: m ≥ 4p micro-batches per pipeline", "建议：每条 pipeline 的 micro-batch 数 m ≥ 4p"),
    "even-stages": T("advice: layers split evenly over PP", "建议：层数能均分到 PP"),
    "smallest-pp": T("the smallest PP that fits, after TP", "TP 之后取放得下的最小 PP"),
    "smallest-cp": T("the smallest CP that fits (CP only as far as activations need it)",
                     "放得下的最小 CP（activation 需要多少才开多少）"),
    "moe-ep": T("EP > 1 for a mixture of experts", "MoE 用 EP > 1"),
}
RULE_IDS = tuple(RULE_TEXT)
ADVISORY = ("m-4p", "even-stages")


def rule_text(rule_id: str, where: Scenario | None = None) -> dict[str, str]:
    if rule_id.startswith("require-"):
        dim = rule_id.split("-", 1)[1].upper()
        size = where.required.get(rule_id.split("-", 1)[1]) if where is not None else "?"
        return {"id": rule_id, **T(f"{dim} = {size}, as the question fixes", f"题目规定 {dim} = {size}").to_json()}
    text = RULE_TEXT[rule_id]
    fill = {"max_tp": where.max_tp if where is not None else 8, "reserve": f"{RESERVE:.0%}"}
    return {"id": rule_id, **T(text.format("en", **fill), text.format("zh", **fill)).to_json()}
