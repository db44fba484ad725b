"""Staging: copying the state to CPU buffers so that training may go on while it is written.

The copy is the only part of an async save that must not overlap with changes to the state.
Parameters and optimizer states change only inside `optimizer.step()`, so those (the bulk of a
checkpoint) are copied in the writer thread while the next step's data loading, forward and
backward run, and an optimizer step pre-hook makes `step()` wait until that copy is done.
Everything else (buffers such as BatchNorm statistics, which forward changes; per-rank state;
RNG) is copied before `save()` returns. Nothing is copied twice: the buffers are reused between
saves (DCP's DefaultStager caches them), pinned where the state is on a GPU.

On a GPU the copies into pinned memory are non-blocking, and DCP's stager then synchronizes
only the *current* device, which in the writer thread is cuda:0 whatever the rank's device
(`set_device` is per thread). So every copy here runs under its state's own device, which the
writer thread also makes its current one, and is synchronized on that device's stream before
anything reads the buffers: on cuda:k the hash and the write would otherwise read pinned
bytes before the copy landed, and every rank would create a CUDA context on GPU 0
(docs/gpu.md).

The caveat: code that changes parameters in place outside `optimizer.step()` (an EMA written
into the model, manual surgery) between a save and the next `step()` must call
`Checkpointer.wait_for_staging()` first, or use `CheckpointConfig(overlap_staging=False)`.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterable, Iterator
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


def cuda_devices(flat: dict[str, Any]) -> list[torch.device]:
    """The CUDA devices the state's tensors are on (normally one: the rank's cuda:LOCAL_RANK)."""
    found = {local(t).device for t in flat.values() if hasattr(local(t), "device")}
    return sorted((d for d in found if d.type == "cuda"), key=lambda d: d.index or 0)


class Cuda:
    """The three CUDA calls staging makes, a seam so that a CPU test can record the device and
    stream each is made on."""

    def set_device(self, device: torch.device) -> None:
        torch.cuda.set_device(device)

    def device(self, device: torch.device) -> contextlib.AbstractContextManager[Any]:
        return torch.cuda.device(device)

    def synchronize(self, device: torch.device) -> None:
        """Wait for what this thread queued on `device` (its current stream there)."""
        torch.cuda.current_stream(device).synchronize()


class Stager:
    """Copies a flat state dict to CPU, part now and (optionally) part in the writer thread."""

    def __init__(
        self,
        *,
        pin_memory: bool | None,
        clock: Callable[[], float] = time.monotonic,
        cuda: Cuda | None = None,
    ) -> None:
        """`pin_memory` None: pinned exactly when the state has CUDA tensors (a CPU state on a
        GPU host must not create a CUDA context to pin its buffers)."""
        self._pin = pin_memory
        self._cuda = cuda or Cuda()
        self._stagers: dict[bool, tuple[DefaultStager, DefaultStager]] = {}
        self._done = threading.Event()
        self._done.set()
        self._clock = clock
        self._hooked: dict[int, RemovableHandle] = {}
        self.waited_s = 0.0  # how long optimizer steps waited for the copy, this save

    def begin(
        self,
        flat: dict[str, Any],
        optimizers: Iterable[torch.optim.Optimizer],
        *,
        overlap: bool,
        background: bool = True,
    ) -> Callable[[], dict[str, Any]]:
        """Copy what must be copied now; return a function that finishes the copy and gives
        the complete staged dict. With `background`, call it from the writer thread: it makes
        the state's device that thread's current one first. `overlap` needs `background`."""
        assert background or not overlap
        opts = list(optimizers)
        guarded = _guarded_storages(opts) if overlap else set()
        later = {k: v for k, v in flat.items() if _storage_ptr(v) in guarded}
        now = {k: v for k, v in flat.items() if k not in later}
        devices = cuda_devices(flat)
        pin = bool(devices) if self._pin is None else self._pin
        now_stager, later_stager = self._pair(pin)
        staged_now = self._copy(now_stager, now, devices)
        self.waited_s = 0.0
        if later:
            for opt in opts:
                if id(opt) not in self._hooked:
                    self._hooked[id(opt)] = opt.register_step_pre_hook(self._before_step)
            self._done.clear()

        def finish() -> dict[str, Any]:
            try:
                if background and devices:  # the writer thread's device: the state's, not 0
                    self._cuda.set_device(devices[0])
                staged_later = self._copy(later_stager, later, devices)
                return {**staged_now, **staged_later}
            finally:
                if later:
                    self._done.set()

        return finish

    def _pair(self, pin: bool) -> tuple[DefaultStager, DefaultStager]:
        """(training thread's, writer thread's) stagers: DefaultStager is not thread-safe."""
        if pin not in self._stagers:
            opts = StagingOptions(pin, False, False, pin)
            self._stagers[pin] = (DefaultStager(opts), DefaultStager(opts))
        return self._stagers[pin]

    def _copy(
        self, stager: DefaultStager, part: dict[str, Any], devices: list[torch.device]
    ) -> dict[str, Any]:
        """Copy `part` under its own device (pinned buffers and DCP's own synchronize go
        there), then wait on each device's stream until the copies have landed."""
        if not part:
            return {}
        with self._on(devices):
            staged = stager.stage(part)
            assert isinstance(staged, dict)  # synchronous staging returns the copies
            for d in devices:
                self._cuda.synchronize(d)
        return staged

    @contextlib.contextmanager
    def _on(self, devices: list[torch.device]) -> Iterator[None]:
        if not devices:
            yield
            return
        with self._cuda.device(devices[0]):
            yield

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
        for now, later in self._stagers.values():
            now.close()
            later.close()
        self._stagers.clear()


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
