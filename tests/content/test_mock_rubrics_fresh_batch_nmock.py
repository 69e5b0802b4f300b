"""Mock stages, the fresh labelled batch of 2026-12-03 (free_text_mock4.yaml): hand-written variants of the
tuning misses it showed, none copied from the benchmark. Right answers told as stories or numbers first (the
check said as "a fresh trace shows a dense timeline", a raise supposed with "if we raise it", a scope said before
a comma, "adds to the p−1"), and wrong ones that brushed the points ("bubble ≈ 1/(4p)", "beyond 4p only wastes
memory"). Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
LAUNCH, TIMEOUT, CP = "debug-launch-bound", "followup-raise-timeout", "followup-when-cp-pays-off"
M4P, MOREPP, OOM = "followup-why-m-4p", "followup-why-not-more-pp", "hang-oom-dead-rank"

CASES = [
    # the check said as what a new trace shows
    (LAUNCH, "next", "Bump the micro-batch to 8, capture CUDA Graphs, and log the loss every 100 steps. I'd know it "
                     "worked when a fresh trace shows the timeline dense, no gaps.", RIGHT),
    (LAUNCH, "next", "Micro-batch 1 is why the kernels are tiny, so raise it to 8 and torch.compile the model. I'd "
                     "know it worked when the profile shows the kernels back to back.", RIGHT),
    (LAUNCH, "next", "Bump the micro-batch to 8 and use CUDA Graphs. I'd know it worked when the job feels faster.",
     WRONG),
    # the raise supposed, not advised: "if we raise it ..."
    (TIMEOUT, None, "I'd say no. Nothing legitimate takes ten minutes in an all-reduce, so some rank isn't there. If "
                    "we raise it to an hour, the job doesn't stop failing, it fails an hour later with every GPU "
                    "idle. Instead keep it short and dump the flight recorder on timeout, then fix that rank.", RIGHT),
    (TIMEOUT, None, "If you raise it, it still fails, just later, and the cluster idles the whole time; a rank is "
                    "missing. Keep the timeout short, dump the flight recorder on timeout and fix the rank.", RIGHT),
    (TIMEOUT, None, "If it hangs, raise the timeout to an hour; raising the timeout fixes it, and dump the flight "
                    "recorder on timeout.", WRONG),
    # numbers first: the length and the CP degree said after a scope
    (CP, None, "When activations no longer fit with TP 8 and recompute, say 32K to 128K context, CP pays off. At "
               "short sequences it's a waste: the K/V exchange can't hide behind the little attention compute.",
     RIGHT),
    (CP, None, "At 128K on 405B, CP 16 keeps each GPU at 8K tokens. At 4K, CP only adds a K/V ring exchange that "
               "can't hide behind attention, so it's a waste.", RIGHT),
    (CP, None, "At 4K on a 7B model, CP 16 pays off. At 128K, CP is a waste.", WRONG),
    # the bubble at m = 4p said to vanish, and going past 4p said to waste memory
    (M4P, None, "With m = 4p the bubble (p−1)/m is about 1/(4p), basically nothing.", WRONG),
    (M4P, None, "With m = 4p the bubble (p−1)/m is just under a quarter, and going beyond 4p only wastes memory.",
     WRONG),
    (M4P, None, "The 1F1B bubble is (p−1)/m, so with m = 4p it's just under a quarter; fewer micro-batches waste "
                "more. Going beyond 4p still helps, it costs no extra activation memory under 1F1B, but the global "
                "batch caps m.", RIGHT),
    (M4P, None, "m = 4p 时 bubble 约 1/4，micro-batch 越多 bubble (p-1)/m 越小。", RIGHT),
    # "adds to the p−1"
    (MOREPP, None, "Each stage adds to the p−1 in the bubble, and m stays fixed by the global batch; the first "
                   "stage still holds p micro-batches of activations.", RIGHT),
    (MOREPP, None, "Every stage adds to the throughput, and the global batch is fixed, so the first stage memory "
                   "halves.", WRONG),
    # the rank gone said as what py-spy cannot find, the OOM told later without its subject
    (OOM, "why", "The odd one is rank 5: py-spy can't find the process. Its log shows the 32K-token batch at step "
                 "3072 needed more memory than was free. Under srun nothing kills the other seven, which wait in "
                 "the all-reduce. Same data order, same batch at the same step.", RIGHT),
    (OOM, "why", "py-spy can't find the process of rank 5 because py-spy needs sudo; rank 5 is still alive, just "
                 "slow on the 32K-token batch. Same data order, same batch.", WRONG),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_fresh_batch_variants(scenario, step, answer, right):
    assert grade(library().question(scenario), answer, step).correct is right
