"""The human output of `tutor size` and `tutor plan`: a readable table, then the derivation."""

from __future__ import annotations

from tutor.sizing.display import format_auto, format_value
from tutor.sizing.printed_formulas import TEXT

_LABELS = {
    "en": {"model": "Model", "params": "parameters", "per_gpu": "per GPU", "memory": "Memory per GPU",
           "weights": "weights", "grads": "gradients", "optimizer": "optimizer state", "model_state": "model state",
           "activations": "activations (first stage)", "per_layer": "per layer", "total": "total", "of": "of", "sharding": "sharding",
           "fits": "fits", "no_fit": "does NOT fit", "min_gpus": "GPUs to hold the model state",
           "pipeline": "Pipeline", "m": "micro-batches per pipeline", "bubble": "bubble", "wall": "wall-clock",
           "flops": "FLOPs per token", "with_attn": "with attention", "rate": "Throughput", "step": "step",
           "mfu_attn": "MFU with attention", "train": "Training time", "ckpt": "Checkpoint", "each": "each GPU writes",
           "steps": "Derivation", "warnings": "Warnings", "errors": "Errors", "plan": "Plan", "best": "Best layout",
           "alternatives": "Alternatives (recipe order)", "headroom": "free", "slow": "slow-link traffic/step",
           "none": "no layout fits", "why": "Why each ranks after the best"},
    "zh": {"model": "模型", "params": "参数", "per_gpu": "每卡", "memory": "每卡显存",
           "weights": "weight", "grads": "gradient", "optimizer": "optimizer state", "model_state": "model state",
           "activations": "activation（第一个 stage）", "per_layer": "每层", "total": "合计", "of": "/", "sharding": "切分",
           "fits": "放得下", "no_fit": "放不下", "min_gpus": "放下 model state 至少要的卡数",
           "pipeline": "Pipeline", "m": "每条 pipeline 的 micro-batch 数", "bubble": "bubble", "wall": "占实际时间",
           "flops": "每 token FLOPs", "with_attn": "含 attention", "rate": "吞吐", "step": "每步",
           "mfu_attn": "含 attention 的 MFU", "train": "训练时长", "ckpt": "Checkpoint", "each": "每卡写",
           "steps": "推导", "warnings": "警告", "errors": "错误", "plan": "方案", "best": "推荐配置",
           "alternatives": "其他配置（按配方顺序）", "headroom": "余量", "slow": "每步跨机通信量",
           "none": "没有放得下的配置", "why": "为什么排在推荐配置之后"},
}


def _fmt(value, unit: str, lang: str, digits: int = 1) -> str:
    return "–" if value is None else format_value(value, unit, digits, lang)


def report_lines(report: dict, model_name: str, lang: str = "en") -> list[str]:
    t = _LABELS["zh" if lang == "zh" else "en"]
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
        explanation = TEXT[step["formula"].split(" = ", 1)[0]][lang == "zh"]
        lines += [f"  {step['id']}: {explanation}", f"      {step['formula']}", f"      {step['substituted']}"]
    for key in ("warnings", "errors"):
        if report[key]:
            lines += ["", t[key]] + [f"  - {item}" for item in report[key]]
    return lines


# The sharding each planned layout uses, as the table shows it (the planner may pick ZeRO-2 per layout).
SHARDING_SHORT = {"none": "none", "distopt": "distopt", "zero1": "ZeRO-1", "zero2": "ZeRO-2", "zero3": "ZeRO-3"}


def plan_lines(result: dict, model_name: str, lang: str = "en") -> list[str]:
    t = _LABELS["zh" if lang == "zh" else "en"]
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
