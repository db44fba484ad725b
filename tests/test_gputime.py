"""CUDA-event compute timing (nonstop.runtime.gputime): a fake CUDA here (this machine has no
GPU), the real one where a GPU exists; phase_timing=off keeps straggler input."""

from __future__ import annotations

import sys
import types

import pytest

from nonstop.runtime import Runtime
from nonstop.runtime.gputime import GpuTimer


class FakeEvent:
    """A CUDA event on a fake GPU clock: done once the fake GPU has passed its time."""

    def __init__(self, gpu: FakeGpu, enable_timing: bool = False) -> None:
        self.gpu, self.t = gpu, None

    def record(self, stream: str | None = None) -> None:
        self.gpu.streams.append(stream)  # None: the current device's, whatever it is
        self.gpu.queued += self.gpu.kernel_ms  # the GPU runs behind the host
        self.t = self.gpu.queued

    def query(self) -> bool:
        return self.t is not None and self.t <= self.gpu.now

    def elapsed_time(self, end: FakeEvent) -> float:
        return float(end.t - self.t)


class FakeGpu:
    def __init__(self, kernel_ms: float) -> None:
        self.kernel_ms, self.queued, self.now = kernel_ms, 0.0, 0.0
        self.streams: list[str | None] = []

    def module(self) -> types.SimpleNamespace:
        return types.SimpleNamespace(
            Event=lambda enable_timing=False: FakeEvent(self, enable_timing),
            is_available=lambda: True,
            is_initialized=lambda: True,
            device_count=lambda: 8,
            current_device=lambda: 0,  # no set_device: torch's current device is cuda:0
            current_stream=lambda device: f"stream of {device}",
        )


def test_events_are_recorded_on_the_stream_of_local_rank_s_gpu(monkeypatch):
    """Local rank 3 of 8 with its model on cuda:3 and no set_device: the events go on cuda:3's
    stream (a bare record() used the current device's: cuda:0, another rank's GPU)."""
    gpu = FakeGpu(kernel_ms=10.0)
    torch = types.SimpleNamespace(cuda=gpu.module(), device=lambda spec: spec)
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setenv("LOCAL_RANK", "3")
    timer = GpuTimer.for_process()
    assert timer is not None and timer.device == "cuda:3"
    timer.stop(timer.start(), 0)
    assert gpu.streams == ["stream of cuda:3"] * 2


def test_pairs_resolve_only_once_the_gpu_has_passed_them():
    gpu = FakeGpu(kernel_ms=40.0)
    timer = GpuTimer(gpu.module(), "cuda:0")
    for step in range(3):
        timer.stop(timer.start(), step)
    assert timer.resolved() == []  # nothing finished yet: never block the host
    gpu.now = 160.0  # the GPU got through steps 0 and 1
    assert timer.resolved() == [(0, 0.04), (1, 0.04)]
    gpu.now = 1e9
    assert timer.resolved() == [(2, 0.04)]


def test_no_timer_without_cuda_in_use(monkeypatch):
    fake = types.SimpleNamespace(
        cuda=types.SimpleNamespace(is_available=lambda: True, is_initialized=lambda: False)
    )
    monkeypatch.setitem(sys.modules, "torch", fake)
    assert GpuTimer.for_process() is None


def _runtime(tmp_path) -> Runtime:
    return Runtime(run_dir=tmp_path, run_id="r", attempt=0, rank=0, world_size=1, host="h")


def test_step_events_carry_gpu_compute_time_and_phase_timing_off_keeps_compute(tmp_path):
    from nonstop.events import read_events

    gpu = FakeGpu(kernel_ms=25.0)
    rt = _runtime(tmp_path)
    rt._gpu_timer = GpuTimer(gpu.module(), "cuda:0")
    for step in range(4):
        if step == 2:
            rt.phase_timing = False  # `nonstop ctl RUN set phase_timing=off`
        with rt.step(step) as st:
            with st.phase("data"):
                pass
            with st.phase("compute"):
                gpu.now = gpu.queued - 25.0  # the previous step's kernels are done
    rt.close()
    steps = [e.payload for e in read_events(rt.writer.path)[0] if e.kind == "step"]
    assert all("compute_s" in p for p in steps), steps  # straggler input, even when off
    assert "data_s" in steps[0] and "data_s" not in steps[3]
    assert [p.get("compute_gpu_step") for p in steps] == [None, 0, 1, 2], steps
    assert steps[3]["compute_gpu_s"] == pytest.approx(0.025)


@pytest.mark.gpu
def test_a_real_gpu_times_its_kernels():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("needs CUDA: no GPU on this machine")
    x = torch.randn(4096, 4096, device="cuda")
    timer = GpuTimer.for_process()
    assert timer is not None
    h = timer.start()
    for _ in range(10):
        x = x @ x
        x = x / x.norm()
    timer.stop(h, 0)
    torch.cuda.synchronize()
    ((step, seconds),) = timer.resolved()
    assert step == 0 and seconds > 0
