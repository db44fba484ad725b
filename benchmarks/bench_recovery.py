"""Crash to first resumed step: `nonstop run` against plain torchrun, same script and fault.

    .venv/bin/python benchmarks/run.py recovery --quick --json   # 1 repetition, small model
    .venv/bin/python benchmarks/run.py recovery --json           # 3 repetitions, medians

Both sides run the demo workload (`-m nonstop.workloads.llama.train`, 2 ranks, gloo on CPU)
with the same model, steps and checkpoint interval, and the same fault: rank 1 dies of SIGKILL
at the start of step N (`crash@step=N,rank=1,signal=SIGKILL`, through `--inject` for nonstop
and `NONSTOP_FAULTS` for torchrun). Under torchrun the script gets NONSTOP_RUN_DIR and
NONSTOP_RUN_ID from us, so nonstop.runtime writes the same events and checkpoints there (the
attempt number comes from TORCHELASTIC_RESTART_COUNT).

The figure is measured identically on both sides from the run directory's events: from the
`failure` event with `injected: true` (written and flushed by rank 1 just before it kills
itself) to the earliest `start` of a `step` event of the next attempt. It therefore covers
detection, teardown, health checks, rendezvous, process start, `import torch`, process-group
init and checkpoint load.

- ours: `nonstop run` with its defaults (warm standby workers; health checks disk,memory,gpu)
  plus in-memory checkpoint replicas every step (`--memory-checkpoint-every 1`); the durable
  checkpoint keeps its interval. The crash comes late enough (about 8 s into training) for the
  standbys that took over attempt 0 to have been replaced.
- ours_durable_only: `nonstop run --no-standby`: cold workers, state from the durable
  checkpoint, as before issue 11. `lost_steps` compares the progress each loses per failure.
- peer: `python -m torch.distributed.run --max-restarts 1` with
  TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1. Without that variable torch 2.13's restart on gloo
  can fail ("Gloo connectFullMesh failed", a race): the full run tries it once
  (`detail.torchrun_shared_store`).

The breakdown per phase comes from the ledger's restart_phases and detections tables.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from nonstop.events import EventWarning, read_events
from nonstop.rundir import RunDir

REPO = Path(__file__).resolve().parent.parent
PY = sys.executable
WORLD = 2
TIMEOUT_S = 300.0

# (model args, steps, checkpoint every, crash step) for --quick and the full run: the crash
# comes several seconds into training (standbys are replaced once an attempt trains), and
# between two durable checkpoints
QUICK = (["--dim", "64", "--layers", "2", "--batch-size", "4", "--seq-len", "64"], 420, 50, 325)
FULL = ([], 80, 10, 65)
MEMORY = ["--memory-checkpoint-every", "1"]


def workload(model: list[str], steps: int, every: int) -> list[str]:
    """The training command after the launcher's flags, the same for every side."""
    return ["-m", "nonstop.workloads.llama.train", "--steps", str(steps),
            "--checkpoint-every", str(every), "--log-every", "5", *model]  # fmt: skip


def crash_spec(step: int) -> str:
    return f"crash@step={step},rank=1,signal=SIGKILL"


def nonstop_cmd(run_dir: Path, train: list[str], *, inject: str, extra: list[str]) -> list[str]:
    return [PY, "-m", "nonstop.cli", "run", "--nproc-per-node", str(WORLD), "--quiet",
            "--run-dir", str(run_dir), "--inject", inject, *extra, *train]  # fmt: skip


def torchrun_cmd(train: list[str], *, max_restarts: int) -> list[str]:
    return [PY, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", str(WORLD),
            "--max-restarts", str(max_restarts), *train]  # fmt: skip


def torchrun_env(run_dir: Path, faults: str, *, share_store: bool = False) -> dict[str, str]:
    """The environment under which plain torchrun + the same script writes the same events."""
    env = dict(os.environ, NONSTOP_RUN_DIR=str(run_dir), NONSTOP_RUN_ID=run_dir.name,
               NONSTOP_FAULTS=faults)  # fmt: skip
    env.pop("NONSTOP_ATTEMPT", None)  # torchrun's TORCHELASTIC_RESTART_COUNT numbers attempts
    if share_store:
        env.pop("TORCH_DISABLE_SHARE_RDZV_TCP_STORE", None)
    else:
        env["TORCH_DISABLE_SHARE_RDZV_TCP_STORE"] = "1"
    return env


def run_group(cmd: list[str], *, env: dict[str, str] | None, out: Path,
              timeout_s: float = TIMEOUT_S) -> tuple[int | None, float]:  # fmt: skip
    """Run a launcher in its own process group with a timeout; kill the group when it runs over.
    Returns (exit code or None on timeout, seconds)."""
    t0 = time.monotonic()
    with open(out, "wb") as f:
        p = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=f, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
        try:
            rc: int | None = p.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            kill_group(p)
            rc = None
    return rc, time.monotonic() - t0


def proc_tree(root: int) -> dict[int, str]:
    """{pid: kernel state letter} of `root` and all its descendants (Linux /proc).

    torch's elastic agent starts each worker in a session of its own, so the launcher's process
    group alone does not reach them."""
    parent, state = {}, {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parent[int(d.name)], state[int(d.name)] = int(fields[1]), fields[0]
    tree, frontier = {}, [root]
    while frontier:
        pid = frontier.pop()
        if pid in state and pid not in tree:
            tree[pid] = state[pid]
            frontier += [c for c, pp in parent.items() if pp == pid]
    return tree


def kill_group(p: subprocess.Popen[bytes], grace_s: float = 5.0) -> None:
    """Stop a launcher and everything it started: SIGTERM and SIGCONT (for stopped workers) to
    its process group and to each descendant's group, then SIGKILL whatever is left."""
    pids = set(proc_tree(p.pid))
    groups = {p.pid} | {_pgid(pid) for pid in pids} - {None, os.getpgrp()}
    for sig in (signal.SIGTERM, signal.SIGCONT):
        for g in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(g, sig)  # type: ignore[arg-type]
    with contextlib.suppress(subprocess.TimeoutExpired):
        p.wait(timeout=grace_s)
    for g in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(g, signal.SIGKILL)  # type: ignore[arg-type]
    p.wait(timeout=grace_s)


def _pgid(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except ProcessLookupError:
        return None


# -- measurement from a run directory (pure functions of the files: tested on synthetic runs) --


def _events(run_dir: Path, attempt: int) -> list[Any]:
    out = []
    rd = RunDir(run_dir)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EventWarning)  # a SIGKILLed writer's torn last line
        for a, _rank, path in rd.event_files():
            if a == attempt:
                out.extend(read_events(path)[0])
    return out


def injected_failure(run_dir: Path) -> tuple[int, int, float] | None:
    """(attempt, rank, wall time) of the first injected `failure` event, or None."""
    best = None
    for attempt in sorted({a for a, _, _ in RunDir(run_dir).event_files()}):
        for e in _events(run_dir, attempt):
            injected = e.kind == "failure" and e.payload.get("injected")
            if injected and (best is None or e.time < best[2]):
                best = (e.attempt, e.rank, e.time)
    return best


def first_step_start(run_dir: Path, attempt: int) -> float | None:
    """The earliest `start` of a step event of `attempt` on any rank."""
    starts = [float(e.payload["start"]) for e in _events(run_dir, attempt) if e.kind == "step"]
    return min(starts) if starts else None


def resumed_step(run_dir: Path, attempt: int) -> int | None:
    """The step of the first step event of `attempt` (where training picked up)."""
    steps = [int(e.payload["step"]) for e in _events(run_dir, attempt) if e.kind == "step"]
    return min(steps) if steps else None


def recovery(run_dir: Path) -> dict[str, Any]:
    """Crash-to-first-resumed-step seconds of one run directory, from its events alone."""
    fault = injected_failure(run_dir)
    if fault is None:
        return {"ok": False, "why": "no injected failure event"}
    attempt, rank, t_fault = fault
    t_step = first_step_start(run_dir, attempt + 1)
    if t_step is None:
        return {"ok": False, "why": f"no step in attempt {attempt + 1}", "fault_time": t_fault}
    return {"ok": True, "recovery_s": t_step - t_fault, "fault_attempt": attempt,
            "fault_rank": rank, "fault_time": t_fault, "first_step_start": t_step,
            "resumed_at_step": resumed_step(run_dir, attempt + 1)}  # fmt: skip


def ledger_breakdown(run_dir: Path, attempt: int, fault_time: float) -> dict[str, float]:
    """Seconds per restart phase after the failure of `attempt`, from the ledger.

    evidence, health_checks and teardown belong to the failed attempt; rendezvous and spawn to
    the next one. `detection_s` is the ledger's detection time minus the injected fault's time,
    `detection_latency_s` the ledger's own latency (from the rank's last event);
    `worker_start_s` runs from the end of spawn to the first step (import, init, load).
    """
    out: dict[str, float] = {}
    path = RunDir(run_dir).ledger
    if not path.exists():
        return out
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30.0)
    try:
        for phase, start, end in con.execute(
            "SELECT phase, start, end FROM restart_phases WHERE"
            " (attempt = ? AND phase IN ('evidence', 'health_checks', 'teardown'))"
            " OR (attempt = ? AND phase IN ('rendezvous', 'spawn', 'handover', 'interpreter',"
            " 'imports_and_pg', 'state_load', 'first_step'))", (attempt, attempt + 1),
        ):  # fmt: skip
            out[f"{phase}_s"] = float(end) - float(start)
            if phase in ("spawn", "handover"):
                out["_spawn_end"] = float(end)
        row = con.execute(
            "SELECT MIN(detection_time), MIN(latency_s) FROM detections WHERE attempt = ?",
            (attempt,),
        ).fetchone()
        if row and row[0] is not None:
            out["detection_s"] = float(row[0]) - fault_time
            if row[1] is not None:
                out["detection_latency_s"] = float(row[1])
    finally:
        con.close()
    spawn_end = out.pop("_spawn_end", None)
    t_step = first_step_start(run_dir, attempt + 1)
    if spawn_end is not None and t_step is not None:
        out["worker_start_s"] = t_step - spawn_end
    return out


def _median_of(rows: list[dict[str, Any]], key: str) -> float:
    vals = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(vals) if vals else float("nan")


def _breakdown(rows: list[dict[str, Any]]) -> dict[str, float]:
    phases = sorted({k for r in rows for k in r.get("breakdown", {})})
    return {k: statistics.median([r["breakdown"][k] for r in rows if k in r.get("breakdown", {})])
            for k in phases}  # fmt: skip


def summarize(ours: list[dict[str, Any]], durable: list[dict[str, Any]],
              peer: list[dict[str, Any]], **detail: Any) -> dict[str, Any]:  # fmt: skip
    """The harness's JSON object from the per-repetition measurements (medians)."""
    o, p = _median_of(ours, "recovery_s"), _median_of(peer, "recovery_s")
    d = _median_of(durable, "recovery_s")
    return {
        "name": "recovery",
        "ours": o,
        "peer": p,
        "peer_name": "torchrun --max-restarts 1 (TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1)",
        "ratio": o / p if p else float("nan"),
        "unit": "s from crash to first resumed step",
        "better": "lower",
        "ours_durable_only_s": d,
        "ratio_durable_only": d / p if p else float("nan"),
        "lost_steps": {
            "ours": _median_of(ours, "lost_steps"),
            "ours_durable_only": _median_of(durable, "lost_steps"),
            "torchrun": _median_of(peer, "lost_steps"),
        },
        "restart_path": sorted({str(r.get("restart_path")) for r in ours}),
        "state_from": sorted({str(r.get("state_from")) for r in ours}),
        "ours_breakdown_s": _breakdown(ours),
        "ours_durable_only_breakdown_s": _breakdown(durable),
        "runs": {"ours": ours, "ours_durable_only": durable, "torchrun": peer},
        **detail,
    }


# -- the runs ----------------------------------------------------------------------------------


def _nonstop_once(root: Path, tag: str, train: list[str], fault: str,
                  extra: list[str]) -> dict[str, Any]:  # fmt: skip
    run_dir = root / tag
    rc, wall = run_group(nonstop_cmd(run_dir, train, inject=fault, extra=extra), env=None,
                         out=root / f"{tag}.out")  # fmt: skip
    r = recovery(run_dir)
    r.update(rc=rc, wall_s=round(wall, 2), **_lost(r, fault))
    if r["ok"]:
        r["breakdown"] = ledger_breakdown(run_dir, r["fault_attempt"], r["fault_time"])
        r.update(restart_info(run_dir, r["fault_attempt"] + 1))
    return r


def _lost(r: dict[str, Any], fault: str) -> dict[str, Any]:
    """Steps done before the crash that the next attempt had to do again."""
    crash_step = int(fault.split("step=")[1].split(",")[0])
    resumed = r.get("resumed_at_step")
    return {"lost_steps": None if resumed is None else crash_step - resumed}


def restart_info(run_dir: Path, attempt: int) -> dict[str, Any]:
    """How `attempt` started (warm/cold) and where its state came from (memory/storage)."""
    con = sqlite3.connect(f"file:{RunDir(run_dir).ledger}?mode=ro", uri=True, timeout=30.0)
    try:
        path = con.execute("SELECT restart_path FROM attempts WHERE attempt = ?",
                           (attempt,)).fetchone()  # fmt: skip
        src = con.execute("SELECT path FROM checkpoints WHERE attempt = ? AND phase = 'loaded'",
                          (attempt,)).fetchone()  # fmt: skip
    finally:
        con.close()
    state = None if not src or not src[0] else str(src[0]).split(":")[0]
    return {"restart_path": path[0] if path else None, "state_from": state}


def _torchrun_once(root: Path, tag: str, train: list[str], fault: str, *,
                   share_store: bool = False, timeout_s: float = TIMEOUT_S) -> dict[str, Any]:  # fmt: skip
    run_dir = root / tag
    run_dir.mkdir(parents=True)
    out = root / f"{tag}.out"
    rc, wall = run_group(torchrun_cmd(train, max_restarts=1), out=out, timeout_s=timeout_s,
                         env=torchrun_env(run_dir, fault, share_store=share_store))  # fmt: skip
    r = recovery(run_dir)
    r.update(rc=rc, wall_s=round(wall, 2), **_lost(r, fault))
    text = out.read_text(errors="replace")
    r["gloo_connect_full_mesh_failed"] = "connectFullMesh failed" in text
    return r


def run(quick: bool) -> dict[str, Any]:
    model, steps, every, crash_at = QUICK if quick else FULL
    reps = 1 if quick else 3
    train = workload(model, steps, every)
    fault = crash_spec(crash_at)
    ours, durable, peer = [], [], []
    root = Path(tempfile.mkdtemp(prefix="nonstop-bench-recovery-"))
    for i in range(reps):  # interleaved, so drift on a shared machine hits every side alike
        ours.append(_nonstop_once(root, f"ours-{i}", train, fault, MEMORY))
        durable.append(_nonstop_once(root, f"durable-{i}", train, fault, ["--no-standby"]))
        peer.append(_torchrun_once(root, f"torchrun-{i}", train, fault))
    detail: dict[str, Any] = {
        "repetitions": reps,
        "workload": " ".join(train),
        "fault": fault,
        "world_size": WORLD,
        "run_root": str(root),
    }
    if not quick:  # ~40 s: torchrun through the shared store, once
        shared = _torchrun_once(root, "torchrun-shared-store", train, fault, share_store=True,
                                timeout_s=180.0)  # fmt: skip
        detail["torchrun_shared_store"] = {
            "restarted_ok": shared["ok"] and shared.get("rc") == 0,
            "recovery_s": shared.get("recovery_s"),
            "rc": shared.get("rc"),
            "gloo_connect_full_mesh_failed": shared["gloo_connect_full_mesh_failed"],
            "note": "without TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1, torchrun's restart can fail "
            "with 'Gloo connectFullMesh failed' (torch 2.13, gloo): the shared store keeps the "
            "dead attempt's peer addresses; it is a race, so some runs restart",
        }
    else:
        detail["torchrun_shared_store"] = {
            "note": "not run in --quick; without TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 "
            "torchrun's restart can fail with 'Gloo connectFullMesh failed' (torch 2.13, gloo)"
        }
    return summarize(ours, durable, peer, **detail)


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
