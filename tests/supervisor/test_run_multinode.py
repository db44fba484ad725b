"""Several `nonstop run` agents on this machine against one c10d rendezvous act as nodes.

The rendezvous store runs in the test process, as it would on a head node (or etcd): every
agent joins it with is_host=false, so that excluding any node leaves the store in place.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import TINY, free_port, rows

pytestmark = pytest.mark.slow


def agent(run_dir, port, host, nnodes, *extra, steps=30, ckpt_every=5, train=()):
    cmd = [
        sys.executable,
        "-m",
        "nonstop.cli",
        "run",
        "--quiet",
        "--nnodes",
        nnodes,
        "--nproc-per-node",
        "1",
        "--rdzv-backend",
        "c10d",
        "--rdzv-endpoint",
        f"127.0.0.1:{port}",
        "--rdzv-conf",
        "is_host=false",
        "--rdzv-id",
        "mn",
        "--run-dir",
        str(run_dir),
        "--host-name",
        host,
        "--no-self-test",
        "--monitor-interval",
        "0.2",
        *extra,
        "-m",
        "nonstop.workloads.llama.train",
        *TINY,
        "--steps",
        str(steps),
        "--checkpoint-every",
        str(ckpt_every),
        *train,
    ]
    log = open(run_dir.parent / f"{host}.out", "w")  # noqa: SIM115 - closed in finish()
    # injected Xids go to /dev/kmsg (root) or, where it is not writable, to this file-backed
    # kernel log, which every agent reads too (nonstop.diagnose.kernel_log)
    env = dict(os.environ, NONSTOP_KERNEL_LOG=str(run_dir.parent / "kernel.log"))
    p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, text=True, env=env)
    p.log = log  # type: ignore[attr-defined]
    STARTED.append(p)
    return p


STARTED: list[subprocess.Popen] = []


@pytest.fixture(autouse=True)
def no_leftover_agents():
    """A failed assertion must not leave agents (and their workers) running."""
    yield
    while STARTED:
        p = STARTED.pop()
        if p.poll() is None:
            p.kill()
            p.wait()
        if not p.log.closed:
            p.log.close()


@pytest.fixture
def store():
    from torch.distributed import TCPStore

    port = free_port()
    server = TCPStore("127.0.0.1", port, is_master=True, wait_for_workers=False)
    yield port
    del server


def finish(p, timeout=240):
    try:
        p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    p.log.close()
    out = Path(p.log.name).read_text()
    lines = [x for x in out.splitlines() if "frame #" not in x and "OMP_NUM" not in x]
    return p.returncode, "\n".join(lines[-60:])


def test_failure_on_one_node_restarts_the_job_on_all(tmp_path, store):
    port, run_dir = store, tmp_path / "run"
    run_dir.parent.mkdir(exist_ok=True)
    # faults are keyed by global rank: both agents get the spec, the node holding rank 1 fires
    fault = ["--inject", "crash@step=12,rank=1"]
    a = agent(run_dir, port, "node-a", "2", *fault)
    b = agent(run_dir, port, "node-b", "2", *fault)
    (ca, oa), (cb, ob) = finish(a), finish(b)
    assert (ca, cb) == (0, 0), oa + ob
    roots = rows(run_dir, "SELECT attempt, rank, host FROM failures WHERE root_cause = 1")
    assert [(att, rank) for att, rank, _ in roots] == [(0, 1)], roots
    assert rows(run_dir, "SELECT COUNT(DISTINCT attempt) FROM steps")[0][0] == 2
    assert {h for (h,) in rows(run_dir, "SELECT DISTINCT host FROM steps")} == {"node-a", "node-b"}
    assert rows(run_dir, "SELECT MAX(step) FROM steps")[0][0] == 29


def test_excluded_node_leaves_and_a_spare_joins(tmp_path, store):
    port, run_dir = store, tmp_path / "run"
    run_dir.parent.mkdir(exist_ok=True)
    fault = ["--inject", "crash@step=10,rank=1,xid=79"]
    nodes = {h: agent(run_dir, port, h, "1:2", *fault, steps=80) for h in ("node-a", "node-b")}
    deadline = time.monotonic() + 180
    while all(p.poll() is None for p in nodes.values()) and time.monotonic() < deadline:
        time.sleep(0.5)
    bad = next(h for h, p in nodes.items() if p.poll() is not None)
    good = next(h for h in nodes if h != bad)
    code, out = finish(nodes[bad])
    assert code == 93, out  # faulty GPU: this node asks not to be requeued
    assert f"excluding node {bad}" in out
    spare = agent(run_dir, port, "node-c", "1:2", steps=80)  # a hot spare joins the running job
    (cg, og), (cs, os_) = finish(nodes[good]), finish(spare)
    assert (cg, cs) == (0, 0), og + os_
    failures = rows(run_dir, "SELECT host, category, action FROM failures WHERE root_cause = 1")
    assert (bad, "faulty_gpu", "exclude_node") in failures
    # the spare joined a running attempt: no phantom "supervisor killed" failure, and every
    # node numbered the attempts alike (one attempt, one world, one directory)
    assert not rows(run_dir, "SELECT * FROM failures WHERE message LIKE '%supervisor stopped%'")
    for (attempt,) in rows(run_dir, "SELECT DISTINCT attempt FROM steps"):
        ranks = rows(run_dir, "SELECT DISTINCT rank, host FROM steps WHERE attempt = ?", (attempt,))
        assert len({r for r, _ in ranks}) == len(ranks), (attempt, ranks)
    # the spare's standbys were ready before it joined: the attempt it trains in started warm
    last = "SELECT restart_path FROM attempts WHERE attempt = (SELECT MAX(attempt) FROM attempts)"
    assert rows(run_dir, last) == [("warm",)]
    hosts_last = {h for (h,) in rows(run_dir, "SELECT DISTINCT host FROM steps WHERE step >= 75")}
    assert bad not in hosts_last and {good, "node-c"} <= hosts_last


@pytest.mark.timeout(480)  # 3x slower with one core kept busy
def test_drain_takes_a_host_out_without_losing_progress(tmp_path, store):
    from nonstop.ledger import summarize_run

    port, run_dir = store, tmp_path / "run"
    run_dir.parent.mkdir(exist_ok=True)
    # enough steps that the drain lands mid-run, few enough that node-a alone ends well inside
    # finish()'s timeout on a busy host
    nodes = {h: agent(run_dir, port, h, "1:2", steps=500) for h in ("node-a", "node-b")}
    deadline = time.monotonic() + 120
    while not any_steps(run_dir) and time.monotonic() < deadline:
        time.sleep(0.5)
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "nonstop.cli",
            "drain",
            str(run_dir),
            "--host",
            "node-b",
            "--reason",
            "firmware upgrade",
            "--wait",
            "60",
        ],
        capture_output=True,
        text=True,
        timeout=90,
    )
    if r.returncode != 0:
        logs = {h: finish(p, timeout=1)[1] for h, p in nodes.items()}
        raise AssertionError(
            r.stdout + r.stderr + "\n".join(f"--- {h}\n{o}" for h, o in logs.items())
        )
    cb, ob = finish(nodes["node-b"])
    assert cb == 0 and "drained by request" in ob, ob
    ca, oa = finish(nodes["node-a"])
    assert ca == 0, oa
    s = summarize_run(run_dir).to_dict()
    assert s["steps_lost"] == 0 and s["final_step"] == 499
    hosts_after = {h for (h,) in rows(run_dir, "SELECT DISTINCT host FROM steps WHERE attempt = 1")}
    assert hosts_after == {"node-a"}
    assert any(f["planned"] and "firmware" in f["message"] for f in s["failures"])
    # node-a knew node-b was drained: its next round did not wait torch's 30 s last call
    ((rdzv_s,),) = rows(
        run_dir, "SELECT end - start FROM restart_phases WHERE attempt = 1 AND phase = 'rendezvous'"
    )
    assert rdzv_s < 15, rdzv_s


def any_steps(run_dir):
    """Training has begun: a step event from any rank (heartbeats come before the first step)."""
    return any('"kind":"step"' in p.read_text() for p in run_dir.glob("events/attempt-*/rank-*"))


@pytest.mark.timeout(480)  # 3x slower with one core kept busy
def test_losing_a_node_recovers_from_the_surviving_replica(tmp_path, store):
    """node-b dies whole (agent, workers, replica server); a spare takes its place and both
    ranks load their state from the replicas node-a kept, bitwise equal to a run that never
    failed. The durable checkpoint interval is longer than the run: memory is the only source."""
    port, run_dir = store, tmp_path / "run"
    run_dir.parent.mkdir(exist_ok=True)
    mem = ["--memory-checkpoint-every", "1", "--replicas", "1"]
    final = ("--save-final", str(tmp_path / "final.pt"))
    steps = 150  # node-b dies at step 60 or later: the rest is trained from the replicas
    nodes = {
        h: agent(run_dir, port, h, "2", *mem, steps=steps, ckpt_every=1000, train=final)
        for h in ("node-a", "node-b")
    }
    deadline = time.monotonic() + 120
    while last_step_any(run_dir) < 60 and time.monotonic() < deadline:
        time.sleep(0.2)
    nodes["node-b"].kill()  # the whole node: its workers and standbys die with the agent
    nodes["node-b"].wait()
    spare = agent(run_dir, port, "node-c", "2", *mem, steps=steps, ckpt_every=1000, train=final)
    (ca, oa), (cs, os_) = finish(nodes["node-a"]), finish(spare)
    assert (ca, cs) == (0, 0), oa + os_
    loads = rows(
        run_dir,
        "SELECT rank, step, path FROM checkpoints WHERE phase = 'loaded'"
        " AND attempt = (SELECT MAX(attempt) FROM attempts)",
    )
    assert len(loads) == 2 and all(p.startswith("memory:node-a") for _, _, p in loads), loads
    # one step both ranks hold; the step-60 event can come before that step's replica has
    # crossed to node-a (the copy is asynchronous), so a few steps of slack under load
    assert {s for _, s, _ in loads} == {loads[0][1]} and loads[0][1] >= 55, loads
    assert not (run_dir / "checkpoints").exists() or not any(
        p.name.startswith("step-") for p in (run_dir / "checkpoints").iterdir()
    )  # nothing durable: the state came from memory
    ref_dir = tmp_path / "ref"
    ref = subprocess.run(
        [
            sys.executable,
            "-m",
            "nonstop.cli",
            "run",
            "--quiet",
            "--nproc-per-node",
            "2",
            "--run-dir",
            str(ref_dir),
            "-m",
            "nonstop.workloads.llama.train",
            *TINY,
            "--steps",
            str(steps),
            "--checkpoint-every",
            "1000",
            "--save-final",
            str(tmp_path / "ref.pt"),
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert ref.returncode == 0, ref.stdout + ref.stderr
    import torch

    got, want = (torch.load(tmp_path / f, weights_only=True) for f in ("final.pt", "ref.pt"))
    assert all(torch.equal(got[k], want[k]) for k in want)


def last_step_any(run_dir):
    from nonstop.events import read_events

    best = -1
    for p in run_dir.glob("events/attempt-0/rank-*.jsonl"):
        events, _ = read_events(p)
        best = max([best, *(e.payload["step"] for e in events if e.kind == "step")])
    return best
