"""The fault a client test asks for, fired from inside the training loop of a real client
script: CLIENT_FAULT=crash@STEP (the rank SIGKILLs itself) or hang@STEP (it SIGSTOPs itself),
on rank CLIENT_FAULT_RANK (default 1), in the first attempt only (torch's restart count 0, so
torchrun and nonstop run fire it alike). Real signals, as a dying or wedged process gives."""

from __future__ import annotations

import os
import signal


def maybe_fault(step: int) -> None:
    spec = os.environ.get("CLIENT_FAULT", "")
    if not spec or os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") != "0":
        return
    kind, at = spec.split("@")
    if os.environ.get("RANK") != os.environ.get("CLIENT_FAULT_RANK", "1") or step != int(at):
        return
    print(f"client fault: {kind} at step {step} on rank {os.environ['RANK']}", flush=True)
    os.kill(os.getpid(), signal.SIGKILL if kind == "crash" else signal.SIGSTOP)
