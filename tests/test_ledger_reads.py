"""The supervisor's reads of the ledger, as named methods (no SQL in nonstop/supervisor): each
on a run directory written by the real event writer and ingested as the supervisor does."""

from support.rundir import two_rank_run as write_run

from nonstop.ledger import open_run


def test_reads_of_attempts_steps_and_lifecycle(tmp_path):
    rd = write_run(tmp_path / "run")  # attempt 0 crashes after step 2; attempt 1 runs to 4
    with open_run(rd.root) as led:
        assert led.last_attempt() is None  # steps ingested, no attempt recorded yet
        t0 = led.rows("SELECT MIN(start) FROM steps")[0][0]
        led.attempt_started(0, time_s=t0 - 1, world_size=2)
        led.attempt_started(1, time_s=t0 + 99, world_size=2)
        assert led.last_attempt() == (1, None)
        assert led.attempt_is_open(0) and led.attempt_is_open(1) and not led.attempt_is_open(7)
        assert led.open_attempts(before=1) == [0]
        assert (led.last_step(0), led.last_step(1), led.last_step(5)) == (2, 4, None)
        assert led.lifecycle_seen(0, "attempt_start") and not led.lifecycle_seen(0, "finished")
        last = led.last_progress_time(0)
        assert last == led.rows("SELECT MAX(end) FROM steps WHERE attempt = 0")[0][0]
        assert led.hosts_of_last_attempt() == ["h0", "h1"]
        assert led.last_committed_step() is None

        led.attempt_ended(1, time_s=t0 + 106, outcome="succeeded")
        assert led.last_attempt() == (1, t0 + 106)


def test_close_abandoned_records_the_lost_supervisor_once(tmp_path):
    rd = write_run(tmp_path / "run")
    with open_run(rd.root) as led:
        t0 = led.rows("SELECT MIN(start) FROM steps")[0][0]
        led.attempt_started(0, time_s=t0 - 1, world_size=2)  # a killed supervisor's attempt
        led.close_abandoned(before=1, now_s=t0 + 50)
        (end, outcome) = led.rows("SELECT end_time, outcome FROM attempts WHERE attempt = 0")[0]
        assert outcome == "failed" and end == led.last_progress_time(0)  # progress, not now
        ((kind, latency),) = led.rows("SELECT kind, latency_s FROM detections")
        assert kind == "supervisor_restart" and abs(latency - (t0 + 50 - end)) < 1e-6
        assert led.unanswered_failures(0) == 1  # the failure has no action yet
        led.add_action(attempt=0, time_s=t0 + 51, action="restart", reason="resumed [r1]")
        assert led.unanswered_failures(0) == 0
        assert led.actions_for_request("r1") == [("restart", "resumed [r1]")]
        led.close_abandoned(before=1, now_s=t0 + 60)  # nothing open: nothing added
        assert led.rows("SELECT COUNT(*) FROM failures")[0][0] == 1


def test_observed_mtbi_counts_unplanned_root_causes_only(tmp_path):
    rd = write_run(tmp_path / "run")
    with open_run(rd.root) as led:
        assert led.observed_mtbi_s() is None
        led.attempt_started(0, time_s=1000.0)
        led.attempt_ended(0, time_s=1100.0, outcome="failed")
        led.attempt_started(1, time_s=1100.0)
        led.attempt_ended(1, time_s=1400.0, outcome="planned")
        for planned, root in ((False, True), (False, False), (True, True)):
            led.add_failure(
                attempt=0,
                time_s=1099.0,
                category="unknown",
                action="restart",
                planned=planned,
                root_cause=root,
            )
        assert led.observed_mtbi_s() == 400.0  # 400 s of attempts over one real interruption
        led.add_failure(  # a network outage the job rode out: no interruption
            attempt=1,
            time_s=1200.0,
            category="network_switch_cable",
            action="none",
            evidence={"healed": True, "stalled_s": 25.0},
        )
        assert led.observed_mtbi_s() == 400.0
