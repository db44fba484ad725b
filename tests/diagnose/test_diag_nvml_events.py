"""NVML's event set in the telemetry thread (Xid, single/double-bit ECC, clock-throttle reasons),
recorded as events and used by classification. NVML is faked (no GPU here); the same sampler
runs on a real device in tests/report/test_gpu_telemetry.py."""

from __future__ import annotations

import time
from collections import deque
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from support.fake_nvml import FakeNvml, NVMLError
from support.fakes import Recorder

from nonstop.events import EventWriter
from nonstop.runtime.telemetry import TelemetrySampler
from nonstop.supervisor.policy import FailureInfo, classify


class EventNvml(FakeNvml):
    """FakeNvml with pynvml's whole event set and a queue of (event type, data) events."""

    nvmlEventTypeSingleBitEccError = 0x1
    nvmlEventTypeDoubleBitEccError = 0x2
    nvmlEventTypeXidCriticalError = 0x8
    nvmlEventTypeClock = 0x10

    def __init__(self, supported: int = 0x1F) -> None:
        super().__init__()
        self.supported = supported
        self.queued: deque[tuple[int, int]] = deque()

    def nvmlDeviceGetSupportedEventTypes(self, h: Any) -> int:
        return self.supported

    def nvmlDeviceGetPciInfo(self, h: Any) -> Any:
        return SimpleNamespace(busId=b"00000000:3B:00.0")

    def nvmlDeviceRegisterEvents(self, h: Any, types: int, event_set: Any) -> None:
        if types & ~self.supported:
            raise NVMLError(self.NVML_ERROR_NOT_SUPPORTED)
        super().nvmlDeviceRegisterEvents(h, types, event_set)

    def nvmlEventSetWait(self, event_set: Any, timeout_ms: int) -> Any:
        self._call("wait")
        if not self.queued:
            raise NVMLError(self.NVML_ERROR_TIMEOUT)
        kind, data = self.queued.popleft()
        return SimpleNamespace(eventType=kind, eventData=data, device=None)


def _run(nvml: EventNvml, n: int) -> Recorder:
    rt = Recorder()
    s = TelemetrySampler(rt, 0.05, nvml, device=0, host=False)
    s.start()
    deadline = time.monotonic() + 10
    while len(rt.nvml_events()) < n and time.monotonic() < deadline:
        time.sleep(0.01)
    s.stop()
    return rt


def test_xid_ecc_and_thermal_throttle_are_recorded_with_pid_and_bus_id() -> None:
    nvml = EventNvml()
    nvml.throttle = 0x40  # HW thermal slowdown: the clock event is worth recording
    nvml.queued.extend([(0x8, 79), (0x2, 1), (0x1, 3), (0x10, 0)])
    rt = _run(nvml, 4)
    got = rt.nvml_events()
    assert [p["event"] for p in got] == ["xid", "ecc_dbe", "ecc_sbe", "clock_throttle"]
    assert got[0]["metrics"] == {"gpu": 0.0, "xid": 79.0}
    assert got[3]["metrics"]["reasons"] == float(0x40)
    assert all(p["pci"] == "00000000:3B:00.0" and p["pid"] > 0 for p in got)
    assert nvml.registered[0][1] == 0x1 | 0x2 | 0x8 | 0x10  # the whole set in one registration


def test_a_boost_clock_change_is_not_an_event_and_unsupported_types_are_left_out() -> None:
    nvml = EventNvml(supported=0x8 | 0x10)  # no ECC events on this board
    nvml.throttle = 0x4  # SW power cap only: ordinary
    nvml.queued.extend([(0x10, 0), (0x8, 48)])
    rt = _run(nvml, 1)
    assert [p["event"] for p in rt.nvml_events()] == ["xid"]
    assert nvml.registered[0][1] == 0x8 | 0x10


def test_a_driver_without_the_set_falls_back_to_xid_only() -> None:
    nvml = EventNvml()
    del_types = EventNvml.nvmlDeviceGetSupportedEventTypes
    try:
        del EventNvml.nvmlDeviceGetSupportedEventTypes  # an old pynvml
        nvml.supported = 0x8  # and an old driver: registering more is refused
        nvml.queued.append((0x8, 62))
        rt = _run(nvml, 1)
    finally:
        EventNvml.nvmlDeviceGetSupportedEventTypes = del_types  # type: ignore[method-assign]
    assert [p["metrics"]["xid"] for p in rt.nvml_events()] == [62.0]
    assert [t for _, t in nvml.registered] == [0x8]


def test_classification_uses_the_ranks_nvml_events(tmp_path: Path) -> None:
    """A rank that died with only a generic error in its log, whose telemetry recorded a
    double-bit ECC event on its GPU: GPU memory, exclude_node (the log alone says unknown)."""
    run = tmp_path / "run"
    log = run / "logs" / "attempt-0" / "rank-1.log"
    log.parent.mkdir(parents=True)
    log.write_text("step 41 loss 2.31\nRuntimeError: CUDA error: unknown error\n")
    bare = classify(FailureInfo(rank=1, host="h", exit_code=1, log_path=log))
    assert bare.category != "gpu_hbm3_memory"
    w = EventWriter(
        run / "events" / "attempt-0" / "rank-1.jsonl",
        run_id="r",
        attempt=0,
        rank=1,
        host="h",
        install_sigterm=False,
    )
    w.emit(
        "telemetry",
        source="nvml",
        event="ecc_dbe",
        metrics={"gpu": 1.0, "count": 1.0},
        pid=4242,
        pci="00000000:3B:00.0",
    )
    w.close()
    d = classify(FailureInfo(rank=1, host="h", exit_code=1, log_path=log))
    assert (d.category, d.action) == ("gpu_hbm3_memory", "exclude_node"), d
    assert any("NVML event ecc_dbe" in e for e in d.evidence)
