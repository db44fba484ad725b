"""Hang to detection: `nonstop run` against plain torchrun, same script and the same hang.

    .venv/bin/python benchmarks/run.py hang-detection --quick --json   # 20 s budget
    .venv/bin/python benchmarks/run.py hang-detection --json           # 60 s budget

Rank 1 of the demo workload (2 ranks, gloo on CPU) stops itself with SIGSTOP at the start of
step N (`hang@step=N,rank=1`, through `--inject` for nonstop and `NONSTOP_FAULTS` for torchrun,
which also gets NONSTOP_RUN_DIR so the same events are written). Rank 0 then waits in DDP's next
collective.

- ours: from the `failure` event with `injected: true` (rank 1 writes and flushes it just before
  it stops) to the ledger's `hang` detection time. `nonstop run` runs with `--hang-timeout auto`
  (its default), `--max-restarts 0` and no health checks, so it exits right after detecting;
  neither changes when it detects.
- peer: torchrun with gloo defaults, watched for the same budget from the same event. torchrun
  watches process exits only, so it never notices: `peer` is the budget, `peer_detected` false,
  and `peer_state_at_budget` says what it was doing then (processes alive, rank 1 stopped,
  no step after the hang). The ratio ours / budget is a lower bound on the true ratio: the
  first thing that would end torchrun's wait is gloo's collective timeout, 5 minutes in this
  script (init_process_group(timeout=...)), 30 minutes by default. torchrun is then stopped
  cleanly: SIGTERM and SIGCONT to its whole process group, SIGKILL after 5 s.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_recovery import (
    REPO,
    TIMEOUT_S,
    _events,
    injected_failure,
    kill_group,
    nonstop_cmd,
    proc_tree,
    run_group,
    torchrun_cmd,
    torchrun_env,
    workload,
)

# (model args, steps, hang step, torchrun budget s) for --quick and the full run
QUICK = (["--dim", "64", "--layers", "2", "--batch-size", "4", "--seq-len", "64"], 400, 15, 20.0)
FULL = ([], 400, 20, 60.0)


def hang_spec(step: int) -> str:
    return f"hang@step={step},rank=1"


def detection(run_dir: Path) -> dict[str, Any]:
    """Seconds from the injected hang to nonstop's `hang` detection, from events and ledger."""
    import sqlite3

    fault = injected_failure(run_dir)
    if fault is None:
        return {"ok": False, "why": "no injected failure event"}
    attempt, rank, t_fault = fault
    path = run_dir / "ledger.db"
    if not path.exists():
        return {"ok": False, "why": "no ledger"}
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30.0)
    try:
        det = con.execute(
            "SELECT detection_time, latency_s, rank FROM detections WHERE attempt = ? AND"
            " kind = 'hang' ORDER BY detection_time LIMIT 1", (attempt,),
        ).fetchone()  # fmt: skip
        ev = con.execute(
            "SELECT evidence FROM failures WHERE attempt = ? ORDER BY time LIMIT 1", (attempt,)
        ).fetchone()
    finally:
        con.close()
    if det is None:
        return {"ok": False, "why": f"no hang detection in attempt {attempt}"}
    hang = json.loads(ev[0]).get("hang", {}) if ev and ev[0] else {}
    return {
        "ok": True,
        "detection_s": float(det[0]) - t_fault,
        "ledger_latency_s": det[1],
        "detected_rank": det[2],
        "hang_rank": rank,
        "timeout_s": hang.get("timeout_s"),
        "basis": hang.get("basis"),
    }


def steps_after(run_dir: Path, attempt: int, t: float) -> int:
    """Step events of `attempt` that started after wall time `t` (progress after the hang)."""
    return sum(1 for e in _events(run_dir, attempt) if e.kind == "step" and e.payload["start"] > t)


def watch_torchrun(run_dir: Path, train: list[str], fault: str, *, budget_s: float,
                   out: Path) -> dict[str, Any]:  # fmt: skip
    """Run torchrun with the hang; watch it for `budget_s` after the hang; then stop it."""
    env = torchrun_env(run_dir, fault)
    with open(out, "wb") as f:
        p = subprocess.Popen(torchrun_cmd(train, max_restarts=0), cwd=REPO, env=env, stdout=f,
                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True)  # fmt: skip
        try:
            result = _watch(p, run_dir, budget_s)
        finally:
            kill_group(p)
    result["left_after_kill"] = len(proc_tree(p.pid))  # 0: everything it started is gone
    return result


def _watch(p: subprocess.Popen[bytes], run_dir: Path, budget_s: float) -> dict[str, Any]:
    deadline = time.monotonic() + TIMEOUT_S
    fault = None
    while fault is None and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.2)
        fault = injected_failure(run_dir)
    if fault is None:
        return {"ok": False, "why": f"no injected failure event (rc {p.poll()})"}
    attempt, _rank, t_fault = fault
    while time.time() < t_fault + budget_s:  # torchrun exiting would be its detection
        if p.poll() is not None:
            return {"ok": True, "detected": True, "detection_s": time.time() - t_fault,
                    "rc": p.returncode}  # fmt: skip
        time.sleep(0.2)
    workers = {pid: s for pid, s in proc_tree(p.pid).items() if pid != p.pid}
    return {
        "ok": True,
        "detected": False,
        "watched_s": time.time() - t_fault,
        "launcher_alive": p.poll() is None,
        "worker_states": sorted(workers.values()),
        "stopped_workers": sum(s == "T" for s in workers.values()),
        "steps_after_hang": steps_after(run_dir, attempt, t_fault),
    }


def summarize(ours: dict[str, Any], peer: dict[str, Any], budget_s: float,
              **detail: Any) -> dict[str, Any]:  # fmt: skip
    """The harness's JSON object from one measurement per side."""
    o = ours.get("detection_s", float("nan"))
    detected = bool(peer.get("detected"))
    p = peer["detection_s"] if detected else budget_s
    state = ""
    if not detected and peer.get("ok"):
        state = (f"still hung after {peer['watched_s']:.0f} s: launcher alive="
                 f"{peer['launcher_alive']}, worker states {peer['worker_states']} "
                 f"({peer['stopped_workers']} stopped by SIGSTOP), "
                 f"{peer['steps_after_hang']} steps after the hang")  # fmt: skip
    return {
        "name": "hang-detection",
        "ours": o,
        "peer": p,
        "peer_name": f"torchrun (gloo defaults; watched {budget_s:.0f} s)",
        "ratio": o / p if p else float("nan"),
        "ratio_is_lower_bound": not detected,
        "unit": "s from hang to detection",
        "better": "lower",
        "peer_detected": detected,
        "peer_state_at_budget": state,
        "budget_s": budget_s,
        "note": "torchrun never detected the hang within the budget; the true ratio is lower "
        "still (gloo's collective timeout, 5 min in this script, would end the wait)"
        if not detected
        else "torchrun noticed the hang (a process exited)",
        "runs": {"ours": ours, "torchrun": peer},
        **detail,
    }


def run(quick: bool) -> dict[str, Any]:
    model, steps, hang_at, budget_s = QUICK if quick else FULL
    train = workload(model, steps, 0)
    fault = hang_spec(hang_at)
    root = Path(tempfile.mkdtemp(prefix="nonstop-bench-hang-"))
    ours_dir = root / "ours"
    flags = ["--max-restarts", "0", "--health-checks", "none", "--no-self-test"]
    rc, wall = run_group(nonstop_cmd(ours_dir, train, inject=fault, extra=flags), env=None,
                         out=root / "ours.out")  # fmt: skip
    ours = detection(ours_dir)
    ours.update(rc=rc, wall_s=round(wall, 2))
    peer_dir = root / "torchrun"
    peer_dir.mkdir()
    peer = watch_torchrun(peer_dir, train, fault, budget_s=budget_s, out=root / "torchrun.out")
    return summarize(ours, peer, budget_s, workload=" ".join(train), fault=fault,
                     nonstop_flags=" ".join(flags), run_root=str(root))  # fmt: skip


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
