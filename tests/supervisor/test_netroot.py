"""One network root cause per attempt, on the host whose link failed (nonstop.supervisor.netroot
and the FailureHandler's network part): agents on several nodes share one ledger, and each
files what it saw of the same fault. The soak's case: node1's cable pulled, node0, node2 and
node3 each found node1 unreachable and each recorded a root cause on its own host (three,
none on node1); node1's own agent recorded nothing."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import replace
from types import SimpleNamespace

import pytest
from support.fakes import AgentOps
from support.rundir import nodes_recorded, ranks_ran
from torch.distributed.elastic.agent.server.api import WorkerState

from nonstop import rundir
from nonstop.events.writer import EventWriter
from nonstop.ledger import Ledger
from nonstop.supervisor import netroot
from nonstop.supervisor.config import SupervisorConfig
from nonstop.supervisor.context import AgentContext
from nonstop.supervisor.failures import FailureHandler
from nonstop.supervisor.policy import EXIT_EXCLUDE, Decision

NODES = {"node0": "10.0.0.10", "node1": "10.0.0.11", "node2": "10.0.0.12", "node3": "10.0.0.13"}
HANG = "hang: every rank waits in the same collective (network or store?)"


@pytest.fixture
def run(tmp_path):
    return nodes_recorded(tmp_path / "run", NODES)


def _ranks_ran(rd: rundir.RunDir, attempt: int) -> None:
    """Each node ran one rank (rank i on node i) in `attempt`: its event stream says so."""
    ranks_ran(rd, attempt, list(NODES))


def _handler(rd: rundir.RunDir, ledger: Ledger, host: str, attempt: int) -> FailureHandler:
    cfg = SupervisorConfig(
        run_dir=rd,
        run_id="r",
        host=host,
        health_checks=(),
        self_test=False,
        evidence_timeout_s=0.2,
        multi_node=True,
    )
    ctx = AgentContext(cfg=cfg, ledger=ledger, attempt=attempt, attempt_start=time.time())
    h = FailureHandler(ctx, AgentOps({0: None}, {0: list(NODES).index(host)}))
    h._link_before = object()  # an address recorded: several hosts (its carrier: not read)
    h._link_now = lambda: None  # type: ignore[method-assign]
    return h


def _roots(ledger: Ledger) -> list[tuple]:
    return [
        tuple(r)
        for r in ledger.rows(
            "SELECT attempt, host, category, action, evidence FROM failures WHERE root_cause = 1"
            " ORDER BY attempt, id"
        )
    ]


def _unreachable(monkeypatch, *down: str) -> None:
    """The probes: every node answers but `down` (a fake of the TCP connect)."""
    from nonstop.diagnose import peers

    monkeypatch.setattr(
        peers,
        "reachable",
        lambda addresses, port, timeout_s=1.0: {a: NODES_BY_ADDR[a] not in down for a in addresses},
    )


NODES_BY_ADDR = {a: h for h, a in NODES.items()}


def _peer_files(rd: rundir.RunDir, host: str, attempt: int) -> Decision:
    """One peer's hang, as on_hang records it: the network decision, then the row."""
    ledger = Ledger.open(rd.ledger)  # its own agent: its own connection
    try:
        h = _handler(rd, ledger, host, attempt)
        d = h._network_decision(Decision("hang", "restart", HANG))
        return h._record(d, rank=list(NODES).index(host), time_s=time.time(), facts={})
    finally:
        ledger.close()


def test_three_peers_file_one_root_cause_on_the_pulled_cables_host(run, monkeypatch):
    """node1 unreachable from node0, node2 and node3 (each reaches the other two): one root
    cause, on node1, the network, restart, reported by all three; their rows secondary."""
    _ranks_ran(run, 0)
    _unreachable(monkeypatch, "node1")
    got: list[Decision] = []
    threads = [
        threading.Thread(target=lambda h=h: got.append(_peer_files(run, h, 0)))
        for h in ("node0", "node2", "node3")
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    with Ledger.open(run.ledger) as ledger:
        roots = _roots(ledger)
        assert [r[:4] for r in roots] == [(0, "node1", "network_switch_cable", "restart")], roots
        ev = json.loads(roots[0][4])
        assert ev["link_of"] == "node1" and not ev["direct"], ev
        assert sorted(ev["reported_by"]) == ["node0", "node2", "node3"], ev
        rows = ledger.rows("SELECT host, rank, root_cause, message FROM failures ORDER BY id")
        assert sorted((h, r) for h, r, root, _ in rows if not root) == [
            ("node0", 0),
            ("node2", 2),
            ("node3", 3),
        ]
        assert [r for h, r, root, _ in rows if root] == [1]  # node1's rank
        (msg,) = [m for _, _, root, m in rows if root]
        assert msg.startswith("node1's link: unreachable from here"), msg
    assert sum(d.root_cause for d in got) == 1  # one agent acts on it as the root cause
    (root,) = [d for d in got if d.root_cause]
    assert root.hosts == ["node1"], root  # the culprit node: never the reporter
    assert all(d.reason.startswith("secondary (the network, recorded by node1)") for d in got
               if not d.root_cause)  # fmt: skip


def test_the_link_host_s_own_carrier_takes_the_root_cause_over(run, monkeypatch):
    """node0 filed node1's link first; node1's agent then saw its own carrier go down: its
    record (the stronger evidence, and its own exclusion count) is the one root cause, with
    node0 among its reporters; node0's filing is secondary."""
    _ranks_ran(run, 0)
    _unreachable(monkeypatch, "node1")
    _peer_files(run, "node0", 0)
    with Ledger.open(run.ledger) as ledger:
        h = _handler(run, ledger, "node1", 0)
        flap = SimpleNamespace(flapped_since=lambda before: "this node's link eth0 went down")
        h._link_now = lambda: flap  # type: ignore[method-assign]
        d = h._network_decision(Decision("unknown", "restart", "reset by peer", root_cause=False))
        d = h._record(d, rank=1, time_s=time.time(), facts={})
        assert d.root_cause and d.action == "restart"
        roots = _roots(ledger)
        assert [r[:4] for r in roots] == [(0, "node1", "network_switch_cable", "restart")]
        ev = json.loads(roots[0][4])
        assert ev["direct"] and sorted(ev["reported_by"]) == ["node0", "node1"], ev
        # a peer filing after it joins it
        assert not _peer_files(run, "node2", 0).root_cause
        assert len(_roots(ledger)) == 1


def test_a_second_pull_of_the_same_link_excludes_it_whoever_filed_the_first(run, monkeypatch):
    """Attempt 0: the peers filed node1's link, node1's agent recorded nothing. Attempt 3: the
    peers file it again: its second failure (the ledger's memory, not one agent's), so the
    root cause says exclude_node, and node1's agent, seeing the filing while its ranks still
    run, acts on it: its ranks killed, exit 93, leaving; the peers restart without it."""
    _ranks_ran(run, 0)
    _ranks_ran(run, 3)
    _unreachable(monkeypatch, "node1")
    _peer_files(run, "node0", 0)
    d = _peer_files(run, "node2", 3)
    assert d.action == "exclude_node" and "failed in 2 attempts" in d.reason, d
    with Ledger.open(run.ledger) as ledger:
        assert [r[:4] for r in _roots(ledger)] == [
            (0, "node1", "network_switch_cable", "restart"),
            (3, "node1", "network_switch_cable", "exclude_node"),
        ]
        assert netroot.link_flap_attempts(ledger, "node1", before=4) == {0, 3}
        h = _handler(run, ledger, "node1", 3)
        group = SimpleNamespace(workers=[SimpleNamespace(id=None, local_rank=0, global_rank=1)])
        result = h.peers_named_this_link(group)
        assert result is not None and result.state == WorkerState.FAILED
        assert h.ctx.exit_code == EXIT_EXCLUDE and h.ctx.leaving
        assert h.peers_named_this_link(group) is None  # checked at most every second
        ev = json.loads(_roots(ledger)[1][4])
        assert ev["direct"] and "node1" in ev["reported_by"], ev
        actions = ledger.rows("SELECT host, action FROM actions WHERE attempt = 3")
        assert [tuple(a) for a in actions] == [("node1", "exclude_node")]


def test_a_first_filing_by_the_peers_restarts_the_named_node_too(run, monkeypatch):
    _ranks_ran(run, 0)
    _unreachable(monkeypatch, "node1")
    with Ledger.open(run.ledger) as ledger:
        h = _handler(run, ledger, "node1", 0)
        group = SimpleNamespace(workers=[SimpleNamespace(id=None, local_rank=0, global_rank=1)])
        assert h.peers_named_this_link(group) is None  # nothing filed yet
        _peer_files(run, "node3", 0)
        assert h.peers_named_this_link(group) is None  # at most every second
        # the agent's membership restart asks at once (its monitor loop waited on the store)
        result = h.peers_named_this_link(group, force=True)
        assert result is not None and h.ctx.exit_code is None and not h.ctx.leaving
        assert [r[:4] for r in _roots(ledger)] == [(0, "node1", "network_switch_cable", "restart")]
        assert "could not reach it" in h.last_decision.reason


def test_the_switch_lost_is_one_root_cause_of_the_fabric_and_counts_no_link(run, monkeypatch):
    _ranks_ran(run, 0)
    _unreachable(monkeypatch, *NODES)
    for host in NODES:
        _peer_files(run, host, 0)
    with Ledger.open(run.ledger) as ledger:
        roots = _roots(ledger)
        assert len(roots) == 1 and roots[0][2:4] == ("network_switch_cable", "restart"), roots
        ev = json.loads(roots[0][4])
        assert ev["link_of"] is None and len(ev["reported_by"]) == 4, ev
        assert all(not netroot.link_flap_attempts(ledger, h, before=9) for h in NODES)


def test_two_nodes_one_unreachable_names_no_link(run, monkeypatch):
    """Two nodes: the one peer unreachable may be its link, its host or the switch; from here
    no telling which, so the root cause stays on the reporter, undetermined, never counted."""
    for rank, host in enumerate(("node0", "node1")):
        w = EventWriter(
            run.events(0, rank), run_id="r", attempt=0, rank=rank, host=host,
            install_sigterm=False,
        )  # fmt: skip
        w.emit("lifecycle", phase="started")
        w.close()
    _unreachable(monkeypatch, "node1")
    d = _peer_files(run, "node0", 0)
    assert d.root_cause and d.hosts == [] and "1 of 1" in d.reason
    with Ledger.open(run.ledger) as ledger:
        assert [r[1] for r in _roots(ledger)] == ["node0"]
        assert not netroot.link_flap_attempts(ledger, "node1", before=1)


def test_netroot_merges_a_filing_made_while_another_holds_the_write_lock(run):
    """The check and the record are one write transaction: a second filer that starts while
    the first holds the lock finds its record and merges (no second root cause)."""
    row = netroot.Row(time_s=1.0, action="restart", rank=1, host="node1", message="m")
    out: list[netroot.Filed] = []

    def second() -> None:  # node2's agent: its own connection, in its own thread
        with Ledger.open(run.ledger) as b:
            out.append(
                netroot.file(
                    b,
                    attempt=0,
                    reporter="node2",
                    link_of="node1",
                    direct=False,
                    root=row,
                    own=replace(row, rank=2, host="node2"),
                )
            )

    with Ledger.open(run.ledger) as a:
        t = threading.Thread(target=second)
        with a.transaction():
            t.start()
            time.sleep(0.3)  # node2 waits on the lock
            netroot._add(a, 0, row, root=True, link_of="node1", by=["node0"])
        t.join(timeout=60)
        assert out == [netroot.Filed(root=False, into="node1")]
        roots = _roots(a)
        assert len(roots) == 1 and json.loads(roots[0][4])["reported_by"] == ["node0", "node2"]


@pytest.mark.parametrize(
    ("answers", "own_flap", "reached", "others", "want"),
    [
        # its kernel refuses the connect: the host is up, its processes (the store) gone
        (True, None, 1, 1, ("host_maintenance", "node0", None, "node node0 lost")),
        # silent while another peer answers: node0's link (or the host powered off)
        (False, None, 1, 1, ("network_switch_cable", "node0", "node0", "node0's link")),
        # silent, and so is every other peer: the fabric, recorded here
        (False, None, 0, 2, ("network_switch_cable", "node1", None, "the network")),
        # this node's own carrier went down: its link, recorded here
        (False, "this node's link eth0 went down", 0, 1,
         ("network_switch_cable", "node1", "node1", "this node's link eth0")),
        # two nodes: no other peer to tell the store host's link from the switch
        (False, None, 0, 0, ("network_switch_cable", "node0", None, "node0 cut off")),
    ],
)  # fmt: skip
def test_a_lost_store_host_is_the_network_unless_its_kernel_answers(
    answers, own_flap, reached, others, want
):
    """The store's host cut off by the network (not dead) is the network's, not a node lost:
    a host whose processes are gone still answers a TCP connect (refused); one cut off does
    not answer at all."""
    c = netroot.store_host_cause(
        "node0", "10.0.0.10:29400", me="node1", answers=answers, own_flap=own_flap,
        reached=reached, others=others, lost_node="host_maintenance",
    )  # fmt: skip
    assert (c.category, c.host, c.link_of) == want[:3], c
    assert c.words.startswith(want[3]) and "10.0.0.10:29400" in c.words, c.words
