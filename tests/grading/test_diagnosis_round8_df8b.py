"""Lab diagnoses written by hand, round 8 (s36 df8b, 2026-12-04; none from the labelled benchmark):
the ideas the grader failed to read in free_text_labs10/11, each in wordings of our own, with near
misses. The ideas: the dgrad GEMM named with both its operands' formats (no gradient put in E4M3);
gradients said to need precision, and FP8 put at four times BF16 (wrong facts); a fix that moves the
job to a GPU and leaves the program as it is; the memory limit said as a noun and the fused kernel's
intermediates kept in registers; a CUDA graph replayed without the call's input copied in; a rank's
aside in brackets after another rank's statement ("rank 1 never exits (rank 0 exited 0)"); and a comma
inside a bracket, which does not cut a clause's call off from its ranks. Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False

E4 = "E4M3 for activations and weights, which need precision."
E4_ZH = "activation 和 weight 用 E4M3，精度高。"
E5 = " E5M2 for gradients, which need range."
E5_ZH = "梯度用 E5M2，范围大。"
FP8_WHY = E4 + E5 + " Each tensor is scaled by max/amax before the cast."

TINY = ("Launch-bound compute: ~2,000 tiny ops per step of ~10 µs each, 16 .item() syncs per step. Sixteen one-sequence micro-batches "
        "and a normalisation of eight elementwise ops.")
TINY_ZH = "launch-bound 的计算：每步约 2000 个很小的算子，每步 16 次 .item() 同步。原因是 16 个单条序列的 micro-batch 和 8 个 elementwise 算子手写的归一化。"
RIGHT_FIX = " Fix: one micro-batch of 16 sequences, nn.LayerNorm, and no per-step .item()"

LAUNCH = "Launch-bound: the GPU idles between tiny kernels waiting for Python to launch them. A CUDA graph replays the whole loop with one launch."
LAUNCH_ZH = "launch-bound：GPU 在小 kernel 之间空转，等 CPU 发射下一个。CUDA graph 把整个循环录一次，一次 launch 重放。"

WHY_EXIT = " Its non-daemon uploader thread waits in Queue.get, and close() is only called in the except branch. Fix: close the uploader in a finally."
WHY_EXIT_ZH = "非daemon的checkpoint-uploader线程卡在 Queue.get，主线程退出时在等它。close() 只在 except 里调用。修法：在 finally 里关闭 uploader。"

PGS = " Rank 1's all_reduce went to pg 2, the other three to pg 1."
ORDER = (" Why: MetricsWriter is built first on rank 1, so new_group is called in a different order. Fix: create the groups "
         "in the same order on every rank.")
ORDER_ZH = "原因：rank 1 先建 MetricsWriter，new_group 的调用顺序不一样。修法：每个 rank 按同样的顺序建组。"

CASES = [
 # the dgrad GEMM named with both operands' formats puts no gradient in E4M3
 ('fp8-matmul', f"{FP8_WHY} Forward: e4m3 x e4m3; dgrad: e5m2 x e4m3 for dgrad.", R),
 ('fp8-matmul', f"{FP8_WHY} W stays E4M3 for dgrad too, only dY is E5M2.", R),
 ('fp8-matmul', f"{FP8_WHY} dY (E5M2) times W (E4M3) for dgrad, as Transformer Engine's hybrid recipe.", R),
 ('fp8-matmul', f"{FP8_WHY} The weight operand is e4m3 for the dgrad as well; the gradient operand is e5m2.", R),
 ('fp8-matmul', f"{FP8_WHY} E5M2 for dY, E4M3 for X and W (forward, and W again in dgrad).", R),
 ('fp8-matmul', "X and W in E4M3 for precision; dY in E5M2, it needs range; e5m2 x e4m3 for dgrad. Scale each tensor by its amax.", R),
 ('fp8-matmul', f"{E4_ZH}{E5_ZH}每个 tensor 按 amax 缩放。dgrad 里 W 还是 E4M3，dY 是 E5M2。", R),
 ('fp8-matmul', f"{E4_ZH}{E5_ZH}每个tensor按amax缩放。dgrad里W还是E4M3，dY是E5M2。", R),
 ('fp8-matmul', "E4M3 for activations and weights, which need precision. Gradients in E4M3 too. Each tensor is scaled by its amax.", W),
 ('fp8-matmul', "E4M3 for activations and weights, which need precision. dY in E4M3 for dgrad, scaled by its amax.", W),
 ('fp8-matmul', "E4M3 everywhere, for precision; each tensor is scaled by its amax.", W),
 ('fp8-matmul', "activation 和 weight 用 E4M3，精度高。梯度也用 E4M3。每个 tensor 按 amax 缩放。", W),
 # gradients said to need precision: the wrong reason for E5M2
 ('fp8-matmul', f"{E4} E5M2 in the backward because gradients need more mantissa bits.", W),
 ('fp8-matmul', f"{E4} E5M2 for dY: gradients need precision.", W),
 ('fp8-matmul', f"{E4} E5M2 on the backward pass, since the gradients need higher precision.", W),
 ('fp8-matmul', f"{E4} E5M2 for the gradients, because gradients are precision sensitive.", W),
 ('fp8-matmul', f"{E4} E5M2 for gradients; think of it as a finer ruler, the backward pass needs accuracy.", W),
 ('fp8-matmul', f"{E4_ZH}梯度用 E5M2，因为梯度需要更高的精度。", W),
 ('fp8-matmul', f"{E4_ZH}梯度用E5M2，因为梯度需要更多尾数位。", W),
 ('fp8-matmul', f"{E4_ZH}反向用 E5M2：梯度对精度敏感。", W),
 ('fp8-matmul', f"{E4} E5M2 for gradients, because gradients need range more than precision.", R),
 ('fp8-matmul', f"{E4} E5M2 for gradients: gradients do not need precision, they need range.", R),
 ('fp8-matmul', f"{E4} E5M2 for gradients; the forward needs precision, gradients need range.", R),
 ('fp8-matmul', f"{E4_ZH}梯度用 E5M2，梯度需要的是范围，不是精度。", R),
 # FP8 put at four times BF16 (it is twice)
 ('fp8-matmul', f"{FP8_WHY} FP8 runs at 4x the bf16 rate, so both GEMMs get about 4x faster.", W),
 ('fp8-matmul', f"{FP8_WHY} The FP8 tensor cores are four times faster than BF16.", W),
 ('fp8-matmul', f"{FP8_WHY} FP8 GEMMs are 4× faster than bf16.", W),
 ('fp8-matmul', f"{FP8_WHY} FP8 quadruples the GEMM throughput.", W),
 ('fp8-matmul', f"{E4_ZH}{E5_ZH}每个 tensor 按 amax 缩放。FP8 比 bf16 快 4 倍。", W),
 ('fp8-matmul', f"{E4_ZH}{E5_ZH}每个tensor按amax缩放。FP8比bf16快4倍。", W),
 ('fp8-matmul', f"{FP8_WHY} FP8 peaks at 2x the bf16 rate.", R),
 ('fp8-matmul', f"{FP8_WHY} FP8 is 4x smaller than fp32 and twice as fast as bf16 on the tensor cores.", R),
 ('fp8-matmul', f"{FP8_WHY} FP8 does not run 4x faster than bf16, only 2x.", R),
 ('fp8-matmul', f"{E4_ZH}{E5_ZH}每个 tensor 按 amax 缩放。FP8 的峰值是 bf16 的 2 倍。", R),
 # a fix that moves the job to a GPU or other hardware leaves every op as tiny
 ('launch-bound', f"{TINY} Fix: move the job to a GPU and capture the step in a CUDA graph.", W),
 ('launch-bound', f"{TINY} On a CPU there's not much to do about that; run the job on a GPU with torch.compile.", W),
 ('launch-bound', f"{TINY} Fix: switch to GPUs, where CUDA Graphs turn the step into one launch.", W),
 ('launch-bound', f"{TINY} Fix: nothing you can do on a CPU; get a GPU and use CUDA graphs.", W),
 ('launch-bound', f"{TINY} Honestly it needs a GPU node; fix: CUDA graphs there.", W),
 ('launch-bound', f"{TINY} Fix: port it to a GPU and wrap the step in torch.compile, like moving a slow script onto a faster box.", W),
 ('launch-bound', f"{TINY_ZH}修法：CPU 上没什么办法，换到 GPU 上用 CUDA Graph。", W),
 ('launch-bound', f"{TINY_ZH}修法：CPU上没什么办法，换到GPU上用CUDA Graph。", W),
 ('launch-bound', f"{TINY}{RIGHT_FIX}; on a GPU, CUDA Graphs would cut launches further.", R),
 ('launch-bound', f"{TINY}{RIGHT_FIX}; moving to a GPU would not help, the ops would stay tiny.", R),
 ('launch-bound', f"{TINY}{RIGHT_FIX}; this needs no GPU.", R),
 ('launch-bound', f"{TINY_ZH}修法：合成一个 micro-batch，用 nn.LayerNorm，去掉每步的 .item()；在 GPU 上 CUDA Graph 还能再减少 launch。", R),
 # the memory limit said as a noun; the fused kernel's intermediates kept in registers, only the result written
 ('kernel-fusion', "The limit is HBM traffic. A fused kernel keeps the add and the GeLU in registers.", R),
 ('kernel-fusion', "The limiting factor is memory traffic, not math. Fusion writes only the final result.", R),
 ('kernel-fusion', "Its time is dominated by HBM traffic; a fused kernel keeps x+bias on chip and writes only the output.", R),
 ('kernel-fusion', "The limit is bytes moved, not flops. Fusing keeps every intermediate in registers and writes once.", R),
 ('kernel-fusion', "Think of three trips to the warehouse: the limit is HBM traffic, and one fused kernel keeps the in-between values in registers.", R),
 ('kernel-fusion', "It is the bandwidth limit, HBM. One kernel keeps x+bias and gelu(x+bias) in registers and writes only the final result.", R),
 ('kernel-fusion', "瓶颈在显存流量。融合后中间值留在寄存器里，只写最终结果。", R),
 ('kernel-fusion', "瓶颈在显存流量。融合后中间值留在寄存器里,只写最终结果。", R),
 ('kernel-fusion', "The limit is compute: GeLU is expensive. Fusing keeps things in registers.", W),
 ('kernel-fusion', "The limit is not HBM traffic. Fusing writes only the final result.", W),
 ('kernel-fusion', "It is compute-bound. Fusing writes only the final result.", W),
 ('kernel-fusion', "The limit is HBM traffic. Fusing keeps values in registers, but the fused kernel still moves the same bytes.", W),
 # a CUDA graph replayed without the call's input copied in: every call returns the captured example's result
 ('cuda-graphs', f"{LAUNCH} Runner.__init__ captures self.out = loop(example) inside torch.cuda.graph(g); __call__ just does g.replay() and returns self.out.", W),
 ('cuda-graphs', f"{LAUNCH} Fix: capture once in __init__; each call just replays the graph and returns the output.", W),
 ('cuda-graphs', f"{LAUNCH} Fix: capture in __init__, then per call just g.replay(), no copy needed.", W),
 ('cuda-graphs', f"{LAUNCH} Fix: record once; __call__ only calls g.replay() and hands back the captured output.", W),
 ('cuda-graphs', f"{LAUNCH} Fix: capture once, and just replay it on every call, like a tape that picks up the new input.", W),
 ('cuda-graphs', f"{LAUNCH} Fix: capture once; skip the copy of x, the replay reads it anyway.", W),
 ('cuda-graphs', f"{LAUNCH_ZH}修法：__init__ 里录一次，每次调用只 replay，输入不用拷。", W),
 ('cuda-graphs', f"{LAUNCH_ZH}修法：__init__里录一次，__call__里只调用g.replay()，不需要拷贝输入。", W),
 ('cuda-graphs', f"{LAUNCH} Fix: capture once in __init__; each call copies x into the static input, then just replays and returns a clone of the static output.", R),
 ('cuda-graphs', f"{LAUNCH} Fix: capture once; __call__ copies the input into the static buffer and replays.", R),
 ('cuda-graphs', f"{LAUNCH} Fix: capture once; a call that just replays without copying x in would return stale results, so copy x first, then replay.", R),
 ('cuda-graphs', f"{LAUNCH_ZH}修法：__init__ 里录一次，每次调用先把输入拷进静态 buffer，再 replay。", R),
 # a rank's aside in brackets after another rank's statement is its own statement
 ('exit-hang', f"Rank 1 never exits (rank 0 exited with 0).{WHY_EXIT}", R),
 ('exit-hang', f"Rank 1 is still alive (rank 0 finished and exited 0).{WHY_EXIT}", R),
 ('exit-hang', f"r1 hangs at exit (r0 exited cleanly).{WHY_EXIT}", R),
 ('exit-hang', f"Rank 1 never exits (rank 0 is gone, exit code 0).{WHY_EXIT}", R),
 ('exit-hang', f"rank 1没退出（rank 0 exit 0）。{WHY_EXIT_ZH}", R),
 ('exit-hang', f"rank 1 没退出（rank 0 已经退出）。{WHY_EXIT_ZH}", R),
 ('exit-hang', f"rank 1 没退出（0号正常退出了）。{WHY_EXIT_ZH}", R),
 ('exit-hang', f"rank 1 没退出 (rank 0 exit 0)。{WHY_EXIT_ZH}", R),
 ('exit-hang', f"Rank 0 never exits (rank 1 exited with 0).{WHY_EXIT}", W),
 ('exit-hang', f"Rank 1 exited (rank 0 never exits).{WHY_EXIT}", W),
 ('exit-hang', f"rank 0 没退出（rank 1 exit 0）。{WHY_EXIT_ZH}", W),
 ('exit-hang', f"Both ranks never exit (rank 0 and rank 1).{WHY_EXIT}", W),
 # a comma inside a bracket does not cut the call off from the ranks before it
 ('group-order', f"The error is the same on every rank (gloo recv/send timeout, 6000 ms) in average_gradients -> all_reduce on grads.{PGS}{ORDER}", R),
 ('group-order', f"The error is the same on every rank (a timeout, 6000 ms) in the all_reduce in average_gradients.{PGS}{ORDER}", R),
 ('group-order', f"The failure looks alike on all four ranks (gloo, recv timeout, 6 s) in the all_reduce in average_gradients.{PGS}{ORDER}", R),
 ('group-order', f"Every rank dies the same way (timeout, step 0) in the gradient all_reduce in average_gradients.{PGS}{ORDER}", R),
 ('group-order', f"The stacks match on every rank (same error, same step) in average_gradients, in the all_reduce.{PGS}{ORDER}", R),
 ('group-order', f"All ranks report one error (timeout, 6000 ms, step 0) in average_gradients -> all_reduce.{PGS}{ORDER}", R),
 ('group-order', f"每个 rank 的报错都一样（gloo 超时，6000 ms）在 average_gradients 的 all_reduce 里。{PGS}{ORDER_ZH}", R),
 ('group-order', f"每个rank的报错都一样（gloo超时，6000ms）在average_gradients的all_reduce里。{PGS}{ORDER_ZH}", R),
 ('group-order', f"The error is the same on every rank (gloo timeout, 6000 ms) in the barrier in main.{PGS}{ORDER}", W),
 ('group-order', f"The error is the same on every rank (gloo timeout, 6000 ms) in the all_gather in log_metrics.{PGS}{ORDER}", W),
 ('group-order', f"The error is the same on every rank (gloo timeout, 6000 ms) in average_gradients -> all_reduce on grads. Rank 0's all_reduce went to pg 2, the other three to pg 1.{ORDER}", W),
 ('group-order', f"The error is the same on every rank (gloo timeout, 6000 ms).{PGS}{ORDER}", W),
]


@pytest.mark.parametrize(("lab", "answer", "right"), CASES)
def test_round8_df8b_diagnoses(lab, answer, right):
    assert diagnose(lab, answer)["correct"] is right
