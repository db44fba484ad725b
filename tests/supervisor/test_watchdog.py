"""The watchdog's timeouts and culprits, on a fake clock (the end-to-end hang tests use real
signals in test_run_faults.py)."""

from __future__ import annotations

from nonstop.events import Event
from nonstop.supervisor.watchdog import Watchdog


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def ev(rank: int, kind: str, **payload: object) -> Event:
    return Event(run_id="r", attempt=0, rank=rank, host=f"h{rank}", mono=0.0, time=0.0,
                 kind=kind, payload=dict(payload))  # fmt: skip


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
