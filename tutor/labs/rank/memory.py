"""A GPU's memory limit, simulated on a CPU: how the hang labs run out of memory on a laptop.

On a GPU, a rank that holds too many activations dies with `torch.OutOfMemoryError`; a CPU
process just grows. `DeviceMemory` gives a rank a capacity in bytes and counts the
activations it really holds: every output of the model's modules is registered when it is
produced and released when the tensor is freed (a weakref finalizer), so what is counted is
what the program keeps alive — a batch's activations until backward frees them, and anything
the program holds on to after that. When a new activation would not fit, the forward raises
`torch.OutOfMemoryError` with the CUDA allocator's wording, marked as simulated.

Only module outputs are counted (not the temporaries inside a module, nor weights and
optimizer state, which a real GPU would also hold): the capacity is "room for activations".
"""

from __future__ import annotations

import threading
import weakref

import torch
import torch.nn as nn

MIB = 1 << 20


class DeviceMemory:
    def __init__(self, capacity_bytes: int, device: str = "GPU 0"):
        self.capacity = int(capacity_bytes)
        self.device = device
        self.in_use = 0
        self.peak = 0
        self._lock = threading.Lock()

    @classmethod
    def kib(cls, capacity_kib: float, device: str = "GPU 0") -> DeviceMemory:
        return cls(int(capacity_kib * 1024), device)

    def watch(self, model: nn.Module) -> None:
        """Count the output of every leaf module of `model` from now on."""
        for module in model.modules():
            if not list(module.children()):
                module.register_forward_hook(self._on_output)

    def _on_output(self, module: nn.Module, inputs, output) -> None:
        if isinstance(output, torch.Tensor):
            self.allocate(output)

    def allocate(self, tensor: torch.Tensor) -> None:
        size = tensor.numel() * tensor.element_size()
        with self._lock:
            if self.in_use + size > self.capacity:
                free = max(0, self.capacity - self.in_use)
                raise torch.OutOfMemoryError(
                    f"CUDA out of memory (simulated). Tried to allocate {size / MIB:.2f} MiB. {self.device} has a "
                    f"total capacity of {self.capacity / MIB:.2f} MiB of which {free / MIB:.2f} MiB is free. "
                    f"{self.in_use / MIB:.2f} MiB is allocated by live tensors of this process.")
            self.in_use += size
            self.peak = max(self.peak, self.in_use)
        weakref.finalize(tensor, self._release, size)

    def _release(self, size: int) -> None:
        with self._lock:
            self.in_use -= size
