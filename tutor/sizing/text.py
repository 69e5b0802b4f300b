"""The human output of `tutor size` and `tutor plan`: a readable table, then the derivation."""

from __future__ import annotations

from tutor.sizing.display import format_auto, format_value
from tutor.sizing.printed_formulas import TEXT
from tutor.text import T

# Each label in both languages, one entry per label, so a translator reads each pair together.
LABELS = {
    "model": T("Model", "模型"), "params": T("parameters", "参数"), "per_gpu": T("per GPU", "每卡"),
    "memory": T("Memory per GPU", "每卡显存"), "weights": T("weights", "weight"), "grads": T("gradients", "gradient"),
    "optimizer": T("optimizer state", "optimizer state"), "model_state": T("model state", "model state"),
    "activations": T("activations (first stage)", "activation（第一个 stage）"), "per_layer": T("per layer", "每层"),
    "total": T("total", "合计"), "of": T("of", "/"), "sharding": T("sharding", "切分"), "fits": T("fits", "放得下"),
    "no_fit": T("does NOT fit", "放不下"), "min_gpus": T("GPUs to hold the model state", "放下 model state 至少要的卡数"),
    "pipeline": T("Pipeline", "Pipeline"), "m": T("micro-batches per pipeline", "每条 pipeline 的 micro-batch 数"),
    "bubble": T("bubble", "bubble"), "wall": T("wall-clock", "占实际时间"), "flops": T("FLOPs per token", "每 token FLOPs"),
    "with_attn": T("with attention", "含 attention"), "rate": T("Throughput", "吞吐"), "step": T("step", "每步"),
    "mfu_attn": T("MFU with attention", "含 attention 的 MFU"), "train": T("Training time", "训练时长"),
    "ckpt": T("Checkpoint", "Checkpoint"), "each": T("each GPU writes", "每卡写"), "steps": T("Derivation", "推导"),
    "warnings": T("Warnings", "警告"), "errors": T("Errors", "错误"), "plan": T("Plan", "方案"),
    "best": T("Best layout", "推荐配置"), "alternatives": T("Alternatives (recipe order)", "其他配置（按配方顺序）"),
    "headroom": T("free", "余量"), "slow": T("slow-link traffic/step", "每步跨机通信量"),
    "none": T("no layout fits", "没有放得下的配置"), "why": T("Why each ranks after the best", "为什么排在推荐配置之后"),
}


def _fmt(value, unit: str, lang: str, digits: int = 1) -> str:
    return "–" if value is None else format_value(value, unit, digits, lang)


def report_lines(report: dict, model_name: str, lang: str = "en") -> list[str]:
    t = {key: label.get(lang) for key, label in LABELS.items()}
    memory, pipe, flops, rate = report["memory"], report["pipeline"], report["flops"], report["throughput"]
    lines = [f"{t['model']}: {model_name} · Ψ = {_fmt(report['params'], 'params', lang, 2)} {t['params']}, "
             f"{_fmt(report['params_per_gpu'], 'params', lang, 2)} {t['per_gpu']}", "", t["memory"]]
    for key in ("weights", "grads", "optimizer", "model_state", "activations"):
        lines.append(f"  {t[key]:<28}{_fmt(memory[key], 'GB', lang):>12}")
    if memory["activations_per_layer"] is not None:
        lines[-1] += f"   ({_fmt(memory['activations_per_layer'], 'MB', lang)} {t['per_layer']})"
    verdict = t["fits"] if memory["fits"] else t["no_fit"]
    lines.append(f"  {t['total']:<28}{_fmt(memory['total'], 'GB', lang):>12}   {t['of']} "
                 f"{_fmt(memory['capacity'], 'GB', lang)}: {verdict}")
    lines += ["", f"{t['min_gpus']}: {report['min_gpus_for_model_state']}",
              f"{t['pipeline']}: {t['m']} {pipe['microbatches']}, {t['bubble']} {_fmt(pipe['bubble'], '%', lang)}"
              f" ({t['wall']} {_fmt(pipe['bubble_wallclock'], '%', lang)})",
              f"{t['flops']}: 6Ψ = {_fmt(flops['per_token_6n'], 'FLOPs', lang)}, {t['with_attn']} "
              f"{_fmt(flops['per_token'], 'FLOPs', lang)}"]
    if rate["tokens_per_s"] is not None:
        lines.append(f"{t['rate']}: {_fmt(rate['tokens_per_s'], 'tokens/s', lang)}, {t['step']} "
                     f"{_fmt(rate['step_time_s'], 's', lang)}, MFU {_fmt(rate['mfu'], '%', lang)}, "
                     f"{t['mfu_attn']} {_fmt(rate['mfu_attn'], '%', lang)}")
    if report["train_time_s"] is not None:
        lines.append(f"{t['train']}: {_fmt(report['train_time_s'], 'days', lang)}")
    lines.append(f"{t['ckpt']}: {format_auto(report['checkpoint']['bytes_total'], 'B', 1, lang)}, {t['each']} "
                 f"{_fmt(report['checkpoint']['bytes_per_gpu'], 'GB', lang)}")
    lines += ["", t["steps"]]
    for step in report["steps"]:
        explanation = TEXT[step["formula"].split(" = ", 1)[0]].get(lang)
        lines += [f"  {step['id']}: {explanation}", f"      {step['formula']}", f"      {step['substituted']}"]
    for key in ("warnings", "errors"):
        if report[key]:
            lines += ["", t[key]] + [f"  - {item}" for item in report[key]]
    return lines


# The sharding each planned layout uses, as the table shows it (the planner may pick ZeRO-2 per layout).
SHARDING_SHORT = {"none": "none", "distopt": "distopt", "zero1": "ZeRO-1", "zero2": "ZeRO-2", "zero3": "ZeRO-3"}


def plan_lines(result: dict, model_name: str, lang: str = "en") -> list[str]:
    t = {key: label.get(lang) for key, label in LABELS.items()}
    lines = [f"{t['plan']}: {model_name}"] + [f"  {n}. {step['text']}" for n, step in enumerate(result["steps"], 1)]
    if result["best"] is None:
        return lines + ["", t["none"]]
    header = f"  {'TP':>3} {'PP':>4} {'CP':>3} {'EP':>3} {'DP':>6} {'v':>2}  {'recompute':<9} {t['sharding']:<8} " \
             f"{t['total']:>9} " \
             f"{t['headroom']:>6} {t['bubble']:>7} {t['slow']:>12}"
    lines += ["", t["best"], header, _row(result["best"], lang)]
    if result["alternatives"]:
        lines += ["", t["alternatives"], header] + [_row(item, lang) for item in result["alternatives"]]
        lines += ["", t["why"]] + [f"  TP {item['tp']} PP {item['pp']} CP {item['cp']} EP {item['ep']} "
                                   f"{item['recompute']}: {item['why']}" for item in result["alternatives"]
                                   if item.get("why")]
    return lines + [""] + report_lines(result["best"], model_name, lang)[2:]


def _row(item: dict, lang: str) -> str:
    return (f"  {item['tp']:>3} {item['pp']:>4} {item['cp']:>3} {item['ep']:>3} {item['dp']:>6} {item['vpp']:>2}  "
            f"{item['recompute']:<9} {SHARDING_SHORT.get(item.get('sharding') or '', '-'):<8} "
            f"{_fmt(item['memory']['total'], 'GB', lang):>9} "
            f"{_fmt(item['headroom'], '%', lang, 0):>6} {_fmt(item['pipeline']['bubble'], '%', lang):>7} "
            f"{_fmt(item['slow_link_bytes'], 'GB', lang):>12}")
