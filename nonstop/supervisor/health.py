"""Node health checks, run between attempts, each with a timeout.

    disk        free space and writability of the run and checkpoint directories
    memory      free host memory
    gpu         NVML against the node's earlier record (control/gpus-HOST.json): fewer GPUs
                than before, NVML failing to start or a GPU unreadable where the node had GPUs,
                uncorrectable ECC errors above the record, pending or failed row remapping,
                thermal or power-brake throttling, temperature (skipped, with the reason, on a
                node that never had a GPU; docs/gpu.md)
    collective  a short compute plus collective self-test across the node's ranks (gloo on
                CPU, NCCL on GPU), in fresh processes
    vendor      the node's own tools where installed (nvidia-smi -q, dcgmi, ibstat, ipmitool,
                smartctl, nvme) and EDAC/MCE counters (nonstop.supervisor.vendor_checks)

A check returns passed, failed or skipped with a detail line, within its timeout (a check
that does not finish failed); a check that raises is `error`: logged, never a node failure. Checks are plain functions chosen
by name from `CHECKS`; NVML is reached through a seam (`nvml=`) so tests pass a fake one.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("nonstop.health")


@dataclass(frozen=True)
class CheckResult:
    name: str
    status: str
    """passed, failed, skipped, or error (the check itself broke: nonstop's bug, not the
    node's; never a reason to exclude it)."""
    detail: str
    duration_s: float = 0.0

    @property
    def failed(self) -> bool:
        return self.status == "failed"


@dataclass(frozen=True, kw_only=True)
class HealthConfig:
    paths: tuple[Path, ...]
    """Directories that must be writable with free space (run dir, checkpoint dir)."""
    min_free_gb: float = 1.0
    """Minimum free disk space on each path."""
    min_free_memory_gb: float = 0.5
    """Minimum available host memory."""
    local_world_size: int = 1
    """Processes the collective self-test starts."""
    timeout_s: float = 60.0
    """Per-check timeout."""
    max_temperature_c: float = 90.0
    """GPU temperature above which the GPU check fails."""
    gpu_record: Path | None = None
    """The node's earlier GPU record (`gpu_record_path`): the count and ECC state the GPU
    check compares against, written when the check passes; None: no comparison."""
    evidence_dir: Path | None = None
    """Where a check keeps what it read (the vendor check: each tool's output)."""


def check_disk(cfg: HealthConfig, **_: Any) -> CheckResult:
    problems = []
    for p in cfg.paths:
        try:
            p.mkdir(parents=True, exist_ok=True)
        except OSError as e:  # a read-only mount, a file in the way: unusable, so failed
            problems.append(f"{p}: cannot be created ({e.strerror or e})")
            continue
        free_gb = shutil.disk_usage(p).free / 1e9
        if free_gb < cfg.min_free_gb:
            problems.append(f"{p}: {free_gb:.2f} GB free < {cfg.min_free_gb} GB")
        try:
            with tempfile.NamedTemporaryFile(dir=p, prefix=".nonstop-probe-") as f:
                f.write(b"x" * 4096)
                f.flush()
                os.fsync(f.fileno())
        except OSError as e:
            problems.append(f"{p}: not writable ({e.strerror})")
    if problems:
        return CheckResult("disk", "failed", "; ".join(problems))
    return CheckResult("disk", "passed", f"{len(cfg.paths)} paths writable")


def check_memory(cfg: HealthConfig, **_: Any) -> CheckResult:
    import psutil

    avail = psutil.virtual_memory().available / 1e9
    if avail < cfg.min_free_memory_gb:
        return CheckResult("memory", "failed", f"{avail:.2f} GB available")
    return CheckResult("memory", "passed", f"{avail:.1f} GB available")


def _load_nvml() -> Any:
    import pynvml

    pynvml.nvmlInit()
    return pynvml


def gpu_record_path(control: Path, host: str) -> Path:
    """Where a node's GPU record is kept: the run directory's control/, one file per node."""
    return control / f"gpus-{host}.json"


def _read_record(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:  # a torn record: compare with nothing, rewrite it
        log.warning("GPU record %s unreadable (%s): no comparison this time", path, e)
        return {}
    return data if isinstance(data, dict) else {}


def _write_record(path: Path | None, record: dict[str, Any]) -> None:
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(record, sort_keys=True))
        os.replace(tmp, path)
    except OSError as e:  # the verdict stands; the next check compares with the old record
        log.warning("GPU record %s not written: %s", path, e)


# NVML's clock-event bits (nvmlClocksEventReason*, formerly *ThrottleReason*); the same values in
# every nvidia-ml-py, spelled out so that no name's rename turns a throttled GPU into a pass.
_HW_SLOWDOWN = {"hw_slowdown": 0x8, "hw_thermal": 0x40, "hw_power_brake": 0x80}
_NOT_SUPPORTED = 3  # NVML_ERROR_NOT_SUPPORTED: ECC or row remapping on a GPU without them
_NOT_FOUND = 13  # NVML_ERROR_FUNCTION_NOT_FOUND: a driver older than the call


def _unsupported(nv: Any, e: Exception) -> bool:
    """The GPU or its driver does not have this reading: no evidence either way."""
    value = getattr(e, "value", None)
    return value in (
        getattr(nv, "NVML_ERROR_NOT_SUPPORTED", _NOT_SUPPORTED),
        getattr(nv, "NVML_ERROR_FUNCTION_NOT_FOUND", _NOT_FOUND),
    )


def _clock_reasons(nv: Any, h: Any) -> int:
    """The clock-event (throttle) reasons bitmask: the newer call, else the older name (a
    driver or nvidia-ml-py without the newer one); 0 when neither exists."""
    for name in (
        "nvmlDeviceGetCurrentClocksEventReasons",
        "nvmlDeviceGetCurrentClocksThrottleReasons",
    ):
        fn = getattr(nv, name, None)
        if fn is None:
            continue
        try:
            return int(fn(h))
        except nv.NVMLError as e:
            if not _unsupported(nv, e):
                raise
    return 0


def check_gpu(cfg: HealthConfig, nvml: Any = None, **_: Any) -> CheckResult:
    """The node's GPUs against its earlier record (`cfg.gpu_record`).

    A GPU that fell off the bus shows as NVML failing to start, a handle or a reading that
    fails, or fewer devices than before; each of these fails the check where the node had
    GPUs, since the next attempt would fail on it too. Uncorrectable ECC errors fail when
    they rose above the record (the volatile counter keeps an old, already handled error
    until the driver reloads); pending or failed row remapping always fails (a pending
    remap needs a GPU reset). The record is written when the check passes, or when there
    is none yet: the count is never lowered."""
    record = _read_record(cfg.gpu_record)
    had = int(record.get("count", 0))
    try:
        nv = nvml if nvml is not None else _load_nvml()
    except Exception as e:  # no driver, no library, no GPU, or a driver that lost its GPUs
        if had:
            return CheckResult(
                "gpu",
                "failed",
                f"NVML does not start ({type(e).__name__}: {e}) on a node that had {had} GPUs: "
                "a lost GPU or a broken driver",
            )
        return CheckResult("gpu", "skipped", f"no NVIDIA GPU or driver ({type(e).__name__})")
    try:
        n = int(nv.nvmlDeviceGetCount())
    except nv.NVMLError as e:
        if had:
            return CheckResult("gpu", "failed", f"NVML cannot count the GPUs ({e}); had {had}")
        return CheckResult("gpu", "skipped", f"NVML cannot count the GPUs ({e})")
    if n == 0 and not had:
        return CheckResult("gpu", "skipped", "no NVIDIA GPU (NVML counts none)")
    problems = []
    if n < had:
        problems.append(f"{n} GPUs visible, the node had {had}: a GPU is lost")
    before = record.get("ecc_uncorrected") or {}
    ecc_now: dict[str, int] = {}
    for i in range(n):
        try:
            h = nv.nvmlDeviceGetHandleByIndex(i)
        except nv.NVMLError as e:
            problems.append(f"GPU {i}: unreadable ({e}): fallen off the bus?")
            continue
        try:
            ecc = int(
                nv.nvmlDeviceGetTotalEccErrors(
                    h, nv.NVML_MEMORY_ERROR_TYPE_UNCORRECTED, nv.NVML_VOLATILE_ECC
                )
            )
            ecc_now[str(i)] = ecc
            was = int(before.get(str(i), 0))
            if ecc > was:
                problems.append(f"GPU {i}: {ecc} uncorrectable ECC errors (was {was})")
        except nv.NVMLError as e:
            if not _unsupported(nv, e):  # ECC not supported on this GPU: nothing to read
                problems.append(f"GPU {i}: ECC unreadable ({e})")
        try:
            _corr, _unc, pending, failure = nv.nvmlDeviceGetRemappedRows(h)
            if failure:
                problems.append(f"GPU {i}: row remapping failed")
            elif pending:
                problems.append(f"GPU {i}: row remapping pending (reset needed)")
        except nv.NVMLError as e:
            if not _unsupported(nv, e):
                problems.append(f"GPU {i}: row remapping unreadable ({e})")
        try:
            temp = nv.nvmlDeviceGetTemperature(h, nv.NVML_TEMPERATURE_GPU)
            if temp > cfg.max_temperature_c:
                problems.append(f"GPU {i}: {temp} C")
            reasons = _clock_reasons(nv, h)
        except nv.NVMLError as e:
            problems.append(f"GPU {i}: unreadable ({e}): fallen off the bus?")
            continue
        hit = [k for k, bit in _HW_SLOWDOWN.items() if reasons & bit]
        if hit:
            problems.append(f"GPU {i}: throttled ({', '.join(hit)})")
    if problems:
        if not record:  # the first sighting is the node's record, whatever its state
            _write_record(cfg.gpu_record, {"count": n, "ecc_uncorrected": ecc_now})
        return CheckResult("gpu", "failed", "; ".join(problems))
    _write_record(cfg.gpu_record, {"count": max(n, had), "ecc_uncorrected": ecc_now})
    return CheckResult("gpu", "passed", f"{n} GPUs: ECC, row remapping, clocks and temperature ok")


SELF_TEST = """
import ctypes, datetime, os, sys, torch, torch.distributed as dist
with __import__("contextlib").suppress(Exception):  # `ps` and `top` name it (PR_SET_NAME)
    ctypes.CDLL(None).prctl(15, b"ns-self-test", 0, 0, 0)
rank, world = int(sys.argv[1]), int(sys.argv[2])
cuda = torch.cuda.is_available()
dist.init_process_group("nccl" if cuda else "gloo", init_method=sys.argv[3], rank=rank,
                        world_size=world, timeout=datetime.timedelta(seconds=float(sys.argv[4])))
dev = torch.device("cuda", rank) if cuda else torch.device("cpu")
a = torch.randn(256, 256, device=dev, generator=torch.Generator(dev).manual_seed(0))
ref = (a @ a).sum()
x = torch.full((1024,), float(rank + 1), device=dev)
dist.all_reduce(x)
assert torch.isfinite(ref), "matmul is not finite"
assert x[0].item() == world * (world + 1) / 2, f"all_reduce gave {x[0].item()}"
dist.destroy_process_group()
"""
SELF_TEST_NAME = "ns-self-test"
"""What a self-test process calls itself (/proc/PID/comm) while it runs the test."""

# A self-test process imports torch, then runs what its stdin hands it; with nothing (the
# supervisor gone, the pool closed) it exits. Importing torch is most of the test's time (~2 s
# a process on a 2-core host, the test itself ~0.3 s), so SelfTestPool starts them ahead.
_INTERPRETER = (
    "import sys, torch, torch.distributed\n"
    "exec(compile(sys.stdin.read(), '<nonstop self-test>', 'exec'))\n"
)


class SelfTestPool:
    """Interpreters that have imported torch, waiting to run the collective self-test: the
    check after a hang or a hardware-like failure then costs the test (~0.3 s on CPU) instead
    of `local_world_size` fresh imports of torch (2-8 s on a loaded 2-core host, measured in
    the demo). The agent warms it once an attempt has trained a while (`warm`), never during a
    start or a restart, and a check takes from it (`take`) or starts fresh ones. Each costs
    its memory of an imported torch (~230 MB RSS on CPU; CUDA is not initialised) while it
    waits; `nonstop run --no-self-test` starts none."""

    def __init__(self) -> None:
        self._waiting: list[subprocess.Popen[bytes]] = []
        self._lock = threading.Lock()
        self._closed = False

    @staticmethod
    def _start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-c", _INTERPRETER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )

    def warm(self, n: int) -> None:
        """Have `n` interpreters waiting (start the missing ones; returns at once)."""
        with self._lock:
            if self._closed:
                return
            self._waiting = self._alive()
            while len(self._waiting) < n:
                self._waiting.append(self._start())

    def _alive(self) -> list[subprocess.Popen[bytes]]:
        """The waiting ones still alive; the dead (killed while they waited) reaped."""
        alive = []
        for p in self._waiting:
            if p.poll() is None:
                alive.append(p)
            else:
                _end(p)
        return alive

    @property
    def warm_count(self) -> int:
        with self._lock:
            return sum(p.poll() is None for p in self._waiting)

    def take(self, n: int) -> list[subprocess.Popen[bytes]]:
        """`n` interpreters for a test: the waiting ones first, fresh ones for the rest."""
        with self._lock:
            alive = self._alive()
            got, self._waiting = alive[:n], alive[n:]
        return got + [self._start() for _ in range(n - len(got))]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            waiting, self._waiting = self._waiting, []
        for p in waiting:
            _end(p)


def _end(p: subprocess.Popen[bytes]) -> None:
    """Kill `p` if it runs, reap it and close its pipes."""
    with contextlib.suppress(OSError):
        p.kill()
    for pipe in (p.stdin, p.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError, ValueError):
                pipe.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        p.wait(timeout=5)


def check_collective(
    cfg: HealthConfig, *, self_tests: SelfTestPool | None = None, **_: Any
) -> CheckResult:
    world = max(1, cfg.local_world_size)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    init = f"tcp://127.0.0.1:{port}"
    procs = (self_tests or SelfTestPool()).take(world)
    deadline = time.monotonic() + cfg.timeout_s
    for r, p in enumerate(procs):
        argv = [str(r), str(world), init, str(cfg.timeout_s)]
        stdin, p.stdin = p.stdin, None  # written here: `communicate` must not touch it
        with contextlib.suppress(OSError):  # one that died already is reported below
            assert stdin is not None
            stdin.write(f"import sys\nsys.argv[1:] = {argv!r}\n{SELF_TEST}".encode())
            stdin.close()
    failures = []
    for r, p in enumerate(procs):
        try:
            out = p.communicate(timeout=max(0.1, deadline - time.monotonic()))[0]
            if p.returncode != 0:
                last = out.decode(errors="replace").strip().splitlines()[-1:] or ["?"]
                failures.append(f"rank {r}: exit {p.returncode}: {last[0][:200]}")
        except subprocess.TimeoutExpired:
            _end(p)
            failures.append(f"rank {r}: timed out after {cfg.timeout_s:g} s")
    if failures:
        return CheckResult("collective", "failed", "; ".join(failures))
    return CheckResult("collective", "passed", f"matmul + all_reduce across {world} processes")


def check_vendor(cfg: HealthConfig, **seams: Any) -> CheckResult:
    """nvidia-smi, DCGM, ibstat, IPMI, SMART, NVMe, EDAC, MCE (nonstop.supervisor.vendor_checks)."""
    from nonstop.supervisor.vendor_checks import check_vendor as run

    return run(cfg, **seams)


CHECKS: dict[str, Callable[..., CheckResult]] = {
    "disk": check_disk,
    "memory": check_memory,
    "gpu": check_gpu,
    "collective": check_collective,
    "vendor": check_vendor,
}


def run_checks(names: list[str], cfg: HealthConfig, **seams: Any) -> list[CheckResult]:
    """Run the named checks in order, each bounded by `cfg.timeout_s`.

    A check that does not return in time failed (a hung NFS mount, a wedged driver: the next
    attempt would hang on it too); its thread is left behind as a daemon, since a thread in a
    stuck system call cannot be killed. A check that raises is nonstop's own error, not the
    node's: status `error`, logged, and never a reason to exclude a healthy node."""
    results = []
    for name in names:
        t0 = time.monotonic()
        check = CHECKS.get(name)
        if check is None:
            r = CheckResult(name, "error", f"no such check (one of {', '.join(CHECKS)})")
        else:
            r = _bounded(name, check, cfg, seams)
        if r.status == "error":
            log.error("health check %s: %s", name, r.detail)
        results.append(CheckResult(r.name, r.status, r.detail, time.monotonic() - t0))
    return results


def _bounded(
    name: str, check: Callable[..., CheckResult], cfg: HealthConfig, seams: dict[str, Any]
) -> CheckResult:
    box: list[CheckResult] = []

    def target() -> None:
        try:
            box.append(check(cfg, **seams))
        except Exception as e:
            box.append(CheckResult(name, "error", f"the check raised {type(e).__name__}: {e}"))

    thread = threading.Thread(target=target, name=f"nonstop-health-{name}", daemon=True)
    thread.start()
    thread.join(cfg.timeout_s)
    if thread.is_alive() or not box:
        return CheckResult(
            name, "failed", f"did not finish within {cfg.timeout_s:g} s (a hung mount or device?)"
        )
    return box[0]
