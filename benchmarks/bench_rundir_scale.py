"""A run directory at Llama 3's scale: ledger ingest, `nonstop report` and `nonstop diagnose`.

    python benchmarks/run.py rundir-scale [--quick] [--json]    # 16,384 ranks (--quick: 256)

The run (docs/run-directory.md), 8 ranks per host: attempt 0 trains 20 steps (a heartbeat and
a step record per step, a checkpoint at step 10, telemetry), then hangs: rank ranks // 3 never
enters the next collective; the supervisor's rows (attempt, hang detection, failure, evidence
and health-check phases, a health check per host, the restart action) are in the ledger;
every rank's log, the hung rank's stacks and every rank's flight-recorder dump (2,000 entries,
the tensor/pipeline/data-parallel layout of bench_flight_recorder) are in place. Attempt 1
resumes from step 10 and finishes at step 19. Event lines are `Event.to_json()` (what
EventWriter writes) so that their times can be chosen; the ledger goes through the Ledger API
the agent uses; dumps are the pickles torch's recorder writes.

Each repetition, each step a fresh process timed from outside (wall, CPU and peak RSS):

1. ingest: `nonstop.ledger.ingest_run` into a copy of the supervisor-only ledger, as the agent
   does (every event stream of both attempts);
2. `nonstop report RUN --json`;
3. `nonstop diagnose RUN --attempt 0 --json` (flight dumps, logs, ledger: the hang's verdict).

`ours` is the slowest of the three (median seconds). The peer is what a user would otherwise
run on the same hang: torchfrtrace (torch's fr_trace) over the same flight dumps, under the same
memory cap as bench_flight_recorder; `grep -rlE` of the error signatures over every log is
timed too (`grep_logs_s`). 5 interleaved repetitions (--quick: 2). NONSTOP_BENCH_DATA_DIR keeps
the run directory (and its dumps, shared with bench_flight_recorder) for the next run
(benchmarks/keep.py).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import keep, stats
from benchmarks.bench_flight_recorder import mem_cap, peer_cmd, run_tool, write_job
from benchmarks.bench_triage import _ere, patterns
from nonstop import rundir
from nonstop.events import Event
from nonstop.ledger import Ledger

T0 = 1_790_000_000.0
STEP_S = 6.0
STEPS, CKPT_STEP = 20, 10
PER_HOST = 8
RUN_ID = "llama3-405b-scale"
FULL_RANKS, QUICK_RANKS = 16_384, 256
TIMEOUT_S = 1800.0  # per process; torchfrtrace is not rerun once it failed or timed out


def _host(r: int) -> str:
    return f"node-{r // PER_HOST:05d}"


def _events(
    attempt: int, rank: int, t: float, first: int, last: int, *, ranks: int, hang_at: int | None
) -> tuple[list[str], float]:
    """One rank's event lines for one attempt and the time its training stopped."""
    host = _host(rank)
    out: list[str] = []

    def emit(at: float, kind: str, **payload: Any) -> None:
        out.append(
            Event(
                run_id=RUN_ID,
                attempt=attempt,
                rank=rank,
                host=host,
                mono=at - T0,
                time=at,
                kind=kind,
                payload=payload,
            ).to_json()
        )

    emit(t, "lifecycle", phase="attempt_start", world_size=ranks, pid=1000 + rank)
    t += 40.0
    emit(t, "lifecycle", phase="pg_ready", world_size=ranks)
    t += 20.0
    emit(t, "lifecycle", phase="resumed", step=first - 1)
    for step in range(first, last + 1):
        if step == hang_at:
            emit(
                t,
                "heartbeat",
                step=step,
                source="bootstrap",
                coll_enq=step * 42,
                coll_done=step * 42 - (1 if rank == ranks // 3 else 0),
            )
            return out, t
        end = t + STEP_S
        emit(t, "heartbeat", step=step, source="bootstrap", coll_enq=step * 42, coll_done=step * 42)
        emit(
            end,
            "step",
            step=step,
            start=t,
            end=end,
            data_s=0.02,
            compute_s=2.1,
            backward_s=3.2,
            optimizer_s=0.4,
            tokens=16 * 8192,
            loss=2.0 + 1.0 / (step + 1),
            lr=8e-5,
        )
        t = end
        if step + 1 == CKPT_STEP:
            emit(t, "checkpoint", phase="begin", step=step + 1)
            emit(
                t + 1.5,
                "checkpoint",
                phase="staged",
                step=step + 1,
                staging_s=1.5,
                bytes=2_400_000_000,
            )
            emit(
                t + 30.0,
                "checkpoint",
                phase="committed",
                step=step + 1,
                blocking_s=0.6,
                total_s=30.0,
                bytes=2_400_000_000,
            )
            t += 0.6
        if step % 5 == 0:
            emit(
                t,
                "telemetry",
                source="nvml",
                metrics={"power_w": 650.0, "temp_c": 61.0, "util_pct": 97.0, "mem_used_gb": 71.2},
            )
    emit(t, "lifecycle", phase="finished", step=last)
    return out, t


def _log(attempt: int, rank: int, first: int, last: int) -> str:
    lines = [
        f"[rank{rank}]:[I1129 03:1{attempt}:00] ProcessGroupNCCL initialized, "
        f"NCCL version 2.21.5, world size 16384"
    ]
    lines += [
        f"[rank{rank}] step {s} loss {2.0 + 1.0 / (s + 1):.4f} lr 8.0e-05 grad_norm 0.91 "
        f"tokens/s 21843 mfu 0.41"
        for s in range(first, last + 1)
    ]
    return "\n".join(lines) + "\n"


def build(root: Path, ranks: int, *, entries: int = 2000) -> dict[str, Any]:
    """Write the run directory under root; return its facts (paths, the hung rank, sizes)."""
    rd = rundir.create(root)
    rd.write_config({"run_id": RUN_ID, "world_size": ranks, "nproc_per_node": PER_HOST})
    hang = ranks // 3
    hosts = sorted({_host(r) for r in range(ranks)})
    stop = T0
    for r in range(ranks):
        lines, stop = _events(0, r, T0, 0, STEPS - 1, ranks=ranks, hang_at=STEPS)
        path = rd.events(0, r)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n")
        log = rd.log(0, r)
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(_log(0, r, 0, STEPS - 1))
    # Hung by the end of attempt 0's training (the hang_at step is never reached: STEPS).
    (rd.log(0, hang).with_name(f"rank-{hang}.stacks.txt")).write_text(
        'Thread 0x7f (most recent call first):\n  File "train.py", line 412 in train_step\n'
        '  File "torch/distributed/distributed_c10d.py", line 3245 in all_reduce\n'
    )
    if keep.data_dir() is None:
        write_job(rd.flight_dir(0), ranks, entries, hang_rank=hang)
    else:  # the same dumps as bench_flight_recorder's at this size: write them once, link them
        dumps, _ = keep.kept(
            f"flight-{ranks}-{entries}",
            lambda f: write_job(f, ranks, entries, hang_rank=hang),
            root,
        )
        keep.link_tree(dumps, rd.flight_dir(0))
    detect = stop + 300.0
    t1 = detect + 120.0
    for r in range(ranks):
        lines, end = _events(1, r, t1, CKPT_STEP, STEPS - 1, ranks=ranks, hang_at=None)
        path = rd.events(1, r)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n")
        log = rd.log(1, r)
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(_log(1, r, CKPT_STEP, STEPS - 1))
    led = Ledger.open(rd.ledger)
    with led:
        led.attempt_started(0, time_s=T0, world_size=ranks, nodes=hosts, restart_path="cold")
        led.add_restart_phase(attempt=0, phase="rendezvous", start_s=T0 - 30, end_s=T0)
        led.add_detection(
            attempt=0,
            kind="hang",
            detection_time_s=detect,
            rank=hang,
            host=_host(hang),
            last_progress_time_s=stop,
        )
        led.add_failure(
            attempt=0,
            time_s=detect,
            category="hang",
            action="restart",
            rank=hang,
            host=_host(hang),
            message=f"no progress on rank {hang} for 300 s",
        )
        led.add_restart_phase(attempt=0, phase="evidence", start_s=detect, end_s=detect + 30)
        led.add_restart_phase(
            attempt=0, phase="health_checks", start_s=detect + 30, end_s=detect + 90
        )
        for h in hosts:
            led.add_health_check(
                attempt=0,
                time_s=detect + 90,
                name="gpu",
                status="passed",
                host=h,
                detail="8 GPUs ok",
                duration_s=2.0,
            )
        led.attempt_ended(0, time_s=detect + 90, outcome="failed")
        led.add_action(
            attempt=0, time_s=detect + 90, action="restart", host=_host(hang), reason="hang"
        )
        led.add_restart_phase(attempt=1, phase="rendezvous", start_s=detect + 90, end_s=t1)
        led.attempt_started(1, time_s=t1, world_size=ranks, nodes=hosts, restart_path="cold")
        led.attempt_ended(1, time_s=end + 5, outcome="succeeded")
    return {"hang": hang, "gb": _sizes(root)}


def _sizes(root: Path) -> dict[str, float]:
    return {
        k: round(sum(f.stat().st_size for f in (root / k).rglob("*") if f.is_file()) / 1e9, 3)
        for k in ("events", "logs", "flight")
    }


INGEST = (
    "import sys; from nonstop import rundir; from nonstop.ledger import Ledger, ingest_run;"
    " rd = rundir.open_existing(sys.argv[1]); led = Ledger.open(rd.ledger);"
    " s = ingest_run(rd, led); led.close(); print(s.events)"
)


def commands(root: Path) -> dict[str, list[str]]:
    py = sys.executable
    return {
        "ingest": [py, "-c", INGEST, str(root)],
        "report": [py, "-m", "nonstop.cli", "report", str(root), "--json"],
        "diagnose": [py, "-m", "nonstop.cli", "diagnose", str(root), "--attempt", "0", "--json"],
    }


def _grep_logs(root: Path, tmp: Path) -> float:
    pats = tmp / "patterns.ere"
    pats.write_text("\n".join(_ere(p) for p in patterns()) + "\n")
    t0 = time.perf_counter()
    subprocess.run(
        ["grep", "-rlE", "-i", "-f", str(pats), str(root / "logs")],
        capture_output=True,
        env={**os.environ, "LC_ALL": "C"},
        timeout=3600,
    )
    return time.perf_counter() - t0


def run(quick: bool) -> dict:
    ranks = QUICK_RANKS if quick else FULL_RANKS
    k = stats.reps(quick)
    timeout_s = 300 if quick else TIMEOUT_S
    base = Path(tempfile.mkdtemp(prefix="nonstop-bench-rundir-"))

    def make(root: Path) -> None:
        build(root, ranks)
        shutil.copy(root / "ledger.db", root.with_name(f"{root.name}.ledger.supervisor.db"))

    try:
        t0 = time.perf_counter()
        root, kept = keep.kept(f"rundir-{ranks}", make, base)
        build_s = time.perf_counter() - t0
        template = root.with_name(f"{root.name}.ledger.supervisor.db")
        facts = {"hang": ranks // 3, "gb": _sizes(root)}
        cmds = commands(root)
        rows: dict[str, list[dict[str, Any]]] = {n: [] for n in (*cmds, "peer")}
        grep_s: list[float] = []
        for _ in range(k):
            for f in root.glob("ledger.db*"):
                f.unlink()
            shutil.copy(template, root / "ledger.db")
            for name, cmd in cmds.items():
                rows[name].append(run_tool(cmd, timeout_s))
            if not rows["peer"] or rows["peer"][-1]["status"] == "ok":
                rows["peer"].append(run_tool(peer_cmd(rd_flight(root)), timeout_s))
            grep_s.append(_grep_logs(root, base))
        verdict = _verdict(rows["diagnose"][-1])
        report = _report(rows["report"][-1])
    finally:
        shutil.rmtree(base, ignore_errors=True)
    steps = {n: [r["wall_s"] for r in rows[n]] for n in cmds}
    slowest = max(steps, key=lambda n: statistics.median(steps[n]))
    peer_ok = [r["wall_s"] for r in rows["peer"] if r["status"] == "ok"]
    detail = {
        n: {
            "wall_s": round(statistics.median(steps[n]), 3),
            "cpu_s": round(statistics.median(r["cpu_s"] for r in rows[n]), 3),
            "peak_rss_gb": round(max(r["peak_tree_rss_gb"] for r in rows[n]), 3),
            "status": rows[n][-1]["status"],
            "statuses": [r["status"] for r in rows[n]],
            "samples_s": [round(x, 3) for x in steps[n]],
        }
        for n in cmds
    }
    peer = rows["peer"][-1]
    return stats.summarize(
        steps[slowest],
        peer_ok if len(peer_ok) == len(steps[slowest]) else None,
        name="rundir-scale",
        unit="s",
        peer_name="torchfrtrace over the same flight dumps (same memory cap)",
        better="lower",
        paired=True,
        ranks=ranks,
        slowest=slowest,
        ours_at_largest={
            "ranks": ranks,
            "diagnose_wall_s": detail["diagnose"]["wall_s"],
            "diagnose_cpu_s": detail["diagnose"]["cpu_s"],
        },
        steps=detail,
        peer_status=peer["status"],
        peer_runs=[round(r["wall_s"], 3) for r in rows["peer"]],
        peer_peak_rss_gb=round(peer["peak_tree_rss_gb"], 3),
        grep_logs_s=round(statistics.median(grep_s), 3),
        memory_cap_gb=round(mem_cap() / 2**30, 1),
        verdict=verdict,
        report=report,
        hang_rank=facts["hang"],
        dir_gb=facts["gb"],
        build_s=round(build_s, 1),
        data_kept=kept,
        load=os.getloadavg(),
    )


def rd_flight(root: Path) -> Path:
    return rundir.RunDir(root).flight_dir(0)


def _verdict(r: dict[str, Any]) -> dict[str, Any]:
    try:
        d = json.loads(r["stdout"])
    except ValueError:
        return {"status": r["status"], "stderr": r["stderr"][-300:]}
    return {
        "category": d.get("category"),
        "action": d.get("action"),
        "culprits": [c.get("rank") for c in d.get("culprits", [])][:5],
        "verdict": str(d.get("verdict", ""))[:200],
    }


def _report(r: dict[str, Any]) -> dict[str, Any]:
    try:
        d = json.loads(r["stdout"])
    except ValueError:
        return {"status": r["status"], "stderr": r["stderr"][-300:]}
    return {k: d[k] for k in ("ettr", "goodput", "attempts", "interruptions") if k in d}
