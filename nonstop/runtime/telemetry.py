"""Device and host telemetry from a background thread: `telemetry` events, never blocking training.

Where NVML works (a GPU and its driver), each rank samples its own GPU: power, energy,
temperature, SM and memory clocks, utilisation, memory used, clock-throttle reasons (a bitmask),
volatile ECC error counts, remapped rows, and NVML's event set (Xid critical errors, single-
and double-bit ECC errors, clock changes with a slowdown reason) waited on with a short
timeout between samples and recorded as `telemetry` events with `event` = xid, ecc_sbe,
ecc_dbe or clock_throttle, the rank's pid and the GPU's PCI bus id. Without NVML, local rank 0 samples the host with psutil
(CPU use, memory, load, the hottest readable temperature sensor), so CPU runs still produce a
telemetry stream. With NVML, local rank 0 adds the host sample too.

A metric the device does not support is skipped from then on; any other failure is logged once
and the thread goes on sampling. `rt.emit` only queues, so nothing here can slow a step.

    from nonstop.runtime.telemetry import maybe_start_telemetry
    sampler = maybe_start_telemetry(rt)     # NONSTOP_TELEMETRY_S=5 (seconds; 0 disables)
    ...
    if sampler: sampler.stop()

This module imports no torch.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import threading
import time
from typing import Any

from nonstop import envvars
from nonstop.log import swallowed

log = logging.getLogger(__name__)

ENV_INTERVAL = envvars.TELEMETRY_S
DEFAULT_INTERVAL_S = 5.0
XID_WAIT_MS = 200  # one nvmlEventSetWait call; the loop re-checks stop() between calls
# NVML's event set: attribute of the NVML module -> the `event` nonstop records
# (pynvml: nvmlEventTypeSingleBitEccError 0x1, DoubleBitEccError 0x2, XidCriticalError 0x8,
# Clock 0x10). Classification reads them (nonstop.diagnose.triage.nvml_hits).
EVENT_TYPES: tuple[tuple[str, str], ...] = (
    ("nvmlEventTypeXidCriticalError", "xid"),
    ("nvmlEventTypeSingleBitEccError", "ecc_sbe"),
    ("nvmlEventTypeDoubleBitEccError", "ecc_dbe"),
    ("nvmlEventTypeClock", "clock_throttle"),
)
# clock-event reasons that mean a slowdown, not a normal boost change: HW slowdown 0x8,
# SW thermal 0x20, HW thermal 0x40, HW power brake 0x80
SLOWDOWN_REASONS = 0x8 | 0x20 | 0x40 | 0x80


class TelemetrySampler(threading.Thread):
    """Samples every `interval_s` seconds and emits `telemetry` events through `rt`.

    nvml: an initialised NVML module (pynvml or a fake with its API) to sample GPU `device`;
    None samples only the host. host: also emit a `cpu` sample of the host each interval.
    """

    def __init__(
        self,
        rt: Any,
        interval_s: float = DEFAULT_INTERVAL_S,
        nvml: Any = None,
        *,
        device: int = 0,
        host: bool | None = None,
    ) -> None:
        if not interval_s > 0:
            raise ValueError(f"interval_s must be positive, got {interval_s!r}")
        super().__init__(name="nonstop-telemetry", daemon=True)
        self.rt, self.interval_s, self.nvml, self.device = rt, interval_s, nvml, device
        self.host = nvml is None if host is None else host
        self.samples = 0
        self.errors = 0
        self._stop_event = threading.Event()
        self._unsupported: set[str] = set()
        self._logged = False
        self._handle: Any = None
        self._events: Any = None
        self._registered = 0
        self._pci: str | None = None
        self._last_reasons = 0
        self._psutil: Any = None
        if self.host:
            import psutil

            self._psutil = psutil
            psutil.cpu_percent(interval=None)  # the first call only primes the counter

    # -- thread ----------------------------------------------------------------------------

    def run(self) -> None:
        if self.nvml is not None:
            self._guard("nvml setup", self._setup_nvml)
        while not self._stop_event.is_set():
            deadline = time.monotonic() + self.interval_s
            self.sample_once()
            self._wait_until(deadline)
        if self._events is not None:
            with swallowed(log, "freeing the NVML event set", expected=self.nvml.NVMLError):
                self.nvml.nvmlEventSetFree(self._events)

    def stop(self, timeout_s: float = 5.0) -> None:
        """Stop sampling and wait for the thread (it ends within one Xid wait)."""
        self._stop_event.set()
        if self.is_alive():
            self.join(timeout_s)

    def sample_once(self) -> None:
        """Take one sample of each source and emit it (also used directly by tests)."""
        if self.nvml is not None and self._handle is not None:
            self._guard("nvml sample", lambda: self._emit("nvml", self._sample_nvml()))
        if self.host:
            self._guard("host sample", lambda: self._emit("cpu", self._sample_host()))

    def _wait_until(self, deadline: float) -> None:
        while not self._stop_event.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            if self._events is None:
                self._stop_event.wait(left)
                return
            wait_s = min(left, XID_WAIT_MS / 1000)
            self._guard("xid wait", lambda: self._wait_xid(wait_s))  # noqa: B023 - called now

    def _emit(self, source: str, metrics: dict[str, float]) -> None:
        if metrics:
            self.rt.emit("telemetry", source=source, metrics=metrics)
            self.samples += 1

    def _guard(self, what: str, fn: Any) -> None:
        try:
            fn()
        except Exception as e:  # monitoring must never take training down
            self.errors += 1
            if not self._logged:
                self._logged = True
                log.warning(
                    "%s failed (%s: %s); sampling goes on, further errors are logged at debug only",
                    what,
                    type(e).__name__,
                    e,
                )
            else:
                log.debug("%s failed: %r", what, e)

    # -- NVML ------------------------------------------------------------------------------

    def _event_types(self) -> dict[int, str]:
        """NVML event type -> the name nonstop records it under (absent names are skipped)."""
        n = self.nvml
        types = {}
        for attr, name in EVENT_TYPES:
            value = getattr(n, attr, None)
            if isinstance(value, int):
                types[value] = name
        return types

    def _setup_nvml(self) -> None:
        n = self.nvml
        self._handle = n.nvmlDeviceGetHandleByIndex(self.device)
        # the bus id names the GPU in Xid lines; NVML may not support reading it (expected)
        with swallowed(log, "reading the GPU's PCI bus id", expected=n.NVMLError):
            bus = n.nvmlDeviceGetPciInfo(self._handle).busId
            self._pci = bus.decode() if isinstance(bus, bytes) else str(bus)
        types = self._event_types()
        supported = getattr(n, "nvmlDeviceGetSupportedEventTypes", None)
        mask = 0
        for t in types:
            mask |= t
        if supported is not None:
            with contextlib.suppress(n.NVMLError):
                mask &= int(supported(self._handle))
        xid = getattr(n, "nvmlEventTypeXidCriticalError", 0)
        for attempt in (mask, xid):  # the whole set, else Xid only (older drivers)
            if not attempt:
                continue
            try:
                events = n.nvmlEventSetCreate()
                n.nvmlDeviceRegisterEvents(self._handle, attempt, events)
                self._events, self._registered = events, attempt
                return
            except n.NVMLError:  # not supported on this device or driver
                self._events = None

    def _wait_xid(self, timeout_s: float) -> None:
        """Wait for one NVML event (Xid, single/double-bit ECC, clock change) and record it."""
        n = self.nvml
        try:
            data = n.nvmlEventSetWait(self._events, max(1, int(timeout_s * 1000)))
        except n.NVMLError as e:
            if getattr(e, "value", None) == n.NVML_ERROR_TIMEOUT:
                return
            raise
        name = self._event_types().get(int(data.eventType))
        metrics: dict[str, float] = {"gpu": float(self.device)}
        if name == "xid":
            metrics["xid"] = float(data.eventData)
        elif name == "clock_throttle":
            # a clock change: worth recording only when a slowdown reason set it
            reasons = getattr(n, "nvmlDeviceGetCurrentClocksEventReasons", None) or getattr(
                n, "nvmlDeviceGetCurrentClocksThrottleReasons", None
            )
            value = int(reasons(self._handle)) if reasons is not None else 0
            if not value & SLOWDOWN_REASONS or value == self._last_reasons:
                self._last_reasons = value
                return
            self._last_reasons = value
            metrics["reasons"] = float(value)
        elif name in ("ecc_sbe", "ecc_dbe"):
            metrics["count"] = float(getattr(data, "eventData", 0) or 0)
        else:
            return
        self.rt.emit(
            "telemetry", source="nvml", event=name, metrics=metrics, pid=os.getpid(), pci=self._pci
        )

    def _read(self, name: str, fn: Any, *args: Any) -> Any:
        """fn(*args), or None when the device does not support it (then never asked again)."""
        if name in self._unsupported:
            return None
        n = self.nvml
        try:
            return fn(*args)
        except n.NVMLError as e:
            if getattr(e, "value", None) in (
                n.NVML_ERROR_NOT_SUPPORTED,
                getattr(n, "NVML_ERROR_FUNCTION_NOT_FOUND", -1),
            ):
                self._unsupported.add(name)
                return None
            raise

    def _sample_nvml(self) -> dict[str, float]:
        n, h = self.nvml, self._handle
        m: dict[str, float] = {"gpu": float(self.device)}

        def put(name: str, value: Any, scale: float = 1.0) -> None:
            if value is not None:
                m[name] = float(value) * scale

        put("power_w", self._read("power", n.nvmlDeviceGetPowerUsage, h), 1e-3)
        put("energy_j", self._read("energy", n.nvmlDeviceGetTotalEnergyConsumption, h), 1e-3)
        put("temp_c", self._read("temp", n.nvmlDeviceGetTemperature, h, n.NVML_TEMPERATURE_GPU))
        put("sm_clock_mhz", self._read("sm_clock", n.nvmlDeviceGetClockInfo, h, n.NVML_CLOCK_SM))
        put("mem_clock_mhz", self._read("mem_clock", n.nvmlDeviceGetClockInfo, h, n.NVML_CLOCK_MEM))
        reasons = (
            getattr(n, "nvmlDeviceGetCurrentClocksEventReasons", None)
            or n.nvmlDeviceGetCurrentClocksThrottleReasons
        )
        put("throttle_reasons", self._read("throttle", reasons, h))
        util = self._read("util", n.nvmlDeviceGetUtilizationRates, h)
        if util is not None:
            put("gpu_util_pct", util.gpu)
            put("mem_util_pct", util.memory)
        mem = self._read("memory", n.nvmlDeviceGetMemoryInfo, h)
        if mem is not None:
            put("mem_used_bytes", mem.used)
        for name, kind in (
            ("ecc_corrected", n.NVML_MEMORY_ERROR_TYPE_CORRECTED),
            ("ecc_uncorrected", n.NVML_MEMORY_ERROR_TYPE_UNCORRECTED),
        ):
            put(name, self._read(name, n.nvmlDeviceGetTotalEccErrors, h, kind, n.NVML_VOLATILE_ECC))
        rows = self._read("remapped", n.nvmlDeviceGetRemappedRows, h)
        if rows is not None:
            for name, value in zip(
                (
                    "remapped_rows_correctable",
                    "remapped_rows_uncorrectable",
                    "remap_pending",
                    "remap_failure",
                ),
                rows,
            ):
                put(name, value)
        return m

    # -- host ------------------------------------------------------------------------------

    def _sample_host(self) -> dict[str, float]:
        ps = self._psutil
        vm = ps.virtual_memory()
        m = {
            "cpu_util_pct": float(ps.cpu_percent(interval=None)),
            "mem_used_pct": float(vm.percent),
            "mem_used_bytes": float(vm.used),
        }
        with contextlib.suppress(OSError, AttributeError):
            m["load_1m"] = float(os.getloadavg()[0])
        if "sensors" not in self._unsupported:
            temps = []
            try:  # absent on some platforms, empty in most containers
                for readings in (ps.sensors_temperatures() or {}).values():
                    temps += [r.current for r in readings if r.current and r.current > 0]
            except (AttributeError, OSError):
                pass
            if temps:
                m["temp_c"] = float(max(temps))
            else:
                self._unsupported.add("sensors")
        return m


def load_nvml() -> Any:
    """pynvml, initialised, when a GPU and its driver are present; else None."""
    try:
        import pynvml
    except ImportError as e:  # no library: the host sampler takes over
        log.debug("no NVML (%r): host telemetry", e)
        return None
    try:
        pynvml.nvmlInit()
        if pynvml.nvmlDeviceGetCount() > 0:
            return pynvml
        pynvml.nvmlShutdown()
    except pynvml.NVMLError as e:  # no driver, no device: the host sampler takes over
        log.debug("no NVML (%r): host telemetry", e)
    except Exception as e:  # not NVML's own error: ours, or a broken install; said
        log.warning("NVML unusable (%r): host telemetry only", e)
    return None


def _device_for(local_rank: int, count: int) -> int:
    """NVML index of this rank's GPU: NVML counts physical devices, so follow
    CUDA_VISIBLE_DEVICES when it lists indices."""
    visible = [v.strip() for v in os.environ.get(envvars.CUDA_VISIBLE_DEVICES, "").split(",")]
    if all(v.isdigit() for v in visible) and local_rank < len(visible) and visible[0]:
        return int(visible[local_rank])
    return local_rank % max(1, count)


def maybe_start_telemetry(rt: Any, nvml: Any = None) -> TelemetrySampler | None:
    """Start the sampler this rank should run, or None (runtime disabled, interval 0, or a
    CPU-only rank other than local rank 0). A bad NONSTOP_TELEMETRY_S is logged, not raised."""
    if not getattr(rt, "enabled", False):
        return None
    raw = os.environ.get(ENV_INTERVAL, "").strip()
    interval = DEFAULT_INTERVAL_S
    if raw:
        try:
            interval = float(raw)
            if not math.isfinite(interval):
                raise ValueError(raw)
        except ValueError:
            interval = DEFAULT_INTERVAL_S
            log.warning(
                "%s=%r is not a number of seconds; using %g", ENV_INTERVAL, raw, DEFAULT_INTERVAL_S
            )
        if interval <= 0:
            return None
    local_rank = int(os.environ.get(envvars.LOCAL_RANK, "0") or 0)
    nvml = nvml if nvml is not None else load_nvml()
    if nvml is None and local_rank != 0:
        return None
    device = _device_for(local_rank, nvml.nvmlDeviceGetCount()) if nvml is not None else 0
    sampler = TelemetrySampler(rt, interval, nvml, device=device, host=local_rank == 0)
    sampler.start()
    return sampler
