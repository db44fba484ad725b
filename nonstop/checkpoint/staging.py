"""Staging: copying the state to CPU buffers so that training may go on while it is written.

The copy is the only part of an async save that must not overlap with changes to the state.
Parameters and optimizer states change only inside `optimizer.step()`, so those (the bulk of a
checkpoint) are copied in the writer thread while the next step's data loading, forward and
backward run, and an optimizer step pre-hook makes `step()` wait until that copy is done.
Everything else (buffers such as BatchNorm statistics, which forward changes; per-rank state;
RNG) is copied before `save()` returns. Nothing is copied twice: the buffers are reused between
saves (DCP's DefaultStager caches them), pinned where CUDA is available.

The caveat: code that changes parameters in place outside `optimizer.step()` (an EMA written
into the model, manual surgery) between a save and the next `step()` must call
`Checkpointer.wait_for_staging()` first, or use `CheckpointConfig(overlap_staging=False)`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import torch
from torch.distributed.checkpoint.staging import DefaultStager, StagingOptions
from torch.utils.hooks import RemovableHandle


def local(t: Any) -> torch.Tensor:
    """The tensor itself, or a DTensor's local shard."""
    return t.to_local() if hasattr(t, "to_local") else t


def _storage_ptr(t: Any) -> int:
    return int(local(t).untyped_storage().data_ptr())


def nbytes(flat: dict[str, Any]) -> int:
    return sum(int(local(t).nbytes) for t in flat.values())


class Stager:
    """Copies a flat state dict to CPU, part now and (optionally) part in the writer thread."""

    def __init__(self, *, pin_memory: bool, clock: Callable[[], float] = time.monotonic) -> None:
        opts = StagingOptions(pin_memory, False, False, pin_memory)
        self._now = DefaultStager(opts)  # training thread
        self._later = DefaultStager(opts)  # writer thread (DefaultStager is not thread-safe)
        self._done = threading.Event()
        self._done.set()
        self._clock = clock
        self._hooked: dict[int, RemovableHandle] = {}
        self.waited_s = 0.0  # how long optimizer steps waited for the copy, this save

    def begin(
        self, flat: dict[str, Any], optimizers: Iterable[torch.optim.Optimizer], *, overlap: bool
    ) -> Callable[[], dict[str, Any]]:
        """Copy what must be copied now; return a function that finishes the copy (call it
        from the writer thread) and gives the complete staged dict."""
        opts = list(optimizers)
        guarded = _guarded_storages(opts) if overlap else set()
        later = {k: v for k, v in flat.items() if _storage_ptr(v) in guarded}
        now = {k: v for k, v in flat.items() if k not in later}
        staged_now = self._now.stage(now)
        assert isinstance(staged_now, dict)  # synchronous staging returns the copies
        self.waited_s = 0.0
        if not later:
            return lambda: staged_now
        for opt in opts:
            if id(opt) not in self._hooked:
                self._hooked[id(opt)] = opt.register_step_pre_hook(self._before_step)
        self._done.clear()

        def finish() -> dict[str, Any]:
            try:
                staged_later = self._later.stage(later)
                assert isinstance(staged_later, dict)
                return {**staged_now, **staged_later}
            finally:
                self._done.set()

        return finish

    def wait(self) -> None:
        """Block until the copy in progress (if any) is complete."""
        if not self._done.is_set():
            t0 = self._clock()
            self._done.wait()
            self.waited_s += self._clock() - t0

    def _before_step(self, *_: Any) -> None:
        self.wait()

    def close(self) -> None:
        self._done.set()
        for handle in self._hooked.values():
            handle.remove()
        self._hooked.clear()
        self._now.close()
        self._later.close()


def _guarded_storages(optimizers: Iterable[torch.optim.Optimizer]) -> set[int]:
    """Storages that only `optimizer.step()` changes: the parameters and their states."""
    out: set[int] = set()
    for opt in optimizers:
        for group in opt.param_groups:
            for p in group["params"]:
                out.add(_storage_ptr(p))
                for v in opt.state.get(p, {}).values():
                    if isinstance(v, torch.Tensor):
                        out.add(_storage_ptr(v))
    out.discard(0)
    return out
