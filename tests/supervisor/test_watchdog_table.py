"""The watchdog's decisions on tables of cases, on a fake clock: which timeout applies (startup,
learned startup and its floor, explicit, steps, learned steps, collectives, learned pauses),
who the culprits are (silent, never entered, behind, everyone, nobody left), when a busy rank
is spared, and how the learned values are kept. test_watchdog.py has the scenario tests.
"""

from __future__ import annotations

import math

import pytest
from support.fakes import Clock
from support.fakes import event as ev

from nonstop.supervisor.watchdog import (
    COLLECTIVE_FLOOR_S,
    STARTUP_FLOOR_S,
    STEP_FLOOR_S,
    Learned,
    Watchdog,
)


def steps(wd: Watchdog, clock: Clock, n: int, step_s: float, start: int = 0) -> None:
    for step in range(start, start + n):
        clock.t += step_s
        for r in wd.ranks:
            wd.observe(ev(r, "step", step=step, start=0.0, end=step_s))


def collectives(wd: Watchdog, clock: Clock, n: int, gap_s: float, start: int = 0) -> int:
    for i in range(start, start + n):
        clock.t += gap_s
        for r in wd.ranks:
            wd.observe(ev(r, "heartbeat", step=-1, coll_enq=i, coll_done=i))
    return start + n


# Before the attempt's first progress: (configured startup, explicit, learned startup) -> timeout.
STARTUP = {
    "nothing learned: the configured startup": (300.0, None, None, (300.0, "startup")),
    "a fast startup learned: the floor": (300.0, None, 5.0, (STARTUP_FLOOR_S, "startup")),
    "a slow startup learned: 3x it": (300.0, None, 40.0, (120.0, "startup")),
    "never longer than configured": (300.0, None, 200.0, (300.0, "startup")),
    "an explicit timeout shorter than startup waits for startup": (
        300.0,
        20.0,
        None,
        (300.0, "startup"),
    ),
    "an explicit timeout longer than startup replaces it": (
        300.0,
        600.0,
        None,
        (600.0, "explicit"),
    ),
}


@pytest.mark.parametrize(
    ("startup_s", "explicit_s", "learned_s", "want"), list(STARTUP.values()), ids=list(STARTUP)
)
def test_timeout_before_any_progress(startup_s, explicit_s, learned_s, want):
    wd = Watchdog(
        ranks=[0, 1],
        startup_timeout_s=startup_s,
        hang_timeout_s=explicit_s,
        learned=Learned(startup_s=learned_s),
        clock=Clock(),
    )
    assert wd.timeout() == want
    assert not wd.progressed


def test_a_stall_before_the_first_progress_is_a_hang_after_the_startup_timeout():
    clock = Clock()
    wd = Watchdog(ranks=[0, 1], startup_timeout_s=100.0, clock=clock)
    clock.t += 100.0
    assert wd.check() is None
    clock.t += 0.5
    hang = wd.check()
    assert hang is not None and hang.basis == "startup" and hang.culprits == [0, 1]
    assert "no rank answers" in hang.reason  # nothing was ever heard from either rank


def running(
    kind: str, value: float, *, learned: Learned | None = None, explicit_s: float | None = None
) -> tuple[float, str]:
    clock = Clock()
    wd = Watchdog(ranks=[0, 1], hang_timeout_s=explicit_s, learned=learned, clock=clock)
    if kind == "steps":
        steps(wd, clock, 10, value)
    elif kind == "few steps":  # after a restart: fewer than the warm-up's 5
        steps(wd, clock, 2, value)
    else:
        collectives(wd, clock, 10, value)
    return wd.timeout()


# After progress: how the running timeout is set.
RUNNING = {
    "fast steps: the step floor": ("steps", 0.1, None, None, (STEP_FLOOR_S, "steps")),
    "slow steps: 3x the median": ("steps", 4.0, None, None, (12.0, "steps")),
    "few steps, nothing learned: the startup timeout": (
        "few steps",
        0.1,
        None,
        None,
        (STARTUP_FLOOR_S, "startup"),
    ),
    "few steps, a learned step time: 3x it": (
        "few steps",
        0.1,
        Learned(step_s=3.0),
        None,
        (9.0, "steps"),
    ),
    "fast collectives: the collective floor": (
        "collectives",
        0.1,
        None,
        None,
        (COLLECTIVE_FLOOR_S, "collectives"),
    ),
    "slow collectives: 5x the longest gap": (
        "collectives",
        15.0,
        None,
        None,
        (75.0, "collectives"),
    ),
    "a learned gap counts from the first collective": (
        "collectives",
        0.1,
        Learned(gap_s=20.0),
        None,
        (100.0, "collectives"),
    ),
    "a learned pause outranks the steps": (
        "steps",
        0.1,
        Learned(pause_s=10.0),
        None,
        (30.0, "pause"),
    ),
    "a learned pause below the timeout changes nothing": (
        "steps",
        4.0,
        Learned(pause_s=2.0),
        None,
        (12.0, "steps"),
    ),
    "explicit holds over steps and pauses": (
        "steps",
        4.0,
        Learned(pause_s=100.0),
        7.0,
        (7.0, "explicit"),
    ),
}


@pytest.mark.parametrize(
    ("kind", "value", "learned", "explicit_s", "want"), list(RUNNING.values()), ids=list(RUNNING)
)
def test_running_timeout(kind, value, learned, explicit_s, want):
    timeout, basis = running(kind, value, learned=learned, explicit_s=explicit_s)
    assert (round(timeout, 6), basis) == want


def test_a_learned_pause_does_not_stretch_the_startup_timeout():
    wd = Watchdog(
        ranks=[0, 1], startup_timeout_s=300.0, learned=Learned(pause_s=500.0), clock=Clock()
    )
    assert wd.timeout() == (300.0, "startup")


def stalled(ranks_heard: dict[int, dict[str, int]], *, silent: tuple[int, ...] = ()) -> Watchdog:
    """Ranks that trained, reached the heartbeats given, then stalled there for 10 s (past the
    5 s step floor); ranks in `silent` sent nothing in those 10 s."""
    clock = Clock()
    wd = Watchdog(ranks=sorted(ranks_heard), clock=clock)
    steps(wd, clock, 10, 0.1)
    for r, hb in ranks_heard.items():  # where each rank got to (progress, the last for now)
        wd.observe(ev(r, "heartbeat", **hb))
    clock.t += 10.0
    for r, hb in ranks_heard.items():  # the same again: alive, no further
        if r not in silent:
            wd.observe(ev(r, "heartbeat", **hb))
    return wd


# Who is named when the job stalls: heartbeats per rank -> (culprits, a phrase of the reason).
CULPRITS = {
    "a silent rank among live ones": (
        {0: {"step": 9}, 1: {"step": 9}},
        (1,),
        [1],
        "stopped answering",
    ),
    "every rank silent": ({0: {"step": 9}, 1: {"step": 9}}, (0, 1), [0, 1], "no rank answers"),
    "a rank that never entered the collective": (
        {
            0: {"step": 9, "coll_enq": 8, "coll_done": 7},
            1: {"step": 9, "coll_enq": 7, "coll_done": 7},
        },
        (),
        [1],
        "never entered collective #8",
    ),
    "a rank behind on steps": (
        {0: {"step": 12}, 1: {"step": 10}, 2: {"step": 12}},
        (),
        [1],
        "behind: others reached step 12",
    ),
    "all in the same collective: everyone": (
        {
            0: {"step": 9, "coll_enq": 8, "coll_done": 7},
            1: {"step": 9, "coll_enq": 8, "coll_done": 7},
        },
        (),
        [0, 1],
        "every rank waits in the same collective",
    ),
}


@pytest.mark.parametrize(
    ("heard", "silent", "culprits", "phrase"), list(CULPRITS.values()), ids=list(CULPRITS)
)
def test_culprits(heard, silent, culprits, phrase):
    hang = stalled(heard, silent=silent).check()
    assert hang is not None and hang.basis == "steps"
    assert hang.culprits == culprits and phrase in hang.reason, hang.reason
    assert set(hang.ranks) == set(heard)


def test_when_every_rank_exited_nobody_is_the_culprit():
    wd = stalled({0: {"step": 9}, 1: {"step": 9}})
    wd.exited(0)
    wd.exited(1)
    wd.clock.t += 61.0  # type: ignore[attr-defined]
    hang = wd.check()
    assert hang is not None and hang.culprits == [] and hang.reason == "every rank exited"
    assert all(info["exited"] for info in hang.ranks.values())


def computing(
    explicit_s: float | None = None,
    *,
    pending: bool = False,
    cpu_per_s: float = 0.9,
    runnable_per_s: float | None = None,
    section_timeout_s: float = 1800.0,
    seconds: float = 30.0,
) -> Watchdog:
    """Rank 0 stops making progress and burns `cpu_per_s` of a core for `seconds` (with
    `runnable_per_s`, its busiest thread runnable that fraction of the time); rank 1 waits in the next
    collective."""
    clock = Clock()
    wd = Watchdog(
        ranks=[0, 1], hang_timeout_s=explicit_s, section_timeout_s=section_timeout_s, clock=clock
    )
    i = collectives(wd, clock, 20, 0.1)
    cpu = runnable = 0.0
    for _ in range(int(seconds / 0.5)):
        clock.t += 0.5
        cpu += 0.5 * cpu_per_s
        enq = i if pending else i - 1
        extra = {}
        if runnable_per_s is not None:
            runnable += 0.5 * runnable_per_s
            extra["runnable_s"] = runnable
        wd.observe(ev(0, "heartbeat", step=-1, coll_enq=enq, coll_done=i - 1, cpu_s=cpu, **extra))
        wd.observe(ev(1, "heartbeat", step=-1, coll_enq=i, coll_done=i - 1, cpu_s=1.0))
    return wd


# Rank 0 computing while rank 1 waits: is the job called hung?
BUSY = {
    "auto past its timeout: a busy rank is spared": ({"seconds": 100.0}, False),
    "a rank with its own collective pending is not busy": (
        {"seconds": 100.0, "pending": True},
        True,
    ),
    "too little CPU is not busy": ({"seconds": 100.0, "cpu_per_s": 0.1}, True),
    "little CPU but runnable all the time (a crowded host) is busy": (
        {"seconds": 100.0, "cpu_per_s": 0.1, "runnable_per_s": 0.95},
        False,
    ),
    "little CPU, runnable only now and then (its wake-ups queue) is not busy": (
        {"seconds": 100.0, "cpu_per_s": 0.01, "runnable_per_s": 0.2},
        True,
    ),
    "runnable all the time, but with its own collective pending, is not busy": (
        {"seconds": 100.0, "cpu_per_s": 0.1, "runnable_per_s": 0.95, "pending": True},
        True,
    ),
}


@pytest.mark.parametrize(("how", "hung"), list(BUSY.values()), ids=list(BUSY))
def test_busy_ranks(how, hung):
    hang = computing(**how).check()
    assert (hang is not None) is hung, hang
    if hang is not None:
        assert 0 in hang.culprits, hang


def test_garbage_busy_figures_in_a_heartbeat_are_ignored():
    clock = Clock()
    wd = Watchdog(ranks=[0], clock=clock)
    for bad in ("lots", True, None, float("nan"), [1.0]):
        wd.observe(ev(0, "heartbeat", step=-1, cpu_s=bad, runnable_s=bad))
    st = wd.ranks[0]
    assert not st.cpu and not st.runnable


def test_busy_needs_half_a_window_of_cpu_samples():
    clock = Clock()
    wd = Watchdog(ranks=[0], clock=clock)
    st = wd.ranks[0]
    st.cpu.extend([(clock.t, 0.0), (clock.t + 4.0, 4.0)])  # 4 s of samples < 5 s
    assert not st.busy(clock.t + 4.0)
    st.cpu.append((clock.t + 6.0, 6.0))
    assert st.busy(clock.t + 6.0)
    assert not st.busy(clock.t + 30.0)  # the samples are too old


# Learned.load: what is kept of a saved file.
LOAD = {
    "numbers are kept": ({"startup_s": 12.0, "step_s": 0.5}, Learned(startup_s=12.0, step_s=0.5)),
    "zero, negatives, NaN and infinity are dropped": (
        {"startup_s": 0, "step_s": -1.0, "gap_s": math.nan, "pause_s": math.inf},
        Learned(),
    ),
    "booleans and strings are dropped": ({"startup_s": True, "gap_s": "5"}, Learned()),
    "a list is an empty memory": ([1, 2], Learned()),
    "unknown keys are ignored": ({"future_s": 3.0, "gap_s": 2.0}, Learned(gap_s=2.0)),
}


@pytest.mark.parametrize(("raw", "want"), list(LOAD.values()), ids=list(LOAD))
def test_learned_load(tmp_path, raw, want):
    import json

    path = tmp_path / "timeouts.json"
    path.write_text(json.dumps(raw))
    assert Learned.load(path) == want


def test_learned_save_merges_with_another_agents_values(tmp_path):
    """Several agents share a run directory: the longest startup, gap and pause win; the step
    time is the newest one written (it is a median, not a bound)."""
    path = tmp_path / "control" / "timeouts.json"
    Learned(startup_s=30.0, step_s=0.2, gap_s=1.0, pause_s=50.0).save(path)
    Learned(startup_s=10.0, step_s=0.4, gap_s=3.0).save(path)
    assert Learned.load(path) == Learned(startup_s=30.0, step_s=0.4, gap_s=3.0, pause_s=50.0)
    Learned().save(path)  # nothing learned: nothing lost
    assert Learned.load(path) == Learned(startup_s=30.0, step_s=0.4, gap_s=3.0, pause_s=50.0)


def test_snapshot_keeps_the_median_step_only_after_the_warm_up():
    clock = Clock()
    wd = Watchdog(ranks=[0], clock=clock, warmup_steps=5)
    steps(wd, clock, 4, 0.2)
    assert wd.snapshot().step_s is None
    steps(wd, clock, 3, 0.2, start=4)
    assert wd.snapshot().step_s == pytest.approx(0.2)
    assert wd.snapshot().startup_s == pytest.approx(0.2)  # the first step came 0.2 s in


def test_busy_in_a_stall_reads_only_the_stall():
    """A rank that waited in its steps for 5 s and then computed for the 5 s of a stall: over
    the whole 10 s window it was runnable under half the time, over the stall all of it."""
    clock = Clock()
    st = Watchdog(ranks=[0], clock=clock).ranks[0]
    t0 = clock.t
    st.runnable.extend((t0 + i * 0.5, 0.0) for i in range(10))  # the steps: idle
    st.runnable.extend((t0 + 5.0 + i * 0.5, i * 0.5 * 0.9) for i in range(11))  # the stall
    now = t0 + 10.0
    assert not st.busy(now)
    assert st.busy(now, since=t0 + 5.0)
    # heartbeats that stopped 3 s into the 5 s stall cover too little of it to tell
    st.runnable = type(st.runnable)([(t, c) for t, c in st.runnable if t <= t0 + 7.0], maxlen=64)
    assert not st.busy(now, since=t0 + 5.0)
