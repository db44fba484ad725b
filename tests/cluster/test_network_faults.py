"""Network faults applied to the kernel's network between real hosts (network namespaces):
the evidence is where the world leaves it (the kernel's carrier count of the node's link, the
ranks' own errors naming their peers), and the ledger says what happened."""

import time

import pytest
from support import rows
from support.multinode import start_agent, train_cmd, wait_for_step

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600), pytest.mark.xdist_group("cluster")]


@pytest.mark.parametrize(
    ("nodes", "hold"), [(2, "default"), (3, "default"), (2, "0")], ids=["2-held", "3-held", "2-0"]
)
def test_cable_pulled_is_the_network_once_and_training_goes_on(cluster, tmp_path, nodes, hold):
    """node1's cable out for 20 s in the middle of the all-reduces: the other nodes' ranks
    wait in the collective (a hang there), node1's rank too.

    Held (the default --network-hold): every agent finds the hang while a link of the job is
    down (node1: its own carrier; the others: node1 unreachable), holds the kill, and once
    the link is back gloo's TCP connections carry the waiting collective through: nothing
    restarts, no step is redone, and the ledger holds one incident, on node1, the network,
    healed (action none, the outage's length), every agent's action `continue`.

    --network-hold 0 (restart at once, as before the hold): one root cause, on node1,
    classified as the network (not a GPU, not a bug); one restart once the link is back;
    nobody excluded for a first fault. With two nodes, node1's own agent names its link (its
    carrier went down; node0 alone cannot tell node1's link from the switch); with three,
    whichever agent files first, and every other filing is merged into that one record (the
    multi-node soak's case: three peers each recorded a root cause on their own host, none
    on node1). Either way the run finishes with every step."""
    import json

    from nonstop.ledger import summarize_run

    run_dir = tmp_path / "run"
    steps = 90
    extra = () if hold == "default" else ("--network-hold", hold)
    cmd = train_cmd(run_dir, cluster, f"{nodes}:{nodes}", *extra, steps=steps, ckpt_every=10)
    agents = [start_agent(cluster[i], cmd, tmp_path) for i in range(nodes)]
    wait_for_step(run_dir, 25, timeout=300, agents=agents)
    cluster[1].link_down()
    time.sleep(20)
    cluster[1].link_up()
    results = [a.finish(400) for a in agents]
    assert [c for c, _ in results] == [0] * nodes, "\n----\n".join(o for _, o in results)

    roots = rows(
        run_dir,
        "SELECT attempt, host, category, action, message, evidence FROM failures"
        " WHERE root_cause = 1",
    )
    s = summarize_run(run_dir).to_dict()
    assert s["final_step"] == steps - 1
    attempts = rows(run_dir, "SELECT COUNT(DISTINCT attempt) FROM steps")[0][0]
    msg, ev = roots[0][4], json.loads(roots[0][5])
    if hold == "default":
        assert [r[:4] for r in roots] == [(0, "node1", "network_switch_cable", "none")], roots
        assert ev["healed"] and ev["steps_redone"] == 0 and ev["link_of"] == "node1", ev
        assert 15 <= ev["stalled_s"] <= 80 and ev["outage_s"] <= ev["stalled_s"], ev
        assert msg.startswith("healed without a restart"), msg
        # the agents that held a hang say `continue` (node1's may never have seen one: its
        # monitor loop waits on the store across the same link)
        acts = rows(run_dir, "SELECT host, action FROM actions ORDER BY host")
        assert acts and {a for _, a in acts} == {"continue"}, acts
        assert attempts == 1
        # every step trained once: none redone
        assert rows(run_dir, "SELECT COUNT(*) FROM steps WHERE rank = 0")[0][0] == steps
        return
    assert [r[:4] for r in roots] == [(0, "node1", "network_switch_cable", "restart")], roots
    assert ev["link_of"] == "node1" and ev["reported_by"], ev
    assert f"link eth0 ({cluster.nodes[1].ip}) went down" in msg, msg
    assert not rows(run_dir, "SELECT * FROM actions WHERE action != 'restart'")
    assert attempts == 2


def test_switch_lost_is_one_root_cause_and_no_restart(cluster, tmp_path):
    """The switch down for 10 s under three training nodes: every rank stops at once. Each
    node's own link stayed up and it reached none of its peers: the fabric. Every agent holds
    the kill (--network-hold), the collective completes once the switch is back: one
    incident, the network's, healed, no restart, no step redone, no node excluded."""
    import json

    from nonstop.ledger import summarize_run

    run_dir = tmp_path / "run"
    steps = 80
    cmd = train_cmd(run_dir, cluster, "3:3", steps=steps, ckpt_every=10)
    agents = [start_agent(cluster[i], cmd, tmp_path) for i in (0, 1, 2)]
    wait_for_step(run_dir, 25, timeout=300, agents=agents)
    cluster.switch_down()
    time.sleep(10)
    cluster.switch_up()
    results = [a.finish(400) for a in agents]
    assert [c for c, _ in results] == [0, 0, 0], "\n----\n".join(o for _, o in results)

    roots = rows(
        run_dir,
        "SELECT attempt, category, action, message, evidence FROM failures WHERE root_cause = 1",
    )
    assert [r[:3] for r in roots] == [(0, "network_switch_cable", "none")], roots
    assert "the fabric" in roots[0][3] and json.loads(roots[0][4])["healed"], roots
    assert {a for (a,) in rows(run_dir, "SELECT action FROM actions")} == {"continue"}
    assert rows(run_dir, "SELECT COUNT(DISTINCT attempt) FROM steps")[0][0] == 1
    assert summarize_run(run_dir).to_dict()["final_step"] == steps - 1
