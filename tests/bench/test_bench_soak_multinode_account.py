"""The multi-node soak's accounting (benchmarks/bench_soak_multinode.account): the ledger's
root causes against the injector's faults, now that a network fault may heal inside its
attempt (nonstop run's --network-hold) instead of ending it."""

from benchmarks.bench_soak_multinode import Fault, account


def _root(attempt, host, action, t, category="network_switch_cable"):
    return (attempt, host, None, category, action, "m", t)


def test_faults_that_healed_in_one_attempt_each_take_their_own_record():
    fired = [
        Fault("cable_pulled", node=1, attempt=0, time=100.0, detail={"healed": True}),
        Fault("switch_lost", node=None, attempt=0, time=200.0, detail={"healed": True}),
        Fault("crash", node=2, attempt=0, time=300.0),
        Fault("cable_pulled", node=3, attempt=1, time=400.0),  # ended its attempt
    ]
    roots = [
        _root(0, "node1", "none", 99.5),
        _root(0, "node0", "none", 199.0),
        _root(0, "node2", "restart", 299.8, category="unknown"),
        _root(1, "node3", "restart", 399.0),
    ]
    accounted, wrong, phantom = account(fired, roots)
    assert (len(accounted), wrong, phantom) == (4, [], [])


def test_a_healed_fault_recorded_as_a_restart_or_twice_is_wrong_and_extras_are_phantoms():
    fired = [
        Fault("cable_pulled", node=1, attempt=0, time=100.0, detail={"healed": True}),
        Fault("cable_pulled", node=2, attempt=0, time=200.0, detail={"healed": True}),
    ]
    roots = [
        _root(0, "node1", "restart", 99.0),  # healed, yet recorded as a restart
        _root(0, "node2", "none", 199.0),
        _root(0, "node2", "none", 201.0),  # twice
        _root(3, "node0", "restart", 500.0),  # no fault
    ]
    accounted, wrong, phantom = account(fired, roots)
    assert [e["node"] for e in wrong] == [1, 2] and not accounted
    assert phantom == [(3, "node0", None, "network_switch_cable", "restart", "m")]
