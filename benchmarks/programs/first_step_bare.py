"""Bare torchrun baseline: join the process group, one all-reduce, print when it is done."""

import time

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
tensor = torch.ones(1024)
dist.all_reduce(tensor)
if dist.get_rank() == 0:
    print(f"FIRST_STEP_DONE {time.time():.6f}", flush=True)
dist.destroy_process_group()
