"""Multi-node soak: `nonstop run` on four real hosts (network namespaces) through 60+ real faults.

    # root only; its own cluster (never CI's nsc): a prefix and a /24 of its own
    NONSTOP_CLUSTER_PREFIX=nss NONSTOP_CLUSTER_SUBNET=10.80.0 \\
        python benchmarks/bench_soak_multinode.py --quick      # each kind once
    NONSTOP_CLUSTER_PREFIX=nss NONSTOP_CLUSTER_SUBNET=10.80.0 \\
        python benchmarks/bench_soak_multinode.py --per-kind 10 --budget-s 2100 \\
        --out benchmarks/results/soak-multinode.json
    # one kind (or a few) only: --kinds cable_pulled --per-kind 4

The cluster is tests/support/cluster.py's (four nodes, a bridge as the switch); an agent runs on
every node (`--nnodes 4:4`, c10d rendezvous on node0, in-memory replicas on the next node), and
every node trains (spares, and a round of spares only, are tests/cluster's). The harness is the injector: it applies every fault
from outside, to the kernel and the processes, one at a time on whatever nodes train then, and
writes down each one (kind, node, attempt, time) before it acts:

    crash         one rank SIGKILLed
    hang          one rank SIGSTOPped (it never steps again; the hang timeout finds it)
    node_lost     every process of a training node other than node0 SIGKILLed at once; the
                  harness then starts a new agent there (the machine replaced)
    cable_pulled  a training node's link down for CABLE_S, then up
    switch_lost   the bridge down for SWITCH_S, then up
    slow_link     a training node's link shaped to 1 mbit/s for SLOW_S (not a failure: training
                  goes on; the check is that it causes none)

An agent that exits (one that lost the store in a switch loss, a node excluded with exit 93)
is started again on its node, and counted. The checks, as the one-host soak's
(benchmarks/bench_soak.py): the ledger equal to the injector (one root-cause failure per fault
that ends an attempt, in the attempt it was fired in, on the node it was fired at for the
faults of one node; none anywhere else), nothing lost (every step trained, no attempt resuming
behind its predecessor's last memory snapshot: steps redone are counted), and the final
parameters bitwise equal to a fault-free run of the same job on one host (4 ranks).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import itertools
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support import cluster as netns  # noqa: E402
from support.multinode import Agent, start_agent, train_cmd  # noqa: E402
from support.procs import TINY, clean_env  # noqa: E402

from benchmarks.chaos import procs  # noqa: E402
from benchmarks.chaos.checks import compare_params  # noqa: E402

KINDS = ("crash", "hang", "node_lost", "cable_pulled", "switch_lost", "slow_link")
ENDS_ATTEMPT = ("crash", "hang", "node_lost", "cable_pulled", "switch_lost")
# faults the network may give back: nonstop run holds the hang's kill while the link is down
# (--network-hold), and when the ranks resume by themselves the attempt goes on; the ledger
# then holds one healed incident (action none) in the fault's attempt, not a new attempt
MAY_HEAL = ("cable_pulled", "switch_lost")
CABLE_S = 14.0  # longer than the hang timeout: a shorter cut is only a TCP retransmission
SWITCH_S = 12.0
SLOW_S = 6.0
HANG_TIMEOUT_S = 10
GAP = (1, 3)  # steps trained between one recovery and the next fault
RECOVER_TIMEOUT_S = 240.0
NODES = 4  # every node trains (--nnodes 4:4); a lost one is replaced by a new agent there


@dataclass
class Fault:
    kind: str
    node: int | None = None
    attempt: int = -1
    step: int = -1
    time: float = 0.0
    detail: dict[str, Any] = field(default_factory=dict)
    recovered_s: float | None = None


class Progress:
    """The newest attempt's steps and hosts, from the ranks' event streams."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir

    def attempts(self) -> list[int]:
        out = []
        for d in (self.run_dir / "events").glob("attempt-*"):
            with contextlib.suppress(ValueError):
                out.append(int(d.name[8:]))
        return sorted(out)

    def state(self, attempt: int) -> tuple[int, dict[int, str]]:
        """(newest step, {rank: host}) of one attempt (-1, {} before its first step)."""
        from nonstop.events import read_events

        best, hosts = -1, {}
        for p in (self.run_dir / "events" / f"attempt-{attempt}").glob("rank-*.jsonl"):
            events, _ = read_events(p)
            for e in events:
                if e.kind == "step":
                    best = max(best, e.payload["step"])
                    hosts[e.rank] = e.host
        return best, hosts

    def current(self) -> tuple[int, int, dict[int, str]]:
        """(attempt, newest step, hosts) of the newest attempt that has stepped."""
        for a in reversed(self.attempts()):
            step, hosts = self.state(a)
            if step >= 0:
                return a, step, hosts
        return -1, -1, {}


class Soak:
    def __init__(
        self, work: Path, faults: list[str], seed: int, steps: int, budget_s: float
    ) -> None:
        self.work, self.seed, self.steps = work, seed, steps
        self.deadline = time.monotonic() + budget_s
        self.run_dir = work / "run"
        self.rng = random.Random(seed)
        self.kinds = faults
        self.fired: list[Fault] = []
        self.agents: dict[int, Agent] = {}
        self.restarts: list[dict[str, Any]] = []
        self.progress = Progress(self.run_dir)
        self.cluster: netns.Cluster | None = None

    # -- agents ------------------------------------------------------------------------------

    def cmd(self) -> list[str]:
        assert self.cluster is not None
        mem = ("--memory-checkpoint-every", "1", "--replicas", "1")
        extra = ("--max-restarts", "1000", "--hang-timeout", str(HANG_TIMEOUT_S), *mem)
        train = ("--save-final", str(self.work / "final.pt"))
        return train_cmd(
            self.run_dir,
            self.cluster,
            f"{NODES}:{NODES}",
            *extra,
            steps=self.steps,
            ckpt_every=50,
            train=train,
        )

    def start(self, i: int) -> None:
        assert self.cluster is not None
        env = {"NONSTOP_HEALTH": "off"}  # a tiny model's gradient norms spike for real
        self.agents[i] = start_agent(self.cluster[i], self.cmd(), self.work, env)

    def tend(self, finished: bool) -> None:
        """Start again an agent that exited while training still runs (a replaced machine)."""
        for i, a in list(self.agents.items()):
            code = a.poll()
            if code is None or finished:
                continue
            if self.training_done():
                continue
            self.restarts.append({"node": i, "exit": code, "time": time.time()})
            print(f"[soak] node{i}'s agent exited {code}: a new one", file=sys.stderr, flush=True)
            self.start(i)

    def training_done(self) -> bool:
        return (self.work / "final.pt").exists()

    # -- faults ------------------------------------------------------------------------------

    def wait_training(
        self, after_attempt: int, min_steps: int, timeout: float, past_step: int | None = None
    ) -> tuple:
        """Until an attempt newer than `after_attempt` has trained `min_steps` steps (or the
        same attempt has, for a fault that ends none), or, with `past_step`, the same attempt
        trained on past that step on every node (a network fault that healed). Returns
        (attempt, step, hosts)."""
        deadline = time.monotonic() + timeout
        first: dict[int, int] = {}
        while time.monotonic() < deadline:
            self.tend(False)
            attempt, step, hosts = self.progress.current()
            healed = past_step is not None and attempt == after_attempt and step > past_step + 1
            if healed and len(hosts) == NODES:
                return attempt, step, hosts
            if attempt > after_attempt or (after_attempt < 0 and attempt >= 0):
                first.setdefault(attempt, step)
                if step - first[attempt] >= min_steps and len(hosts) == NODES:
                    return attempt, step, hosts
            if self.training_done():
                return attempt, step, hosts
            time.sleep(0.3)
        raise TimeoutError(f"no training after attempt {after_attempt} within {timeout:g} s")

    def node_of(self, host: str) -> int:
        return int(host.removeprefix("node"))

    def fire(self, kind: str, attempt: int, step: int, hosts: dict[int, str]) -> Fault:
        assert self.cluster is not None
        c = self.cluster
        training = sorted(self.node_of(h) for h in hosts.values())
        f = Fault(kind, attempt=attempt, step=step, time=time.time())
        if kind in ("crash", "hang"):
            rank = self.rng.choice(sorted(hosts))
            pids = procs.workers(self.run_dir)
            pid = pids.get((attempt, rank))
            if pid is None:
                f.detail["skipped"] = f"rank {rank}'s process not found"
                return f
            f.node, f.detail = self.node_of(hosts[rank]), {"rank": rank, "pid": pid}
            os.kill(pid, signal.SIGKILL if kind == "crash" else signal.SIGSTOP)
        elif kind == "node_lost":
            f.node = self.rng.choice([n for n in training if n != 0])
            f.detail["pids"] = len(c[f.node].kill())
            self.agents[f.node].finish(30)
            self.start(f.node)  # the machine replaced: a new agent there
        elif kind == "cable_pulled":
            f.node = self.rng.choice([n for n in training if n != 0])
            c[f.node].link_down()
            time.sleep(CABLE_S)
            c[f.node].link_up()
        elif kind == "switch_lost":
            c.switch_down()
            time.sleep(SWITCH_S)
            c.switch_up()
        elif kind == "slow_link":
            f.node = self.rng.choice(training)
            c[f.node].slow("1mbit")
            time.sleep(SLOW_S)
            c[f.node].unslow()
        return f

    def run(self) -> None:
        self.cluster = netns.up(NODES, owner_pid=os.getpid())
        self.run_dir.mkdir(parents=True, exist_ok=True)
        for i in range(NODES):
            self.start(i)
        attempt, step, hosts = self.wait_training(-1, 3, RECOVER_TIMEOUT_S)
        for n, kind in enumerate(self.kinds):
            gap = self.rng.randint(*GAP)
            attempt, step, hosts = self.wait_training(attempt - 1, gap, RECOVER_TIMEOUT_S)
            if self.training_done():
                print("[soak] training ended before every fault", file=sys.stderr)
                break
            if time.monotonic() > self.deadline:
                print(f"[soak] time budget spent after {n} faults", file=sys.stderr)
                break
            f = self.fire(kind, attempt, step, hosts)
            self.fired.append(f)
            print(
                f"[soak] {n + 1}/{len(self.kinds)} {kind} node{f.node} attempt {attempt} "
                f"step {step} {f.detail}",
                file=sys.stderr,
                flush=True,
            )
            if kind in ENDS_ATTEMPT and "skipped" not in f.detail:
                past = step if kind in MAY_HEAL else None
                attempt, step, hosts = self.wait_training(attempt, 0, RECOVER_TIMEOUT_S, past)
                f.recovered_s = round(time.time() - f.time, 1)
                if attempt == f.attempt:
                    f.detail["healed"] = True  # no new attempt: the network gave it back
        deadline = time.monotonic() + 900
        while not self.training_done() and time.monotonic() < deadline:
            self.tend(False)
            time.sleep(0.5)
        self.exits = {i: a.finish(300)[0] for i, a in self.agents.items()}


def reference(work: Path, steps: int) -> Path:
    """The same job on one host in one process group, never failed."""
    out = work / "ref.pt"
    cmd = [
        sys.executable,
        "-m",
        "nonstop.cli",
        "run",
        "--quiet",
        "--nproc-per-node",
        str(NODES),
        "--run-dir",
        str(work / "ref"),
        "-m",
        "nonstop.workloads.llama.train",
        *TINY,
        "--steps",
        str(steps),
        "--checkpoint-every",
        "50",
        "--save-final",
        str(out),
    ]
    r = subprocess.run(
        cmd, env=clean_env({"NONSTOP_HEALTH": "off"}), capture_output=True, text=True, timeout=900
    )
    if r.returncode != 0:
        raise RuntimeError(f"reference run failed ({r.returncode}): {r.stderr[-2000:]}")
    return out


def account(fired: list[Fault], roots: list[tuple]) -> tuple[list, list, list]:
    """(accounted, wrong, phantom): each fault that ends an attempt (or heals in it) against
    the ledger's root causes (attempt, host, rank, category, action, message, time), in time
    order. An attempt may hold several faults once network faults heal: each takes the
    attempt's root causes recorded before the next fault of that attempt (a row's time is the
    job's last progress before its fault: up to a step before the fault itself)."""
    by_attempt: dict[int, list[tuple]] = {}
    for r in roots:
        by_attempt.setdefault(r[0], []).append(r)
    accounted, wrong = [], []
    ended = [f for f in fired if f.kind in ENDS_ATTEMPT and "skipped" not in f.detail]
    for i, f in enumerate(ended):
        later = [g.time for g in ended[i + 1 :] if g.attempt == f.attempt]
        rows = by_attempt.get(f.attempt, [])
        got = [r for r in rows if not later or float(r[6]) < later[0] - 5.0]
        by_attempt[f.attempt] = [r for r in rows if r not in got]
        got = [r[:6] for r in got]
        ok = len(got) == 1 and (f.node is None or got[0][1] == f"node{f.node}")
        if ok and f.detail.get("healed"):
            ok = got[0][4] == "none"  # healed: recorded, nothing restarted
        entry = {"kind": f.kind, "node": f.node, "attempt": f.attempt, "ledger": got}
        (accounted if ok else wrong).append(entry)
    phantom = [r[:6] for rs in by_attempt.values() for r in rs]
    return accounted, wrong, phantom


def evaluate(soak: Soak, ref: Path) -> dict[str, Any]:
    conn = sqlite3.connect(f"file:{soak.run_dir / 'ledger.db'}?mode=ro", uri=True, timeout=30)
    try:
        roots = conn.execute(
            "SELECT attempt, host, rank, category, action, message, time FROM failures"
            " WHERE root_cause = 1 AND planned = 0 ORDER BY attempt, time"
        ).fetchall()
        steps = conn.execute("SELECT attempt, MIN(step), MAX(step) FROM steps GROUP BY attempt")
        spans = steps.fetchall()
        final_step = conn.execute("SELECT MAX(step) FROM steps").fetchone()[0]
        trained = {s for (s,) in conn.execute("SELECT DISTINCT step FROM steps")}
    finally:
        conn.close()
    accounted, wrong, phantom = account(soak.fired, roots)
    # nothing lost: every step trained, and no attempt starts past its predecessor's end
    gaps = [
        (a, first, prev_last)
        for (_, _, prev_last), (a, first, _) in itertools.pairwise(spans)
        if first > prev_last + 1
    ]
    redone = sum(
        max(0, prev_last + 1 - first)
        for (_, _, prev_last), (_, first, _) in itertools.pairwise(spans)
    )
    identical, why = compare_params(soak.work / "final.pt", ref)
    max_diff = _max_abs_diff(soak.work / "final.pt", ref)
    categories = Counter((e["kind"], e["ledger"][0][3]) for e in accounted)
    actions = Counter((e["kind"], e["ledger"][0][4]) for e in accounted)
    return {
        "ledger_equals_injector": not wrong and not phantom,
        "accounted": len(accounted),
        "wrong": wrong,
        "phantom": phantom,
        "categories": {f"{k}: {c}": n for (k, c), n in sorted(categories.items())},
        "actions": {f"{k}: {a}": n for (k, a), n in sorted(actions.items())},
        "finished": final_step == soak.steps - 1,
        "lost_steps": sorted(set(range(soak.steps)) - trained)[:20],
        "gaps": gaps,
        "steps_redone": redone,
        "identical": identical,
        "identical_detail": why,
        "max_abs_diff": max_diff,
    }


def _max_abs_diff(a: Path, b: Path) -> float | None:
    """The largest difference of any parameter (how far from bitwise, when not)."""
    import torch

    if not a.exists() or not b.exists():
        return None
    x, y = torch.load(a, weights_only=True), torch.load(b, weights_only=True)
    if x.keys() != y.keys():
        return None
    return max((x[k].float() - y[k].float()).abs().max().item() for k in x)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python benchmarks/bench_soak_multinode.py")
    p.add_argument("--quick", action="store_true", help="each kind once")
    p.add_argument("--per-kind", type=int, default=11)
    p.add_argument(
        "--kinds",
        default=",".join(KINDS),
        help=f"the fault kinds to fire, comma-separated (default: all, {','.join(KINDS)})",
    )
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--work", type=Path, default=None)
    p.add_argument("--out", type=Path, default=None, help="write the result JSON here too")
    p.add_argument(
        "--budget-s",
        type=float,
        default=2400,
        help="stop injecting after this many seconds (the run then trains out; default 2400)",
    )
    a = p.parse_args(argv)
    per = 1 if a.quick else a.per_kind
    chosen = [k.strip() for k in a.kinds.split(",") if k.strip()]
    bad = [k for k in chosen if k not in KINDS]
    if bad or not chosen:
        p.error(f"--kinds: unknown {', '.join(bad) or '(none given)'}; choose from {KINDS}")
    rng = random.Random(a.seed)
    kinds = [k for k in KINDS if k in chosen for _ in range(per)]
    rng.shuffle(kinds)
    steps = len(kinds) * (GAP[1] + 2) + 20  # the faults use about 4 a fault; the rest trains out
    work = a.work or Path(f"/tmp/soak-mn-{int(time.time())}")
    work.mkdir(parents=True, exist_ok=True)
    print(f"[soak] {len(kinds)} faults over 4 nodes, {steps} steps; in {work}", file=sys.stderr)
    t0 = time.monotonic()
    lock = os.open(f"/tmp/nonstop-cluster-{netns.PREFIX}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)  # the tests' fixture takes the same lock
    soak = Soak(work, kinds, a.seed, steps, a.budget_s)
    try:
        soak.run()
    finally:
        if soak.cluster is not None:
            soak.cluster.reset()
        fcntl.flock(lock, fcntl.LOCK_UN)
    ref = reference(work, steps)
    r = evaluate(soak, ref)
    fired = [f for f in soak.fired if "skipped" not in f.detail]
    recover = sorted(f.recovered_s for f in fired if f.recovered_s is not None)
    out = {
        "name": "soak-multinode",
        "nodes": 4,
        "world": f"{NODES} nodes x 1 rank (--nnodes {NODES}:{NODES})",
        "scheduled": len(kinds),
        "scheduled_kinds": dict(Counter(kinds)),
        "injected": len(fired),
        "injected_kinds": dict(Counter(f.kind for f in fired)),
        "skipped": [asdict(f) for f in soak.fired if "skipped" in f.detail],
        **r,
        "agent_restarts": soak.restarts,
        "agent_exits": soak.exits,
        "recovery_s_median": recover[len(recover) // 2] if recover else None,
        "recovery_s_range": [recover[0], recover[-1]] if recover else None,
        "steps": steps,
        "wall_s": round(time.monotonic() - t0, 1),
        "load_avg": os.getloadavg(),
        "faults": [asdict(f) for f in soak.fired],
        "work_dir": str(work),
    }
    text = json.dumps(out, indent=1, default=str)
    (work / "soak-multinode.json").write_text(text)
    if a.out:
        a.out.write_text(text + "\n")
    print(text)
    good = out["ledger_equals_injector"] and out["finished"] and out["identical"]
    return 0 if good and not out["lost_steps"] and not out["gaps"] else 1


if __name__ == "__main__":
    sys.exit(main())
