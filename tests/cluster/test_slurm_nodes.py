"""examples/slurm/nonstop.sbatch across real hosts: one slurmd per namespace node
(tests/support/slurm_nodes.py), `sbatch -N 2` on a partition of four nodes.

Each node's `nonstop run` is started by `srun` inside its node; the rank on one of them dies
with an Xid (a faulty GPU, as the driver would log it), its agent excludes the node (exit 93).
The batch script maps that to Slurm's own exclusion: the node goes into the job's ExcNodeList
and the job is requeued; Slurm starts it again on the other node and a spare, and it resumes
from the newest committed checkpoint: nothing trained twice but the steps whose checkpoints
the crash cut off before their commit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from slurm.slurmjobs import Job, train
from support import slurm_nodes

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900), pytest.mark.xdist_group("cluster")]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def slurm(cluster):
    """slurmctld on the bridge, a slurmd on each of the four nodes; stopped after the test
    (the cluster's reset kills the slurmds with every other process of the nodes)."""
    try:
        conf = slurm_nodes.up(cluster)
    except (slurm_nodes.SlurmUnavailable, OSError, subprocess.CalledProcessError) as e:
        slurm_nodes.down()
        if os.environ.get("CI") == "1":
            pytest.fail(f"no Slurm on the namespace nodes: {e}; CI=1 requires it")
        pytest.skip(f"no Slurm on the namespace nodes: {e}")
    yield conf
    slurm_nodes.down()


def this_nonstop(tmp_path: Path) -> Path:
    """`nonstop` from this checkout, whatever console script the venv has."""
    exe = tmp_path / "nonstop"
    pythonpath = f"{ROOT}${{PYTHONPATH:+:$PYTHONPATH}}"
    exe.write_text(
        f'#!/bin/sh\nPYTHONPATH={pythonpath} exec {sys.executable} -m nonstop.cli "$@"\n'
    )
    exe.chmod(0o755)
    return exe


def test_node_excluded_by_nonstop_is_left_out_of_the_requeued_job(slurm, tmp_path):
    steps = 30
    args = [
        "--nproc-per-node",
        "1",
        "--no-self-test",
        "--monitor-interval",
        "0.2",
        "--inject",
        "crash@step=10,rank=1,xid=79",  # attempt 0 only: the requeued job runs clean
        *train(steps, every=1),  # a checkpoint every step
    ]
    job = Job(slurm, tmp_path, ["-N", "2"], args, env={"NONSTOP": str(this_nonstop(tmp_path))})
    try:
        first = job.wait(lambda j: j["JobState"] == "RUNNING", 120, "running")["NodeList"]
        job.wait_requeued(400)
        excluded = job.info()["ExcNodeList"]
        out = job.output()
        assert f"node(s) {excluded} excluded by nonstop (exit 93): requeueing job" in out, out
        job.release()
        info = job.wait_finished(400)
    finally:
        job.cancel()
    assert info["JobState"] == "COMPLETED" and info["Restarts"] == "1", job.output()

    roots = job.rows("SELECT host, category, action FROM failures WHERE root_cause = 1")
    assert roots == [(excluded, "faulty_gpu", "exclude_node")], roots
    # the second start ran on the other node of the first and on a spare, never on the bad one
    hosts = {h for (h,) in job.rows("SELECT DISTINCT host FROM steps WHERE attempt > 0")}
    first_nodes = subprocess.run(
        ["scontrol", "show", "hostnames", first], env=job.env, capture_output=True, text=True
    ).stdout.split()
    assert len(hosts) == 2 and excluded not in hosts and hosts - set(first_nodes), (hosts, first)
    # it resumed from the newest committed checkpoint; the only steps trained twice are those
    # whose checkpoints the crash cut off before their commit (one or two: a checkpoint
    # commits after the next step has begun, and rank 1 died in the commit's collective)
    ((committed,),) = job.rows(
        "SELECT MAX(step) FROM checkpoints WHERE phase = 'committed' AND attempt = 0"
    )
    ((stop,),) = job.rows("SELECT MAX(step) FROM steps WHERE rank = 0 AND attempt = 0")
    ((resumed,),) = job.rows("SELECT MIN(step) FROM steps WHERE rank = 0 AND attempt > 0")
    assert resumed == committed, (resumed, committed)
    trained = job.steps_trained()
    assert sorted(set(trained)) == list(range(steps)), "a step was skipped"
    twice = sorted(s for s in set(trained) if trained.count(s) > 1)
    assert twice == list(range(committed, stop + 1)) and len(trained) == steps + len(twice), (
        stop,
        committed,
        trained,
    )
