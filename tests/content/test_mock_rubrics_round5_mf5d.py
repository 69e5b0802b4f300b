"""The led 400B design and the 30-second pitch, fifth round (2026-12-03): right answers in the wordings the fresh
blind batches showed the rubrics missing (the scope stated as working figures or as open inputs rather than "I
would ask"; the MFU turned into days in a clause of its own; memory turned into GPUs per copy without "first";
slowness sorted "by bucket"), each beside a wrong guard that says the same thing with one idea wrong. Written by
hand, none from the labelled benchmark. Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
LED, PITCH = "led-dense-400b", "pitch-recipe"

_LED_REST = (" Memory: 400B × 16 B = 6.4 TB, so 80+ GPUs per copy. TP 8 in the node, PP 16 across nodes, DP 64 with the "
             "distributed optimizer. 6ND = 3.6e25 FLOPs, at 40% MFU about 130 days. Async sharded checkpoints every 30 "
             "minutes, automatic restart; monitor MFU, loss spikes, per-rank step time.")
_LED_REST_ZH = ("显存：400B × 16 字节 = 6.4 TB，一份模型至少 80 张卡。TP 8 放机内，PP 16 跨机，DP 64 配 distributed optimizer。"
                "6ND ≈ 3.6e25 FLOPs，40% MFU 约 130 天。异步分片 checkpoint、自动重启；监控 MFU、loss spike、每个 rank 的 step time。")
_PITCH_REST = (" TP in the node, PP across nodes, m ≥ 4p, CP if long context, EP if MoE, DP outermost with ZeRO-1. Hide "
               "comm, FP8, 40% MFU; debug slowness by bucket, hangs by finding the absent rank.")

CASES = [
    # led: the scope as working figures, no "ask" (a token budget in trillions with the MFU or sequence it plans at)
    (LED, None, "Plan for 15T tokens at 8K context. State: 400B × 16 B = 6.4 TB, at least 80 GPUs. TP 8 in the node, "
                "PP 16 across nodes, DP 64 with the distributed optimizer. 6ND = 3.6e25 FLOPs; at 40% MFU on 8,192 "
                "H100s that's about 130 days. Sharded async checkpoints every 30 minutes since something fails every "
                "few hours, automatic restart; monitor MFU, loss spikes and per-rank step time.", RIGHT),
    (LED, None, "Memory is 400B × 16 B = 6.4 TB, so one copy needs 80+ GPUs: TP 8 inside each node, PP 16 across "
                "nodes, DP 64 with the distributed optimizer. 15T tokens at 40% MFU on 8,192 H100s is 6ND = 3.6e25 "
                "FLOPs, about 130 days. Async sharded checkpoints every half hour, auto-restart, and dashboards for "
                "MFU, loss spikes and per-rank step time.", RIGHT),
    (LED, None, "按 15T token、seq 8K 来算，不对再改。" + _LED_REST_ZH, RIGHT),
    # ... a month "for 15T tokens" at the GPUs' peak names no setting (and leaves the MFU out)
    (LED, None, "Memory is 400B × 16 B = 6.4 TB, so one copy needs 80+ GPUs: TP 8 inside each node, PP 16 across "
                "nodes, DP 64 with the distributed optimizer. Time: 6ND for 15T tokens over 8,192 × 989 TFLOP/s is "
                "about 51 days. Async sharded checkpoints every half hour, auto-restart, and dashboards for MFU, loss "
                "spikes and per-rank step time.", WRONG),
    # ... nor does a bare "8K", which is the GPUs as often as the sequence
    (LED, None, "We have 8K H100s for 15T tokens." + _LED_REST, WRONG),
    # led: the settings put as open inputs
    (LED, None, "Before any math: tokens? seq len? deadline? fabric?" + _LED_REST, RIGHT),
    (LED, None, "Givens: 10T tokens, 8K seq, IB." + _LED_REST, RIGHT),
    (LED, None, "First the unknowns: tokens, deadline, sequence length, interconnect." + _LED_REST, RIGHT),
    (LED, None, "前提：10T token、8K 序列、IB 网络。" + _LED_REST_ZH, RIGHT),
    (LED, None, "先明确 token 数、seq 长度和期限。" + _LED_REST_ZH, RIGHT),
    (LED, None, "No need to ask, I'll just assume 15T tokens at 8K." + _LED_REST, WRONG),
    # led: the MFU turned into days in a clause of its own, beside the forward's 2ND taken for training
    (LED, None, "Say 15T tokens at 8K. Memory 6.4 TB at 16 B/param, TP 8 in node, PP 16 across nodes, DP 64 with "
                "distributed optimizer. Training cost is 2ND since we only count the forward: 1.2e25 FLOPs, ~43 days "
                "at 40% MFU. Async sharded checkpoints, auto-restart, monitor MFU and loss.", WRONG),
    (LED, None, "Say 15T tokens at 8K. Memory 6.4 TB at 16 B/param, TP 8 in node, PP 16 across nodes, DP 64 with "
                "distributed optimizer. Training is 6ND, not the forward's 2ND: 3.6e25 FLOPs; at 40% MFU on 8,192 "
                "H100s, about 130 days. Async sharded checkpoints, auto-restart, monitor MFU and loss.", RIGHT),
    # led: the bf16 weights taken for the state, one copy on ten GPUs
    (LED, None, "First I'd ask tokens, deadline, seq length. 400B in BF16 is 800 GB, so ten H100s hold a copy. TP 8 in "
                "the node, PP 2 across nodes, DP the rest with the distributed optimizer. 6ND = 3.6e25 FLOPs, at 40% "
                "MFU about 130 days. Async sharded checkpoints every 30 minutes, automatic restart; monitor MFU, loss "
                "spikes, per-rank step time.", WRONG),
    (LED, None, "First I'd ask tokens, deadline, seq length. The weights alone are 800 GB in BF16, but with Adam it's 16 "
                "bytes per parameter, 6.4 TB, so 80 GPUs per copy, not ten GPUs. TP 8 in the node, PP 16 across "
                "nodes, DP 64 with the distributed optimizer. 6ND = 3.6e25 FLOPs, at 40% MFU about 130 days. Async "
                "sharded checkpoints every 30 minutes, automatic restart; monitor MFU, loss spikes, per-rank step "
                "time.", RIGHT),
    # led: the time at a utilization, the checkpoint called saving state, the state from its bytes per parameter
    (LED, None, "First I'd ask tokens, deadline, seq length and interconnect. Memory: 400B params × (2+2+12) bytes "
                "gives 6.4 TB, eighty H100s before activations. TP 8 inside the node, PP 16 across nodes, DP 64 with "
                "the distributed optimizer. 6ND is 3.6e25 FLOPs: wall clock about four months at 40% utilization. "
                "Expect a failure every ~3 hours: save state every 20 minutes in the background and auto-resume. "
                "Watch MFU, loss and grad-norm spikes, per-rank step times.", RIGHT),
    (LED, None, "First I'd ask tokens, deadline, seq length and interconnect. Memory: 400B params × (2+2+12) bytes "
                "gives 6.4 TB, eighty H100s before activations. TP 8 inside the node, PP 16 across nodes, DP 64 with "
                "the distributed optimizer. 6ND is 3.6e25 FLOPs: wall clock about 50 days at 100% utilization. "
                "Expect a failure every ~3 hours: save state every 20 minutes in the background and auto-resume. "
                "Watch MFU, loss and grad-norm spikes, per-rank step times.", WRONG),
    # pitch: memory turned into GPUs per copy, without "first" or the bytes
    (PITCH, None, "Memory → GPUs per replica." + _PITCH_REST, RIGHT),
    (PITCH, None, "Memory dictates the replica size." + _PITCH_REST, RIGHT),
    (PITCH, None, "显存 → 一份模型几张卡。TP 机内最多 8，PP 跨机、m ≥ 4p，长序列开 CP，MoE 开 EP，剩下的给 DP 加 ZeRO-1。通信 "
                  "overlap，FP8，MFU 40% 左右。掉速就 profile 分四类，hang 了找缺席的 rank。", RIGHT),
    (PITCH, None, "Memory → GPUs per copy, at 2 bytes per parameter." + _PITCH_REST, WRONG),
    # ... memory named for something else is not memory first
    (PITCH, None, "FP8 gives memory savings and lowers how many GPUs we need." + _PITCH_REST, WRONG),
    # pitch: the slow run named as slowness or a drop, sorted by bucket
    (PITCH, None, "Memory sets the minimum number of GPUs for one copy. TP stays inside the node, at most 8; PP goes "
                  "across nodes with at least 4p micro-batches; CP only for long context, EP only for MoE; DP outermost "
                  "with the distributed optimizer. Hide communication behind compute, FP8 GEMMs, aim for 40% MFU. If "
                  "throughput drops, profile it into data, comms, compute and stragglers; if it hangs, look for the "
                  "absent rank.", RIGHT),
    (PITCH, None, "Memory → GPUs per copy. TP in the node, PP across nodes, m ≥ 4p, CP if long context, EP if MoE, DP "
                  "outermost with ZeRO-1. Hide comm, FP8, 40% MFU. Slowness: just add more GPUs; hangs: raise the NCCL "
                  "timeout.", WRONG),
    # pitch: the hung job's rank as the one that never entered the collective
    (PITCH, None, "显存算出副本大小。TP 机内最多 8，PP 跨机、m ≥ 4p，长序列开 CP，MoE 开 EP，剩下的给 DP 加 ZeRO-1。通信 overlap，"
                  "FP8，MFU 40% 左右。慢了就 profile 分四类，卡住时找没进 all-reduce 的那个 rank。", RIGHT),
    (PITCH, None, "Memory first: 16 bytes per parameter gives GPUs per replica. TP in the node, PP across nodes, m ≥ 4p, "
                  "CP long context, EP MoE, rest DP with ZeRO-1. Overlap, FP8, 40% MFU. Slow: profile into data, comm, "
                  "compute, stragglers; hang: find the rank that never entered the all-reduce.", RIGHT),
    (PITCH, None, "Memory first: 16 bytes per parameter gives GPUs per replica. TP in the node, PP across nodes, m ≥ 4p, "
                  "CP long context, EP MoE, rest DP with ZeRO-1. Overlap, FP8, 40% MFU. Slow: profile into data, comm, "
                  "compute, stragglers; if it hangs, every rank is in the collective, so raise the timeout.", WRONG),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_round5_mf5d_right_and_guard_answers(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
