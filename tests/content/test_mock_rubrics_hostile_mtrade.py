"""Trade-off follow-ups, the hang story, the pitch and the dense-400B lead against near misses and right
answers written by hand as a hostile candidate would (2026-12-03; none from the labelled benchmark).
Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
MORE_PP = "followup-why-not-more-pp"

CASES = [
    # followup-why-not-more-pp
    (MORE_PP, None, "Doubling PP actually shrinks the bubble, since (p-1)/m gets smaller when each stage has less "
                    "work; the real cost is only memory.", WRONG),
    (MORE_PP, None, "More stages means a smaller bubble because every stage is shorter, so I'd double PP.", WRONG),
    (MORE_PP, None, "More stages means a smaller bubble since each stage is shorter. The global batch is fixed so m "
                    "stays the same, and the first stage holds p micro-batches in 1F1B.", WRONG),
    (MORE_PP, None, "The bubble is (p-1)/m, so doubling p just halves the bubble relative to the stage time; it's fine "
                    "as long as we keep 1F1B.", WRONG),
    (MORE_PP, None, "Halving DP would double m so the bubble stays the same; more PP is fine then, basically free.",
     WRONG),
    (MORE_PP, None, "Doubling PP is fine: the global batch is fixed so m stays the same, and the bubble grows a bit but "
                    "1F1B handles it.", WRONG),
    (MORE_PP, None, "PP翻倍没问题，global batch 固定，m 不变，bubble 会变大一点但无所谓。", WRONG),
    (MORE_PP, None, "pipeline bubble, (p-1)/m, 1F1B, interleaving, load balance, p2p.", WRONG),
    (MORE_PP, None, "Could be a bigger bubble or not, depends; maybe the bubble grows if m is small.", WRONG),
    (MORE_PP, None, "If m is small the bubble might grow, otherwise more PP is better since each stage holds fewer "
                    "weights and activations scale down by p.", WRONG),
    (MORE_PP, None, "PP翻倍bubble反而变小，因为每个stage更短了，所以可以翻倍。", WRONG),
    (MORE_PP, None, "You're right, doubling PP is better: activations per GPU drop by half and the p2p traffic is tiny, "
                    "bubble doesn't matter with interleaving.", WRONG),
    (MORE_PP, None, "The bubble grows with p, so just raise the global batch to get more micro-batches and it's free.",
     WRONG),
    (MORE_PP, None, "With fixed global batch, the bubble (p−1)/m doubles roughly since p doubles and m stays; halving "
                    "DP just gives m back. Also first stage still holds p micro-batches in 1F1B.", RIGHT),
    (MORE_PP, None, "global batch 固定，p 翻倍 m 不变，bubble (p-1)/m 差不多翻倍；DP 减半只是把 m 拉回来。", RIGHT),
    (MORE_PP, None, "Bubble ~ (p-1)/m grows with p at fixed GBS.", RIGHT),
    (MORE_PP, None, "PP 翻倍的话 stage 越多 bubble 越大，而且 1F1B 下第一个 stage 还是要存 p 个 micro-batch 的 "
                    "activation，省不了多少显存。", RIGHT),
    (MORE_PP, None, "Doubling PP with fixed global batch: bubble grows, (p-1)/m roughly doubles, halving DP just gives m "
                    "back; more stages are harder to balance and add p2p hops, so keep PP minimal.", RIGHT),
    (MORE_PP, None, "I'd not double PP. Global batch is fixed by convergence, so each pipeline keeps the same m and more "
                    "stages make the bubble bigger. And the first stage still stores p micro-batches of activations "
                    "under 1F1B, so memory doesn't really drop. Plus extra stages are harder to balance with the "
                    "embedding and LM head. So PP stays as small as fits.", RIGHT),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_hand_written_near_misses_and_right_answers(scenario, step, answer, right):
    assert grade(library().interview.scenarios[scenario].model, answer, step, 0).correct is right
