"""The low-utilization debug stages' "what next" step against near misses and right answers written
by hand as a hostile candidate would (2026-12-03; none from the labelled benchmark). The hole most
of them found: a contradiction denied states its point, and the readings of the trace that say
otherwise sat on the required fix, so "the network is not the problem, so I'd re-measure MFU"
stated the fix. They now sit on a diagnosis point of their own, worth too little to pass an answer
without the fix. Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
DATA = "debug-data-loading"

CASES = [
    # debug-data-loading: accepted before were the knob turned the wrong way (a bare "num_workers" said
    # the fix), the hedge, and the denied network
    (DATA, "next", "The workers are fighting the main thread for CPU, so I'd cut num_workers from 8 to 4, then "
                   "measure MFU again.", WRONG),
    (DATA, "next", "Set num_workers=0 and pin_memory off so the data is loaded in the main thread without IPC "
                   "overhead, then check the idle stretch is gone.", WRONG),
    (DATA, "next", "Could be the dataloader, could be the network — maybe add more workers, maybe not; I'd "
                   "re-measure MFU and see.", WRONG),
    (DATA, "next", "The network is not the problem, so I'd re-measure MFU.", WRONG),
    (DATA, "next", "NCCL 只占 4%，不是网络的问题；再测一次 MFU。", WRONG),
    (DATA, "next", "It's not compute and not the network; profile again to see.", WRONG),
    (DATA, "next", "nvidia-smi already shows 70–100%, so the GPUs are busy; I'd just increase the batch size so "
                   "each step does more work, and check MFU again.", WRONG),
    (DATA, "next", "Turn on gradient-reduce overlap so the NCCL time hides under backward, then measure MFU again "
                   "to confirm.", WRONG),
    (DATA, "next", "GPU 在等网络把梯度送过来，先把 NCCL 超时调大，再重新测 MFU。", WRONG),
    (DATA, "next", "num_workers, pin_memory, prefetch, synthetic data, MFU.", WRONG),
    (DATA, "next", "The tokenizer runs on the GPU and stalls it; move tokenization into the DataLoader workers, then "
                   "re-measure step time.", WRONG),
    (DATA, "next", "增加 DataLoader worker 没用，CPU 已经满了，应该减少 worker 数量，然后再测 MFU。", WRONG),
    (DATA, "next", "Synthetic data makes the gap disappear, so train on synthetic data from now on and measure MFU "
                   "again.", WRONG),
    (DATA, "next", "The loader workers are probably stuck; restart the job and check afterwards that the idle "
                   "stretch is gone.", WRONG),
    (DATA, "next", "More workers won't help and pre-tokenizing isn't worth it; the real problem is compute, the "
                   "GEMMs are too slow, so re-profile.", WRONG),
    (DATA, "next", "I'd add more workers, but honestly the bottleneck is the NCCL communication, so re-measure "
                   "after.", WRONG),
    (DATA, "next", "Input-bound: swap in synthetic batches to confirm the 41% gap vanishes, then pre-tokenize "
                   "offline and add workers; re-measure MFU.", RIGHT),
    (DATA, "next", "先用合成数据跑一下，确认开头的空等消失；然后把 tokenize 挪到训练前离线做好，再多开几个 DataLoader "
                   "worker，最后重新测 MFU 和 step time。", RIGHT),
    (DATA, "next", "So the first thing I notice is the GPU sits idle for 41% of the step before the first forward, "
                   "and the workers are pegged decoding and tokenizing, so honestly this is the data pipeline, not "
                   "NCCL, which is only 4%. What I'd do is, well, first prove it by feeding random tensors of the "
                   "right shape; if the idle stretch goes away, that's confirmed. Then I'd move the tokenization "
                   "offline, pre-tokenize and pack the corpus into binary shards that we memory-map, so the workers "
                   "just read tokens, and bump num_workers and prefetch_factor a bit too. Then I'd look at the trace "
                   "again and expect the idle block at the start gone and the step time down to roughly 10 s.", RIGHT),
    (DATA, "next", "先 pre-tokenize 数据，离线存成 binary shards，worker 只读 token；改完再录一次 trace，看 forward "
                   "之前的空白没了，MFU 上去。", RIGHT),
    (DATA, "next", "The loader is the bottleneck: tokenize ahead of time and cache the tokens, raise num_workers, "
                   "and confirm with a new profile that the idle before forward is gone and step time drops.", RIGHT),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_hand_written_near_misses_and_right_answers(scenario, step, answer, right):
    assert grade(library().interview.scenarios[scenario].model, answer, step, 0).correct is right
