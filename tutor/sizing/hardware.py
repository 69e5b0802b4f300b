"""The GPU catalog (DESIGN §4), with sources from shared/reference/facts.md §1–2.

Peaks are dense (without 2:4 sparsity). H200 computes like an H100 with more memory.
"""

from __future__ import annotations

import difflib

from tutor.sizing.errors import SizingError
from tutor.sizing.specs import Hardware

_A100 = "NVIDIA A100 datasheet (as tabulated in stas00/ml-engineering compute/accelerator/README.md)"
_H100 = "stas00/ml-engineering compute/accelerator/README.md (NVIDIA H100 spec page, dense BF16 989 TFLOP/s)"

GPUS: dict[str, Hardware] = {
    "a100-40gb": Hardware("a100-40gb", 40e9, 312e12, None, 8, _A100),
    "a100-80gb": Hardware("a100-80gb", 80e9, 312e12, None, 8, _A100),
    "h100-80gb": Hardware("h100-80gb", 80e9, 989e12, 1979e12, 8, _H100),
    "h200-141gb": Hardware("h200-141gb", 141e9, 989e12, 1979e12, 8,
                           "stas00/ml-engineering note 16 (nvidia.com/en-us/data-center/h200/): H100 compute, 141 GB"),
    # The name follows the 192 GB figure usually quoted; the DGX B200 datasheet gives 1,440 GB for
    # 8 GPUs, i.e. 180 GB usable each, which is what the memory check should use.
    "b200-192gb": Hardware("b200-192gb", 180e9, 2250e12, 4500e12, 8,
                           "stas00/ml-engineering (DGX B200 datasheet): 2,250 dense BF16 TFLOP/s, 180 GB usable HBM3e"),
}
ALIASES = {
    "a100": "a100-80gb", "a100-40": "a100-40gb", "a100-80": "a100-80gb",
    "h100": "h100-80gb", "h100-sxm": "h100-80gb", "h100-80": "h100-80gb",
    "h200": "h200-141gb", "h200-sxm": "h200-141gb", "b200": "b200-192gb",
}


def gpu(name: str) -> Hardware:
    """A catalog GPU by name or alias, case-insensitive."""
    key = str(name).strip().lower()
    key = ALIASES.get(key, key)
    if key in GPUS:
        return GPUS[key]
    close = difflib.get_close_matches(key, list(GPUS) + list(ALIASES), n=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    raise SizingError(f"unknown GPU {name!r} (catalog: {', '.join(GPUS)}; aliases: {', '.join(ALIASES)}){hint}")
