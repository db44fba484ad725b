"""Goodput accounting on hand-computed timelines: productive + every badput = wall time."""

import pytest

from nonstop.ledger import BADPUT, AttemptSpan, StepSpan, Timeline, account
from nonstop.ledger.goodput import surviving


def steps(attempt, numbers, t0, dt=1.0):
    return [StepSpan(attempt, n, t0 + i * dt, t0 + (i + 1) * dt) for i, n in enumerate(numbers)]


def check_sum(g):
    assert g.productive_s + sum(g.badput_s.values()) == pytest.approx(g.wall_s)
    assert set(g.badput_s) == set(BADPUT)


def test_clean_run_with_startup_and_shutdown():
    # start at 0, 10 steps of 1 s from t=5, end at 16
    tl = Timeline([AttemptSpan(0, 0.0, 16.0)], steps(0, range(10), 5.0))
    g = account(tl)
    check_sum(g)
    assert g.wall_s == 16 and g.productive_s == 10
    assert g.badput_s["startup"] == 5 and g.badput_s["idle"] == 1
    assert g.ettr == pytest.approx(10 / 16) and g.final_step == 9 and g.steps_lost == 0


def test_restart_seen_as_repeated_step_numbers():
    # attempt 0: steps 0..5 at t=0..6, crash at t=6.5 detected at 7, attempt ends at 8.
    # attempt 1 starts at 9, loads (resumes after step 3) until 11, runs 4..9 at t=11..17.
    a0 = AttemptSpan(0, 0.0, 8.0, failed=True, fault_time=6.5, detect_time=7.0)
    a1 = AttemptSpan(1, 9.0, 17.0)
    tl = Timeline([a0, a1], steps(0, range(6), 0.0) + steps(1, range(4, 10), 11.0))
    g = account(tl)
    check_sum(g)
    # steps 4 and 5 of attempt 0 were redone: lost 2 s, plus the partial step 6.0..6.5
    assert g.steps_lost == 2
    assert g.badput_s["lost_progress"] == pytest.approx(2.5)
    assert g.badput_s["detection"] == pytest.approx(0.5)
    # recovery: 7..8 teardown, 8..9 gap, 9..11 restart and load
    assert g.badput_s["recovery"] == pytest.approx(4.0)
    assert g.productive_s == pytest.approx(4 + 6)
    assert g.final_step == 9 and g.wall_s == 17


def test_checkpoint_blocking_takes_priority_over_steps_and_gaps():
    # 4 steps of 1 s with a 0.5 s blocking save between steps 1 and 2, one inside step 3
    s = [
        StepSpan(0, 0, 0, 1),
        StepSpan(0, 1, 1, 2),
        StepSpan(0, 2, 2.5, 3.5),
        StepSpan(0, 3, 3.5, 4.5),
    ]
    tl = Timeline([AttemptSpan(0, 0, 4.5)], s, checkpoint_blocks=[(2.0, 2.5), (4.0, 4.25)])
    g = account(tl)
    check_sum(g)
    assert g.badput_s["checkpoint"] == pytest.approx(0.75)
    assert g.productive_s == pytest.approx(3.75)


def test_straggler_steps_over_median_plus_3_mad():
    durations = [1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 3.0]  # one step 3x slower
    s, t = [], 0.0
    for i, d in enumerate(durations):
        s.append(StepSpan(0, i, t, t + d))
        t += d
    g = account(Timeline([AttemptSpan(0, 0.0, t)], s))
    check_sum(g)
    ideal = sum(durations[:-1]) / 7
    assert g.ideal_step_s == pytest.approx(ideal)
    assert g.badput_s["straggler"] == pytest.approx(3.0 - ideal)


def test_failed_attempt_without_detection_record_counts_tail_as_detection():
    a0 = AttemptSpan(0, 0.0, 5.0, failed=True)
    a1 = AttemptSpan(1, 5.0, 8.0)
    tl = Timeline([a0, a1], steps(0, range(3), 0.0) + steps(1, range(0, 3), 5.0))
    g = account(tl)
    check_sum(g)
    assert g.steps_lost == 3  # no checkpoint: everything redone
    assert g.badput_s["lost_progress"] == 3 and g.badput_s["detection"] == 2
    assert g.productive_s == 3


def test_surviving_handles_multiple_rollbacks():
    # 0 1 2 3 | 2 3 4 | 1 2 3 4 5  -> only the last run survives, plus step 0 of the first
    order = [0, 1, 2, 3, 2, 3, 4, 1, 2, 3, 4, 5]
    sp = [StepSpan(0, n, i, i + 1) for i, n in enumerate(order)]
    assert surviving(sp) == [True] + [False] * 6 + [True] * 5


def test_empty_timeline():
    g = account(Timeline([], []))
    assert g.wall_s == 0 and g.ettr == 0


def test_planned_interruption_is_timed_separately_and_loses_nothing():
    # attempt 0: steps 0-9 at t=0..10, a drain is requested at 9.5, the save and stop end at 11
    # attempt 1 starts at 15 (requeued), loads until 16, runs steps 10-14 at t=16..21
    a0 = AttemptSpan(0, 0.0, 11.0, fault_time=9.5, planned=True)
    a1 = AttemptSpan(1, 15.0, 21.0)
    tl = Timeline([a0, a1], steps(0, range(10), 0.0) + steps(1, range(10, 15), 16.0))
    g = account(tl)
    check_sum(g)
    assert g.steps_lost == 0 and g.badput_s["lost_progress"] == 0
    # 9.5..10 is still step 9 (productive); 10..11 the stop; 11..16 requeue wait and start-up
    assert g.badput_s["planned"] == pytest.approx(6.0)
    assert g.badput_s["recovery"] == 0 and g.badput_s["detection"] == 0
    assert g.productive_s == pytest.approx(15.0)


def test_a_slow_step_inside_a_healed_network_outage_is_network_not_straggler():
    durations = [1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 21.0, 1.0, 3.0]  # a stall, a straggler
    s, t = [], 0.0
    for i, d in enumerate(durations):
        s.append(StepSpan(0, i, t, t + d))
        t += d
    stall = (s[7].start + 0.2, s[7].start + 20.5)  # the agents' healed outage, from last progress
    g = account(Timeline([AttemptSpan(0, 0.0, t)], s, stalls=[stall]))
    check_sum(g)
    ideal = g.ideal_step_s
    assert g.badput_s["network"] == pytest.approx(21.0 - ideal)
    assert g.badput_s["straggler"] == pytest.approx(3.0 - ideal)
    assert g.steps_lost == 0
    # the same run without the outage on record: both slow steps are stragglers
    g0 = account(Timeline([AttemptSpan(0, 0.0, t)], s))
    assert g0.badput_s["network"] == 0.0
    assert g0.badput_s["straggler"] == pytest.approx(24.0 - 2 * ideal)
