"""A hang found while a link of the job is down: the kill is held, and a collective that the
network gives back is not restarted (nonstop.supervisor.netwait and the FailureHandler's hold).
The clock is a fake; the ledger, the run directory and the handler are real."""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

import pytest
from support.fakes import AgentOps
from support.rundir import nodes_recorded, ranks_ran

from nonstop.ledger import Ledger
from nonstop.supervisor import netroot, netwait
from nonstop.supervisor.config import SupervisorConfig
from nonstop.supervisor.context import AgentContext
from nonstop.supervisor.failures import FailureHandler
from nonstop.supervisor.netwait import HEALED, HOLD, RESTART, NetworkHold, Outage
from nonstop.supervisor.watchdog import Hang

NODES = {"node0": "10.0.0.10", "node1": "10.0.0.11", "node2": "10.0.0.12"}
BY_ADDR = {a: h for h, a in NODES.items()}


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _hold(clock: Clock, cap_s: float = 120.0, down: bool = True) -> NetworkHold:
    return NetworkHold(Outage("own", "eth0 down", down=down), cap_s=cap_s, clock=clock)


def test_a_link_back_and_ranks_that_resume_heal_without_a_restart():
    clock = Clock()
    hold = _hold(clock)
    for _ in range(20):  # the cable out for 20 s
        clock.t += 1.0
        assert hold.update(down=True, progressed=False) == HOLD
    clock.t += 1.0
    assert hold.update(down=False, progressed=False) == HOLD  # back: the grace begins
    clock.t += 5.0
    assert hold.update(down=False, progressed=True) == HEALED
    assert hold.outage_s() == pytest.approx(21.0)
    assert hold.held_s() == pytest.approx(26.0)
    assert hold.why == "the ranks made progress by themselves"


def test_ranks_that_do_not_resume_within_the_grace_restart():
    """The grace is the outage plus GRACE_FLOOR_S: TCP's backoff retries within about the
    outage's length once the link is back, and the ranks then need a step."""
    clock = Clock()
    hold = _hold(clock)
    clock.t += 30.0
    assert hold.update(down=True, progressed=False) == HOLD
    clock.t += 1.0
    assert hold.update(down=False, progressed=False) == HOLD
    clock.t += 40.0  # 40 s after the link's return: within a 31 s outage's grace of 41 s
    assert hold.update(down=False, progressed=False) == HOLD
    clock.t += 2.0
    assert hold.update(down=False, progressed=False) == RESTART
    assert "no progress within 41 s" in hold.why


def test_the_stall_before_the_hang_was_called_counts_in_the_outage():
    """The switch went down with the job's last progress and the hang was called 5 s later:
    the outage is 5 s longer than the hold saw, and TCP's retries follow the whole of it.
    Counted from the hold only, a 10 s outage got 10 s and the job restarted under load."""
    clock = Clock()
    hold = NetworkHold(Outage("fabric", "no peer answers"), cap_s=30.0, clock=clock, before_s=5.0)
    clock.t += 5.0
    assert hold.update(down=True, progressed=False) == HOLD
    clock.t += 0.5
    assert hold.update(down=False, progressed=False) == HOLD  # back after 10.5 s in all
    clock.t += 19.0  # the grace: 5 before + 5.5 held + the floor's 10
    assert hold.update(down=False, progressed=False) == HOLD
    clock.t += 2.0
    assert hold.update(down=False, progressed=False) == RESTART
    assert "no progress within 20 s" in hold.why


def test_a_link_down_past_the_cap_restarts():
    clock = Clock()
    hold = _hold(clock, cap_s=60.0)
    clock.t += 59.0
    assert hold.update(down=True, progressed=False) == HOLD
    clock.t += 1.0
    assert hold.update(down=True, progressed=False) == RESTART
    assert hold.why == "the link stayed down 60 s (cap 60 s)"


def test_an_outage_already_over_gets_the_floor_grace():
    """A carrier change counted during the attempt, the link up again when the hang is
    found: the ranks get GRACE_FLOOR_S, not the cap."""
    clock = Clock()
    hold = _hold(clock, down=False)
    clock.t += netwait.GRACE_FLOOR_S - 0.5
    assert hold.update(down=False, progressed=False) == HOLD
    clock.t += 1.0
    assert hold.update(down=False, progressed=False) == RESTART


def test_a_link_that_goes_down_again_waits_again():
    clock = Clock()
    hold = _hold(clock)
    clock.t += 5.0
    assert hold.update(down=False, progressed=False) == HOLD  # back at 5 s
    clock.t += 8.0
    assert hold.update(down=True, progressed=False) == HOLD  # down again: no grace running
    clock.t += 20.0
    assert hold.update(down=True, progressed=False) == HOLD
    clock.t += 1.0
    assert hold.update(down=False, progressed=False) == HOLD
    clock.t += 43.0  # the grace: the whole outage, 34 s since the hold began, and the floor
    assert hold.update(down=False, progressed=False) == HOLD
    clock.t += 1.0
    assert hold.update(down=False, progressed=False) == RESTART


# -- the handler: held, then healed or not ---------------------------------------------------


@pytest.fixture
def run(tmp_path):
    rd = nodes_recorded(tmp_path / "run", NODES)
    ranks_ran(rd, 0, list(NODES))
    return rd


def _handler(rd, ledger, host, clock, hold_s=120.0):
    cfg = SupervisorConfig(
        run_dir=rd, run_id="r", host=host, health_checks=(), self_test=False,
        evidence_timeout_s=0.2, multi_node=True, network_hold_s=hold_s,
    )  # fmt: skip
    ctx = AgentContext(cfg=cfg, ledger=ledger, attempt=0, attempt_start=time.time())
    ctx.watchdog = SimpleNamespace(last_progress=900.0)  # type: ignore[assignment]
    h = FailureHandler(ctx, AgentOps({0: None}, {0: list(NODES).index(host)}))
    h._link_before = object()  # an address recorded: several hosts
    h._link_now = lambda: None  # type: ignore[method-assign]  # its carrier: not read
    h.clock = clock
    return h


def _hang(rank: int) -> Hang:
    return Hang(
        culprits=[0, 1, 2], reason="every rank waits in the same collective", stalled_s=6.0,
        timeout_s=5.0, basis="steps", last_progress_time=time.time() - 6.0, ranks={},
    )  # fmt: skip


def _unreachable(monkeypatch, down: set[str]) -> None:
    from nonstop.diagnose import peers

    monkeypatch.setattr(
        peers,
        "reachable",
        lambda addresses, port, timeout_s=1.0: {a: BY_ADDR[a] not in down for a in addresses},
    )


def _group(rank: int):
    return SimpleNamespace(workers=[SimpleNamespace(global_rank=rank, local_rank=0, id=None)])


def test_peers_that_ride_out_a_pulled_cable_record_one_healed_incident_on_its_host(
    run, monkeypatch
):
    """node1's cable out: node0 and node2 each find node1 unreachable when their watchdogs
    call the hang, hold the kill, and see the ranks progress once the link is back. One root
    cause, on node1, the network, action none, healed, with the outage's length; each node's
    action `continue`; no failure of node1's link for its exclusion or for its own agent."""
    down = {"node1"}
    _unreachable(monkeypatch, down)
    clock = Clock()
    with Ledger.open(run.ledger) as ledger:
        hs = {h: _handler(run, ledger, h, clock) for h in ("node0", "node2")}
        for host, h in hs.items():
            assert h.on_hang(_group(list(NODES).index(host)), _hang(0)) is None  # held
        for _ in range(15):
            clock.t += 1.0
            for host, h in hs.items():
                assert h.on_hang(_group(list(NODES).index(host)), _hang(0)) is None
        assert not ledger.rows("SELECT * FROM failures"), "nothing recorded while held"
        down.clear()  # the link is back
        clock.t += 4.0
        for host, h in hs.items():
            h.ctx.watchdog.last_progress = 990.0  # the ranks' collective completed
            h.hang_cleared(_group(list(NODES).index(host)))
        roots = ledger.rows(
            "SELECT host, category, action, message, evidence FROM failures WHERE root_cause = 1"
        )
        assert [r[:3] for r in roots] == [("node1", "network_switch_cable", "none")], roots
        ev = json.loads(roots[0][4])
        assert ev["healed"] and ev["steps_redone"] == 0 and ev["link_of"] == "node1"
        assert ev["outage_s"] == pytest.approx(19.0)  # until the progress: no probe between
        assert sorted(ev["reported_by"]) == ["node0", "node2"]
        assert roots[0][3].startswith("healed without a restart: the job stalled 25 s"), roots
        assert "peer node(s) node1 unreachable (1 of 2)" in roots[0][3]
        actions = [tuple(r) for r in ledger.rows("SELECT host, action FROM actions ORDER BY host")]
        assert actions == [("node0", "continue"), ("node2", "continue")]
        assert netroot.filed_by_peers(ledger, "node1", 0) is None  # node1 kills nothing
        assert netroot.link_flap_attempts(ledger, "node1", before=5) == set()
        assert netroot.failed_roots(ledger, 0) == []
        assert [i["host"] for i in netroot.healed(ledger)] == ["node1"]
    from nonstop.diagnose.history import diagnose_history

    v = diagnose_history(run.root)  # `nonstop diagnose RUN` tells it
    assert "1 network outage(s) healed by themselves, no restart" in v.verdict, v.verdict
    assert "node1's link, the job stalled 25.0 s" in v.verdict, v.verdict


def _their_hang(stalled_s: float) -> Hang:
    """A hang whose culprit is rank 2 (node2's): node0 and node1 wait for node2 to act."""
    return Hang(
        culprits=[2], reason="never entered the collective that ranks [0, 1] wait in",
        stalled_s=stalled_s, timeout_s=5.0, basis="collectives",
        last_progress_time=time.time() - stalled_s, ranks={},
    )  # fmt: skip


def test_a_switch_outage_seen_while_waiting_for_the_culprits_node_is_held_after_it_is_back(
    run, monkeypatch
):
    """The switch down 10 s under a 5 s hang timeout. node0 holds no culprit: it waits a
    second timeout for node2's agent to act, and calls the hang itself at 10 s, when the
    switch is back and every peer answers. It probed while it waited and saw none answer: the
    kill is held (the outage back already), the collective completes, and the incident is the
    network's, healed; without the memory node0 restarted the job (the failure under load in
    tests/cluster/test_network_faults.py's switch test)."""
    down = {"node1", "node2"}
    _unreachable(monkeypatch, down)
    clock = Clock()
    with Ledger.open(run.ledger) as ledger:
        h = _handler(run, ledger, "node0", clock)
        for s in range(5, 10):  # node2's hang to call: node0 waits, probing
            assert h.on_hang(_group(0), _their_hang(s + 0.5)) is None
            clock.t += 1.0
        assert h._hold is None, "nothing held while the culprit's node may act"
        down.clear()  # the switch is back
        clock.t += 0.5
        assert h._holding(_their_hang(10.1)), "the outage seen during this stall holds the kill"
        held = h._hold
        assert held is not None and held.outage.kind == "fabric" and not held.outage.down
        assert "reached none of its 2 peers" in held.outage.words, held.outage.words
        assert held.grace_s() == pytest.approx(netwait.GRACE_FLOOR_S + 10.1)
        clock.t += 8.0
        h.ctx.watchdog.last_progress = 990.0  # the collective completed by itself
        h.hang_cleared(_group(0))
        roots = ledger.rows("SELECT category, action, message FROM failures WHERE root_cause = 1")
        assert [r[:2] for r in roots] == [("network_switch_cable", "none")], roots
        assert "healed without a restart" in roots[0][2], roots
        actions = [tuple(r) for r in ledger.rows("SELECT host, action FROM actions")]
        assert actions == [("node0", "continue")]


def test_an_outage_seen_in_an_earlier_stall_does_not_hold_a_later_hang(run, monkeypatch):
    """What the probe saw belongs to that stall: once the ranks progressed, a later hang with
    every peer answering is a hang (no hold); and with --network-hold 0 nothing is probed."""
    down = {"node1", "node2"}
    _unreachable(monkeypatch, down)
    clock = Clock()
    with Ledger.open(run.ledger) as ledger:
        h = _handler(run, ledger, "node0", clock)
        assert h.on_hang(_group(0), _their_hang(6.0)) is None
        assert h._seen is not None
        down.clear()
        h.ctx.watchdog.last_progress = 950.0  # the ranks went on; a new stall later
        assert not h._holding(_their_hang(10.1))
        off = _handler(run, ledger, "node0", clock, hold_s=0.0)
        down.update({"node1", "node2"})
        assert off.on_hang(_group(0), _their_hang(6.0)) is None
        assert off._seen is None


def test_a_hold_that_runs_out_restarts_and_keeps_what_was_unreachable(run, monkeypatch):
    """The link stays down past --network-hold: the hang is handled as before (a restart),
    and the peer that did not answer during the hold is the decision's evidence even if it
    answers by then."""
    down = {"node1"}
    _unreachable(monkeypatch, down)
    clock = Clock()
    with Ledger.open(run.ledger) as ledger:
        h = _handler(run, ledger, "node0", clock, hold_s=30.0)
        assert h._holding(_hang(0))
        clock.t += 29.0
        assert h._holding(_hang(0))
        clock.t += 2.0
        assert not h._holding(_hang(0))
        held = h._hold
        assert held is not None and "stayed down 31 s" in held.why
        down.clear()
        from nonstop.supervisor.policy import Decision

        d = h._network_decision(Decision("hang", "restart", "stuck"), held.outage)
        assert (d.category, d.action, d.hosts) == ("network_switch_cable", "restart", ["node1"])
        h._hold = None
        assert not h._holding(_hang(0)), "one hold per attempt: the next hang is killed"


def test_a_silent_peer_is_held_at_most_the_silent_peer_cap(run, monkeypatch):
    """Only a peer is silent and this node's own link never changed: a pulled cable at the
    far end or a host that lost its power, which look the same from here. The hold ends at
    SILENT_PEER_CAP_S (30 s), not at --network-hold's 120 s: a dead host must not cost the
    whole cap (benchmarks/bench_multinode.py, host_silent)."""
    _unreachable(monkeypatch, {"node1"})
    clock = Clock()
    with Ledger.open(run.ledger) as ledger:
        h = _handler(run, ledger, "node0", clock, hold_s=120.0)
        assert h._holding(_hang(0))
        clock.t += netwait.SILENT_PEER_CAP_S - 1.0
        assert h._holding(_hang(0))
        clock.t += 2.0
        assert not h._holding(_hang(0))
        assert h._hold is not None and "(cap 30 s)" in h._hold.why, h._hold.why


def test_the_cap_is_the_flag_for_this_nodes_own_link_and_never_more_for_silent_peers():
    own = Outage("own", "eth0 down")
    peer = Outage("peer", "node1 unreachable", unreachable=("node1",), total=2)
    fabric = Outage("fabric", "none of 2 peers answer", unreachable=("node1", "node2"), total=2)
    assert netwait.cap_for(own, 120.0) == 120.0
    assert netwait.cap_for(peer, 120.0) == netwait.cap_for(fabric, 120.0) == 30.0
    assert netwait.cap_for(peer, 10.0) == 10.0  # a shorter --network-hold wins


def test_no_hold_when_off_or_when_the_network_is_whole(run, monkeypatch):
    _unreachable(monkeypatch, set())
    clock = Clock()
    with Ledger.open(run.ledger) as ledger:
        assert not _handler(run, ledger, "node0", clock)._holding(_hang(0))
        _unreachable(monkeypatch, {"node1"})
        assert not _handler(run, ledger, "node0", clock, hold_s=0.0)._holding(_hang(0))


def test_the_node_whose_carrier_flapped_claims_a_healed_outage_its_peer_could_not_place(
    run, monkeypatch
):
    """Two nodes: node0 held and healed a hang with node1 unreachable (1 of 1: its link or
    the switch, no telling). node1's agent never saw the hang (its monitor loop waited on the
    store across the same link) but its carrier counted the change: it files the incident as
    its own link's, which takes the root cause over; node0's filing turns secondary."""
    from nonstop.diagnose.peers import LinkState

    two = {"node0", "node1"}
    monkeypatch.setattr(
        "nonstop.supervisor.evidence.hosts_of_attempt",
        lambda root, attempt: {r: h for r, h in enumerate(NODES) if h in two},
    )
    down = {"node1"}
    _unreachable(monkeypatch, down)
    clock = Clock()
    with Ledger.open(run.ledger) as ledger:
        h0 = _handler(run, ledger, "node0", clock)
        assert h0.on_hang(_group(0), _hang(0)) is None
        clock.t += 12.0
        down.clear()
        h0.ctx.watchdog.last_progress = 990.0
        h0.hang_cleared(_group(0))
        h1 = _handler(run, ledger, "node1", clock)
        h1._link_before = LinkState("eth0", NODES["node1"], 2, "up")
        h1._link_now = lambda: LinkState("eth0", NODES["node1"], 4, "up")  # type: ignore[method-assign]
        assert h1.peers_named_this_link(_group(1), force=True) is None  # nothing killed
        roots = ledger.rows("SELECT host, action, evidence FROM failures WHERE root_cause = 1")
        assert [tuple(r[:2]) for r in roots] == [("node1", "none")], roots
        ev = json.loads(roots[0][2])
        assert ev["healed"] and ev["direct"] and ev["link_of"] == "node1", ev
        assert ev["reported_by"] == ["node0", "node1"], ev
        assert ledger.rows("SELECT COUNT(*) FROM failures WHERE root_cause = 0")[0][0] == 1
        h1.peers_named_this_link(_group(1), force=True)  # claimed once
        assert ledger.rows("SELECT COUNT(*) FROM failures")[0][0] == 2
