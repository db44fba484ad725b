"""The `vendor` health check: the node's own diagnostic tools, run where installed, each within
its time limit, their outputs kept as evidence and read by nonstop.diagnose.vendor.

    nonstop run --health-checks disk,memory,gpu,vendor ...

Every tool found on PATH runs at once, in its own process group, and is killed at its limit
(`TOOLS`, never beyond the health check's own timeout less a margin); EDAC and machine-check
counters are read from /sys and /proc. The verdict:

- failed: a clear bad finding (an uncorrectable GPU error since the last reset, a pending or
  failed row remap, a DCGM test that failed, NVLink down, no InfiniBand port Active, a power
  supply failure asserted, SMART health FAILED, an NVMe critical warning, uncorrectable host
  memory errors, a machine-check exception): the node is excluded, as for any failed check;
- passed: the tools that ran found nothing, with a line per tool that hung (killed at its
  limit), printed garbage, failed to run or is missing: none of those is ever an exclusion.
- skipped: no tool and no counter on this node.

The detail names each bad finding's taxonomy category in brackets (`[gpu_hbm3_memory]`), which
`nonstop diagnose` reads. Outputs go to `HealthConfig.evidence_dir` (the agent passes
run_dir/logs/attempt-N/vendor-HOST/): `<tool>.txt` each and `vendor.json`, the readings.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from nonstop.diagnose import vendor
from nonstop.supervisor.health import CheckResult, HealthConfig


@dataclass(frozen=True)
class Tool:
    name: str
    """A nonstop.diagnose.vendor.PARSERS key (and the evidence file's name)."""
    argv: tuple[str, ...]
    limit_s: float
    """Killed after this many seconds (vendors' quick modes take seconds)."""


TOOLS: tuple[Tool, ...] = (
    Tool("nvidia-smi", ("nvidia-smi", "-q", "-d", "ECC,ROW_REMAPPER"), 20.0),
    Tool("dcgmi-diag", ("dcgmi", "diag", "-r", "1"), 45.0),
    Tool("dcgmi-nvlink", ("dcgmi", "nvlink", "--link-status"), 15.0),
    Tool("ibstat", ("ibstat",), 10.0),
    Tool("ipmitool-sel", ("ipmitool", "sel", "list"), 20.0),
    Tool("ipmitool-sdr", ("ipmitool", "sdr"), 20.0),
    Tool("smartctl", ("smartctl", "-H", "-A", "/dev/sda"), 15.0),
    Tool("nvme-smart-log", ("nvme", "smart-log", "/dev/nvme0"), 10.0),
)
MARGIN_S = 2.0
"""A tool's limit stays this far inside the health check's timeout, so that a hung tool is
reported as hung by this check instead of the check itself timing out (which fails the node)."""
MAX_OUTPUT = 4 << 20


@dataclass
class Ran:
    tool: str
    status: str
    """read (its output parsed), hung (killed at its limit), garbage (output not recognized),
    error (could not start), missing (not installed)."""
    seconds: float = 0.0
    exit_code: int | None = None
    summary: str = ""
    bad: list[str] | None = None


def _start(tool: Tool, out_dir: Path | None) -> tuple[subprocess.Popen[bytes], Any] | str:
    exe = shutil.which(tool.argv[0])
    if exe is None:
        return "missing"
    sink: Any = subprocess.PIPE
    try:
        p = subprocess.Popen(
            [exe, *tool.argv[1:]],
            stdout=sink,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its whole group is killed at the limit
        )
    except OSError as e:
        return f"error: {e.strerror or e}"
    return p, out_dir


def run_tools(
    tools: tuple[Tool, ...], budget_s: float, out_dir: Path | None
) -> list[tuple[Ran, str]]:
    """Start every installed tool at once; collect each within min(its limit, budget_s)."""
    t0 = time.monotonic()
    started: list[tuple[Tool, Any]] = [(t, _start(t, out_dir)) for t in tools]
    out: list[tuple[Ran, str]] = []
    for tool, s in started:
        if isinstance(s, str):
            out.append((Ran(tool.name, "missing" if s == "missing" else "error", summary=s), ""))
            continue
        proc, _ = s
        deadline = t0 + min(tool.limit_s, budget_s)
        try:
            raw, _ = proc.communicate(timeout=max(0.01, deadline - time.monotonic()))
            text = raw[:MAX_OUTPUT].decode("utf-8", errors="replace")
            out.append((Ran(tool.name, "read", time.monotonic() - t0, proc.returncode), text))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.communicate(timeout=1.0)
            limit = min(tool.limit_s, budget_s)
            ran = Ran(tool.name, "hung", time.monotonic() - t0, None, f"killed after {limit:g} s")
            out.append((ran, ""))
    return out


def check_vendor(cfg: HealthConfig, **seams: Any) -> CheckResult:
    """The `vendor` health check (the module docstring). Seams: `tools` (a TOOLS-like tuple),
    `edac_root`, `interrupts` (paths), for tests."""
    tools: tuple[Tool, ...] = seams.get("tools", TOOLS)
    budget = max(1.0, cfg.timeout_s - MARGIN_S)
    out_dir = cfg.evidence_dir
    if out_dir is not None:
        with contextlib.suppress(OSError):
            out_dir.mkdir(parents=True, exist_ok=True)
    results: list[Ran] = []
    bad: list[str] = []
    for ran, text in run_tools(tools, budget, out_dir):
        if ran.status == "read":
            reading = vendor.parse(ran.tool, text)
            if not reading.readable:
                ran.status = "garbage"
                ran.summary = f"output not recognized ({len(text)} bytes, exit {ran.exit_code})"
            else:
                ran.summary = reading.summary()
                ran.bad = [f"{f.detail} [{f.category}]" for f in reading.bad]
                bad += [f"{ran.tool}: {b}" for b in ran.bad]
            _keep(out_dir, ran.tool, text)
        results.append(ran)
    for reading in (
        vendor.read_edac(seams.get("edac_root", Path("/sys/devices/system/edac/mc"))),
        vendor.read_mce(seams.get("interrupts", Path("/proc/interrupts"))),
    ):
        status = "read" if reading.readable else "missing"
        r = Ran(reading.tool, status, summary=reading.summary() if reading.readable else "")
        r.bad = [f"{f.detail} [{f.category}]" for f in reading.bad]
        bad += [f"{reading.tool}: {b}" for b in r.bad]
        results.append(r)
    _keep(out_dir, "vendor.json", json.dumps([asdict(r) for r in results], indent=1))
    ran_any = [r for r in results if r.status != "missing"]
    if bad:
        return CheckResult("vendor", "failed", "; ".join(bad))
    if not ran_any:
        return CheckResult("vendor", "skipped", "no vendor tool or counter on this node")
    notes = [f"{r.tool} {r.status}: {r.summary}" for r in ran_any if r.status != "read"]
    fine = [r.tool for r in ran_any if r.status == "read"]
    detail = f"no bad finding from {', '.join(fine) or 'no tool'}"
    return CheckResult("vendor", "passed", "; ".join([detail, *notes]))


def _keep(out_dir: Path | None, name: str, text: str) -> None:
    if out_dir is None:
        return
    path = out_dir / (name if name.endswith(".json") else f"{name}.txt")
    with contextlib.suppress(OSError):  # evidence is a convenience; never fails the check
        path.write_text(text)
