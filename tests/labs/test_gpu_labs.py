"""The GPU-only perf labs on a machine without a GPU: skipped with a clear message, and the parts
that do not need CUDA checked here (byte model, FP8 formats and errors on small CPU GEMMs).

Their timing on a GPU is not verified by this suite (no GPU in CI); see docs/labs.md.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tutor.labs.catalog import get_lab

GPU_LABS = ("kernel-fusion", "fp8-matmul", "cuda-graphs")


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", GPU_LABS)
def test_gpu_only_labs_are_skipped_on_cpu_with_a_clear_message(name, tutor_here):
    assert get_lab(name).lab.gpu_only
    action = "check" if name == "fp8-matmul" else "run"
    code, _, stderr = tutor_here("lab", action, name, "--backend", "gloo")
    assert code == 2 and "needs CUDA GPUs" in stderr and "skipped" in stderr
    assert stderr.count("\n") == 1 and "Traceback" not in stderr


def test_the_fusion_lab_predicts_a_third_of_the_traffic():
    program = load(get_lab("kernel-fusion").program, "fusion_shipped")
    elements = 16384 * 8192
    assert program.bytes_three_kernels(elements, 2) == 13 * elements  # 3 × (read + write) in bf16, + 1-byte mask
    assert program.bytes_one_kernel(elements, 2) == 4 * elements
    assert program.bytes_three_kernels(elements, 2) / program.bytes_one_kernel(elements, 2) == pytest.approx(3.25)


def test_the_fp8_solution_uses_e4m3_forward_e5m2_gradients_within_the_checks_errors():
    torch = pytest.importorskip("torch")
    entry = get_lab("fp8-matmul")
    solution = load(entry.solution, "fp8_solution")
    checker = load(entry.checker, "fp8_checker")
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(128, 512, generator=generator).to(torch.bfloat16)
    w = (torch.randn(256, 512, generator=generator) / 512 ** 0.5).to(torch.bfloat16)
    grad_y = (torch.randn(128, 256, generator=generator) * 1e-3).to(torch.bfloat16)
    with checker.ScaledMatmuls() as seen:
        y, grad_x = solution.forward(x, w), solution.input_grad(grad_y, w)
    assert seen.operands == [("float8_e4m3fn", "float8_e4m3fn"), ("float8_e5m2", "float8_e4m3fn")]
    assert solution.relative_error(y, x.float() @ w.float().t()) <= entry.lab.check["forward_max_error"]
    assert solution.relative_error(grad_x, grad_y.float() @ w.float()) <= entry.lab.check["input_grad_max_error"]
    with checker.ScaledMatmuls() as seen:
        load(entry.program, "fp8_shipped").forward(x, w)
    assert seen.operands == []  # the shipped bf16 GEMM fails the format check
