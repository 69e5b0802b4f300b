"""The sizing engine beside Megatron-LM's and DeepSpeed's estimators, on a grid of configurations.

For each configuration it runs `tutor.sizing.report.size()` and the re-implemented estimators
(benchmarks/references/megatron.py and deepspeed.py, commits cited there) and prints, per quantity,
how many agree within 1% as they stand, and how many after the named convention that separates
them (each convention is stated in the engine's derivation text or docs/sizing.md). Exit status 1
when any difference over 1% is left without a convention.

    python benchmarks/compare_references.py [--limit N] [--show-worst]

FLOPs per token are compared with Megatron's 2024 formula (non-causal, GPT shapes). At TP = PP = 1
the model state of every ZeRO stage and the activations are also compared with the EleutherAI
cookbook's calc_mem, and ZeRO-2/ZeRO-3 with DeepSpeed's estimators (benchmarks/references/cookbook.py,
deepspeed.py). Before the table, the planner's rank of published layouts (Llama 3 405B, DeepSeek-V3)
given their published settings; --no-plans skips it.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from references import cookbook, deepspeed, megatron  # noqa: E402

from tutor.sizing.engine import model_values  # noqa: E402
from tutor.sizing.hardware import gpu  # noqa: E402
from tutor.sizing.presets import model_preset  # noqa: E402
from tutor.sizing.report import size  # noqa: E402
from tutor.sizing.specs import Parallel, Train  # noqa: E402

H100 = gpu("h100")
TOLERANCE = 0.01
MODELS = ("llama3-8b", "llama3-70b", "llama3-405b", "gpt3-175b", "mixtral-8x7b", "deepseek-v3")


def megatron_args(model, tp, pp, dp, seq, sharding, m) -> megatron.Args:
    llama = model.arch == "llama"
    common = dict(layers=model.layers, hidden=model.hidden, heads=model.heads, kv_heads=model.kv, vocab=model.vocab,
                  swiglu=llama, rmsnorm=llama, untied=llama, tp=tp, pp=pp, dp=dp, seq=seq, microbatches=m,
                  distributed_optimizer=sharding == "distopt")
    if model.is_moe:
        width = model.expert_ffn or model.ffn
        common.update(ffn=model.ffn, experts=model.experts, moe_ffn=width, shared_ffn=model.shared_experts * width,
                      dense_layers=model.dense_layers)
        if model.mla:
            common["mla"] = (model.q_rank, model.kv_rank, model.nope_dim, model.rope_dim, model.v_dim)
        return megatron.Args(**common)
    return megatron.Args(ffn=model.ffn, **common)


def grid():
    for name, tp, pp, dp, seq, sharding in itertools.product(
            MODELS, (1, 2, 4, 8), (1, 2, 4, 8, 16), (1, 4, 16), (4096, 8192), ("none", "distopt")):
        model = model_preset(name)
        if model.heads % tp or (model.kv % tp and tp % model.kv):
            continue
        if model.is_moe and (tp > 2 or dp < 4):
            continue
        yield name, model, tp, pp, dp, seq, sharding


def step_value(report, step_id):
    return next((item["value"] for item in report["steps"] if item["id"] == step_id), None)


def gpt_extra_per_layer(model) -> float:
    """Parameters the engine counts per GPT layer that Megatron's estimator does not: the linear
    biases, 4h (QKV and output) + f + h (MLP)."""
    return 5 * model.hidden + model.ffn


def compare(limit: int | None = None):
    rows = []
    for index, (name, model, tp, pp, dp, seq, sharding) in enumerate(grid()):
        if limit is not None and index >= limit:
            break
        global_batch = 64 * dp
        train = Train(seq=seq, global_batch=global_batch)
        par = Parallel(tp=tp, pp=pp, dp=dp, ep=min(dp, 8) if model.is_moe else 1, sharding=sharding)
        report = size(model, train, par, H100)
        m = global_batch // dp
        ref_args = megatron_args(model, tp, pp, dp, seq, sharding, m)
        ref = megatron.parameters(ref_args)
        values = model_values(model, seq)
        even = model.layers % pp == 0
        stage = step_value(report, "first_stage_params") or report["params_per_gpu"]
        gpt = model.arch == "gpt"
        checks = []
        # 1. parameters
        adjusted = ref["total"]
        convention = None
        if gpt:
            adjusted += model.layers * gpt_extra_per_layer(model) + (model.positions or seq) * model.hidden \
                - 2 * model.hidden
            convention = "GPT biases and learned positions (Megatron counts neither); no final LayerNorm in the engine"
        checks.append(("params", values["params"], ref["total"], adjusted, convention))
        # 2. most loaded stage per GPU (dense: even splits; MoE averages the layer mix in Megatron)
        if not model.is_moe and (even or pp == 1):
            adjusted, convention = ref["most_loaded_shard"], None
            if gpt:
                layers_here = model.layers / pp
                adjusted += (layers_here * gpt_extra_per_layer(model) + (model.positions or seq) * model.hidden
                             - 2 * model.hidden / pp) / tp
                convention = "GPT biases and learned positions"
            checks.append(("stage params", stage if pp > 1 else report["params_per_gpu"], ref["most_loaded_shard"],
                           adjusted, convention))
        # 3. weights + gradients + optimizer state (CP = 1, so Megatron's DP is the engine's N)
        if not model.is_moe and (even or pp == 1):
            raw = megatron.weight_and_optimizer_bytes(ref_args)
            per_param = 16 if sharding == "none" or dp == 1 else 6 + 12 / dp
            reference_per_param = 18 if sharding == "none" else 6 + 12 / dp
            adjusted = checks[-1][3] * per_param
            convention = None
            if per_param != reference_per_param:
                convention = ("16 B/param without sharding (ZeRO paper, bf16 grads) against Megatron's 18 "
                              "(fp32 main grads); at DP = 1 the distributed optimizer counts as none")
            checks.append(("weights+grads+optimizer", report["memory"]["model_state"], raw, adjusted, convention))
        # 4. first-stage activations (SP with FlashAttention = the estimator's selective SP form), PP > 1
        if not model.is_moe and pp > 1 and even:
            raw = megatron.activation_bytes(ref_args)
            # The engine counts the MLP width as Megatron does (18 + 4f/h per layer, 34 for f = 4h).
            embedding_terms = (8 * seq + seq * model.hidden) * pp * min(1, m / pp) / tp
            adjusted = raw - embedding_terms
            convention = "the embedding input and dropout (Megatron counts them, under 0.5%)"
            checks.append(("first-stage activations", report["memory"]["activations"], raw, adjusted, convention))
        # 5. FLOPs per token with attention (GPT: the 2024 formula has no SwiGLU factor)
        if gpt:
            raw = megatron.flops_per_token(ref_args)
            checks.append(("FLOPs per token", report["flops"]["per_token"], raw, raw,
                           None))
        # 6. ZeRO-2 model state against DeepSpeed's estimator (no TP or PP there)
        if not model.is_moe and tp == 1 and pp == 1 and dp > 1 and sharding == "none":
            zero2 = size(model, train, Parallel(tp=1, pp=1, dp=dp, sharding="zero2"), H100)
            psi = values["params"]
            raw = deepspeed.zero2_gpu_bytes(psi, dp)
            checks.append(("ZeRO-2 model state", zero2["memory"]["model_state"], raw, 2 * psi + 14 * psi / dp,
                           "ZeRO-2 at 2 + 14/N (ZeRO paper, K = 12) against DeepSpeed's 2 + 18/N (it also counts "
                           "a sharded 32-bit gradient copy)"))
        if not model.is_moe and tp == 1 and pp == 1 and dp > 1 and sharding == "none":
            checks += zero_and_cookbook_checks(model, train, dp, values["params"])
        rows.append((name, tp, pp, dp, seq, sharding, checks))
    return rows


ZERO_STAGES = {0: "none", 1: "zero1", 2: "zero2", 3: "zero3"}


def largest_layer_params(model) -> float:
    """DeepSpeed's "largest layer": one module's own parameters, here the embedding table or the
    widest linear layer (MLP up/down h×f; Llama's gate and up are separate modules)."""
    return max(model.vocab * model.hidden, model.hidden * model.ffn)


def zero_and_cookbook_checks(model, train, dp: int, psi: float) -> list[tuple]:
    """At TP = PP = 1: ZeRO-3 against DeepSpeed's estimator, every ZeRO stage and the activations
    against the EleutherAI cookbook's calc_mem."""
    checks = []
    states = {zero: size(model, train, Parallel(tp=1, pp=1, dp=dp, sharding=sharding), H100)["memory"]["model_state"]
              for zero, sharding in ZERO_STAGES.items()}
    largest = largest_layer_params(model)
    raw = deepspeed.zero3_gpu_bytes(psi, largest, dp)
    checks.append(("ZeRO-3 model state", states[3], raw, raw - 4 * largest - int(2 * psi / dp),
                   "ZeRO-3 at 16/N (ZeRO paper) against DeepSpeed's 18/N (a sharded 32-bit gradient copy) plus the "
                   "largest layer gathered whole (4 B/param of it)"))
    for zero, engine_value in states.items():
        raw = cookbook.model_state_bytes(psi, dp, zero)
        buffers = (cookbook.ALLGATHER_BUCKET * 2 if zero >= 1 else 0) + (cookbook.ZERO3_LIVE_PARAMS * 2 if zero == 3 else 0)
        adjusted = raw - 2 * psi / (dp if zero >= 2 else 1) - buffers
        checks.append((f"cookbook ZeRO-{zero} state", engine_value, raw, adjusted,
                       "2-byte gradients (ZeRO paper) against the cookbook's 4; its all-gather bucket and ZeRO-3 "
                       "live-parameter buffers are communication memory, not model state"))
    plain = size(model, train, Parallel(tp=1, pp=1, dp=dp, flash=False), H100)["memory"]["activations"]
    raw = cookbook.activation_bytes(train.seq, 1, model.hidden, model.layers, model.heads, checkpoint=False)
    checks.append(("cookbook activations", plain, raw, raw, None))
    flash = size(model, train, Parallel(tp=1, pp=1, dp=dp), H100)["memory"]["activations"]
    raw = cookbook.activation_bytes(train.seq, 1, model.hidden, model.layers, model.heads, checkpoint=True)
    coefficient = 18 + 4 * model.ffn / model.hidden
    checks.append(("cookbook checkpointed act.", flash, raw, raw * coefficient / 34,
                   None if coefficient == 34 else "the MLP width counted, 18 + 4f/h (Megatron) against the "
                   "cookbook's 34 (f = 4h); its --checkpoint-activations row is the one without the s×s scores "
                   "(FlashAttention or selective recompute), not full recompute's 2·s·b·h"))
    return checks


# Published layouts and the settings they ran with: (case, preset, GPUs, seq, global batch, layout, options).
PUBLISHED = (
    ("Llama 3 405B 8K (arXiv 2407.21783 Table 4), default options", "llama3-405b", 16384, 8192, 2048,
     dict(tp=8, pp=16, cp=1), {}),
    ("Llama 3 405B 128K (Table 4, DP 8), default options", "llama3-405b", 16384, 131072, 128,
     dict(tp=8, pp=16, cp=16), {}),
    ("Llama 3 405B 8K, distributed optimizer only", "llama3-405b", 16384, 8192, 2048, dict(tp=8, pp=16, cp=1),
     dict(sharding="distopt")),
    ("DeepSeek-V3, EP 64 (default TP)", "deepseek-v3", 2048, 4096, 15360, dict(tp=1, pp=16, cp=1, ep=64),
     dict(ep=(64,))),
    ("DeepSeek-V3 (arXiv 2412.19437 §3.2; no TP, EP 64, ZeRO-1)", "deepseek-v3", 2048, 4096, 15360,
     dict(tp=1, pp=16, cp=1, ep=64), dict(ep=(64,), tp=(1,))),
    ("DeepSeek-V3, any TP and EP", "deepseek-v3", 2048, 4096, 15360, dict(tp=1, pp=16, cp=1, ep=64), {}),
    ("DeepSeek-V3, its recorded recipe (`tutor plan --published`: §3.2.3 and §3.3.3 savings too)", "deepseek-v3",
     2048, 4096, 15360, dict(tp=1, pp=16, cp=1, ep=64),
     dict(ep=(64,), tp=(1,), sharding="distopt", moments="bf16", savings=("norm_up", "fp8"))),
)


def published_ranks() -> list[tuple]:
    """(case, rank or None, layouts listed, the planner's best) for each published layout."""
    from tutor.sizing.planner import plan, Options

    found = []
    for case, preset, gpus, seq, batch, layout, options in PUBLISHED:
        result = plan(model_preset(preset), Train(seq=seq, global_batch=batch), gpus, H100, alternatives=500,
                      options=Options(**options))
        ranked = [result["best"]] + result["alternatives"]
        rank = next((index for index, item in enumerate(ranked, 1)
                     if all(item[key] == value for key, value in layout.items())), None)
        best = ranked[0]
        found.append((case, rank, len(ranked), f"TP {best['tp']} PP {best['pp']} CP {best['cp']} EP {best['ep']} "
                      f"DP {best['dp']} {best['recompute']}"))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int)
    parser.add_argument("--show-worst", action="store_true")
    parser.add_argument("--no-plans", action="store_true", help="skip the planner's ranks of published layouts")
    args = parser.parse_args()
    if not args.no_plans:
        print("Planner rank of published layouts (given their published settings):")
        for case, rank, listed, best in published_ranks():
            print(f"  {case}: rank {rank if rank else '-'} of {listed} (best: {best})")
        print()
    rows = compare(args.limit)
    table: dict[str, list] = {}
    unexplained = []
    for name, tp, pp, dp, seq, sharding, checks in rows:
        for quantity, engine_value, raw, adjusted, convention in checks:
            raw_diff, adjusted_diff = engine_value / raw - 1, engine_value / adjusted - 1
            table.setdefault(quantity, []).append((raw_diff, adjusted_diff, convention))
            if abs(adjusted_diff) > TOLERANCE:
                unexplained.append((quantity, name, tp, pp, dp, seq, sharding, adjusted_diff))
    print(f"Engine vs Megatron-LM theoretical_memory_usage.py ({megatron.COMMIT[:10]}), DeepSpeed "
          f"stage_1_and_2.py ({deepspeed.COMMIT[:10]}) and stage3.py ({deepspeed.ZERO3_COMMIT[:10]}), "
          f"EleutherAI cookbook calc_transformer_mem.py ({cookbook.COMMIT[:10]}), {len(rows)} configurations")
    print(f"{'quantity':<26}{'n':>5}{'raw ≤1%':>9}{'max raw':>10}{'with convention ≤1%':>21}{'max':>9}")
    for quantity, items in table.items():
        raw_ok = sum(abs(raw) <= TOLERANCE for raw, _, _ in items)
        ok = sum(abs(adjusted) <= TOLERANCE for _, adjusted, _ in items)
        worst_raw = max((raw for raw, _, _ in items), key=abs)
        worst = max((adjusted for _, adjusted, _ in items), key=abs)
        print(f"{quantity:<26}{len(items):>5}{raw_ok:>9}{worst_raw:>+10.2%}{ok:>21}{worst:>+9.3%}")
    conventions = sorted({convention for items in table.values() for _, _, convention in items if convention})
    print("\nConventions named:")
    for convention in conventions:
        print(f"  - {convention}")
    if unexplained:
        print(f"\n{len(unexplained)} differences over 1% without a convention:")
        for item in unexplained[:20]:
            print("  ", item)
        return 1
    print("\nEvery difference over 1% is a named convention.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
