"""A partition between real hosts: {node0, node1} and {node2} on two switches that cannot see
each other, under a three-node job (--nnodes 2:3, the c10d store on node0).

What torch's rendezvous allows decides who goes on: one store, on node0, so only the side that
reaches it can form a round. That side (two nodes, at least --nnodes' minimum) restarts
without node2 and trains to the end; node2's agent cannot reach the store and trains nothing
after the cut, and gives up by itself: its store polls are bounded (before, its agent's
main loop sat in torch's `num_nodes_waiting()` read for 16 minutes, until the kernel gave up
retransmitting, and its watchdog never ran). No split brain: no step is trained
by two worlds at once, and no checkpoint is committed twice."""

import itertools
import time

import pytest
from support import rows
from support.multinode import start_agent, train_cmd, wait_for_step

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600), pytest.mark.xdist_group("cluster")]


def test_partition_one_side_goes_on_nothing_written_twice(cluster, tmp_path):
    from nonstop.ledger import summarize_run

    run_dir = tmp_path / "run"
    steps = 80
    # a partition that stays: each side holds its hang while the other does not answer
    # (--network-hold), then restarts; 15 s keeps the test short (silent peers: 30 s by default),
    # as does the store client's 30 s timeout (torch's 60 s by default), which also bounds how
    # long node2's agent waits for a store that does not answer (launch.store_silent_s)
    conf = "last_call_timeout=3,read_timeout=30"
    rdzv = ("--rdzv-conf", conf, "--max-restarts", "2", "--network-hold", "15")
    cmd = train_cmd(run_dir, cluster, "2:3", *rdzv, steps=steps, ckpt_every=10)
    agents = [start_agent(cluster[i], cmd, tmp_path) for i in (0, 1, 2)]
    wait_for_step(run_dir, 25, timeout=300, agents=agents)
    t_cut = time.time()
    cluster.partition([0, 1], [2])
    (c0, o0), (c1, o1) = agents[0].finish(400), agents[1].finish(400)
    assert (c0, c1) == (0, 0), o0 + "\n----\n" + o1
    # the cut-off side never finishes the job, and gives up by itself: its store polls are
    # bounded (read_timeout, 30 s), then two reconnects that time out (--max-restarts 2)
    c2, o2 = agents[2].finish(300)
    assert c2 not in (0, -9, None), o2
    assert "the rendezvous store stayed unreachable" in o2, o2[-3000:]

    after = rows(run_dir, "SELECT DISTINCT host FROM steps WHERE start > ?", (t_cut + 1,))
    assert {h for (h,) in after} == {"node0", "node1"}, after
    assert summarize_run(run_dir).to_dict()["final_step"] == steps - 1
    # one world at a time: the attempts' step intervals do not overlap
    spans = rows(run_dir, "SELECT attempt, MIN(start), MAX(end) FROM steps GROUP BY attempt")
    for (a, _, end), (b, start, _) in itertools.pairwise(spans):
        assert end <= start, (a, b, spans)
    # every checkpoint committed by one world, once per rank of it
    twice = rows(
        run_dir,
        "SELECT step, rank, COUNT(*) FROM checkpoints WHERE phase = 'committed'"
        " GROUP BY step, rank HAVING COUNT(*) > 1",
    )
    assert not twice, twice
