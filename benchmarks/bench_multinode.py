"""Network and node faults between real hosts: `nonstop run` against torchrun in the same cluster.

    sudo .venv/bin/python benchmarks/run.py multinode --quick --json   # 1 rep of each scenario
    sudo .venv/bin/python benchmarks/run.py multinode --json           # 5 reps, interleaved

The hosts are network namespaces on this machine (tests/support/cluster.py, `make cluster-up`):
each its own IP, hostname and /etc/hosts, joined by a bridge. Both sides run the demo workload
(`-m nonstop.workloads.llama.train`, one rank per node, gloo) with the same model, steps and
durable DCP checkpoint cadence, c10d rendezvous on node0's address (node0's agent hosts the
store, as torchrun's does), and the same fault applied to the kernel's network:

- node lost: two training nodes and a spare (node2, waiting in torch's redundancy list: the
  world is full at `--nnodes 2:2`); once step N has started, every process of node1 is
  SIGKILLed. Timed from the kill.
- cable pulled: node1's link (both ends of its veth) down for 20 s once step N has started.
  Timed from the moment the link goes down; the 20 s are in both sides' figures.

The figure is `back_s`, read identically on both sides from the run directory's events (under
torchrun the script gets NONSTOP_RUN_DIR, so nonstop.runtime writes the same events and DCP
checkpoints): from the fault to the start of the step that was interrupted, in the next attempt
or the same one (`bench_recovery.back_at_crash`): detection + restart + the steps redone. torchrun
runs as its docs recommend for multi-node: `--max-restarts 3`, c10d rendezvous, the script's
own checkpoints; `TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1` (bench_recovery: torch 2.13's gloo
restart otherwise races). Root only (namespaces).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_recovery import back_at_crash, compare, kill_group, torchrun_env, workload

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

PY = sys.executable
MODEL = ("--dim", "64", "--layers", "2", "--batch-size", "4", "--seq-len", "64")
STEPS, EVERY, FAULT_AT = 90, 10, 45  # the fault half-way between two durable checkpoints
CABLE_S = 20.0
TIMEOUT_S = 420.0
SCENARIOS = ("node_lost", "cable_pulled")
PEER_NAME = (
    "torchrun --max-restarts 3, c10d rendezvous on node0, the same script's DCP checkpoints "
    "(TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1)"
)


def _cmd(side: str, cluster: Any, run_dir: Path) -> list[str]:
    rdzv = [
        "--nnodes",
        "2:2",
        "--nproc-per-node",
        "1",
        "--rdzv-backend",
        "c10d",
        "--rdzv-endpoint",
        f"{cluster[0].ip}:29400",
        "--rdzv-id",
        run_dir.name,
    ]
    train = workload(list(MODEL), STEPS, EVERY)
    if side == "torchrun":
        return [PY, "-m", "torch.distributed.run", *rdzv, "--max-restarts", "3", *train]
    return [PY, "-m", "nonstop.cli", "run", "--quiet", *rdzv, "--run-dir", str(run_dir), *train]


def _last_step(run_dir: Path) -> int:
    from support.multinode import last_step

    return last_step(run_dir)


def once(cluster: Any, root: Path, side: str, scenario: str, tag: str) -> dict[str, Any]:
    """One run of one side through one fault; its back_s and what the ledger says."""
    cluster.reset()
    run_dir = root / tag
    run_dir.mkdir(parents=True)
    env = torchrun_env(run_dir, "") if side == "torchrun" else dict(os.environ)
    env["PYTHONPATH"] = str(REPO)
    cmd = _cmd(side, cluster, run_dir)
    nodes = (0, 1, 2) if scenario == "node_lost" else (0, 1)
    procs, logs = {}, []
    r: dict[str, Any] = {"tag": tag, "load_1m": round(os.getloadavg()[0], 2)}
    try:
        for i in nodes:
            log = open(root / f"{tag}-node{i}.out", "wb")  # noqa: SIM115 - closed below
            logs.append(log)
            procs[i] = cluster[i].popen(
                cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
            if i == 1:
                time.sleep(0.5)  # node0 and node1 form the world; node2 arrives as the spare
        deadline = time.monotonic() + TIMEOUT_S
        while _last_step(run_dir) < FAULT_AT and time.monotonic() < deadline:
            if any(p.poll() is not None for p in procs.values()):
                return {**r, "ok": False, "why": "an agent exited before the fault"}
            time.sleep(0.05)
        if _last_step(run_dir) < FAULT_AT:
            return {**r, "ok": False, "why": "never reached the fault's step"}
        if scenario == "node_lost":
            t_fault = time.time()
            cluster[1].kill()
            survivors = (0, 2)
        else:
            t_fault = time.time()
            cluster[1].link_down()
            time.sleep(CABLE_S)
            cluster[1].link_up()
            survivors = (0, 1)
        rcs = []
        for i in survivors:
            try:
                rcs.append(procs[i].wait(timeout=max(1.0, deadline - time.monotonic())))
            except subprocess.TimeoutExpired:
                rcs.append(None)
        r.update(back_at_crash(run_dir, t_fault), rc=rcs)
        if side == "nonstop":
            import sqlite3

            with sqlite3.connect(run_dir / "ledger.db") as db:
                r["root_causes"] = db.execute(
                    "SELECT host, category, action FROM failures WHERE root_cause = 1"
                ).fetchall()
    finally:
        for p in procs.values():
            if p.poll() is None:
                kill_group(p)
        cluster.kill_all()
        for log in logs:
            log.close()
    return r


def run(quick: bool, *, reps: int = 5) -> dict[str, Any]:
    from support import cluster as netns

    try:
        cluster = netns.up(3, owner_pid=os.getpid())
    except (netns.ClusterUnavailable, OSError, subprocess.CalledProcessError) as e:
        return {
            "name": "multinode",
            "ours": None,
            "peer": None,
            "peer_name": PEER_NAME,
            "ratio": None,
            "unit": "s",
            "better": "lower",
            "skipped": f"no namespace cluster: {e}",
        }
    reps = 1 if quick else reps
    root = Path(tempfile.mkdtemp(prefix="nonstop-bench-multinode-"))
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {
        s: {"nonstop": [], "torchrun": []} for s in SCENARIOS
    }
    load = [round(x, 2) for x in os.getloadavg()]
    try:
        for i in range(reps):  # interleaved: drift on a shared machine hits both sides alike
            for s in SCENARIOS:
                for side in ("nonstop", "torchrun"):
                    out = once(cluster, root, side, s, f"{s}-{side}-{i}")
                    runs[s][side].append(out)
                    print(f"multinode: {s} {side} rep {i}: back_s {out.get('back_s')}", flush=True)
                    (root / "partial.json").write_text(json.dumps(runs))
    finally:
        netns.down(cluster.root)
    detail = {
        s: compare(
            runs[s]["nonstop"],
            runs[s]["torchrun"],
            fault=s,
            fault_after_step=FAULT_AT,
            workload=" ".join(workload(list(MODEL), STEPS, EVERY)),
        )
        for s in SCENARIOS
    }
    head = detail["node_lost"]
    return {
        "name": "multinode",
        "ours": head["ours"],
        "peer": head["peer"],
        "peer_name": PEER_NAME,
        "ratio": head["ratio"],
        "spread": head.get("spread"),
        "reps": reps,
        "unit": "s from a node lost until training is back at the step it was on (headline); "
        "cable_pulled in detail",
        "better": "lower",
        "detail": {
            **detail,
            "load": {"start": load, "end": [round(x, 2) for x in os.getloadavg()]},
        },
        "runs": runs,
        "run_root": str(root),
    }


if __name__ == "__main__":  # from the repository root: python -m benchmarks.bench_multinode
    print(json.dumps(run(quick="--quick" in sys.argv)))
