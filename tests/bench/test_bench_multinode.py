"""bench_multinode's figures from step rows: training again counts only steps the whole world
ran after the fault (not a step in flight at it, not a survivor's lone next step)."""

from pathlib import Path

import pytest

from benchmarks import bench_multinode as bm
from nonstop.events import EventWriter
from nonstop.rundir import create

T = 100.0  # the fault


def _world(attempt, steps, t0, ranks=(0, 1), dt=0.1):
    """Every rank of a world running `steps` from t0, one step each dt."""
    return [
        (attempt, r, s, t0 + i * dt, t0 + (i + 1) * dt) for i, s in enumerate(steps) for r in ranks
    ]


def test_a_restarted_world_is_back_at_its_first_whole_step_and_counts_the_redone():
    # steps 0..9 done before the fault (9 ends at 99.95); rank 0 starts step 10 alone right
    # after it (its peer is dead); the new world resumes at step 8 (a checkpoint) 20 s later
    rows = _world(0, range(10), T - 1.05)
    rows.append((0, 0, 10, T + 0.01, T + 0.02))  # a survivor's lone step (no peer): not back
    rows += _world(1, range(8, 14), T + 20)
    r = bm.back_after_fault(rows, T, world=2)
    assert r["ok"] and r["last_before"] == 9 and r["back_step"] == 8
    assert abs(r["back_s"] - 20.1) < 1e-6
    assert r["redone"] == 2  # steps 8 and 9
    assert abs(r["caught_up_s"] - 20.3) < 1e-6  # step 10, the world's


def test_a_step_in_flight_at_the_fault_does_not_count():
    rows = _world(0, range(5), T - 0.45)  # step 4 runs from 99.95 to 100.05
    rows += _world(0, range(5, 8), T + 30)  # the network back after 30 s, the same attempt
    r = bm.back_after_fault(rows, T, world=2)
    assert r["back_step"] == 5 and abs(r["back_s"] - 30.1) < 1e-6 and r["redone"] == 0


def test_a_world_that_never_trains_again_is_not_back():
    rows = _world(0, range(5), T - 1)
    rows.append((1, 0, 3, T + 5, T + 6))  # one rank of two, the other never came
    r = bm.back_after_fault(rows, T, world=2)
    assert not r["ok"] and "whole world" in r["why"]
    assert not bm.back_after_fault([], T, world=2)["ok"]


def test_a_spare_counting_its_own_attempts_from_zero_is_still_the_new_world():
    rows = _world(0, range(5), T - 1)
    rows += [(1, 0, s, T + 10 + s, T + 10.5 + s) for s in range(3, 6)]  # survivor, attempt 1
    rows += [(0, 1, s, T + 10 + s, T + 10.6 + s) for s in range(3, 6)]  # spare, its attempt 0
    r = bm.back_after_fault(rows, T, world=2)
    assert r["back_step"] == 3 and abs(r["back_s"] - 13.6) < 1e-6 and r["redone"] == 2


def test_step_rows_reads_every_attempt_and_rank(tmp_path: Path):
    rd = create(tmp_path / "run")
    for attempt, rank in ((0, 0), (1, 1)):
        w = EventWriter(
            rd.events(attempt, rank),
            run_id="r",
            attempt=attempt,
            rank=rank,
            host="h",
            install_sigterm=False,
        )
        w.emit("step", step=attempt, start=1.0, end=2.0)
        w.emit("heartbeat", step=attempt)
        w.close()
    assert sorted(bm.step_rows(rd.root)) == [(0, 0, 0, 1.0, 2.0), (1, 1, 1, 1.0, 2.0)]


def test_the_summary_says_who_never_came_back():
    ours = [{"ok": True, "back_s": b, "redone": 0, "finished": True} for b in (10, 12, 11)]
    peer = [{"ok": False, "why": "no step completed by the whole world after the fault"}] * 3
    c = bm.compare(ours, peer)
    assert c["ours"] == 11 and c["peer"] is None and c["ratio"] is None
    assert c["torchrun"]["back"] == 0 and c["torchrun"]["why"]
    assert c["nonstop"]["back_s_range"] == [10.0, 12.0]


def test_the_scenarios_come_from_the_environment_or_one_line():
    from benchmarks import bench_multinode as b

    assert b.chosen(None) == b.DEFAULT == b.chosen("")
    assert b.chosen("cable_pulled, switch_lost") == ("cable_pulled", "switch_lost")
    with pytest.raises(SystemExit, match="NONSTOP_BENCH_MULTINODE_KINDS: unknown cable"):
        b.chosen("cable")
