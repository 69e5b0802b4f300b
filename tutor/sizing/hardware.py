"""The GPU catalog (DESIGN §4), with sources from shared/reference/facts.md §1–2.

Peaks are dense (without 2:4 sparsity). H200 computes like an H100 with more memory.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from tutor.sizing.errors import SizingError

if TYPE_CHECKING:
    from tutor.sizing.specs import Hardware

_A100 = "NVIDIA A100 datasheet (as tabulated in stas00/ml-engineering compute/accelerator/README.md)"
_H100 = "stas00/ml-engineering compute/accelerator/README.md (NVIDIA H100 spec page, dense BF16 989 TFLOP/s)"

# name -> (memory bytes, dense BF16 FLOP/s, dense FP8 FLOP/s, GPUs per node, source). Plain tuples:
# a numeric `tutor check` reads a GPU's memory from here without building the spec dataclasses
# (tutor.sizing.specs costs more to import than the rest of the check's sizing; docs/engine-speed.md).
CATALOG: dict[str, tuple] = {
    "a100-40gb": (40e9, 312e12, None, 8, _A100),
    "a100-80gb": (80e9, 312e12, None, 8, _A100),
    "h100-80gb": (80e9, 989e12, 1979e12, 8, _H100),
    # DeepSeek-V3 trained on 2,048 of these (arXiv 2412.19437 §3.1). The same GH100 die, memory and tensor-core
    # peaks as the H100 SXM; only NVLink (400 GB/s bidirectional, against 900) and FP64 are cut, neither of which
    # the engine's memory and FLOP figures read.
    "h800-80gb": (80e9, 989e12, 1979e12, 8,
                  "aiwiki.ai/wiki/nvidia_h800 (H100's GH100 silicon and peaks, NVLink cut to 400 GB/s); DeepSeek-V3 "
                  "technical report (arXiv 2412.19437) §3.1: 2,048 H800 GPUs, 8 per node over NVLink"),
    "h200-141gb": (141e9, 989e12, 1979e12, 8,
                   "stas00/ml-engineering note 16 (nvidia.com/en-us/data-center/h200/): H100 compute, 141 GB"),
    # The name follows the 192 GB figure usually quoted; the DGX B200 datasheet gives 1,440 GB for
    # 8 GPUs, i.e. 180 GB usable each, which is what the memory check should use.
    "b200-192gb": (180e9, 2250e12, 4500e12, 8,
                   "stas00/ml-engineering (DGX B200 datasheet): 2,250 dense BF16 TFLOP/s, 180 GB usable HBM3e"),
}
ALIASES = {
    "a100": "a100-80gb", "a100-40": "a100-40gb", "a100-80": "a100-80gb",
    "h100": "h100-80gb", "h100-sxm": "h100-80gb", "h100-80": "h100-80gb",
    "h800": "h800-80gb", "h800-sxm": "h800-80gb", "h200": "h200-141gb", "h200-sxm": "h200-141gb", "b200": "b200-192gb",
}


def catalog_key(name: str) -> str:
    """The catalog name of a GPU given by name or alias, case-insensitive; SizingError with a suggestion."""
    key = str(name).strip().lower()
    key = ALIASES.get(key, key)
    if key in CATALOG:
        return key
    import difflib  # only for the error's suggestion

    close = difflib.get_close_matches(key, list(CATALOG) + list(ALIASES), n=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    raise SizingError(f"unknown GPU {name!r} (catalog: {', '.join(CATALOG)}; aliases: {', '.join(ALIASES)}){hint}")


def gpu_numbers(name: str) -> tuple[float, float]:
    """(memory bytes, dense BF16 FLOP/s) of a catalog GPU, without building a Hardware spec."""
    memory, peak, *_ = CATALOG[catalog_key(name)]
    return memory, peak


@lru_cache(maxsize=None)
def _hardware(key: str) -> Hardware:
    from tutor.sizing.specs import Hardware

    return Hardware(key, *CATALOG[key])


def gpu(name: str) -> Hardware:
    """A catalog GPU by name or alias, case-insensitive."""
    return _hardware(catalog_key(name))


def __getattr__(name: str):
    """GPUS, the catalog as Hardware specs, built on first use (PEP 562)."""
    if name == "GPUS":
        return {key: _hardware(key) for key in CATALOG}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
