"""Flight-recorder analysis time against torchfrtrace on the same synthetic dumps.

    python benchmarks/run.py flight-recorder [--quick] [--json]

Writes NCCL-format dumps (nonstop.diagnose.synth: 2,000 entries per rank, two process groups,
one rank that never entered the last collective) for 1,024, 4,096 and 16,384 ranks (--quick:
1,024 and 4,096), and times, each as a fresh subprocess, `nonstop diagnose --flight DIR --json`
and torch's own analyzer `python -m torch.distributed.flight_recorder.fr_trace DIR`. torchfrtrace
runs under a memory cap (RLIMIT_AS, at most 12 GiB or 60% of RAM) so that it fails with a
MemoryError instead of waking the OOM killer on a shared machine; failures are reported.

`ranks` is the largest size and `ours` our seconds there; `peer` is torchfrtrace's seconds at
the largest size it finished, and `ratio` ours / peer at that same size. Each size also reports
CPU seconds (user + system, workers included): on a shared machine wall time depends on the
neighbours, CPU time much less.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from nonstop.diagnose.synth import write_job

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = 2000


def _mem_cap() -> int:
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return int(min(12 << 30, 0.6 * total))


def _limit() -> None:  # runs in the torchfrtrace child before exec
    cap = _mem_cap()
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)  # reaped children and their workers
    return r.ru_utime + r.ru_stime


def _timed(
    cmd: list[str], timeout_s: float, **kw: Any
) -> tuple[float, float, subprocess.CompletedProcess[str] | None]:
    """(wall seconds, CPU seconds of the command and its workers, result or None on timeout)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t0, c0 = time.perf_counter(), _cpu()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, env=env, **kw)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - t0, _cpu() - c0, None
    return time.perf_counter() - t0, _cpu() - c0, p


def _status(p: subprocess.CompletedProcess[str] | None) -> str:
    if p is None:
        return "timeout"
    if p.returncode == 0:
        return "ok"
    lines = [ln for ln in p.stderr.strip().splitlines() if ln.strip()]
    return f"failed rc={p.returncode}: {lines[-1][:160] if lines else ''}"


def run(quick: bool) -> dict:
    sizes = [1024, 4096] if quick else [1024, 4096, 16384]
    peer_timeout_s = 300 if quick else 600
    base = Path(tempfile.mkdtemp(prefix="nonstop-bench-fr-"))
    rows: list[dict[str, Any]] = []
    try:
        for n in sizes:
            hang = n // 3
            t0 = time.perf_counter()
            folder = write_job(base / f"ranks-{n}", n, ENTRIES, hang_rank=hang)
            gen_s = time.perf_counter() - t0
            ours_s, ours_cpu_s, ours = _timed([sys.executable, "-m", "nonstop.cli", "diagnose", "--flight",
                                   str(folder), "--json"], 900)  # fmt: skip
            found = None
            if ours is not None and ours.returncode == 0:
                found = [c["rank"] for c in json.loads(ours.stdout)["culprits"]]
            peer_s, peer_cpu_s, peer = _timed([sys.executable, "-m", "torch.distributed.flight_recorder"
                                   ".fr_trace", str(folder)], peer_timeout_s,
                                  preexec_fn=_limit)  # fmt: skip
            out = (peer.stdout + peer.stderr) if peer else ""
            rows.append({
                "ranks": n, "entries_per_rank": ENTRIES, "dump_gb": round(sum(
                    f.stat().st_size for f in folder.iterdir()) / 1e9, 2),
                "generate_s": round(gen_s, 1), "ours_s": round(ours_s, 2),
                "ours_cpu_s": round(ours_cpu_s, 2),
                "ours_status": _status(ours), "ours_culprits": found, "expected_culprit": hang,
                "peer_s": round(peer_s, 2),
                "peer_cpu_s": round(peer_cpu_s, 2), "peer_status": _status(peer),
                "peer_mentions_culprit": bool(re.search(rf"\b{hang}\b", out)),
            })  # fmt: skip
            print(f"  {rows[-1]}", file=sys.stderr, flush=True)
            shutil.rmtree(folder)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    largest = rows[-1]
    both = [r for r in rows if r["peer_status"] == "ok"]
    at = both[-1] if both else None
    return {
        "name": "flight-recorder",
        "ranks": largest["ranks"],
        "ours": largest["ours_s"],
        "peer": at["peer_s"] if at else float("nan"),
        "peer_name": "torchfrtrace (fr_trace)",
        "ratio": at["ours_s"] / at["peer_s"] if at else float("nan"),
        "ratio_at_ranks": at["ranks"] if at else None,
        "unit": "s",
        "better": "lower",
        "detail": {
            "sizes": rows,
            "peer_memory_cap_gb": round(_mem_cap() / 2**30, 1),
            "cpus": os.cpu_count(),
        },
    }
