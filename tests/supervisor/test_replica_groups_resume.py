"""A replica-group job whose groups are all lost resumes from its durable checkpoint.

Every group's rank is SIGKILLed at the same step with no restart left (`--max-restarts 0`),
so the job fails with nothing live to heal from; the same command again (a requeue) resumes
it: the group(s) whose first quorum has nobody ahead load the newest durable checkpoint, the
steps committed after it are rolled back and taken again once, and both groups end with the
same parameters. Durable checkpoints are written by one group per step (the lowest live
replica), into its own folder.
"""

import json

import pytest
from support import TINY, nonstop_cli, nonstop_run, rows

STEPS, EVERY, CRASH = 30, 10, 18


@pytest.mark.slow
@pytest.mark.timeout(420)
def test_a_job_whose_groups_all_died_resumes_from_its_durable_checkpoint(run_dir):
    cmd = [
        "--replica-groups", "2", "--nproc-per-node", "1", "--run-dir", str(run_dir),
        "--max-restarts", "0",
        "--inject", f"crash@step={CRASH},signal=SIGKILL",  # every group, attempt 0 only
        "-m", "nonstop.workloads.llama.train", "--fault-tolerant", *TINY,
        "--steps", str(STEPS), "--checkpoint-every", str(EVERY),
        # steps long enough that the save of step 10 commits before step 18
        "--min-step-s", "0.25",
    ]  # fmt: skip
    first = nonstop_run(cmd, timeout=200)
    assert first.returncode != 0, first.stdout + first.stderr
    g0, g1 = run_dir / "groups" / "g0", run_dir / "groups" / "g1"
    for g in (g0, g1):  # both groups lost, none restarted
        assert rows(g, "SELECT attempt, signal FROM failures") == [(0, "SIGKILL")]
    # one writer per step: group 0, the lowest replica, while it lives; group 1 never
    assert (g0 / "checkpoints" / f"step-{EVERY}" / "COMMIT.json").is_file()
    assert not any((g1 / "checkpoints").glob("step-*"))

    again = nonstop_run(cmd, timeout=200)  # the same command: a requeue
    assert again.returncode == 0, again.stdout + again.stderr
    assert "resuming the replica-group job" in again.stdout
    rep = nonstop_cli("report", str(run_dir), "--json")
    assert rep.returncode == 0, rep.stderr
    s = json.loads(rep.stdout)
    assert s["resumed_from_checkpoint"] == [EVERY]
    resumed = [r for g in s["groups"] for r in g["resumed_at"]]
    assert resumed and all(r == {"attempt": 1, "step": EVERY} for r in resumed)
    for g in s["groups"]:  # a group that did not load it healed from one that did
        assert g["resumed_at"] or (g["healed_at"] and g["healed_at"][0]["step"] >= EVERY)
    # steps 10-17 were committed before the loss and lost with it: taken again, once
    assert s["steps_rolled_back"] == CRASH - EVERY
    assert s["steps_committed"] == STEPS and s["steps_missing"] == 0
    assert s["steps_committed_twice"] == 0
    assert s["fingerprints_equal"] is True
    for g in s["groups"]:
        assert g["steps_rolled_back"] == CRASH - EVERY  # each had committed 10-17
        if g["resumed_at"]:  # 0-9 before the loss, 10-29 after the resume
            assert g["steps_committed"] == STEPS
    assert not any((g1 / "checkpoints").glob("step-*"))
