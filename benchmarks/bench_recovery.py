"""Crash until training is back at the step it crashed on: `nonstop run` against torchrun + DCP.

    .venv/bin/python benchmarks/run.py recovery --quick --json   # 1 rep, standby+memory vs both peers
    .venv/bin/python benchmarks/run.py recovery --json           # 5 reps: arms, sizes, node kill

Every side runs the demo workload (`-m nonstop.workloads.llama.train`, 2 ranks, gloo on CPU)
with the same model, steps and durable DCP checkpoint cadence (`--checkpoint-every`), and the
same fault. Under torchrun the script gets NONSTOP_RUN_DIR and NONSTOP_RUN_ID from us, so
nonstop.runtime writes the same events and the same DCP checkpoints there, and resumes from the
newest one (the attempt number comes from TORCHELASTIC_RESTART_COUNT).

The figure, `back_s`, is read identically on every side from the run directory's events: from
the fault to the `start` of the crashed step in the next attempt, i.e. detection + restart +
the steps redone since the state it resumed from. `recovery_s` (fault to the first resumed step,
the figure before issue 19) and `redo_s` (the rest) split it.

- rank crash: rank 1 dies of SIGKILL at the start of step N (`crash@step=N,rank=1,signal=SIGKILL`
  through `--inject` for nonstop and NONSTOP_FAULTS for the peers), timed from the `failure`
  event with `injected: true` that rank 1 writes and flushes just before it kills itself. N
  comes several seconds into training (standbys are replaced once an attempt trains) and
  half-way between two durable checkpoints. Arms {warm standbys on/off} x {in-memory replicas
  every step on/off}, every one reported against each peer with the ratio's 95% interval; the
  headline is `standby`, `nonstop run` as it comes (DEFAULT_ARM), not the best arm. Peers:
  `torchrun --max-restarts 1` with TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 (without it torch
  2.13's restart on gloo can fail: "Gloo connectFullMesh failed", a race), and NVIDIA's
  `ft_launcher --max-restarts 1` (nvidia-resiliency-ext 0.4.1, its `any-failed` restart
  policy: the whole worker group restarts when a rank fails; `ft_launcher` key in the JSON).
- sizes: standby+memory against torchrun at about 100 MB and 1 GB of state (parameters and
  AdamW's two moments, fp32; measured as the size of a durable checkpoint).
- whole-node kill: two agents with --nnodes 2 and --nproc-per-node 1 on 127.0.0.1 against a
  c10d rendezvous store hosted here (as a head node would); once step N has started, node-b's
  agent and everything it started die of SIGKILL, and a replacement agent (node-c) is started at
  once. Timed from the kill. standby+memory against two torchrun agents (--max-restarts 3).

Phases per arm: the ledger's restart phases (`nonstop.ledger.restarts`, what `nonstop report
RUN --json` shows as `restarts`); torchrun has no ledger, only recovery_s and redo_s.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.stats import bootstrap_ratio_ci, span
from benchmarks.stats import summarize as stats_summary
from nonstop.events import EventWarning, read_events
from nonstop.rundir import RunDir

REPO = Path(__file__).resolve().parent.parent
PY = sys.executable
WORLD = 2
TIMEOUT_S = 300.0
MEMORY = ["--memory-checkpoint-every", "1"]
MEMORY_AUTO = ["--memory-checkpoint-every", "auto"]  # the recommended cadence (cadence.py)

# nonstop's arms: {warm standbys on/off} x {in-memory replicas every step on/off}, and the
# recommended configuration: standbys with snapshots at the cadence `auto` measures
ARMS: dict[str, list[str]] = {
    "standby+memory": MEMORY,
    "standby+memory-auto": MEMORY_AUTO,
    "standby": [],
    "cold+memory": ["--no-standby", *MEMORY],
    "cold": ["--no-standby"],
}
BEST_GUESS = "standby+memory"  # the arm --quick and the sizes and node kill run
DEFAULT_ARM = (
    "standby"  # `nonstop run` as it comes (standbys on, no in-memory replicas): the headline
)


@dataclass(frozen=True, kw_only=True)
class Size:
    """A workload: model flags, steps, durable checkpoint cadence and the crash step."""

    model: tuple[str, ...]
    """the demo model's flags (nonstop.workloads.llama.train)"""
    steps: int
    """steps in total"""
    every: int
    """durable (DCP) checkpoint every this many steps, the same on every side"""
    crash: int
    """the step the fault comes at: several seconds in, half-way between two checkpoints"""
    timeout_s: float = TIMEOUT_S
    """one run's limit"""


QUICK = Size(
    model=("--dim", "64", "--layers", "2", "--batch-size", "4", "--seq-len", "64"),
    steps=106,
    every=40,
    crash=100,
)
MAIN = Size(model=(), steps=80, every=10, crash=65)  # the default model: 0.8 M params, ~10 MB
# the node kill: the small model (two agents' standbys and a replacement's start share the host)
NODE = Size(model=QUICK.model, steps=80, every=10, crash=65)
M100 = ("--dim", "384", "--layers", "5", "--batch-size", "2", "--seq-len", "64")
G1 = ("--dim", "1024", "--layers", "7", "--batch-size", "1", "--seq-len", "32")
SIZES = {
    "100MB": Size(model=M100, steps=30, every=10, crash=25),
    # on the loaded 2-core host a 1 GB step takes ~10 s and its in-memory snapshot ~15 s more
    "1GB": Size(model=G1, steps=8, every=3, crash=5, timeout_s=600.0),
}
SIZE_REPS = {"100MB": 3, "1GB": 1}  # what fits in the full run's hour beside the arms


def workload(model: list[str], steps: int, every: int) -> list[str]:
    """The training command after the launcher's flags, the same for every side."""
    return [
        "-m",
        "nonstop.workloads.llama.train",
        "--steps",
        str(steps),
        "--checkpoint-every",
        str(every),
        "--log-every",
        "5",
        *model,
    ]


def crash_spec(step: int) -> str:
    return f"crash@step={step},rank=1,signal=SIGKILL"


def nonstop_cmd(run_dir: Path, train: list[str], *, inject: str, extra: list[str]) -> list[str]:
    return [
        PY,
        "-m",
        "nonstop.cli",
        "run",
        "--nproc-per-node",
        str(WORLD),
        "--quiet",
        "--run-dir",
        str(run_dir),
        "--inject",
        inject,
        *extra,
        *train,
    ]


FT_BIN = str(Path(PY).with_name("ft_launcher"))
FT_VERSION = "nvidia-resiliency-ext==0.4.1"
FT_FLAGS = [
    # its restart policy: restart the whole worker group when any rank fails (the default),
    # --max-restarts as torchrun's; the heartbeat timeouts its guide gives for a job whose
    # ranks do not report (they only bound hangs; a crash is seen as a process exit)
    "--ft-restart-policy",
    "any-failed",
    "--ft-initial-rank-heartbeat-timeout",
    "3600",
    "--ft-rank-heartbeat-timeout",
    "2700",
]


def torchrun_cmd(train: list[str], *, max_restarts: int, launcher: str = "torchrun") -> list[str]:
    """torchrun, or NVIDIA's ft_launcher (`launcher="ft"`: torchrun's agent with rank
    monitors and its restart policy), on the same script and flags."""
    head = [FT_BIN, *FT_FLAGS] if launcher == "ft" else [PY, "-m", "torch.distributed.run"]
    return [
        *head,
        "--standalone",
        "--nproc-per-node",
        str(WORLD),
        "--max-restarts",
        str(max_restarts),
        *train,
    ]


def node_cmd(
    side: str, run_dir: Path, port: int, host: str, train: list[str], extra: list[str]
) -> list[str]:
    """One of two agents (one rank each) on this machine, joining the c10d store at `port`."""
    rdzv = [
        "--nnodes",
        "2",
        "--nproc-per-node",
        "1",
        "--rdzv-backend",
        "c10d",
        "--rdzv-endpoint",
        f"127.0.0.1:{port}",
        "--rdzv-conf",
        "is_host=false",
        "--rdzv-id",
        run_dir.name,
    ]
    if side == "torchrun":
        return [PY, "-m", "torch.distributed.run", *rdzv, "--max-restarts", "3", *train]
    return [
        PY,
        "-m",
        "nonstop.cli",
        "run",
        "--quiet",
        *rdzv,
        "--run-dir",
        str(run_dir),
        "--host-name",
        host,
        *extra,
        *train,
    ]


def torchrun_env(run_dir: Path, faults: str, *, share_store: bool = False) -> dict[str, str]:
    """The environment under which plain torchrun + the same script writes the same events."""
    env = dict(
        os.environ, NONSTOP_RUN_DIR=str(run_dir), NONSTOP_RUN_ID=run_dir.name, NONSTOP_FAULTS=faults
    )
    env.pop("NONSTOP_ATTEMPT", None)  # torchrun's TORCHELASTIC_RESTART_COUNT numbers attempts
    if share_store:
        env.pop("TORCH_DISABLE_SHARE_RDZV_TCP_STORE", None)
    else:
        env["TORCH_DISABLE_SHARE_RDZV_TCP_STORE"] = "1"
    return env


def run_group(
    cmd: list[str], *, env: dict[str, str] | None, out: Path, timeout_s: float = TIMEOUT_S
) -> tuple[int | None, float]:
    """Run a launcher in its own process group with a timeout; kill the group when it runs over.
    Returns (exit code or None on timeout, seconds)."""
    t0 = time.monotonic()
    with open(out, "wb") as f:
        p = subprocess.Popen(
            cmd,
            cwd=REPO,
            env=env,
            stdout=f,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
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
    its process group and to each descendant's group, then SIGKILL whatever is left, and wait
    (up to `grace_s`) until those descendants are gone or zombies: a descendant in a session of
    its own is not the caller's child, and right after SIGKILL it can still be running its exit
    (state R) while the next arm starts."""
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
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline and any(s != "Z" for s in _states(pids).values()):
        time.sleep(0.02)


def _states(pids: set[int]) -> dict[int, str]:
    """{pid: kernel state letter} of those of `pids` that still exist (Linux /proc)."""
    out = {}
    for pid in pids:
        try:
            out[pid] = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
    return out


def kill_node(p: subprocess.Popen[bytes]) -> float:
    """SIGKILL an agent and every process it started, all at once, as a dead node; returns the
    wall time (the events' clock) just before the first signal."""
    pids = [p.pid, *(pid for pid in proc_tree(p.pid) if pid != p.pid)]
    t = time.time()
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    p.wait(timeout=30)
    return t


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


def step_events(run_dir: Path) -> list[tuple[int, float]]:
    """(step, start) of every step event of every attempt and rank.

    Attempts are not compared by number: a replacement torchrun agent counts its own restarts
    from 0, so the wall clock alone says what came after the fault."""
    attempts = {a for a, _, _ in RunDir(run_dir).event_files()}
    return [
        (int(e.payload["step"]), float(e.payload["start"]))
        for a in sorted(attempts)
        for e in _events(run_dir, a)
        if e.kind == "step"
    ]


def injected_failure(run_dir: Path) -> tuple[int, int, float] | None:
    """(attempt, rank, wall time) of the first injected `failure` event, or None."""
    best = None
    for attempt in sorted({a for a, _, _ in RunDir(run_dir).event_files()}):
        for e in _events(run_dir, attempt):
            injected = e.kind == "failure" and e.payload.get("injected")
            if injected and (best is None or e.time < best[2]):
                best = (e.attempt, e.rank, e.time)
    return best


def back_at_crash(run_dir: Path, t_fault: float) -> dict[str, Any]:
    """Seconds from a fault at wall time `t_fault` until training is back at the crashed step.

    The crashed step is the one after the last step any rank started before the fault (a rank
    that finished it after a peer died still did it); training is back when that step starts
    again. `recovery_s` runs to the first step after the fault, wherever it resumed."""
    steps = step_events(run_dir)
    before = [s for s, start in steps if start < t_fault]
    after = sorted((start, s) for s, start in steps if start >= t_fault)
    if not before or not after:
        return {
            "ok": False,
            "why": "no step before the fault" if not before else "no step after the fault",
            "fault_time": t_fault,
        }
    crash_step = max(before) + 1
    t_first, resumed = after[0]
    back = [start for start, s in after if s == crash_step]
    out = {
        "ok": bool(back),
        "fault_time": t_fault,
        "crash_step": crash_step,
        "resumed_at_step": resumed,
        "lost_steps": crash_step - resumed,
        "first_step_start": t_first,
        "recovery_s": t_first - t_fault,
    }
    if not back:
        return {**out, "why": f"step {crash_step} never ran again"}
    return {**out, "back_s": back[0] - t_fault, "redo_s": back[0] - t_first}


def recovery(run_dir: Path) -> dict[str, Any]:
    """back_at_crash from the injected failure event of one run directory."""
    fault = injected_failure(run_dir)
    if fault is None:
        return {"ok": False, "why": "no injected failure event"}
    attempt, rank, t_fault = fault
    out = back_at_crash(run_dir, t_fault)
    if "resumed_at_step" not in out:  # nothing after the fault: say which attempt is missing
        out["why"] = f"no step in attempt {attempt + 1}"
    return {**out, "fault_attempt": attempt, "fault_rank": rank}


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
            " 'imports_and_pg', 'state_load', 'first_step'))",
            (attempt, attempt + 1),
        ):
            out[f"{phase}_s"] = float(end) - float(start)
            if phase in ("spawn", "handover"):
                out["_spawn_end"] = float(end)
        row = con.execute(
            "SELECT MIN(detection_time), MIN(latency_s) FROM detections WHERE attempt = ?"
            " AND kind != 'straggler'",
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


def first_step_start(run_dir: Path, attempt: int) -> float | None:
    """The earliest `start` of a step event of `attempt` on any rank."""
    starts = [float(e.payload["start"]) for e in _events(run_dir, attempt) if e.kind == "step"]
    return min(starts) if starts else None


def restart_info(run_dir: Path, attempt: int) -> dict[str, Any]:
    """How `attempt` started (warm/cold), where its state came from (memory/storage), and the
    ledger's restarts rows (seconds per phase; `nonstop report RUN --json`'s `restarts`)."""
    from nonstop.ledger import Ledger
    from nonstop.ledger.restarts import restarts

    with Ledger.open(RunDir(run_dir).ledger, create=False, readonly=True) as led:
        path = led.rows("SELECT restart_path FROM attempts WHERE attempt = ?", (attempt,))
        src = led.rows(
            "SELECT path FROM checkpoints WHERE attempt = ? AND phase = 'loaded'", (attempt,)
        )
        rows = restarts(led)
    state = None if not src or not src[0][0] else str(src[0][0]).split(":")[0]
    return {
        "restart_path": path[0][0] if path else None,
        "state_from": state,
        "restarts": [
            {
                "attempt": r["attempt"],
                "path": r["path"],
                "source": r["source"],
                "total_s": r["total_s"],
                "phases": {k: round(v, 4) for k, v in r["phases"].items()},
            }
            for r in rows
        ],
    }


def state_mb(run_dir: Path) -> float | None:
    """MB on disk of the newest durable checkpoint (the whole state: every rank's share)."""
    steps = sorted(RunDir(run_dir).root.glob("checkpoints/step-*"), key=lambda p: p.stat().st_mtime)
    if not steps:
        return None
    return round(sum(f.stat().st_size for f in steps[-1].rglob("*") if f.is_file()) / 1e6, 1)


# -- the summary -------------------------------------------------------------------------------


def _vals(rows: list[dict[str, Any]], key: str) -> list[float]:
    return [float(r[key]) for r in rows if r.get("ok") and r.get(key) is not None]


def _median(xs: list[float]) -> float | None:
    return round(statistics.median(xs), 4) if xs else None


def _phases(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Median seconds per ledger restart phase (the first restart of each run)."""
    per: dict[str, list[float]] = {}
    for r in rows:
        for k, v in (r.get("restarts") or [{}])[0].get("phases", {}).items():
            per.setdefault(k, []).append(v)
    return {k: round(statistics.median(v), 4) for k, v in sorted(per.items())}


def side(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One arm's medians and ranges over its repetitions."""
    back = _vals(rows, "back_s")
    out: dict[str, Any] = {
        "back_s": _median(back),
        "back_range_s": span(back),
        "ok": sum(bool(r.get("ok")) for r in rows),
        "reps": len(rows),
    }
    for key in ("recovery_s", "redo_s", "lost_steps"):
        out[key] = _median(_vals(rows, key))
    for key in ("restart_path", "state_from"):
        seen = {str(r[key]) for r in rows if r.get(key) is not None}
        if seen:
            out[key] = sorted(seen)
    if any(r.get("restarts") for r in rows):
        out["phases_s"] = _phases(rows)
    return out


def compare(ours: list[dict[str, Any]], peer: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """ours vs peer back_s (medians, ranges, a bootstrap CI of the ratio) and both sides."""
    o, p = _vals(ours, "back_s"), _vals(peer, "back_s")
    if not o or not p:
        return {
            "ours": _median(o),
            "peer": _median(p),
            "ratio": None,
            "ours_side": side(ours),
            "peer_side": side(peer),
            **extra,
        }
    s = stats_summary(o, p, name="recovery", unit="s", peer_name="", better="lower")
    return {
        "ours": s["ours"],
        "peer": s["peer"],
        "ratio": round(s["ratio"], 4),
        "spread": s["spread"],
        "reps": s["reps"],
        "ours_side": side(ours),
        "peer_side": side(peer),
        **extra,
    }


PEER_NAME = (
    "torchrun --max-restarts 1 (TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1) + the same "
    "script's DCP checkpoints at the same cadence, resuming from the newest"
)
UNIT = "s from a SIGKILLed rank until training is back at the step it crashed on"


def summarize(
    arms: dict[str, list[dict[str, Any]]],
    peer: list[dict[str, Any]],
    ft: list[dict[str, Any]] | None = None,
    **detail: Any,
) -> dict[str, Any]:
    """The harness's JSON object: nonstop's default configuration (DEFAULT_ARM, else the only
    arm run) against torchrun, and every arm against torchrun and ft_launcher beside it."""
    medians = {
        a: statistics.median(_vals(r, "back_s")) for a, r in arms.items() if _vals(r, "back_s")
    }
    best = min(medians, key=medians.__getitem__) if medians else next(iter(arms))
    headline = DEFAULT_ARM if DEFAULT_ARM in arms else next(iter(arms))
    o, p = _vals(arms[headline], "back_s"), _vals(peer, "back_s")
    f = _vals(ft or [], "back_s")
    head: dict[str, Any] = {
        "name": "recovery",
        "ours": float("nan"),
        "peer": float("nan"),
        "ratio": float("nan"),
        "spread": {},
        "reps": 0,
    }
    if o and p:
        head = stats_summary(o, p, name="recovery", unit=UNIT, peer_name=PEER_NAME, better="lower")
    head.update(
        peer_name=PEER_NAME,
        unit=UNIT,
        better="lower",
        headline_arm=headline,
        best_arm=best,
        limit=None,  # no physical floor measured: back_s >= 0 steps redone + detection
        arms={a: side(r) for a, r in arms.items()},
        torchrun=side(peer),
        ratio_per_arm={
            a: round(m / statistics.median(p), 4) if p else None for a, m in medians.items()
        },
        ratio_ci_per_arm={
            a: bootstrap_ratio_ci(_vals(r, "back_s"), p) for a, r in arms.items() if p
        },
    )
    if ft is not None:
        head["ft_launcher"] = {
            **side(ft),
            "name": f"ft_launcher ({FT_VERSION}) --max-restarts 1 {' '.join(FT_FLAGS)}",
            "ratio_per_arm": {
                a: round(m / statistics.median(f), 4) if f else None for a, m in medians.items()
            },
            "ratio_ci_per_arm": {
                a: bootstrap_ratio_ci(_vals(r, "back_s"), f) for a, r in arms.items() if f
            },
        }
    head.update(detail)
    return head


# -- the runs ----------------------------------------------------------------------------------


def _nonstop_once(root: Path, tag: str, size: Size, extra: list[str]) -> dict[str, Any]:
    run_dir = root / tag
    train = workload(list(size.model), size.steps, size.every)
    cmd = nonstop_cmd(run_dir, train, inject=crash_spec(size.crash), extra=extra)
    load = round(os.getloadavg()[0], 2)
    rc, wall = run_group(cmd, env=None, out=root / f"{tag}.out", timeout_s=size.timeout_s)
    r = {"tag": tag, **recovery(run_dir), "rc": rc, "wall_s": round(wall, 2), "load_1m": load}
    if "fault_attempt" in r and RunDir(run_dir).ledger.exists():
        r["breakdown"] = ledger_breakdown(run_dir, r["fault_attempt"], r["fault_time"])
        r.update(restart_info(run_dir, r["fault_attempt"] + 1))
    return r


def _torchrun_once(
    root: Path, tag: str, size: Size, *, share_store: bool = False, launcher: str = "torchrun"
) -> dict[str, Any]:
    run_dir = root / tag
    run_dir.mkdir(parents=True)
    out = root / f"{tag}.out"
    train = workload(list(size.model), size.steps, size.every)
    env = torchrun_env(run_dir, crash_spec(size.crash), share_store=share_store)
    load = round(os.getloadavg()[0], 2)
    rc, wall = run_group(
        torchrun_cmd(train, max_restarts=1, launcher=launcher),
        env=env,
        out=out,
        timeout_s=size.timeout_s,
    )
    r = {"tag": tag, **recovery(run_dir), "rc": rc, "wall_s": round(wall, 2), "load_1m": load}
    r["state_mb"] = state_mb(run_dir)
    r["gloo_connect_full_mesh_failed"] = "connectFullMesh failed" in out.read_text(errors="replace")
    return r


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _last_step(run_dir: Path) -> int:
    return max((s for s, _ in step_events(run_dir)), default=-1)


def _node_kill_once(root: Path, tag: str, who: str, size: Size) -> dict[str, Any]:
    """Two agents; node-b dies whole once step `size.crash` has started; node-c replaces it."""
    from torch.distributed import TCPStore  # the head node's store; torch only for this section

    run_dir = root / tag
    run_dir.mkdir(parents=True)
    port = _free_port()
    store = TCPStore("127.0.0.1", port, is_master=True, wait_for_workers=False)
    train = workload(list(size.model), size.steps, size.every)
    env = torchrun_env(run_dir, "") if who == "torchrun" else None
    extra = ARMS[BEST_GUESS]
    procs: dict[str, subprocess.Popen[bytes]] = {}
    logs = []

    def start(host: str) -> None:
        log = open(root / f"{tag}-{host}.out", "wb")  # noqa: SIM115 - closed below
        logs.append(log)
        procs[host] = subprocess.Popen(
            node_cmd(who, run_dir, port, host, train, extra),
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )

    r: dict[str, Any] = {"tag": tag, "load_1m": round(os.getloadavg()[0], 2)}
    try:
        start("node-a")
        start("node-b")
        deadline = time.monotonic() + size.timeout_s
        while _last_step(run_dir) < size.crash - 1 and time.monotonic() < deadline:
            if any(p.poll() is not None for p in procs.values()):
                break
            time.sleep(0.05)
        if _last_step(run_dir) < size.crash - 1:
            return {**r, "ok": False, "why": "never reached the crash step before the kill"}
        t_kill = kill_node(procs["node-b"])
        start("node-c")
        rcs = []
        for host in ("node-a", "node-c"):
            try:
                rcs.append(procs[host].wait(timeout=max(1.0, deadline - time.monotonic())))
            except subprocess.TimeoutExpired:
                rcs.append(None)
        r.update(back_at_crash(run_dir, t_kill), rc=rcs)
        if who != "torchrun" and RunDir(run_dir).ledger.exists():
            info = restart_info(run_dir, 1)
            r.update(info, restarts=info["restarts"][:1])
    finally:
        for p in procs.values():
            if p.poll() is None:
                kill_group(p)  # type: ignore[arg-type]
        for log in logs:
            log.close()
        del store
    return r


def _log(msg: str) -> None:
    print(f"[recovery] {time.strftime('%H:%M:%S')} {msg}", file=sys.stderr, flush=True)


def run(
    quick: bool,
    *,
    reps: int = 5,
    sizes: tuple[str, ...] = tuple(SIZES),
    size_reps: int | None = None,
    node_reps: int = 3,
    node_kill: bool = True,
    with_ft: bool = True,
    only_arms: tuple[str, ...] = (),
) -> dict[str, Any]:
    """--quick: one repetition of the best-guess arm and torchrun on the tiny model. Full: `reps`
    repetitions of every arm and torchrun, then the node kill (`node_reps`) and the sizes
    (`size_reps` each, else SIZE_REPS), the best-guess arm against torchrun, so that the whole
    run fits in about an hour on a loaded 2-core host. What is done so far is kept in
    RUN_ROOT/partial.json."""
    load = [round(x, 2) for x in os.getloadavg()]
    root = Path(tempfile.mkdtemp(prefix="nonstop-bench-recovery-"))
    _log(f"runs in {root}")
    size = QUICK if quick else MAIN
    arm_names = [BEST_GUESS] if quick else list(only_arms or ARMS)
    reps = 1 if quick else reps
    arms: dict[str, list[dict[str, Any]]] = {a: [] for a in arm_names}
    peer: list[dict[str, Any]] = []
    ft: list[dict[str, Any]] = []
    runs: dict[str, Any] = {"arms": arms, "torchrun": peer, "ft_launcher": ft}
    detail: dict[str, Any] = {
        "workload": " ".join(workload(list(size.model), size.steps, size.every)),
        "fault": crash_spec(size.crash),
        "world_size": WORLD,
        "run_root": str(root),
    }

    def done(section: str) -> None:
        detail["load"] = {"start": load, "now": [round(x, 2) for x in os.getloadavg()]}
        partial = {**summarize(arms, peer, ft if with_ft else None, **detail), "runs": runs}
        (root / "partial.json").write_text(json.dumps(partial))
        _log(f"{section} done")

    for i in range(reps):  # interleaved, so drift on a shared machine hits every side alike
        for a in arm_names:
            arms[a].append(_nonstop_once(root, f"{a}-{i}", size, ARMS[a]))
        peer.append(_torchrun_once(root, f"torchrun-{i}", size))
        if with_ft:
            ft.append(_torchrun_once(root, f"ft-{i}", size, launcher="ft"))
        _log(
            f"rep {i}: "
            + ", ".join(f"{a} {arms[a][-1].get('back_s')}" for a in arm_names)
            + f", torchrun {peer[-1].get('back_s')}"
            + (f", ft_launcher {ft[-1].get('back_s')}" if with_ft else "")
        )
    detail["state_mb"] = next((r["state_mb"] for r in peer if r.get("state_mb")), None)
    done("arms")
    if not quick and node_kill:
        ours_n: list[dict[str, Any]] = []
        peer_n: list[dict[str, Any]] = []
        runs["node_kill"] = {"ours": ours_n, "torchrun": peer_n}
        for i in range(node_reps):
            ours_n.append(_node_kill_once(root, f"node-{BEST_GUESS}-{i}", "nonstop", NODE))
            peer_n.append(_node_kill_once(root, f"node-torchrun-{i}", "torchrun", NODE))
            _log(f"node kill {i}: {ours_n[-1].get('back_s')} vs {peer_n[-1].get('back_s')}")
        detail["node_kill"] = compare(
            ours_n,
            peer_n,
            arm=BEST_GUESS,
            kill_after_step=NODE.crash - 1,
            workload=" ".join(workload(list(NODE.model), NODE.steps, NODE.every)),
            peer_name="two torchrun agents, --max-restarts 3, the same c10d store",
        )
        done("node kill")
    for name in () if quick else sizes:
        s, k = SIZES[name], size_reps or SIZE_REPS[name]
        ours_s: list[dict[str, Any]] = []
        peer_s: list[dict[str, Any]] = []
        runs[name] = {"ours": ours_s, "torchrun": peer_s}
        for i in range(k):
            ours_s.append(_nonstop_once(root, f"{name}-{BEST_GUESS}-{i}", s, ARMS[BEST_GUESS]))
            peer_s.append(_torchrun_once(root, f"{name}-torchrun-{i}", s))
            _log(f"{name} {i}: {ours_s[-1].get('back_s')} vs {peer_s[-1].get('back_s')}")
        detail.setdefault("sizes", {})[name] = compare(
            ours_s,
            peer_s,
            arm=BEST_GUESS,
            fault=crash_spec(s.crash),
            workload=" ".join(workload(list(s.model), s.steps, s.every)),
            state_mb=next((r["state_mb"] for r in peer_s if r.get("state_mb")), None),
        )
        done(name)
    detail["load"] = {"start": load, "end": [round(x, 2) for x in os.getloadavg()]}
    return {**summarize(arms, peer, ft if with_ft else None, **detail), "runs": runs}


def main(argv: list[str] | None = None) -> int:
    """Run parts of the full benchmark (benchmarks/run.py runs all of it)."""
    import argparse

    p = argparse.ArgumentParser(prog="benchmarks/bench_recovery.py", description=__doc__)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--sizes", default=",".join(SIZES), help="comma-separated, or '' for none")
    p.add_argument("--size-reps", type=int, default=None, help="default: SIZE_REPS")
    p.add_argument("--node-reps", type=int, default=3)
    p.add_argument("--no-node-kill", action="store_true")
    p.add_argument("--no-ft", action="store_true", help="leave out the ft_launcher arm")
    p.add_argument("--arms", default="", help=f"comma-separated, of {', '.join(ARMS)}; default all")
    a = p.parse_args(argv)
    only = tuple(x for x in a.arms.split(",") if x)
    if unknown := [x for x in only if x not in ARMS]:
        p.error(f"no such arm: {', '.join(unknown)} (arms: {', '.join(ARMS)})")
    sizes = tuple(x for x in a.sizes.split(",") if x)
    out = run(
        a.quick,
        reps=a.reps,
        sizes=sizes,
        size_reps=a.size_reps,
        node_reps=a.node_reps,
        node_kill=not a.no_node_kill,
        with_ft=not a.no_ft,
        only_arms=only,
    )
    print(json.dumps(out))
    return 0


if __name__ == "__main__":  # from the repository root: python -m benchmarks.bench_recovery
    raise SystemExit(main())
