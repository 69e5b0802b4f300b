"""`tutor lab experiment NAME --vary ranks|data` and `tutor lab bandwidth` (the perf labs' tools).

Registered by `tutor.commands.lab`; heavy imports stay inside the handlers.
"""

from __future__ import annotations

import re

from tutor.commands._common import add_json_flag, lang_of, print_json
from tutor.errors import UserInputError
from tutor.text import T

SIZE = re.compile(r"^\d+(\.\d+)?[KMG]?$", re.I)
MAX_BUFFER = 1 << 30
ERRORS = {
    "sizes": T("--sizes takes byte counts like 8,1K,64K,1M (K, M, G = 2^10, 2^20, 2^30), not {given!r}",
               "--sizes 要的是字节数，例如 8,1K,64K,1M（K、M、G = 2^10、2^20、2^30），不能是 {given!r}"),
    "huge": T("--sizes: at most 1G per buffer", "--sizes：每个 buffer 最多 1G"),
    "world_size": T("--world-size must be between 2 and 64, not {given}", "--world-size 必须在 2 到 64 之间，不能是 {given}"),
    "iters": T("--iters must be between 1 and 1000, not {given}", "--iters 必须在 1 到 1000 之间，不能是 {given}"),
}


def add_parsers(sub) -> None:
    experiment = sub.add_parser("experiment", help="a controlled experiment on a perf lab: one rank vs all, "
                                                   "synthetic data vs the real loader")
    experiment.add_argument("name")
    experiment.add_argument("--vary", choices=("ranks", "data"), required=True,
                            help="ranks: 1 rank vs --world-size; data: the program's loader vs synthetic data")
    experiment.add_argument("--solution", action="store_true", help="use the reference solution")
    experiment.add_argument("--world-size", type=int, metavar="N")
    experiment.add_argument("--backend", choices=("auto", "gloo", "nccl"), default="auto")
    experiment.add_argument("--timeout", type=float, metavar="S", help="no-progress limit in seconds")
    add_json_flag(experiment)
    bandwidth = sub.add_parser("bandwidth", help="all-reduce time, algbw and busbw per buffer size, as nccl-tests")
    bandwidth.add_argument("--world-size", type=int, default=2, metavar="N")
    bandwidth.add_argument("--backend", choices=("auto", "gloo", "nccl"), default="auto")
    bandwidth.add_argument("--sizes", default="8,1K,64K,1M,8M,32M", help="buffer sizes in bytes, K/M/G = 2^10/2^20/2^30")
    bandwidth.add_argument("--iters", type=int, default=20, help="timed all-reduces per size (nccl-tests -n)")
    add_json_flag(bandwidth)


def run_experiment(args, entry) -> int:
    from tutor.labs.run_options import RunOptions, resolve
    from tutor.labs.experiments import experiment_text, for_learner, vary_data, vary_ranks
    from tutor.store import Store

    options = RunOptions(solution=args.solution, world_size=args.world_size, backend=args.backend,
                         timeout_s=args.timeout)
    _, backend, _ = resolve(entry, options)  # one clear line for bad options, before anything starts
    options = RunOptions(solution=args.solution, world_size=args.world_size, backend=backend, timeout_s=args.timeout)
    measured = (vary_ranks if args.vary == "ranks" else vary_data)(entry, options)
    with Store() as store:
        result = for_learner(store, measured, entry.name)
    if args.json:
        print_json(result)
    else:
        print("\n".join(experiment_text(result, lang_of(args))))
    return 0


def run_bandwidth(args) -> int:
    from tutor.labs.experiments import bandwidth, bandwidth_text
    from tutor.labs.launch import resolve_backend

    sizes = [size.strip() for size in args.sizes.split(",") if size.strip()]
    if not sizes or not all(SIZE.match(size) for size in sizes):
        raise UserInputError(ERRORS["sizes"].filled(given=args.sizes))
    if any(_bytes(size) > MAX_BUFFER for size in sizes):
        raise UserInputError(ERRORS["huge"])
    if not 2 <= args.world_size <= 64:
        raise UserInputError(ERRORS["world_size"].filled(given=args.world_size))
    if not 1 <= args.iters <= 1000:
        raise UserInputError(ERRORS["iters"].filled(given=args.iters))
    result = bandwidth(args.world_size, resolve_backend(args.backend, args.world_size), ",".join(sizes), args.iters)
    if args.json:
        print_json(result)
    else:
        print("\n".join(bandwidth_text(result, lang_of(args))))
    return 0 if result["outcome"] == "ok" else 1


def _bytes(size: str) -> float:
    factor = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(size[-1].upper(), 1)
    return float(size[:-1] if size[-1].upper() in "KMG" else size) * factor
