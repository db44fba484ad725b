"""Staging on a rank whose GPU is not cuda:0 (nonstop.checkpoint.staging): every copy runs under
the state's own device and is synchronized on it before the buffers are read, and the writer
thread makes that device its current one. This machine has no GPU: the tensors are CPU tensors
that say they are on cuda:1 and the three CUDA calls go to a recorder (docs/gpu.md)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import torch

from nonstop.checkpoint.staging import Cuda, Stager, cuda_devices

CUDA1 = torch.device("cuda", 1)


class OnGpu(torch.Tensor):
    """A CPU tensor that says it is on cuda:1 (its storage is the CPU tensor's)."""

    __torch_function__ = torch._C._disabled_torch_function_impl

    @property
    def device(self) -> torch.device:  # type: ignore[override]
        return CUDA1


def on_gpu(t: torch.Tensor) -> torch.Tensor:
    return torch.Tensor._make_subclass(OnGpu, t)


class Recorder(Cuda):
    """Records (thread, call, device, the device guard in force) for each CUDA call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, torch.device, torch.device | None]] = []
        self._guard = threading.local()

    def _note(self, call: str, device: torch.device) -> None:
        where = getattr(self._guard, "device", None)
        self.calls.append((threading.current_thread().name, call, device, where))

    def set_device(self, device: torch.device) -> None:
        self._note("set_device", device)

    @contextlib.contextmanager
    def device(self, device: torch.device) -> Iterator[None]:
        self._note("guard", device)
        self._guard.device = device
        try:
            yield
        finally:
            self._guard.device = None

    def synchronize(self, device: torch.device) -> None:
        self._note("synchronize", device)


def test_the_devices_of_a_state_are_its_cuda_tensors_only() -> None:
    flat: dict[str, Any] = {"w": on_gpu(torch.zeros(2)), "rng": torch.zeros(2), "step": 3}
    assert cuda_devices(flat) == [CUDA1]
    assert cuda_devices({"rng": torch.zeros(2)}) == []


def test_copies_on_cuda_1_are_synchronized_there_and_the_writer_thread_sets_its_device() -> None:
    """Local rank 1: the old code synchronized the current device (cuda:0 in the writer thread)
    and never set it; here each part's copy is under cuda:1 and waited for on cuda:1."""
    weight, buf = torch.arange(4.0), torch.ones(3)
    param = torch.nn.Parameter(weight)
    opt = torch.optim.SGD([param], lr=0.1)
    flat = {"model/w": on_gpu(weight), "model/buf": on_gpu(buf)}  # w: after optimizer.step
    cuda = Recorder()
    stager = Stager(pin_memory=False, cuda=cuda)
    finish = stager.begin(flat, [opt], overlap=True)
    main = threading.current_thread().name
    assert cuda.calls == [(main, "guard", CUDA1, None), (main, "synchronize", CUDA1, CUDA1)]
    box: list[dict[str, Any]] = []
    writer = threading.Thread(target=lambda: box.append(finish()), name="nonstop-ckpt_0")
    writer.start()
    writer.join(30)
    stager.close()
    assert cuda.calls[2:] == [
        ("nonstop-ckpt_0", "set_device", CUDA1, None),
        ("nonstop-ckpt_0", "guard", CUDA1, None),
        ("nonstop-ckpt_0", "synchronize", CUDA1, CUDA1),
    ]
    (staged,) = box
    assert torch.equal(staged["model/w"], weight) and torch.equal(staged["model/buf"], buf)


def test_a_synchronous_save_never_moves_the_training_threads_device() -> None:
    cuda = Recorder()
    stager = Stager(pin_memory=False, cuda=cuda)
    finish = stager.begin({"w": on_gpu(torch.zeros(2))}, [], overlap=False, background=False)
    finish()
    stager.close()
    assert [c[1] for c in cuda.calls] == ["guard", "synchronize"]


def test_a_cpu_state_makes_no_cuda_call() -> None:
    cuda = Recorder()
    stager = Stager(pin_memory=None, cuda=cuda)  # None: pinned only for a GPU state
    staged = stager.begin({"w": torch.zeros(2)}, [], overlap=False)()
    stager.close()
    assert cuda.calls == [] and not staged["w"].is_pinned()


def test_storages_are_copied_by_tensor_copies_that_release_the_gil(monkeypatch: Any) -> None:
    """DCP's own staging copies a whole storage with `UntypedStorage.copy_`, which holds the
    GIL throughout; ours never calls it (made to raise here), and the copies are exact: views
    that share a storage stay views of one staged storage, reused on the next save."""

    def refuse(*_: Any, **__: Any) -> None:
        raise AssertionError("UntypedStorage.copy_ holds the GIL for the whole copy")

    monkeypatch.setattr(torch.UntypedStorage, "copy_", refuse)
    base = torch.arange(64, dtype=torch.float32)
    flat = {"whole": base, "view": base[8:24].view(4, 4), "ints": torch.arange(5)}
    stager = Stager(pin_memory=False)
    first = stager.begin(flat, [], overlap=False)()
    for k in ("whole", "view", "ints"):
        assert torch.equal(first[k], flat[k]) and first[k].data_ptr() != flat[k].data_ptr(), k
    assert first["view"].untyped_storage().data_ptr() == first["whole"].untyped_storage().data_ptr()
    base.add_(1)  # the next save copies the new values into the same staged buffers
    second = stager.begin(flat, [], overlap=False)()
    stager.close()
    assert torch.equal(second["whole"], base) and torch.equal(second["view"], base[8:24].view(4, 4))
    assert second["whole"].data_ptr() == first["whole"].data_ptr()


def test_a_cpu_states_copies_are_shared_with_a_training_thread_that_would_wait(
    monkeypatch: Any,
) -> None:
    """The writer thread lays out the later part's buffers, then copies it in pieces of `PIECE`
    bytes that go to whoever takes them first; here the writer thread holds back until the
    training thread's `wait` (what an optimizer step right after a save calls) has taken them
    all. The staged copies are exact, views kept."""
    from nonstop.checkpoint import staging

    monkeypatch.setattr(staging._Copies, "PIECE", 48)  # bytes: 64 floats -> 6 pieces
    held_back = staging._Copies.finish

    def finish_once_all_taken(self: Any) -> dict[str, Any]:
        deadline = time.monotonic() + 30
        while self._next < len(self._pieces) and time.monotonic() < deadline:
            time.sleep(0.001)
        return held_back(self)

    monkeypatch.setattr(staging._Copies, "finish", finish_once_all_taken)
    w = torch.nn.Parameter(torch.arange(64, dtype=torch.float32))
    opt = torch.optim.SGD([w], lr=1.0)
    flat = {"w": w.data, "part": w.data[8:24], "other": torch.ones(3)}  # `other`: copied now
    stager = Stager(pin_memory=False)
    finish = stager.begin(flat, [opt], overlap=True)
    out: dict[str, Any] = {}
    writer = threading.Thread(target=lambda: out.update(finish()))
    writer.start()
    stager.wait()  # the training thread: takes every piece, then waits for the writer thread
    writer.join(30)
    copies = stager._copies
    stager.close()
    assert copies is not None and len(copies._pieces) == 6 and copies.helped == 6
    assert out["w"].data_ptr() != w.data_ptr() and torch.equal(out["w"], w.data)
    assert torch.equal(out["part"], w.data[8:24])
    assert out["part"].untyped_storage().data_ptr() == out["w"].untyped_storage().data_ptr()
    assert torch.equal(out["other"], torch.ones(3))


def test_a_copy_that_fails_is_raised_by_the_writer_thread_not_lost() -> None:
    from nonstop.checkpoint.staging import _Copies

    copies = _Copies()
    copies._pieces = [(torch.empty(2), torch.empty(3))]  # sizes differ: copy_ raises
    copies.work(helping=True)  # the training thread's share: never raises into its step
    with pytest.raises(RuntimeError):
        copies.finish()
