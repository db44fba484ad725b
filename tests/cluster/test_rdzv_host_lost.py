"""The node that hosts the c10d rendezvous store lost, for real (every process of node0 killed).

torch's c10d rendezvous has one store, inside the agent on the endpoint's host: with it gone no
round can form at that endpoint again, and torchrun's agents give up. `nonstop run
--rdzv-fallback-endpoints` moves the job to the next endpoint in a list every node shares; the
agent on that host starts the new store, and a round forms once a majority of the last
attempt's nodes joined, so a minority cut off by a partition cannot form a job of its own."""

import pytest
from support import rows
from support.multinode import RDZV_PORT, start_agent, train_cmd, wait_for_step

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600), pytest.mark.xdist_group("cluster")]


def test_store_host_lost_the_job_moves_to_a_survivors_store(cluster, tmp_path):
    from nonstop.ledger import summarize_run

    run_dir = tmp_path / "run"
    steps = 80
    extra = (
        "--rdzv-conf",
        "last_call_timeout=3",
        "--rdzv-fallback-endpoints",
        f"{cluster[1].ip}:{RDZV_PORT}",
    )
    cmd = train_cmd(run_dir, cluster, "2:3", *extra, steps=steps, ckpt_every=10)
    agents = [start_agent(cluster[i], cmd, tmp_path) for i in (0, 1, 2)]
    wait_for_step(run_dir, 25, timeout=300, agents=agents)
    cluster[0].kill()
    agents[0].finish(30)
    (c1, o1), (c2, o2) = agents[1].finish(400), agents[2].finish(400)
    assert (c1, c2) == (0, 0), o1 + "\n----\n" + o2
    assert f"moving to {cluster[1].ip}:{RDZV_PORT}" in o1 + o2

    s = summarize_run(run_dir).to_dict()
    assert s["final_step"] == steps - 1
    last = "(SELECT MAX(attempt) FROM attempts)"
    hosts = rows(run_dir, f"SELECT DISTINCT host FROM steps WHERE attempt = {last}")
    assert {h for (h,) in hosts} == {"node1", "node2"}, hosts
    roots = rows(
        run_dir,
        "SELECT host, category, message FROM failures WHERE root_cause = 1 AND attempt = 0",
    )
    # a node lost whole, the store's host or another: the host's, never `unknown`
    assert [(h, c) for h, c, _ in roots] == [("node0", "host_maintenance")], roots
    assert "node node0 lost" in roots[0][2], roots
