"""A claim that puts a value on a thing ("E4M3 for activations") against a rival value said in the
same clause ("… and E5M2 for gradients"): each value binds to the thing beside it, not to any
thing the clause names. Before rivals, "Gradients should use E4M3 and the forward E5M2: …" passed
fp8-matmul at 1.0 (both formats read on both tensors), as did the other swaps below."""

from __future__ import annotations

import pytest

from tests.grading.labelled.cases import evidence
from tutor.content import load
from tutor.labs.diagnose import grade_lab

WHY = " E4M3 has more precision and E5M2 more range, and each tensor is scaled by its amax into range."
WHY_ZH = "E4M3 精度高，E5M2 范围大，每个 tensor 按 amax 缩放到范围里。"


def _formats(answer: str, lang: str = "en") -> dict:
    verdict = grade_lab(list(load().labs["fp8-matmul"].model.diagnosis), answer, evidence("fp8-matmul"), lang)
    return next(item for item in verdict["feedback"] if item["item"] == "formats") | {"correct": verdict["correct"]}


@pytest.mark.parametrize(("answer", "lang"), [
    ("Gradients should use E4M3 and the forward E5M2." + WHY, "en"),
    ("The backward gets E4M3 and activations get E5M2." + WHY, "en"),
    ("Use E5M2 for the forward and E4M3 for the gradients." + WHY, "en"),
    ("Forward in E5M2 and backward in E4M3." + WHY, "en"),
    ("Activations and weights should be E5M2 and gradients should be E4M3." + WHY, "en"),
    ("dY goes in E4M3 while X and W go in E5M2." + WHY, "en"),
    ("Gradients should use E4M3." + WHY, "en"),
    ("Forward Y = X·Wᵀ is E4M3 x E4M3; input gradient dX = dY·W is E4M3 x E5M2." + WHY, "en"),
    ("梯度应该用 E4M3，而前向用 E5M2。" + WHY_ZH, "zh"),
    ("前向用E5M2和反向用E4M3。" + WHY_ZH, "zh"),
])
def test_a_value_put_on_the_wrong_thing_fails(answer, lang):
    formats = _formats(answer, lang)
    assert not formats["ok"] and not formats["correct"], formats
    assert not {"E4M3 for activations and weights: more precision", "E5M2 for gradients: more range",
                "activation 和 weight 用 E4M3：精度更高", "gradient 用 E5M2：范围更大"} & set(formats["covered"]), formats


@pytest.mark.parametrize(("answer", "lang"), [
    ("Gradients should use E5M2 and the forward E4M3." + WHY, "en"),
    ("The backward gets E5M2 and activations get E4M3." + WHY, "en"),
    ("Use E4M3 for the forward and E5M2 for the gradients." + WHY, "en"),
    ("E4M3 for the forward and E5M2 for weight gradients." + WHY, "en"),
    ("Forward in E4M3 and backward in E5M2." + WHY, "en"),
    ("Activations and weights should be E4M3 and gradients should be E5M2." + WHY, "en"),
    ("dY goes in E5M2 while X and W go in E4M3." + WHY, "en"),
    ("Forward GEMM: X and W in E4M3. dgrad: dY in E5M2 times W in E4M3." + WHY, "en"),
    ("E4M3 for activations and weights and E5M2 for gradients." + WHY, "en"),
    # the product's operands by position, and a rival thing between a value and a W
    ("Forward Y = X·Wᵀ is E4M3 x E4M3; input gradient dX = dY·W is E5M2 x E4M3." + WHY, "en"),
    ("E4M3 for activations and weights. Gradients are tiny, so dY goes in E5M2 for dX = dY·W, with W kept in E4M3."
     + WHY, "en"),
    ("激活和权重用 E4M3，权重梯度和激活梯度用 E5M2。" + WHY_ZH, "zh"),
    ("梯度应该用 E5M2，而前向用 E4M3。" + WHY_ZH, "zh"),
    ("前向用E4M3和反向用E5M2。" + WHY_ZH, "zh"),
])
def test_each_value_on_its_own_thing_passes(answer, lang):
    formats = _formats(answer, lang)
    assert formats["ok"] and formats["correct"], formats


def _dp_outermost(answer: str):
    from tutor.grading.dispatch import grade

    return grade(load().questions["why-dp-outermost"].model, answer, None)


@pytest.mark.parametrize("answer", [
    # passed at 0.87: the once-per-step point's bare "once per step" has no subject
    "TP syncs once per step and overlaps with backward, so it can span nodes; DP all-reduces in every layer, so it "
    "stays on NVLink inside the node.",
    "Put DP inside the node and TP across nodes: DP communicates in every layer, TP only once per step, overlapped "
    "with backward.",
])
def test_dp_s_traffic_given_to_tp_fails(answer):
    assert not _dp_outermost(answer).correct


@pytest.mark.parametrize("answer", [
    "TP stays inside the node because it all-reduces every layer, while DP goes across nodes since it syncs once per "
    "step, overlapped with backward.",
    "Unlike TP, which all-reduces in every layer, DP syncs once per step and overlaps that with backward, so it can "
    "go across nodes while TP stays inside the node.",
    "TP 每层都要 all-reduce，所以放在机内走 NVLink；DP 每个 step 只同步一次梯度，还能和 backward 重叠，所以放最外层跨机。",
])
def test_dp_s_traffic_said_of_dp_passes(answer):
    assert _dp_outermost(answer).correct


def _overlap(answer: str):
    from tutor.grading.dispatch import grade

    return grade(load().questions["overlap-table"].model, answer, None)


_RIGHT = {"DP": "gradients go out in buckets during backward and each full bucket is all-reduced while backward continues",
          "FSDP": "prefetch the next layer's parameters with an all-gather while the current layer computes",
          "TP": "split the GEMM into chunks and pipeline the all-gather and reduce-scatter with the other chunks",
          "PP": "send/recv overlaps with another micro-batch's compute in the 1F1B steady state"}
_STREAMS = " Communication runs on its own CUDA stream and is not free, NCCL uses SMs."


@pytest.mark.parametrize("order", [("PP", "TP", "DP", "FSDP"), ("FSDP", "PP", "TP", "DP"), ("TP", "DP", "PP", "FSDP")])
def test_each_dimension_s_overlap_given_to_another_fails(order):
    """Passed at 1.0 before `said_of`: every mechanism named, each under the wrong dimension."""
    answer = " ".join(f"{label}: {_RIGHT[right]}." for label, right in zip(order, _RIGHT)) + _STREAMS
    assert not _overlap(answer).correct


@pytest.mark.parametrize("answer", [
    " ".join(f"{label}: {text}." for label, text in _RIGHT.items()) + _STREAMS,
    "For DP, gradients are bucketed and all-reduced during backward. With FSDP the next layer's parameters are "
    "prefetched while this one computes. For TP, split the GEMM into chunks so the all-gather pipelines with compute. "
    "In PP the send/recv hides behind another micro-batch's compute in 1F1B. Comm has its own stream but takes SMs.",
    "DDP 在 backward 过程中分桶 all-reduce 梯度；FSDP 在算当前层时预取下一层的参数；TP 把 GEMM 切块，让 all-gather 和计算"
    "流水起来；PP 在 1F1B 稳态里 send/recv 和别的 micro-batch 的计算重叠。通信有自己的 stream，但会占 SM。",
])
def test_each_dimension_s_own_overlap_passes(answer):
    assert _overlap(answer).correct
