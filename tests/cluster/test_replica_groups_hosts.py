"""Replica groups across hosts: one `nonstop run` per node, torchft's Lighthouse on node0.

node0 runs group 0 and serves the job's Lighthouse and the groups' rendezvous store
(--serve-lighthouse); node1 runs group 1 (`--nnodes 1:1`); node2 runs the same command as node1
and waits in group 1's rendezvous as its spare. Group 1's rank dies of an Xid (a faulty GPU, as
the driver logs it: exclude_node); node1's agent excludes its node (exit 93) and leaves the
round, node2 takes its place as group 1's next attempt and heals from group 0 over the bridge
(torchft's recovery: nothing from storage), while group 0 trains on on node0, never stopped.
The report across the hosts: no step missing or committed twice, equal fingerprints.
"""

from __future__ import annotations

import json
import sqlite3
import time

import pytest
from support import nonstop_cli, rows
from support.multinode import start_agent, train_cmd

pytestmark = [pytest.mark.slow, pytest.mark.timeout(420), pytest.mark.xdist_group("cluster")]

LIGHTHOUSE_PORT = 29510


def node_cmd(cluster, run_dir, group: int, nnodes: str, *extra: str, steps: int) -> list[str]:
    return train_cmd(
        run_dir,
        cluster,
        nnodes,
        "--replica-groups",
        "2",
        "--replica-group",
        str(group),
        "--lighthouse",
        f"{cluster[0].ip}:{LIGHTHOUSE_PORT}",
        "--exit-timeout",  # the serving node's wait after the end, and the backstop that
        "20",  # stops a group still away then (an agent's own end took 10 s at load 14)
        *extra,
        steps=steps,
        ckpt_every=0,  # no durable checkpoint: group 1's state can only come from group 0
        # steps long enough that group 0 is still training when group 1's spare is back
        train=("--fault-tolerant", "--min-step-s", "0.25"),
        rdzv_id="rg",
    )


def wait_until(what: str, check, timeout: float, agents=()) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        for a in agents:
            if a.poll() is not None:
                raise AssertionError(f"{a.node.name} exited before {what}:\n{a.finish(1)[1]}")
        time.sleep(0.3)
    raise AssertionError(f"no {what} within {timeout} s")


def group_step(run_dir, group: int) -> int:
    from nonstop.events import read_events

    best = -1
    for p in (run_dir / "groups" / f"g{group}").glob("events/*/rank-*.jsonl"):
        events, _ = read_events(p)
        best = max([best, *(e.payload["step"] for e in events if e.kind == "step")])
    return best


def group_attempts(run_dir, group: int) -> int:
    """The attempts group `group`'s ledger has started (0 before its ledger exists)."""
    d = run_dir / "groups" / f"g{group}"
    if not (d / "ledger.db").exists():
        return 0
    try:
        return rows(d, "SELECT COUNT(*) FROM attempts")[0][0]
    except sqlite3.Error:  # its tables not made yet: not yet
        return 0


def test_a_spare_node_takes_an_excluded_groups_place_and_heals_live(cluster, tmp_path):
    # the crash late enough that the spare waits in the rendezvous by then on a loaded host
    # (its start-up took 25 s at load 14), the run long enough that it comes back before the end
    run_dir, steps, crash = tmp_path / "run", 200, 60
    g0 = node_cmd(cluster, run_dir, 0, "1", "--serve-lighthouse", steps=steps)
    xid = f"crash@step={crash},group=1,xid=79"
    g1 = node_cmd(cluster, run_dir, 1, "1:1", "--inject", xid, steps=steps)
    node0 = start_agent(cluster[0], g0, tmp_path)
    node1 = start_agent(cluster[1], g1, tmp_path)
    agents = [node0, node1]
    # node1 holds group 1's round (its first attempt started): the spare now waits for a place
    wait_until("group 1's first attempt", lambda: group_attempts(run_dir, 1) >= 1, 180, agents)
    spare = start_agent(cluster[2], g1, tmp_path)  # the same command: it waits as a spare
    c1, o1 = node1.finish(240)
    assert c1 == 93, o1  # excluded: do not requeue on this node
    (c0, o0), (c2, o2) = node0.finish(240), spare.finish(120)
    assert (c0, c2) == (0, 0), o0 + "\n----\n" + o2

    d0, d1 = run_dir / "groups" / "g0", run_dir / "groups" / "g1"
    # group 0 on node0: one attempt, never stopped
    assert rows(d0, "SELECT COUNT(*) FROM attempts")[0][0] == 1
    assert rows(d0, "SELECT COUNT(*) FROM failures")[0][0] == 0
    # group 1: node1's Xid, its node excluded; the spare ran the group's next attempt
    roots = rows(d1, "SELECT attempt, host, category, action FROM failures WHERE root_cause = 1")
    assert roots == [(0, "node1", "faulty_gpu", "exclude_node")], roots
    hosts = rows(d1, "SELECT attempt, host FROM steps GROUP BY attempt, host ORDER BY attempt")
    assert hosts == [(0, "node1"), (1, "node2")], hosts
    # the spare was in the rendezvous before the crash (its agent records its address first)
    ((crashed,),) = rows(d1, "SELECT time FROM failures WHERE root_cause = 1")
    assert (d1 / "nodes" / "node2.json").stat().st_mtime < crashed, "the spare came too late"

    rep = nonstop_cli("report", str(run_dir), "--json", timeout=120)
    assert rep.returncode == 0, rep.stderr
    s = json.loads(rep.stdout)
    assert s["replica_groups"] == 2 and s["steps_committed"] == steps
    assert s["steps_missing"] == 0 and s["steps_committed_twice"] == 0
    assert s["fingerprints_equal"] is True  # node2 healed to group 0's parameters
    a, b = s["groups"]
    assert a["hosts"] == ["node0"] and b["hosts"] == ["node1", "node2"]
    assert sorted(b["exit_codes"]) == [0, 93]
    (healed,) = b["healed_at"]
    assert healed["attempt"] == 1 and crash <= healed["step"] < steps  # live, mid-run
    assert a["steps_committed"] == steps
    assert b["steps_committed"] == crash + steps - healed["step"]
    assert not any((d1 / "checkpoints").glob("step-*"))  # nothing from storage
