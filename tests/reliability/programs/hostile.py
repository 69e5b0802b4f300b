"""A learner program that tries to outlive its lab run: `python hostile.py KIND[,KIND…] SECONDS`.

KIND: double-fork (a setsid'd grandchild holding a listening socket, its parent gone), ignore-term
(children in the rank's group that ignore SIGTERM), fork-tree (3 generations x 3, each setsid'd),
allocate (memory without bound), clear-env (a setsid'd grandchild that execs with an empty
environment, so no run marker finds it; its pid is written to the file given as a third
argument). The rank itself then runs SECONDS more (so the tutor can be
killed mid-run), printing a line per second, and exits 0.
"""

import os
import signal
import socket
import sys
import time

KIND, SECONDS = sys.argv[1], float(sys.argv[2])
PID_FILE = sys.argv[3] if len(sys.argv) > 3 else None


def linger(listen: bool = False) -> None:
    if listen:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()
    time.sleep(120)
    os._exit(0)


def double_fork() -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            linger(listen=True)
        os._exit(0)


def ignore_term() -> None:
    for _ in range(5):
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            linger()


def fork_tree(generation: int = 0) -> None:
    for _ in range(3):
        if os.fork() == 0:
            os.setsid()
            if generation < 2:
                fork_tree(generation + 1)
            linger(listen=generation == 2)


def clear_env() -> None:
    if os.fork() == 0:
        os.setsid()
        pid = os.fork()
        if pid == 0:
            os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)"], {})
        if PID_FILE and os.environ.get("RANK") == "0":
            with open(PID_FILE, "w") as out:
                out.write(str(pid))
        os._exit(0)


def allocate() -> None:
    hoard = []
    while True:
        hoard.append(bytearray(64 << 20))
        hoard[-1][::4096] = b"x" * len(range(0, 64 << 20, 4096))  # touch every page


for kind in KIND.split(","):
    {"double-fork": double_fork, "ignore-term": ignore_term, "fork-tree": fork_tree, "allocate": allocate,
     "clear-env": clear_env}[kind]()
started = time.monotonic()
while time.monotonic() - started < SECONDS:
    print("tick", flush=True)
    time.sleep(1)
