"""The watchdog's timeouts and culprits, on a fake clock (the end-to-end hang tests use real
signals in test_run_faults.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.fakes import Clock
from support.fakes import event as ev

from nonstop.supervisor.watchdog import Watchdog


def trained(clock: Clock, steps: int = 10, step_s: float = 0.1) -> Watchdog:
    wd = Watchdog(ranks=[0, 1], clock=clock)
    for step in range(steps):
        for r in (0, 1):
            wd.observe(ev(r, "step", step=step, start=0.0, end=step_s))
        clock.t += step_s
    return wd


def test_steps_set_the_timeout_and_a_silent_rank_is_the_culprit():
    clock = Clock()
    wd = trained(clock)
    assert wd.timeout() == (5.0, "steps")  # max(3 x 0.1 s, the 5 s floor)
    clock.t += 4.0
    wd.observe(ev(0, "heartbeat", step=9))  # rank 0 still answers, rank 1 does not
    assert wd.check() is None
    clock.t += 1.5
    hang = wd.check()
    assert hang is not None and hang.culprits == [1] and hang.basis == "steps"


def test_a_heartbeat_dates_what_the_last_step_explains_at_that_step_end():
    """Rank 1 is SIGSTOPped as step 10 begins. Rank 0's next heartbeat, a tick after step 9
    ended, says it began step 10 and completed step 9's collectives: news of before that end,
    not progress at the heartbeat, so the hang is called 5 s after step 9 ended, not 5 s
    after the heartbeat (which made every detection up to a tick late)."""
    clock = Clock()
    wd = Watchdog(ranks=[0, 1], clock=clock)
    beat = {"source": "bootstrap"}  # the watcher's heartbeat, every tick
    for step in range(10):
        for r in (0, 1):
            wd.observe(ev(r, "heartbeat", step=step, coll_enq=4 * step, coll_done=4 * step, **beat))
        clock.t += 0.1
        for r in (0, 1):
            wd.observe(ev(r, "step", step=step, start=0.0, end=0.1))
            wd.observe(ev(r, "heartbeat", step=step + 1))  # rt.step's own, as the next begins
    ended = clock.t
    clock.t += 0.45
    news = replace(ev(0, "heartbeat", step=10, coll_enq=41, coll_done=40, **beat), time=clock.t)
    wd.observe(news)  # its wall time is when it was sent, a tick after the step ended
    clock.t = ended + 5.0
    wd.observe(ev(0, "heartbeat", step=10, coll_enq=41, coll_done=40, **beat))  # waits
    clock.t = ended + 5.1
    hang = wd.check()
    assert hang is not None and hang.culprits == [1], hang
    assert hang.stalled_s == pytest.approx(5.1)
    # and the wall time of the last progress is dated back alike: the ledger's latency
    # (detection minus last progress) is the stall decided on, never under the timeout
    assert hang.last_progress_time == pytest.approx(ended)
    # a heartbeat with news no step explains (progress inside a long step) is dated itself
    clock.t += 0.5
    wd.observe(ev(0, "heartbeat", step=10, coll_enq=42, coll_done=41, **beat))
    wd.observe(ev(1, "heartbeat", step=10, coll_enq=42, coll_done=41, **beat))
    clock.t += 4.9
    assert wd.check() is None


def test_ranks_on_their_way_out_after_the_last_step_are_not_a_hang():
    clock = Clock()
    wd = trained(clock)
    for r in (0, 1):
        wd.observe(ev(r, "lifecycle", phase="finished", step=9))
    clock.t += 30.0  # barrier, process-group teardown and exit on a loaded host: no events
    assert wd.timeout() == (60.0, "exit") and wd.check() is None
    clock.t += 31.0
    hang = wd.check()
    assert hang is not None and hang.basis == "exit"


def test_a_rank_stuck_in_its_last_step_while_its_peer_finished_is_named():
    clock = Clock()
    wd = trained(clock)
    wd.observe(ev(0, "heartbeat", step=10, coll_enq=41, coll_done=41))
    wd.observe(ev(1, "heartbeat", step=10, coll_enq=40, coll_done=40))
    wd.observe(ev(0, "lifecycle", phase="finished", step=10))
    clock.t += 61.0
    wd.observe(ev(0, "heartbeat", step=10, coll_enq=42, coll_done=41))  # waits in the barrier
    wd.observe(ev(1, "heartbeat", step=10, coll_enq=40, coll_done=40))
    hang = wd.check()
    assert hang is not None and hang.culprits == [1] and "never entered" in hang.reason


def test_sections_outrank_everything():
    clock = Clock()
    wd = trained(clock)
    wd.observe(ev(0, "section", name="checkpoint", phase="begin"))
    wd.observe(ev(1, "lifecycle", phase="planned_stop", step=9))
    assert wd.timeout() == (1800.0, "section")
    wd.observe(ev(0, "section", name="checkpoint", phase="end"))
    assert wd.timeout() == (60.0, "exit")


def collectives(
    wd: Watchdog,
    clock: Clock,
    n: int,
    *,
    gap_s: float = 0.1,
    start: int = 0,
    cpu: dict[int, float] | None = None,
) -> int:
    """n job-level collective completions on ranks 0 and 1 (an unmodified script)."""
    for i in range(start, start + n):
        clock.t += gap_s
        for r in (0, 1):
            wd.observe(
                ev(r, "heartbeat", step=-1, coll_enq=i, coll_done=i, cpu_s=(cpu or {}).get(r, 0.0))
            )
    return start + n


def test_an_explicit_timeout_holds_once_the_attempt_has_progressed():
    """--hang-timeout 20 after a restart: the first collectives end the startup allowance
    (it was ignored until 5 gaps were learned: a hang 4 steps in waited 300 s)."""
    clock = Clock()
    wd = Watchdog(ranks=[0, 1], hang_timeout_s=20.0, clock=clock)
    assert wd.timeout() == (300.0, "startup")  # nothing yet: the attempt is starting
    collectives(wd, clock, 3)
    assert wd.timeout() == (20.0, "explicit")
    clock.t += 19.0
    wd.observe(ev(1, "heartbeat", step=-1, coll_enq=3, coll_done=2))  # waits for rank 0
    assert wd.check() is None
    clock.t += 1.5
    hang = wd.check()
    assert hang is not None and hang.basis == "explicit" and hang.culprits == [0]


def test_auto_survives_an_unmarked_pause_then_learns_it():
    """An unmodified script's 30 s evaluation: no section marks it, the collective gaps are
    milliseconds; the floor covers the first pause, and the pause is learned."""
    clock = Clock()
    wd = Watchdog(ranks=[0, 1], clock=clock)
    i = collectives(wd, clock, 20)
    assert wd.timeout() == (60.0, "collectives")  # not the old 5 s floor
    for _ in range(60):  # 30 s of evaluation: heartbeats, no collective, no CPU (a sleep)
        clock.t += 0.5
        for r in (0, 1):
            wd.observe(ev(r, "heartbeat", step=-1, coll_enq=i - 1, coll_done=i - 1))
        assert wd.check() is None
    collectives(wd, clock, 5, start=i)
    timeout, basis = wd.timeout()
    assert timeout >= 90.0 and basis in ("pause", "collectives"), (timeout, basis)
    assert wd.learned.pause_s is not None and wd.learned.pause_s >= 30.0


def test_what_was_learned_is_kept_for_the_next_attempt(tmp_path):
    from nonstop.supervisor.watchdog import Learned, learned_path

    clock = Clock()
    wd = Watchdog(ranks=[0, 1], clock=clock)
    clock.t += 12.0  # startup: 12 s to the first collective
    collectives(wd, clock, 10)
    path = learned_path(tmp_path)
    wd.snapshot().save(path)
    nxt = Watchdog(ranks=[0, 1], clock=clock, learned=Learned.load(path))
    timeout, basis = nxt.timeout()  # max(20 s floor, 3 x 12.1 s: the first collective), not 300
    assert basis == "startup" and timeout == pytest.approx(36.3)
    clock.t += 37.0
    assert nxt.check() is not None
    path.write_text("{not json")  # a garbage file is an empty memory, never an error
    assert Learned.load(path) == Learned()


def _run(root, name, command, startup_s=None):
    import json

    from nonstop.supervisor.watchdog import Learned, learned_path

    run = root / name
    run.mkdir()
    (run / "config.json").write_text(json.dumps({"command": command}))
    if startup_s is not None:
        Learned(startup_s=startup_s).save(learned_path(run))
    return run


def test_a_new_run_learns_its_startup_from_earlier_runs_of_the_same_command(tmp_path):
    from nonstop.supervisor.watchdog import Learned, learned_for, learned_path

    _run(tmp_path, "a", ["train.py", "--lr", "1"], startup_s=9.0)
    _run(tmp_path, "b", ["train.py", "--lr", "1"], startup_s=14.0)
    _run(tmp_path, "other", ["other.py"], startup_s=200.0)  # another script: not ours
    new = _run(tmp_path, "new", ["train.py", "--lr", "1"])
    assert learned_for(new).startup_s == 14.0  # the longest of the same command
    wd = Watchdog(ranks=[0, 1], clock=Clock(), learned=learned_for(new))
    assert wd.timeout() == (42.0, "startup")
    Learned(startup_s=3.0).save(learned_path(new))  # once the run has its own, it is used
    assert learned_for(new).startup_s == 3.0
    first = _run(tmp_path / "a", "x", ["train.py"])  # a first-ever run: the configured default
    assert learned_for(first).startup_s is None
    assert Watchdog(ranks=[0], clock=Clock(), learned=learned_for(first)).timeout()[0] == 300.0


def test_auto_never_calls_a_computing_rank_hung():
    """Rank 0 saves (CPU busy, no collective pending) while rank 1 waits for it."""
    clock = Clock()
    wd = Watchdog(ranks=[0, 1], clock=clock)
    i = collectives(wd, clock, 20)
    cpu = 0.0
    for _ in range(200):  # 100 s of rank 0 computing
        clock.t += 0.5
        cpu += 0.45
        wd.observe(ev(0, "heartbeat", step=-1, coll_enq=i - 1, coll_done=i - 1, cpu_s=cpu))
        wd.observe(ev(1, "heartbeat", step=-1, coll_enq=i, coll_done=i - 1, cpu_s=1.0))
    assert wd.check() is None
    for _ in range(30):  # now it sleeps: its CPU stops
        clock.t += 0.5
        wd.observe(ev(0, "heartbeat", step=-1, coll_enq=i - 1, coll_done=i - 1, cpu_s=cpu))
        wd.observe(ev(1, "heartbeat", step=-1, coll_enq=i, coll_done=i - 1, cpu_s=1.0))
    hang = wd.check()
    assert hang is not None and hang.culprits == [0]


def test_auto_never_calls_a_rank_writing_to_a_slow_filesystem_hung():
    """Rank 0 writes a synchronous checkpoint at 4 MB/s (almost no CPU) while rank 1 waits for
    it; once its writes stop too (a write stuck on a dead mount), it is hung."""
    clock = Clock()
    wd = Watchdog(ranks=[0, 1], clock=clock)
    i = collectives(wd, clock, 20)
    io = 0
    for _ in range(120):  # 60 s of rank 0 writing
        clock.t += 0.5
        io += 2 << 20
        wd.observe(ev(0, "heartbeat", step=-1, coll_enq=i - 1, coll_done=i - 1, io_bytes=io))
        wd.observe(ev(1, "heartbeat", step=-1, coll_enq=i, coll_done=i - 1, io_bytes=5_000))
    assert wd.check() is None
    for _ in range(30):  # its writes stop; a few hundred bytes of heartbeats and logs go on
        clock.t += 0.5
        io += 300
        wd.observe(ev(0, "heartbeat", step=-1, coll_enq=i - 1, coll_done=i - 1, io_bytes=io))
        wd.observe(ev(1, "heartbeat", step=-1, coll_enq=i, coll_done=i - 1, io_bytes=5_000))
    hang = wd.check()
    assert hang is not None and hang.culprits == [0]


def test_a_rank_that_exited_is_never_the_culprit():
    """Rank 0 returned and exited 0; rank 1 is stuck tearing down (its watcher silent)."""
    clock = Clock()
    wd = trained(clock)
    wd.exited(0)
    clock.t += 61.0
    hang = wd.check()
    assert hang is not None and hang.basis == "exit" and hang.culprits == [1]


def test_progress_is_dated_when_the_event_happened_not_when_it_was_read():
    """With the real clocks, an event read 0.3 s after it was written counts 0.3 s earlier;
    one from a clock far behind counts at most READ_LAG_S earlier."""
    import dataclasses
    import time

    from nonstop.supervisor.watchdog import READ_LAG_S

    for age, shift in ((0.3, 0.3), (3600.0, READ_LAG_S)):
        wd = Watchdog(ranks=[0])
        before = time.monotonic()
        e = dataclasses.replace(ev(0, "step", step=0, start=0.0, end=0.1), time=time.time() - age)
        wd.observe(e)
        after = time.monotonic()
        assert wd._last_progress is not None
        assert before - shift - 0.05 <= wd._last_progress <= after - shift + 0.05


def test_a_bounded_section_is_allowed_its_own_limit_only_while_its_rank_answers():
    """torchft's all-reduce waiting on a failed peer group: the rank says it is inside a call
    that gives up by itself after 3 s (`rt.section(name, limit_s=3)`); the watchdog allows the
    running timeout plus those 3 s, learns no pause from the wait, and a rank stopped inside
    such a call (silent) gets no allowance at all."""
    clock = Clock()
    wd = trained(clock)
    for r in (0, 1):
        wd.observe(ev(r, "section", name="ft_allreduce", phase="begin", limit_s=3.0))
    assert wd.timeout() == (8.0, "bounded")  # 5 s (3 x 0.1 s, the floor) + the call's 3 s
    for _ in range(15):  # 7.5 s waiting, both ranks' watchers answering
        clock.t += 0.5
        for r in (0, 1):
            wd.observe(ev(r, "heartbeat", source="bootstrap"))
    assert wd.check() is None
    for r in (0, 1):  # the call gave up; the step goes on
        wd.observe(ev(r, "section", name="ft_allreduce", phase="end"))
        wd.observe(ev(r, "step", step=10, start=0.0, end=0.1))
    assert wd.timeout() == (5.0, "steps")  # the 7.5 s wait was not learned as a pause
    # past the running timeout plus the limit, it is a hang, busy or not
    for r in (0, 1):
        wd.observe(ev(r, "section", name="ft_quorum", phase="begin", limit_s=3.0))
    for _ in range(17):
        clock.t += 0.5
        for r in (0, 1):
            wd.observe(ev(r, "heartbeat", source="bootstrap"))
    hang = wd.check()
    assert hang is not None and hang.basis == "bounded" and hang.timeout_s == 8.0
    # a rank stopped inside the call answers nothing: the running timeout holds for it
    clock2 = Clock()
    wd2 = trained(clock2)
    wd2.observe(ev(1, "section", name="ft_allreduce", phase="begin", limit_s=3.0))
    clock2.t += 3.5
    wd2.observe(ev(0, "heartbeat", source="bootstrap"))
    assert wd2.timeout() == (5.0, "steps")  # rank 1 silent for 3.5 s: no allowance
    clock2.t += 1.6
    hang2 = wd2.check()
    assert hang2 is not None and hang2.culprits == [1], hang2


def test_an_open_section_beside_a_bounded_one_gets_the_section_timeout():
    clock = Clock()
    wd = trained(clock)
    wd.observe(ev(0, "section", name="ft_quorum", phase="begin", limit_s=3.0))
    wd.observe(ev(1, "section", name="checkpoint", phase="begin"))
    assert wd.timeout() == (1800.0, "section")
    wd.observe(ev(1, "section", name="checkpoint", phase="end"))
    assert wd.timeout() == (8.0, "bounded")
    wd.observe(ev(0, "section", name="ft_quorum", phase="begin", limit_s=float("nan")))
    assert wd.timeout() == (1800.0, "section")  # an unreadable limit: an open section
