"""Hang to detection: `nonstop run` against torchrun armed with a process-group timeout and torch's
elastic timer at nonstop's floor, same script, same hangs; plus slow phases that are not hangs.

    .venv/bin/python benchmarks/run.py hang-detection --quick --json   # 1 rep, 1 kind (< 60 s)
    .venv/bin/python benchmarks/run.py hang-detection --json           # 4 kinds x 5 reps + 3 pauses

Both sides run benchmarks/hang_workload.py (2 ranks, gloo on CPU, steps reported with
nonstop.runtime). The hangs, all on rank 1:

- sigstop: SIGSTOP at the start of step N (`hang@step=N,rank=1`, nonstop.faults);
- collective: inside a receive no peer matches while rank 0 waits in DDP's all-reduce
  (`hang@step=N,rank=1,how=collective`);
- startup: blocks forever after init_process_group, before DDP is built (no step ever runs);
- loader: its DataLoader worker blocks forever producing step N's batch.

Time zero is the rank's own record, written just before it hangs (the injector's `failure`
event; the script's `hang.json` for its own hangs).

- ours: `nonstop run --max-restarts 0 --health-checks none --no-self-test --no-standby
  --startup-timeout 60` with `--hang-timeout auto`; detection is the ledger's `hang` detection.
  `--startup-timeout 60` is STARTUP_FLOOR_S, what an attempt that follows a seen startup uses
  (min(300, max(60, 3 x startup))); a first attempt waits the default 300 s.
- peer: `torchrun --max-restarts 0` with init_process_group(timeout=STEP_FLOOR_S) and every
  step inside `torch.distributed.elastic.timer.expires(after=STEP_FLOOR_S)` served by the
  agent's FileTimerServer (TORCHELASTIC_ENABLE_FILE_TIMER=1): nonstop's own floor for an
  instrumented script, the strongest setting torchrun offers. Detection is the first moment a
  rank process is gone (the gloo timeout's exception, the timer's SIGKILL) or torchrun exits,
  polled every 50 ms. After reaping a rank, torch's FileTimerServer SIGKILLs its own agent:
  torchrun dies (-9) and leaves its other ranks orphaned (`peer_orphans`); the benchmark kills
  them.

False-positive arm: one run per slow phase on each side, each phase PAUSE_S (8 s: longer than
the 5 s floor, far shorter than any timeout a real job sets): rank 0 evaluates (CPU-bound, an
`eval` section), rank 0 saves synchronously (I/O-bound, a `checkpoint` section), rank 1
recompiles inside a step (Python work, no section). `false_hangs` counts nonstop's hang
detections; `peer_false_hangs` the peer runs that lost a rank.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_recovery import (
    PY,
    REPO,
    TIMEOUT_S,
    WORLD,
    _events,
    injected_failure,
    kill_group,
    proc_tree,
    run_group,
)
from benchmarks.stats import reps, summarize
from nonstop.supervisor.watchdog import STARTUP_FLOOR_S, STEP_FLOOR_S

KINDS = ("sigstop", "collective", "startup", "loader")
QUICK_KIND = "collective"
HANG_STEP = 12  # past the watchdog's 5 warm-up steps: its steps-based timeout applies
STEPS = 40
PAUSE_S = 8.0
PAUSES = ("eval", "save", "compile")
NONSTOP_FLAGS = [
    "--max-restarts",
    "0",
    "--health-checks",
    "none",
    "--no-self-test",
    "--no-standby",
    "--startup-timeout",
    f"{STARTUP_FLOOR_S:g}",
]
PEER_TIMEOUT_S = STEP_FLOOR_S
POLL_S = 0.05
WATCH_S = 120.0  # the longest the peer is watched after the hang


def fault_env(kind: str) -> dict[str, str]:
    """The environment that makes rank 1 hang this way (the same for both sides)."""
    if kind == "sigstop":
        return {"NONSTOP_FAULTS": f"hang@step={HANG_STEP},rank=1"}
    if kind == "collective":
        return {"NONSTOP_FAULTS": f"hang@step={HANG_STEP},rank=1,how=collective"}
    if kind == "startup":
        return {"BENCH_HANG": "startup@rank=1"}
    if kind == "loader":
        return {"BENCH_HANG": f"loader@step={HANG_STEP},rank=1"}
    if kind in PAUSES:
        rank = 1 if kind == "compile" else 0
        return {"BENCH_PAUSE": f"{kind}@step={HANG_STEP},rank={rank},s={PAUSE_S:g}"}
    raise ValueError(f"kind: unknown hang kind {kind!r}; one of {', '.join(KINDS + PAUSES)}")


def train_args() -> list[str]:
    return ["-m", "benchmarks.hang_workload", "--steps", str(STEPS)]


def side_env(run_dir: Path, kind: str, *, peer: bool) -> dict[str, str]:
    env = dict(os.environ, BENCH_MARKS=str(run_dir), PYTHONPATH=str(REPO))
    for k in ("NONSTOP_FAULTS", "BENCH_HANG", "BENCH_PAUSE", "NONSTOP_ATTEMPT"):
        env.pop(k, None)
    env.update(fault_env(kind))
    if peer:  # the same events through nonstop.runtime, and torchrun's strongest hang settings
        env.update(
            NONSTOP_RUN_DIR=str(run_dir),
            NONSTOP_RUN_ID=run_dir.name,
            BENCH_PG_TIMEOUT_S=f"{PEER_TIMEOUT_S:g}",
            BENCH_TIMER_S=f"{PEER_TIMEOUT_S:g}",
            TORCHELASTIC_ENABLE_FILE_TIMER="1",
            TORCHELASTIC_TIMER_FILE=str(run_dir / "timer.fifo"),
            TORCH_DISABLE_SHARE_RDZV_TCP_STORE="1",
        )
    return env


def hang_time(run_dir: Path) -> float | None:
    """Wall time the hang began: the injector's record, else the script's hang.json."""
    fault = injected_failure(run_dir)
    if fault is not None:
        return fault[2]
    with contextlib.suppress(OSError, ValueError, KeyError):
        return float(json.loads((run_dir / "hang.json").read_text())["time"])
    return None


def pause_time(run_dir: Path) -> float | None:
    with contextlib.suppress(OSError, ValueError, KeyError):
        return float(json.loads((run_dir / "pause.json").read_text())["time"])
    return None


def hang_detections(
    run_dir: Path,
) -> tuple[list[tuple[float, int | None, float | None]], dict[str, Any]]:
    """(detection wall time, rank, latency) of every `hang` detection in the ledger, and the
    first failure's hang evidence (timeout, basis)."""
    path = run_dir / "ledger.db"
    if not path.exists():
        return [], {}
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30.0)
    try:
        rows = con.execute(
            "SELECT detection_time, rank, latency_s FROM detections WHERE"
            " kind = 'hang' ORDER BY detection_time"
        ).fetchall()
        ev = con.execute("SELECT evidence FROM failures ORDER BY time LIMIT 1").fetchone()
    finally:
        con.close()
    hang = json.loads(ev[0]).get("hang", {}) if ev and ev[0] else {}
    return [(float(t), r, lat) for t, r, lat in rows], hang


def detection(run_dir: Path) -> dict[str, Any]:
    """Seconds from the hang to nonstop's first `hang` detection, from the run directory."""
    t0 = hang_time(run_dir)
    if t0 is None:
        return {"ok": False, "why": "no record of the hang (injector event or hang.json)"}
    if not (run_dir / "ledger.db").exists():
        return {"ok": False, "why": "no ledger"}
    dets, hang = hang_detections(run_dir)
    if not dets:
        return {"ok": False, "why": "no hang detection in the ledger"}
    t, rank, latency = dets[0]
    return {
        "ok": True,
        "detection_s": t - t0,
        "detected_rank": rank,
        "ledger_latency_s": latency,
        "timeout_s": hang.get("timeout_s"),
        "basis": hang.get("basis"),
    }


def steps_after(run_dir: Path, attempt: int, t: float) -> int:
    """Step events of `attempt` that started after wall time `t` (progress after the hang)."""
    return sum(1 for e in _events(run_dir, attempt) if e.kind == "step" and e.payload["start"] > t)


def rank_pids(run_dir: Path) -> dict[int, int]:
    """{rank: pid} from each rank's `attempt_start` event (attempt 0)."""
    out = {}
    for e in _events(run_dir, 0):
        if e.kind == "lifecycle" and e.payload.get("phase") == "attempt_start":
            out[e.rank] = int(e.payload["pid"])
    return out


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


def _ours(root: Path, tag: str, kind: str) -> dict[str, Any]:
    run_dir = root / tag
    run_dir.mkdir(parents=True)
    cmd = [
        PY,
        "-m",
        "nonstop.cli",
        "run",
        "--nproc-per-node",
        str(WORLD),
        "--quiet",
        "--run-dir",
        str(run_dir),
        *NONSTOP_FLAGS,
        *train_args(),
    ]
    rc, wall = run_group(
        cmd, env=side_env(run_dir, kind, peer=False), out=root / f"{tag}.out", timeout_s=TIMEOUT_S
    )
    r = {"kind": kind, "rc": rc, "wall_s": round(wall, 2)}
    if kind in PAUSES:
        dets, _ = hang_detections(run_dir)
        r.update(
            ok=rc == 0 and pause_time(run_dir) is not None, false_hangs=len(dets), finished=rc == 0
        )
    else:
        r.update(detection(run_dir))
    return r


def _peer(root: Path, tag: str, kind: str) -> dict[str, Any]:
    """torchrun with the hang: watch until a rank is gone or torchrun exits; then clean up."""
    run_dir = root / tag
    run_dir.mkdir(parents=True)
    cmd = [
        PY,
        "-m",
        "torch.distributed.run",
        "--standalone",
        "--nproc-per-node",
        str(WORLD),
        "--max-restarts",
        "0",
        *train_args(),
    ]
    seen: set[int] = set()
    t_start = time.monotonic()
    with open(root / f"{tag}.out", "wb") as f:
        p = subprocess.Popen(
            cmd,
            cwd=REPO,
            env=side_env(run_dir, kind, peer=True),
            stdout=f,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            r = _watch(p, run_dir, kind, seen)
        finally:
            seen |= set(proc_tree(p.pid))
            orphans = [pid for pid in seen - {p.pid} if not _gone(pid) and _ours_pid(pid)]
            kill_group(p)
            for pid in orphans:  # torchrun SIGKILLed by its own timer server leaves these
                for sig in (signal.SIGCONT, signal.SIGKILL):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, sig)
    r.update(
        kind=kind,
        rc=p.returncode,
        peer_orphans=len(orphans),
        wall_s=round(time.monotonic() - t_start, 2),
    )
    r["timer_killed_launcher"] = p.returncode == -signal.SIGKILL
    return r


def _ours_pid(pid: int) -> bool:
    try:
        return b"hang_workload" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _watch(p: subprocess.Popen[bytes], run_dir: Path, kind: str, seen: set[int]) -> dict[str, Any]:
    deadline = time.monotonic() + TIMEOUT_S
    pids: dict[int, int] = {}
    t_exit = t0 = None
    polls = 0
    gone: list[int] = []
    while time.monotonic() < deadline:
        polls += 1
        if polls % 20 == 1:  # a /proc scan and the event files: not every 50 ms on 2 cores
            seen |= set(proc_tree(p.pid))
            if len(pids) < WORLD:
                pids = rank_pids(run_dir)
            if t0 is None:
                t0 = hang_time(run_dir)
        gone = [r for r, pid in pids.items() if _gone(pid)]
        if p.poll() is not None or gone:
            t_exit = time.time()
            break
        if t0 is not None and kind not in PAUSES and time.time() > t0 + WATCH_S:
            break
        time.sleep(POLL_S)
    first = "launcher" if p.poll() is not None and not gone else f"ranks {gone}"
    if kind in PAUSES:  # torchrun exited 0: no false hang; a rank lost (timer or gloo): one
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=60)  # the ranks exit first, torchrun after them
        finished = p.poll() == 0
        t_pause = pause_time(run_dir)
        return {
            "ok": t_pause is not None,
            "false_hangs": 0 if finished else 1,
            "finished": finished,
            "first_gone": None if finished else first,
            "lost_rank_after_pause_s": None
            if finished or t_exit is None or t_pause is None
            else round(t_exit - t_pause, 3),
        }
    t0 = hang_time(run_dir)
    if t0 is None:
        return {"ok": False, "why": f"no record of the hang (rc {p.poll()})"}
    if t_exit is None:
        return {
            "ok": True,
            "detected": False,
            "watched_s": time.time() - t0,
            "steps_after_hang": steps_after(run_dir, 0, t0),
        }
    if t_exit < t0:
        return {"ok": False, "why": f"a rank was lost before the hang ({first})"}
    return {"ok": True, "detected": True, "detection_s": t_exit - t0, "first_gone": first}


def run(quick: bool) -> dict[str, Any]:
    kinds = (QUICK_KIND,) if quick else KINDS
    n = 1 if quick else reps(False)
    root = Path(tempfile.mkdtemp(prefix="nonstop-bench-hang-"))
    load_start = [round(x, 2) for x in os.getloadavg()]
    rows: dict[str, dict[str, list[dict[str, Any]]]] = {k: {"ours": [], "peer": []} for k in kinds}
    for i in range(n):  # interleaved: drift on a shared machine hits both sides alike
        for k in kinds:
            rows[k]["ours"].append(_ours(root, f"ours-{k}-{i}", k))
            rows[k]["peer"].append(_peer(root, f"peer-{k}-{i}", k))
    fp: dict[str, dict[str, Any]] = {}
    if not quick:
        for k in PAUSES:
            fp[k] = {"ours": _ours(root, f"ours-{k}", k), "peer": _peer(root, f"peer-{k}", k)}
    load = {"start": load_start, "end": [round(x, 2) for x in os.getloadavg()]}
    return combine(
        rows,
        fp,
        kinds,
        load=load,
        date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        run_root=str(root),
    )


def combine(
    rows: dict[str, dict[str, list[dict[str, Any]]]],
    fp: dict[str, dict[str, Any]],
    kinds: tuple[str, ...],
    **extra: Any,
) -> dict[str, Any]:
    """The harness's JSON object from every run's measurement (medians over kinds and reps)."""
    ours = [r["detection_s"] for k in kinds for r in rows[k]["ours"] if r.get("ok")]
    peer = [
        r["detection_s"] if r.get("detected") else r["watched_s"]
        for k in kinds
        for r in rows[k]["peer"]
        if r.get("ok")
    ]
    per_kind = {}
    for k in kinds:
        o = [r["detection_s"] for r in rows[k]["ours"] if r.get("ok")]
        pe = [r["detection_s"] for r in rows[k]["peer"] if r.get("detected")]
        per_kind[k] = {
            "ours": statistics.median(o) if o else None,
            "peer": statistics.median(pe) if pe else None,
            "ratio": statistics.median(o) / statistics.median(pe) if o and pe else None,
            "ours_basis": sorted({str(r.get("basis")) for r in rows[k]["ours"]}),
            "peer_first_gone": sorted({str(r.get("first_gone")) for r in rows[k]["peer"]}),
            "ours_failed": [r.get("why") for r in rows[k]["ours"] if not r.get("ok")],
            "peer_failed": [r.get("why") for r in rows[k]["peer"] if not r.get("ok")],
            "peer_undetected": sum(
                bool(r.get("ok")) and not r.get("detected") for r in rows[k]["peer"]
            ),
        }
    out = summarize(
        ours or [float("nan")],
        peer,
        name="hang-detection",
        unit="s from hang to detection",
        better="lower",
        peer_name=f"torchrun, init_process_group(timeout={PEER_TIMEOUT_S:g} s) + elastic "
        f"FileTimerServer expires(after={PEER_TIMEOUT_S:g} s) per step",
    )
    out.update(
        limit=STEP_FLOOR_S,
        limit_is="the 5 s floor (STEP_FLOOR_S) both sides time out at: neither can be faster",
        kinds=list(kinds),
        per_kind=per_kind,
        false_hangs=sum(v["ours"].get("false_hangs", 0) for v in fp.values()) if fp else None,
        peer_false_hangs=sum(v["peer"].get("false_hangs", 0) for v in fp.values()) if fp else None,
        false_positive_arm={"pause_s": PAUSE_S, "runs": fp} if fp else "not run in --quick",
        peer_orphans=sum(r.get("peer_orphans", 0) for k in kinds for r in rows[k]["peer"]),
        peer_timer_killed_launcher=sum(
            bool(r.get("timer_killed_launcher")) for k in kinds for r in rows[k]["peer"]
        ),
        nonstop_flags=" ".join(NONSTOP_FLAGS),
        hang_step=HANG_STEP,
        steps=STEPS,
        runs=rows,
        **extra,
    )
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
