"""Run in a subprocess by test_compare.py: the rank context's `compare` against
torch.testing.assert_close on the same pairs; prints the pairs where the verdicts differ."""
import math

import torch

from tutor.labs.rank.context import compare


def verdict_of_assert_close(actual, expected, rtol, atol):
    try:
        torch.testing.assert_close(actual, expected, rtol=rtol, atol=atol)
    except AssertionError:
        return False
    return True


def cases():
    torch.manual_seed(0)
    for dtype in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
        base = torch.randn(64, 8).to(dtype)
        scale = {torch.float16: 1e-3, torch.bfloat16: 1.6e-2, torch.float32: 1.3e-6, torch.float64: 1e-7}[dtype]
        for factor in (0.0, 0.3, 0.9, 1.1, 3.0, 100.0):
            # a relative nudge around the dtype's default tolerance, in the dtype itself
            nudged = (base.double() * (1 + factor * scale) + factor * 1e-5).to(dtype)
            for tolerances in ((None, None), (1e-4, 1e-5), (2e-2, 2e-2), (0.0, 0.0)):
                yield nudged, base, *tolerances
    ints = torch.arange(10)
    yield ints, ints.clone(), None, None
    yield ints + 1, ints, None, None
    nan = torch.tensor([1.0, math.nan])
    yield nan, nan.clone(), None, None
    inf = torch.tensor([1.0, math.inf])
    yield inf, inf.clone(), None, None
    yield torch.tensor([1.0, -math.inf]), inf, None, None
    yield torch.ones(3, dtype=torch.float64), torch.ones(3), None, None  # dtype differs
    yield torch.zeros(0), torch.zeros(0), None, None
    flags = torch.tensor([True, False])
    yield flags, flags.clone(), None, None
    yield flags, ~flags, None, None


differ, passed, failed = 0, 0, 0
for actual, expected, rtol, atol in cases():
    ours, _ = compare(actual, expected, rtol=rtol, atol=atol)
    theirs = verdict_of_assert_close(actual, expected, rtol, atol)
    passed, failed = passed + theirs, failed + (not theirs)
    if ours != theirs:
        differ += 1
        print(f"differs: {actual.dtype} rtol={rtol} atol={atol}: compare {ours}, assert_close {theirs}")
print(f"compared: {passed} close, {failed} not close, {differ} differ")
