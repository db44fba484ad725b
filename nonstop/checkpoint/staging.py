"""Staging: copying the state to CPU buffers so that training may go on while it is written.

The copy is the only part of an async save that must not overlap with changes to the state.
Parameters and optimizer states change only inside `optimizer.step()`, so those (the bulk of a
checkpoint) are copied in the writer thread while the next step's data loading, forward and
backward run, and an optimizer step pre-hook makes `step()` wait until that copy is done.
Everything else (buffers such as BatchNorm statistics, which forward changes; per-rank state;
RNG) is copied before `save()` returns. Nothing is copied twice: the buffers are reused between
saves (DCP's DefaultStager caches them), pinned where the state is on a GPU, page-aligned where
large and not pinned (the writer sends those bytes to the disk from there: direct.py).

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
import mmap
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import torch
from torch.distributed.checkpoint._state_dict_stager import StateDictStager
from torch.distributed.checkpoint.staging import DefaultStager, StagingOptions
from torch.utils.hooks import RemovableHandle

from nonstop.checkpoint import direct as _direct


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
        self._copies: _Copies | None = None
        self._laid_out = threading.Event()
        self._laid_out.set()
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
        # a CPU state's later part: the writer thread lays out its buffers first (no byte
        # copied), then copies, and a training thread that would otherwise wait takes a share
        share = bool(later) and overlap and not devices
        self._copies = None
        self._laid_out = laid_out = threading.Event()
        if not share:
            laid_out.set()
        if later:
            for opt in opts:
                if id(opt) not in self._hooked:
                    self._hooked[id(opt)] = opt.register_step_pre_hook(self._before_step)
            self._done.clear()

        def finish() -> dict[str, Any]:
            try:
                copies = _deferred(later_stager, later) if share else None
                self._copies = copies
                laid_out.set()
                if copies is not None:
                    staged_later = copies.finish()
                else:
                    if background and devices:  # the writer thread's device: the state's
                        self._cuda.set_device(devices[0])
                    staged_later = self._copy(later_stager, later, devices)
                return {**staged_now, **staged_later}
            finally:
                laid_out.set()
                if later:
                    self._done.set()

        return finish

    def _pair(self, pin: bool) -> tuple[DefaultStager, DefaultStager]:
        """(now, later) stagers, one per part: DefaultStager keeps one cache per instance and is
        not thread-safe (the now part is staged in the training thread, the later part in the
        writer thread; a CPU state's later part is laid out there and copied by `_Copies`)."""
        if pin not in self._stagers:
            opts = StagingOptions(pin, False, False, pin)
            self._stagers[pin] = (_stager(opts), _stager(opts))
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
        """Block until the copy in progress (if any) is complete, taking a share of its
        pieces meanwhile (a CPU state's)."""
        if not self._done.is_set():
            t0 = self._clock()
            self._laid_out.wait()  # the writer thread lists the pieces first (~1 ms per GB)
            copies = self._copies
            if copies is not None:
                copies.work(helping=True)
            self._done.wait()
            self.waited_s += self._clock() - t0

    def _before_step(self, *_: Any) -> None:
        self.wait()

    def close(self) -> None:
        self._laid_out.set()
        self._done.set()
        for handle in self._hooked.values():
            handle.remove()
        self._hooked.clear()
        for now, later in self._stagers.values():
            now.close()
            later.close()
        self._stagers.clear()


def _stager(opts: StagingOptions) -> DefaultStager:
    """DCP's DefaultStager whose storage copies let other threads run (`_Storages`); where this
    torch's stager is built differently, the stock one."""
    stager = DefaultStager(opts)
    inner = getattr(stager, "_state_dict_stager", None)
    if type(inner) is StateDictStager:
        stager._state_dict_stager = _Storages(
            pin_memory=inner.pin_memory,
            share_memory=inner.share_memory,
            pin_memory_min_bytes=inner.pin_memory_min_bytes,
        )
    return stager


class _Storages(StateDictStager):
    """DCP's storage cache, with each storage copied by `Tensor.copy_` over byte views.

    DCP stages a tensor by copying its whole storage with `UntypedStorage.copy_`, which holds
    the GIL for the entire copy (torch 2.13): while the writer thread staged 1 GB (0.1 s) the
    training thread could not run a single Python line, and a step of 70 small matmuls took
    0.14 s instead of 0.026 (docs/checkpoint.md, "Staging and the GIL"). `Tensor.copy_` does the
    same memcpy (or the same non-blocking device copy) with the GIL released. Buffers are
    pinned, shared and cached exactly as DCP does; a plain CPU buffer of
    `direct.STAGED_DIRECT` bytes or more is page-aligned memory of its own (`_aligned`), which
    the writer sends to the disk without copying it again."""

    defer: _Copies | None = None  # set: list the copies there instead of making them

    def _stage_untyped_storage(self, storage: Any, non_blocking: bool = False) -> Any:
        cached = self._cached_storage_mapping.get(storage)
        if cached is None:
            if self.pin_memory or self.share_memory:  # DCP's own allocation (and first copy)
                return super()._stage_untyped_storage(storage, non_blocking)
            cached = _aligned(storage.size()) or type(storage)(storage.size(), device="cpu")
            self._cached_storage_mapping[storage] = cached
        elif cached.size() != storage.size():  # DCP raises its own error for this
            return super()._stage_untyped_storage(storage, non_blocking)
        if self.defer is not None and not non_blocking:
            self.defer.add(cached, storage)
        else:
            _bytes(cached).copy_(_bytes(storage), non_blocking=non_blocking)
        return cached


def _aligned(nbytes: int) -> Any:
    """A CPU storage of `nbytes` in memory of its own, page-aligned and asked for transparent
    huge pages (as the direct writer's buffers, direct._huge_buffer), for a storage the
    writer sends to the disk straight from here (`direct.STAGED_DIRECT`); None for a smaller
    one (torch's allocator: 64-byte aligned, and a large malloc is mmap'd at a page + 16).
    The storage keeps the mapping alive; it is unmapped with the storage."""
    if _direct.STAGED_DIRECT <= 0 or nbytes < _direct.STAGED_DIRECT:
        return None
    flags = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0)
    buf = mmap.mmap(-1, nbytes, flags=flags) if flags else mmap.mmap(-1, nbytes)
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if advice is not None:
        with contextlib.suppress(OSError):
            buf.madvise(advice)
    return torch.frombuffer(buf, dtype=torch.uint8).untyped_storage()


def _deferred(stager: DefaultStager, part: dict[str, Any]) -> _Copies | None:
    """`part` staged by `stager` with the bytes not yet copied: the staged dict's buffers are
    allocated (or reused) and the copies into them listed, for `_Copies.work`. None where the
    stager is not ours (another torch's layout): it then copies as before."""
    inner = getattr(stager, "_state_dict_stager", None)
    if not isinstance(inner, _Storages):
        return None
    copies = _Copies()
    inner.defer = copies
    try:
        staged = stager.stage(part)
    finally:
        inner.defer = None
    assert isinstance(staged, dict)
    copies.staged = staged
    return copies


class _Copies:
    """The byte copies of one save's staging, in pieces of `PIECE` bytes, taken in order by
    whichever thread is free: the writer thread, and the training thread once an optimizer step
    (or `wait_for_staging`) would otherwise wait for them. Staging is a memory copy of the whole
    state, and in the gap between a save and the next optimizer step (forward and backward) it
    is seldom done: the training thread then waits; copying beside the writer thread instead, the
    wait is shorter (docs/checkpoint.md, "Staging and the GIL")."""

    PIECE = 8 << 20

    def __init__(self) -> None:
        self.staged: dict[str, Any] = {}
        self._pieces: list[tuple[torch.Tensor, torch.Tensor]] = []
        self._lock = threading.Lock()
        self._next = 0  # the next piece to take
        self._copied = 0  # pieces copied (or failed), by any thread
        self._all_done = threading.Event()
        self._error: BaseException | None = None
        self.helped = 0  # pieces the training thread copied

    def add(self, dst: Any, src: Any) -> None:
        d, s = _bytes(dst), _bytes(src)
        for a in range(0, max(int(d.numel()), 1), self.PIECE):
            self._pieces.append((d[a : a + self.PIECE], s[a : a + self.PIECE]))

    def work(self, *, helping: bool = False) -> None:
        """Copy pieces until none is left to take (others may still be copying theirs)."""
        while True:
            with self._lock:
                i = self._next
                if i >= len(self._pieces):
                    return
                self._next += 1
            dst, src = self._pieces[i]
            try:
                dst.copy_(src)
            except BaseException as e:  # kept for the writer thread to raise
                self._error = self._error or e
            with self._lock:
                self.helped += helping
                self._copied += 1
                if self._copied == len(self._pieces):
                    self._all_done.set()

    def finish(self) -> dict[str, Any]:
        """In the writer thread: copy until done, wait for the pieces others took, return the
        staged dict (or raise what a copy raised)."""
        if not self._pieces:
            self._all_done.set()
        self.work()
        self._all_done.wait()
        if self._error is not None:
            raise self._error
        return self.staged


def _bytes(storage: Any) -> torch.Tensor:
    """A uint8 tensor over the whole of `storage` (no copy)."""
    return torch.empty(0, dtype=torch.uint8, device=storage.device).set_(storage)


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
