"""A fake NVML with pynvml's API surface, for the telemetry sampler's tests.

Values are plain attributes; `unsupported` names functions that raise NOT_SUPPORTED (as ECC does
on consumer GPUs), `broken` names functions that raise another NVML error, and `xids` queues Xid
events for nvmlEventSetWait, which otherwise times out the way the real one does.
"""

from __future__ import annotations

from collections import deque
from types import SimpleNamespace
from typing import Any


class NVMLError(Exception):
    def __init__(self, value: int) -> None:
        super().__init__(f"NVML error {value}")
        self.value = value


class FakeNvml:
    NVMLError = NVMLError
    NVML_ERROR_NOT_SUPPORTED = 3
    NVML_ERROR_TIMEOUT = 10
    NVML_ERROR_UNKNOWN = 999
    NVML_ERROR_FUNCTION_NOT_FOUND = 13
    NVML_TEMPERATURE_GPU = 0
    NVML_CLOCK_SM = 1
    NVML_CLOCK_MEM = 2
    NVML_MEMORY_ERROR_TYPE_CORRECTED = 0
    NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1
    NVML_VOLATILE_ECC = 0
    nvmlEventTypeXidCriticalError = 8

    def __init__(self, count: int = 2) -> None:
        self.count = count
        self.power_mw = 612_000
        self.energy_mj = 9_000_000
        self.temp_c = 71
        self.clocks = {self.NVML_CLOCK_SM: 1980, self.NVML_CLOCK_MEM: 2619}
        self.throttle = 0x4  # SW power cap
        self.ecc = {
            self.NVML_MEMORY_ERROR_TYPE_CORRECTED: 3,
            self.NVML_MEMORY_ERROR_TYPE_UNCORRECTED: 0,
        }
        self.remapped = (2, 0, 0, 0)
        self.unsupported: set[str] = set()
        self.broken: set[str] = set()
        self.xids: deque[int] = deque()
        self.calls: list[str] = []
        self.registered: list[tuple[Any, int]] = []
        self.freed = 0

    def _call(self, name: str) -> None:
        self.calls.append(name)
        if name in self.unsupported:
            raise NVMLError(self.NVML_ERROR_NOT_SUPPORTED)
        if name in self.broken:
            raise NVMLError(self.NVML_ERROR_UNKNOWN)

    def nvmlDeviceGetCount(self) -> int:
        return self.count

    def nvmlDeviceGetHandleByIndex(self, i: int) -> Any:
        self._call("handle")
        if not 0 <= i < self.count:
            raise NVMLError(2)
        return SimpleNamespace(index=i)

    def nvmlDeviceGetPowerUsage(self, h: Any) -> int:
        self._call("power")
        return self.power_mw

    def nvmlDeviceGetTotalEnergyConsumption(self, h: Any) -> int:
        self._call("energy")
        return self.energy_mj

    def nvmlDeviceGetTemperature(self, h: Any, sensor: int) -> int:
        self._call("temp")
        assert sensor == self.NVML_TEMPERATURE_GPU
        return self.temp_c

    def nvmlDeviceGetClockInfo(self, h: Any, clock: int) -> int:
        self._call("clock")
        return self.clocks[clock]

    def nvmlDeviceGetCurrentClocksEventReasons(self, h: Any) -> int:
        self._call("throttle")
        return self.throttle

    def nvmlDeviceGetUtilizationRates(self, h: Any) -> Any:
        self._call("util")
        return SimpleNamespace(gpu=97, memory=41)

    def nvmlDeviceGetMemoryInfo(self, h: Any) -> Any:
        self._call("memory")
        return SimpleNamespace(used=60 * 2**30, total=80 * 2**30, free=20 * 2**30)

    def nvmlDeviceGetTotalEccErrors(self, h: Any, kind: int, counter: int) -> int:
        self._call("ecc")
        return self.ecc[kind]

    def nvmlDeviceGetRemappedRows(self, h: Any) -> tuple[int, int, int, int]:
        self._call("remapped")
        return self.remapped

    def nvmlEventSetCreate(self) -> Any:
        self._call("event_set")
        return SimpleNamespace(kind="event-set")

    def nvmlDeviceRegisterEvents(self, h: Any, types: int, event_set: Any) -> None:
        self._call("register")
        self.registered.append((h, types))

    def nvmlEventSetWait(self, event_set: Any, timeout_ms: int) -> Any:
        self._call("wait")
        if not self.xids:
            raise NVMLError(self.NVML_ERROR_TIMEOUT)
        return SimpleNamespace(
            eventType=self.nvmlEventTypeXidCriticalError, eventData=self.xids.popleft(), device=None
        )

    def nvmlEventSetFree(self, event_set: Any) -> None:
        self.freed += 1
