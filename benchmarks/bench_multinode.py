"""Network and node faults between real hosts: `nonstop run` against torchrun in the same cluster.

    sudo .venv/bin/python benchmarks/run.py multinode --quick --json   # 1 rep of each scenario
    sudo .venv/bin/python benchmarks/run.py multinode --json           # 5 reps, interleaved
    sudo NONSTOP_BENCH_MULTINODE_KINDS=cable_pulled,switch_lost,rdzv_host_lost \
        .venv/bin/python benchmarks/run.py multinode --json             # those scenarios

The hosts are network namespaces on this machine (tests/support/cluster.py, `make cluster-up`;
NONSTOP_CLUSTER_PREFIX/SUBNET choose which): each its own IP, hostname and /etc/hosts, joined by
a bridge. Both sides run the demo workload (`-m nonstop.workloads.llama.train`, one rank per
node, gloo) with the same model, steps and durable DCP checkpoint cadence, the same `--nnodes`,
c10d rendezvous on node0's address (node0's agent hosts the store, as torchrun's does), and the
same fault applied to the kernel's network once step FAULT_AT is done:

- node_lost: two training nodes and a spare (in torch's redundancy list: the world is full at
  `--nnodes 2:2`); every process of the node training beside node0 SIGKILLed (node1, or node2
  where the loaded host let the spare's agent join first).
- host_silent: two nodes at `--nnodes 1:2`, no spare; node1 goes silent the way a powered-off
  server does: its link (both ends) down first, so nothing it had open is closed or reset, then
  every process SIGKILLed; the link stays down. node0 sees a peer that no longer answers (no
  carrier change of its own): for nonstop's network hold this looks like a pulled cable at the
  far end (held at most netwait.SILENT_PEER_CAP_S); node0 goes on alone.
- host_silent_spare: the same fault beside a waiting spare, as node_lost (`--nnodes 2:2`): the
  rendezvous sees the dead node's keep-alive lapse and the spare's wish to join, which ends
  any hold.
- cable_pulled: node1's link (both ends of its veth) down for CABLE_S seconds, then back.
- switch_lost: three training nodes; the bridge down for SWITCH_S seconds, then back.
- rdzv_host_lost: three nodes at `--nnodes 2:3`; every process of node0 (the store's host)
  SIGKILLed. nonstop gets `--rdzv-fallback-endpoints node1:port` (its documented answer);
  torchrun has no equivalent.

The figures are read the same way for both sides, by the same observer, from the step events
that nonstop.runtime writes in the run directory (under torchrun the script gets
NONSTOP_RUN_DIR, so it writes the same events and DCP checkpoints), all on one clock:

- back_s: from the fault (wall time just before it is applied) to the end of the first step
  that every rank of the world after the fault started and completed after it. It counts detection (a
  survivor that starts the next step before anyone notices does not count as training), the
  restart, and for a world that resumed from a checkpoint the steps redone. A world that
  simply resumes once the network is back (gloo's TCP connections outlive a short outage)
  counts from the fault to the first step it ran whole after it, the outage included.
- caught_up_s: from the fault until the world completed the step after the last one done
  before it: training back where it was.
- redone: the steps done before the fault that the new world did again.

torchrun runs as its docs recommend for multi-node: `--max-restarts 3`, c10d rendezvous, the
script's own checkpoints; `TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1` (bench_recovery: torch 2.13's
gloo restart otherwise races). Root only (namespaces).
"""

from __future__ import annotations

import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from benchmarks.bench_recovery import kill_group, torchrun_env, workload
from benchmarks.stats import span
from benchmarks.stats import summarize as stats_summary
from nonstop import envvars

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

PY = sys.executable
# the tests' tiny model: on a loaded 2-core host an attempt costs the interpreters' start
MODEL = (
    *("--dim", "32", "--layers", "1", "--heads", "2", "--kv-heads", "1"),
    *("--seq-len", "32", "--batch-size", "2"),
)
STEPS, EVERY, FAULT_AT = 30, 10, 15  # the fault half-way between two durable checkpoints
CABLE_S, SWITCH_S = 20.0, 10.0
TIMEOUT_S = 300.0
PORT = 29400


# scenario -> (--nnodes, nodes started, world size after the fault)
SCENARIOS: dict[str, tuple[str, tuple[int, ...], int]] = {
    "node_lost": ("2:2", (0, 1, 2), 2),
    "host_silent": ("1:2", (0, 1), 1),
    "host_silent_spare": ("2:2", (0, 1, 2), 2),
    "cable_pulled": ("2:2", (0, 1), 2),
    "switch_lost": ("3:3", (0, 1, 2), 3),
    "rdzv_host_lost": ("2:3", (0, 1, 2), 2),
}
# what a full run measures: on a loaded 2-core host (load average 20-30 beside other work) a
# pair of runs takes 3-5 minutes; the others run when named (python -m
# benchmarks.bench_multinode switch_lost rdzv_host_lost). The store host's loss is no contest:
# torchrun's agents exit (`RendezvousConnectionError`).
DEFAULT = ("node_lost", "cable_pulled")
LOSE_A_NODE = ("node_lost", "host_silent", "host_silent_spare")  # the node beside node0 goes
PEER_NAME = (
    "torchrun --max-restarts 3, the same --nnodes, c10d rendezvous on node0, the same script's "
    "DCP checkpoints (TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1)"
)
UNIT = "s from the fault to the first step the whole world completes after it"


# -- measurement from a run directory (pure functions of the files: tested on synthetic runs) --


def step_rows(run_dir: Path) -> list[tuple[int, int, int, float, float]]:
    """(attempt, rank, step, start, end) of every step event of every attempt and rank."""
    from nonstop.events import EventWarning, read_events
    from nonstop.rundir import RunDir

    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EventWarning)  # a SIGKILLed writer's torn last line
        for attempt, rank, path in RunDir(run_dir).event_files():
            for e in read_events(path)[0]:
                if e.kind == "step" and "end" in e.payload:
                    p = e.payload
                    out.append((attempt, rank, int(p["step"]), float(p["start"]), float(p["end"])))
    return out


def back_after_fault(
    rows: list[tuple[int, int, int, float, float]], t_fault: float, world: int
) -> dict[str, Any]:
    """Training again after a fault at wall time `t_fault`, for a world of `world` ranks.

    A step counts as trained after the fault once `world` distinct ranks each started and
    completed it after the fault (each rank's first such run of it); its time is the last of
    those completions. A step in flight at the fault does not count: its collective may have
    passed just before. Attempt numbers are not compared: a spare's torchrun agent counts its own
    restarts from 0, so the clock alone says what came after the fault."""
    done_before = [s for _a, _r, s, _st, end in rows if end < t_fault]
    if not done_before:
        return {"ok": False, "why": "no step before the fault", "fault_time": t_fault}
    last_before = max(done_before)
    first_end: dict[tuple[int, int], float] = {}  # (step, rank) -> first end after the fault
    for _a, rank, s, start, end in rows:
        if start >= t_fault and ((s, rank) not in first_end or end < first_end[(s, rank)]):
            first_end[(s, rank)] = end
    per_step: dict[int, list[float]] = {}
    for (s, _rank), end in first_end.items():
        per_step.setdefault(s, []).append(end)
    complete = {s: max(ends) for s, ends in per_step.items() if len(ends) >= world}
    out: dict[str, Any] = {"fault_time": t_fault, "last_before": last_before}
    if not complete:
        return {**out, "ok": False, "why": "no step completed by the whole world after the fault"}
    first = min(complete, key=complete.__getitem__)
    out.update(
        ok=True,
        back_s=round(complete[first] - t_fault, 3),
        back_step=first,
        redone=sum(1 for s in complete if s <= last_before),
    )
    if last_before + 1 in complete:
        out["caught_up_s"] = round(complete[last_before + 1] - t_fault, 3)
    return out


def ledger_roots(run_dir: Path) -> list[tuple[Any, ...]]:
    """nonstop's root causes: (attempt, host, category, action)."""
    db = run_dir / "ledger.db"
    if not db.exists():
        return []
    with sqlite3.connect(db) as c:
        return c.execute(
            "SELECT attempt, host, category, action FROM failures WHERE root_cause = 1"
        ).fetchall()


# -- the runs ----------------------------------------------------------------------------------


def _cmd(side: str, cluster: Any, run_dir: Path, scenario: str) -> list[str]:
    nnodes = SCENARIOS[scenario][0]
    rdzv = [
        "--nnodes",
        nnodes,
        "--nproc-per-node",
        "1",
        "--rdzv-backend",
        "c10d",
        "--rdzv-endpoint",
        f"{cluster[0].ip}:{PORT}",
        "--rdzv-id",
        run_dir.name,
    ]
    if scenario == "rdzv_host_lost":  # a round closes 3 s after the minimum joined, both sides
        rdzv += ["--rdzv-conf", "last_call_timeout=3"]
    train = workload(list(MODEL), STEPS, EVERY)
    if side == "torchrun":
        return [PY, "-m", "torch.distributed.run", *rdzv, "--max-restarts", "3", *train]
    extra = ["--run-dir", str(run_dir), "--no-self-test"]
    if scenario == "rdzv_host_lost":
        extra += ["--rdzv-fallback-endpoints", f"{cluster[1].ip}:{PORT}"]
    return [PY, "-m", "nonstop.cli", "run", "--quiet", *rdzv, *extra, *train]


def _last_done(run_dir: Path) -> int:
    return max((s for *_x, s, _st, _e in step_rows(run_dir)), default=-1)


def training_hosts(run_dir: Path, since: float) -> set[str]:
    """The hosts whose ranks completed a step after wall time `since`."""
    from nonstop.events import EventWarning, read_events
    from nonstop.rundir import RunDir

    out = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EventWarning)
        for _attempt, _rank, path in RunDir(run_dir).event_files():
            for e in read_events(path)[0]:
                if e.kind == "step" and float(e.payload.get("end", 0)) >= since:
                    out.add(e.host)
    return out


def _victim(run_dir: Path) -> int:
    """node_lost's node: the one training beside node0 (under load the spare can take the
    second seat when node1's agent joins late)."""
    hosts = training_hosts(run_dir, time.time() - 5.0) - {"node0"}
    return int(sorted(hosts)[0].removeprefix("node")) if hosts else 1


def _fault(cluster: Any, scenario: str, victim: int = 1) -> float:
    """Apply the scenario's fault; the wall time just before it."""
    t = time.time()
    if scenario == "node_lost":
        cluster[victim].kill()
    elif scenario in ("host_silent", "host_silent_spare"):
        cluster[victim].link_down()  # power lost: no FIN, no RST, nothing answers
        cluster[victim].kill()
    elif scenario == "rdzv_host_lost":
        cluster[0].kill()
    elif scenario == "cable_pulled":
        cluster[1].link_down()
        time.sleep(CABLE_S)
        cluster[1].link_up()
    elif scenario == "switch_lost":
        cluster.switch_down()
        time.sleep(SWITCH_S)
        cluster.switch_up()
    return t


def once(cluster: Any, root: Path, side: str, scenario: str, tag: str) -> dict[str, Any]:
    """One run of one side through one fault: its figures and how it ended."""
    cluster.reset()
    run_dir = root / tag
    run_dir.mkdir(parents=True)
    env = torchrun_env(run_dir, "") if side == "torchrun" else dict(os.environ)
    env["PYTHONPATH"] = str(REPO)
    cmd = _cmd(side, cluster, run_dir, scenario)
    _nnodes, nodes, world = SCENARIOS[scenario]
    procs: dict[int, subprocess.Popen[bytes]] = {}
    logs = []
    r: dict[str, Any] = {"tag": tag, "load_1m": round(os.getloadavg()[0], 2)}
    try:
        for i in nodes:
            log = open(root / f"{tag}-node{i}.out", "wb")  # noqa: SIM115 - closed below
            logs.append(log)
            procs[i] = cluster[i].popen(
                cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
            if scenario in LOSE_A_NODE and i == 1:
                time.sleep(1.0)  # node0 and node1 form the world; node2 arrives as the spare
        deadline = time.monotonic() + TIMEOUT_S
        while _last_done(run_dir) < FAULT_AT and time.monotonic() < deadline:
            if any(p.poll() is not None for p in procs.values()):
                return {**r, "ok": False, "why": "an agent exited before the fault"}
            time.sleep(0.05)
        if _last_done(run_dir) < FAULT_AT:
            return {**r, "ok": False, "why": "never reached the fault's step"}
        victim = _victim(run_dir) if scenario in LOSE_A_NODE else 1
        r["victim"] = f"node{victim}"
        t_fault = _fault(cluster, scenario, victim)
        dead = victim if scenario in LOSE_A_NODE else {"rdzv_host_lost": 0}.get(scenario)
        rcs = {}
        for i, p in procs.items():
            if i == dead:
                continue
            try:
                rcs[i] = p.wait(timeout=max(1.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                rcs[i] = None
        r.update(back_after_fault(step_rows(run_dir), t_fault, world), rc=rcs)
        r["finished"] = all(c == 0 for c in rcs.values()) and _last_done(run_dir) == STEPS - 1
        if side == "nonstop":
            r["root_causes"] = ledger_roots(run_dir)
    finally:
        for p in procs.values():
            if p.poll() is None:
                kill_group(p)
        cluster.kill_all()
        for log in logs:
            log.close()
    return r


def _vals(rows: list[dict[str, Any]], key: str) -> list[float]:
    return [float(r[key]) for r in rows if r.get("ok") and r.get(key) is not None]


def _median(xs: list[float]) -> float | None:
    return round(statistics.median(xs), 3) if xs else None


def side_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One side's medians and ranges over its repetitions."""
    out: dict[str, Any] = {
        "reps": len(rows),
        "back": sum(bool(r.get("ok")) for r in rows),
        "finished": sum(bool(r.get("finished")) for r in rows),
    }
    for key in ("back_s", "caught_up_s", "redone"):
        v = _vals(rows, key)
        out[key], out[f"{key}_range"] = _median(v), span(v) if v else None
    why = sorted({str(r["why"]) for r in rows if r.get("why")})
    if why:
        out["why"] = why
    roots = sorted({json.dumps(x) for r in rows for x in r.get("root_causes") or []})
    if roots:
        out["root_causes"] = [json.loads(x) for x in roots]
    return out


def compare(ours: list[dict[str, Any]], peer: list[dict[str, Any]]) -> dict[str, Any]:
    """back_s medians, ranges and a bootstrap CI of the ratio; each side's whole summary. A
    side that never trained again has no back_s: its count of runs back says so."""
    o, p = _vals(ours, "back_s"), _vals(peer, "back_s")
    out: dict[str, Any] = {"ours": _median(o), "peer": _median(p), "ratio": None}
    if o and p:
        s = stats_summary(o, p, name="multinode", unit=UNIT, peer_name="", better="lower")
        out.update(ratio=round(s["ratio"], 3), spread=s["spread"])
    return {**out, "nonstop": side_summary(ours), "torchrun": side_summary(peer)}


def chosen(value: str | None) -> tuple[str, ...]:
    """The scenarios NONSTOP_BENCH_MULTINODE_KINDS names (comma-separated; DEFAULT if unset);
    one line naming an unknown one (SystemExit)."""
    names = tuple(n.strip() for n in (value or "").split(",") if n.strip())
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        raise SystemExit(
            f"{envvars.BENCH_MULTINODE_KINDS}: unknown {', '.join(unknown)}; "
            f"known: {', '.join(SCENARIOS)}"
        )
    return names or DEFAULT


def run(quick: bool, *, reps: int | None = None, scenarios: tuple[str, ...] | None = None) -> dict:
    from support import cluster as netns

    from benchmarks.stats import reps as default_reps

    if scenarios is None:
        scenarios = chosen(os.environ.get(envvars.BENCH_MULTINODE_KINDS))
    if reps is None:  # --quick: one of each; NONSTOP_BENCH_REPS overrides either
        reps = default_reps(False) if not quick or os.environ.get(envvars.BENCH_REPS) else 1

    try:
        cluster = netns.up(3, owner_pid=os.getpid())
    except (netns.ClusterUnavailable, OSError, subprocess.CalledProcessError) as e:
        return {
            "name": "multinode",
            "ours": None,
            "peer": None,
            "peer_name": PEER_NAME,
            "ratio": None,
            "unit": UNIT,
            "better": "lower",
            "skipped": f"no namespace cluster: {e}",
        }
    root = Path(tempfile.mkdtemp(prefix="nonstop-bench-multinode-"))
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {
        s: {"nonstop": [], "torchrun": []} for s in scenarios
    }
    load = [round(x, 2) for x in os.getloadavg()]
    t0 = time.monotonic()
    try:
        for i in range(reps):  # interleaved: drift on a shared machine hits both sides alike
            for s in scenarios:
                for who in ("nonstop", "torchrun"):
                    out = once(cluster, root, who, s, f"{s}-{who}-{i}")
                    runs[s][who].append(out)
                    print(
                        f"multinode: {s} {who} rep {i}: back_s {out.get('back_s')} "
                        f"redone {out.get('redone')} finished {out.get('finished')} "
                        f"{out.get('why', '')}",
                        file=sys.stderr,
                        flush=True,
                    )
                    (root / "partial.json").write_text(json.dumps(runs))
    finally:
        netns.down(cluster.root)
    detail = {s: compare(runs[s]["nonstop"], runs[s]["torchrun"]) for s in scenarios}
    head = detail[scenarios[0]]
    return {
        "name": "multinode",
        "ours": head["ours"],
        "peer": head["peer"],
        "peer_name": PEER_NAME,
        "ratio": head["ratio"],
        "spread": head.get("spread"),
        "reps": reps,
        "unit": f"{UNIT} ({scenarios[0]}; every scenario in detail)",
        "better": "lower",
        "detail": {
            **detail,
            "workload": " ".join(workload(list(MODEL), STEPS, EVERY)),
            "fault_after_step": FAULT_AT,
            "cable_s": CABLE_S,
            "switch_s": SWITCH_S,
            "load": {"start": load, "end": [round(x, 2) for x in os.getloadavg()]},
            "wall_s": round(time.monotonic() - t0, 1),
        },
        "runs": runs,
        "run_root": str(root),
    }


if __name__ == "__main__":  # from the repository root: python -m benchmarks.bench_multinode
    args = sys.argv[1:]
    only = tuple(a for a in args if a in SCENARIOS) or None
    print(json.dumps(run(quick="--quick" in args, scenarios=only)))
