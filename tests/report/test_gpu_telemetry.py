"""The telemetry sampler on a real GPU through real NVML (skipped without one).

pytest tests/report/test_gpu_telemetry.py -m gpu -v
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from nonstop.runtime.telemetry import TelemetrySampler, load_nvml

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def nvml() -> Any:
    lib = load_nvml()
    if lib is None:
        pytest.skip("no NVIDIA GPU or driver: NVML could not be initialised")
    yield lib
    lib.nvmlShutdown()


class Recorder:
    enabled = True

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def emit(self, kind: str, /, **payload: Any) -> None:
        assert kind == "telemetry"
        self.events.append(payload)


def test_real_gpu_sample(nvml: Any) -> None:
    rt = Recorder()
    s = TelemetrySampler(rt, 5.0, nvml, device=0, host=True)
    s._setup_nvml()
    s.sample_once()
    assert s.errors == 0, "a supported NVML query raised"
    [gpu] = [e["metrics"] for e in rt.events if e["source"] == "nvml"]
    assert 5 < gpu["power_w"] < 2000
    assert 5 < gpu["temp_c"] < 120
    assert gpu["sm_clock_mhz"] > 0 and gpu["mem_clock_mhz"] > 0
    assert gpu["mem_used_bytes"] >= 0 and "throttle_reasons" in gpu
    # data-centre GPUs report ECC and remapped rows; consumer ones may not
    print("nvml metrics:", sorted(gpu), "xid events:", s._events is not None)
    assert [e for e in rt.events if e["source"] == "cpu"]


def test_real_gpu_thread_waits_on_xid_events_and_stops(nvml: Any) -> None:
    rt = Recorder()
    s = TelemetrySampler(rt, 0.2, nvml, device=0, host=False)
    s.start()
    deadline = time.monotonic() + 20
    while len(rt.events) < 3:
        assert time.monotonic() < deadline, "no samples from the thread"
        time.sleep(0.05)
    s.stop()
    assert not s.is_alive() and s.errors == 0
