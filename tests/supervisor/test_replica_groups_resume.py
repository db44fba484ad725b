"""A replica-group job whose groups are all lost resumes from its durable checkpoint.

Every group's rank is SIGKILLed at the same step with no restart left (`--max-restarts 0`),
so the job fails with nothing live to heal from; the same command again (a requeue) resumes
it: the group(s) whose first quorum has nobody ahead load the newest durable checkpoint, the
steps committed after it are rolled back and taken again once, and both groups end with the
same parameters. Durable checkpoints are written by one group per step (the lowest live
replica), into its own folder. A planned stop (SIGTERM, a preemption) has that group write one
at the stop, so its requeue redoes nothing.
"""

import json
import signal
import time

import pytest
from support import TINY, finish, last_step, nonstop_cli, nonstop_run, rows, start

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


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_preempted_job_checkpoints_at_the_stop_and_its_requeue_redoes_nothing(run_dir):
    cmd = [
        "--replica-groups", "2", "--nproc-per-node", "1", "--run-dir", str(run_dir),
        "-m", "nonstop.workloads.llama.train", "--fault-tolerant", *TINY,
        "--steps", "40", "--checkpoint-every", "100",  # none but the stop's
        "--min-step-s", "0.25",
    ]  # fmt: skip
    p = start(cmd)
    deadline = time.monotonic() + 120
    while last_step(run_dir / "groups" / "g0") < 8 and time.monotonic() < deadline:
        time.sleep(0.2)
    p.send_signal(signal.SIGTERM)  # the scheduler's preemption warning, to every group
    code, out = finish(p, 120)
    assert code == 75, out  # requeue
    assert "the same command resumes it" in out
    # each group stops at its own next step boundary (the same one, or one apart: the last
    # to stop committed that step alone and, then the lowest live replica, saved it)
    stops = [r[0] for g in (0, 1) for r in rows(run_dir / "groups" / f"g{g}",
             "SELECT step FROM lifecycle WHERE phase = 'planned_stop'")]  # fmt: skip
    assert len(stops) == 2 and max(stops) - min(stops) <= 1, stops
    stop = max(stops)
    saved = list(run_dir.glob(f"groups/g*/checkpoints/step-{stop + 1}/COMMIT.json"))
    assert len(saved) == 1, saved  # one writer
    again = nonstop_run(cmd, timeout=150)
    assert again.returncode == 0, again.stdout + again.stderr
    s = json.loads(nonstop_cli("report", str(run_dir), "--json").stdout)
    assert s["resumed_from_checkpoint"] == [stop + 1] and s["steps_rolled_back"] == 0
    assert s["steps_committed"] == 40 and s["steps_missing"] == 0
    assert s["steps_committed_twice"] == 0 and s["fingerprints_equal"] is True
