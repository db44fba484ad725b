"""A whole node lost, for real: every process in node1's namespace SIGKILLed at once.

node0 hosts the c10d store; node2 is a spare that waits in torch's redundancy list (the world is
full at two nodes). The surviving node restarts without node1, the spare takes its place with
standbys already warm, and both ranks load the state that node0's replica server kept for node1
over the bridge: bitwise the state of a run that never failed, with nothing durable written.
"""

import json

import pytest
from support import TINY, nonstop_cli, nonstop_run, rows
from support.multinode import start_agent, train_cmd, wait_for_step

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600), pytest.mark.xdist_group("cluster")]


def test_node_lost_spare_joins_warm_state_from_peer_memory(cluster, tmp_path):
    import torch

    run_dir = tmp_path / "run"
    steps = 80
    mem = ("--memory-checkpoint-every", "1", "--replicas", "1")
    train = ("--save-final", str(tmp_path / "final.pt"))
    cmd = train_cmd(run_dir, cluster, "2:2", *mem, steps=steps, ckpt_every=1000, train=train)
    agents = [start_agent(cluster[i], cmd, tmp_path) for i in (0, 1)]
    wait_for_step(run_dir, 5, agents=agents)
    spare = start_agent(cluster[2], cmd, tmp_path)  # joins the redundancy list, warms up
    wait_for_step(run_dir, 30, agents=agents)
    killed = cluster[1].kill()  # the node: agent, ranks, standbys, replica server
    assert killed
    agents[1].finish(30)
    (c0, o0), (c2, o2) = agents[0].finish(), spare.finish()
    assert (c0, c2) == (0, 0), o0 + "\n----\n" + o2

    last = "(SELECT MAX(attempt) FROM attempts)"
    hosts = rows(run_dir, f"SELECT DISTINCT host FROM steps WHERE attempt = {last}")
    assert {h for (h,) in hosts} == {"node0", "node2"}, hosts
    loads = rows(
        run_dir,
        f"SELECT rank, step, path FROM checkpoints WHERE phase = 'loaded' AND attempt = {last}",
    )
    # node1's replicas lived on node0 (ring order): both ranks load from node0's server
    assert len(loads) == 2 and all(p.startswith("memory:node0") for _, _, p in loads), loads
    assert len({s for _, s, _ in loads}) == 1 and loads[0][1] >= 30
    assert rows(run_dir, "SELECT MAX(step) FROM steps")[0][0] == steps - 1
    restart = rows(run_dir, f"SELECT restart_path FROM attempts WHERE attempt = {last}")
    assert restart == [("warm",)], restart
    # node1 said nothing (nothing of it was left to): node0 recorded its loss, naming the
    # host every failing connection involved, by the address node1 recorded at start
    roots = rows(
        run_dir,
        "SELECT host, rank, category, action, message FROM failures WHERE root_cause = 1",
    )
    # a host gone whole is the host's (unplanned host maintenance), not `unknown`; the job
    # went on without it (exclude_node is what happened; node0 restarted)
    assert [r[:4] for r in roots] == [("node1", 1, "host_maintenance", "exclude_node")], roots
    assert f"node1 ({cluster[1].ip}): 1 of 1 failing connections" in roots[0][4], roots
    # one decision: node1's exclusion is recorded as its action (it left the job) beside
    # node0's restart without it, never an exclusion of a survivor
    acts = rows(run_dir, "SELECT host, action FROM actions")
    assert ("node0", "restart") in acts, acts
    assert {a for _, a in acts} <= {"restart", "membership_change", "exclude_node"}, acts
    assert {h for h, a in acts if a == "exclude_node"} == {"node1"}, acts

    # `nonstop diagnose` names the same host from the ranks' own words
    diag = nonstop_cli("diagnose", str(run_dir), "--attempt", "0", "--json", timeout=120)
    link = json.loads(diag.stdout)["details"]["link"]
    assert (link["host"], link["involving"], link["total"]) == ("node1", 1, 1), diag.stdout

    # the same job in one process group on one host, never failed
    run = ["--nproc-per-node", "2", "--run-dir", str(tmp_path / "ref")]
    train = ["--steps", str(steps), "--checkpoint-every", "1000"]
    ref = nonstop_run(
        [
            *run,
            "-m",
            "nonstop.workloads.llama.train",
            *TINY,
            *train,
            "--save-final",
            str(tmp_path / "ref.pt"),
        ],
        timeout=240,
    )
    assert ref.returncode == 0, ref.stdout + ref.stderr
    got, want = (torch.load(tmp_path / f, weights_only=True) for f in ("final.pt", "ref.pt"))
    assert all(torch.equal(got[k], want[k]) for k in want)
