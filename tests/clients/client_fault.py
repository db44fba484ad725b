"""The faults a client test asks for, fired from inside the training loop of a real client
script: CLIENT_FAULT=crash@STEP (the rank SIGKILLs itself) or hang@STEP (it SIGSTOPs itself),
on rank CLIENT_FAULT_RANK (default 1), in the first attempt (torch's restart count 0, so
torchrun and nonstop run fire it alike); `KIND@STEP@ATTEMPT` fires in a later attempt, and
several faults are separated by commas (`crash@12,hang@15@1`: a crash, then a hang in the
restarted attempt). Real signals, as a dying or wedged process gives.

With CLIENT_STEP_LOG=PATH every call appends `wall_time attempt step rank` (and `fault` before
a fault): the benchmarks' one observer of when each launcher's ranks trained again."""

from __future__ import annotations

import os
import signal
import time


def _note(what: str) -> None:
    path = os.environ.get("CLIENT_STEP_LOG")
    if path:
        with open(path, "a") as f:
            f.write(f"{time.time():.6f} {what}\n")


def maybe_fault(step: int) -> None:
    attempt = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
    _note(f"{attempt} {step} {os.environ.get('RANK')}")
    if os.environ.get("RANK") != os.environ.get("CLIENT_FAULT_RANK", "1"):
        return
    for spec in filter(None, os.environ.get("CLIENT_FAULT", "").split(",")):
        kind, at, *when = spec.split("@")
        if step == int(at) and attempt == int(when[0] if when else 0):
            print(f"client fault: {kind} at step {step} on rank {os.environ['RANK']}", flush=True)
            _note(f"fault {kind} {step}")
            os.kill(os.getpid(), signal.SIGKILL if kind == "crash" else signal.SIGSTOP)
