"""GPU time of the compute phase, with CUDA events, for straggler detection on GPUs.

A host timer around forward and backward measures kernel *launches*: on a GPU the host runs
ahead and later waits in the gradient all-reduce, so every rank's host-side compute time looks
alike and a slow GPU hides in the collective wait. CUDA events recorded on the stream around
the phase measure the kernels themselves. They are read without synchronizing: an event pair is
resolved at a later step once `query()` says the GPU has passed it, so the step event of step N
carries `compute_gpu_s` of an earlier step (named by `compute_gpu_step`).

The events are recorded on the current stream of the rank's own device (its LOCAL_RANK, see
nonstop.device), named explicitly: a bare `record()` uses the current device's stream,
which is cuda:0's in a script that places its model on cuda:LOCAL_RANK without `set_device`,
and would time nothing of this rank's (and make a context on GPU 0).

Where CUDA is not initialised (CPU training, gloo) this does nothing and costs one dict lookup.
This module imports no torch: it uses the one the training script already imported.

    timer = GpuTimer.for_process()            # None without CUDA in use
    handle = timer.start(); ...; timer.stop(handle, step)
    timer.resolved()  # [(step, seconds), ...] of pairs the GPU has passed
"""

from __future__ import annotations

import sys
from collections import deque
from typing import Any

from nonstop import log

MAX_PENDING = 64
"""Event pairs kept unresolved at most (older ones are dropped rather than waited for)."""


class GpuTimer:
    """Start/stop CUDA event pairs on `device`'s current stream; resolve them lazily."""

    def __init__(self, cuda: Any, device: Any) -> None:
        self.cuda = cuda
        self.device = device
        self._pending: deque[tuple[int, Any, Any]] = deque()

    @classmethod
    def for_process(cls) -> GpuTimer | None:
        """A timer when this process uses CUDA (torch imported, CUDA initialised), else None."""
        torch = sys.modules.get("torch")
        cuda = getattr(torch, "cuda", None) if torch is not None else None
        try:
            if cuda is None or not cuda.is_available() or not cuda.is_initialized():
                return None
            from nonstop.device import gpu_device

            device = gpu_device(torch)
        except Exception as e:  # a broken driver must not cost the training step
            log.get("runtime").warning(
                "CUDA state unreadable (%r): no GPU timing (straggler scores use host time)", e
            )
            return None
        return cls(cuda, device)

    def _record(self) -> Any:
        ev = self.cuda.Event(enable_timing=True)
        ev.record(self.cuda.current_stream(self.device))
        return ev

    def start(self) -> Any:
        return self._record()

    def stop(self, start: Any, step: int) -> None:
        end = self._record()
        self._pending.append((step, start, end))
        while len(self._pending) > MAX_PENDING:
            self._pending.popleft()

    def resolved(self) -> list[tuple[int, float]]:
        """(step, GPU seconds) of every pair whose end the GPU has reached, oldest first."""
        out = []
        while self._pending and self._pending[0][2].query():
            step, start, end = self._pending.popleft()
            out.append((step, float(start.elapsed_time(end)) / 1000.0))  # ms -> s
        return out
