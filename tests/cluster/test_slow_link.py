"""A slow link, for real: a token bucket (tc tbf) on node1's cable, both ways, under three
training nodes. Every rank waits alike in the collectives that cross it, so no rank's compute
is slow and step times name nobody; the kernel's own measure of each connection does (each
agent samples its node's TCP connections per peer): the pairs through node1 retransmit, the
pair between node0 and node2 does not, and the report names node1's link."""

import json

import pytest
from support import nonstop_cli, rows
from support.multinode import start_agent, train_cmd

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300), pytest.mark.xdist_group("cluster")]


def test_slow_link_is_named_as_the_nodes_link_not_its_ranks_compute(cluster, tmp_path):
    run_dir = tmp_path / "run"
    steps = 12  # the agents sample their connections every 5 s
    slow = cluster[1].name
    cluster[1].slow("2mbit")
    cmd = train_cmd(run_dir, cluster, "3:3", steps=steps, ckpt_every=1000)
    agents = [start_agent(cluster[i], cmd, tmp_path) for i in (0, 1, 2)]
    results = [a.finish(240) for a in agents]
    assert [c for c, _ in results] == [0, 0, 0], "\n----\n".join(o for _, o in results)

    # the straggler report of the attempt names node1's link; the verdict is the link's, with
    # no rank blamed (compute scores on a loaded host may flag anyone: they are noted after it)
    diag = nonstop_cli("diagnose", str(run_dir), "--attempt", "0", "--json", timeout=120)
    d = json.loads(diag.stdout)
    st = d["details"]["stragglers"]
    assert st["slow_link"] and st["slow_link"]["host"] == slow, diag.stdout
    assert (st["slow_link"]["slow"], st["slow_link"]["total"]) == (2, 3), st
    assert f"a slow link, not a slow rank: {slow}'s link" in d["verdict"], d
    assert d["category"] == "network_switch_cable", d
    assert [(c["host"], c["rank"]) for c in d["culprits"]] == [(slow, None)], d
    # and the run's own verdict: finished, slow on node1's link
    whole = json.loads(nonstop_cli("diagnose", str(run_dir), "--json", timeout=120).stdout)
    assert "succeeded" in whole["verdict"] and f"{slow}'s link" in whole["verdict"], whole
    # the agents said so while it ran, once
    assert rows(run_dir, "SELECT host FROM detections WHERE kind = 'slow_link'") == [(slow,)]
