"""The in-memory snapshot's cadence: fixed, or `auto` within a CPU budget (cadence.py).

The clock and the CPU clock are driven by hand here; test_ckpt_replica.py runs `auto` in a
Checkpointer with a real replica server, and tests/supervisor/test_memory_auto.py under
`nonstop run`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from nonstop.checkpoint.cadence import (
    AUTO,
    BUDGET,
    FIRST,
    MAX_EVERY,
    REVIEW,
    WARMUP,
    Cadence,
    choose_every,
    parse_every,
)
from nonstop.checkpoint.config import CheckpointConfig


@pytest.mark.parametrize(
    ("text", "want"), [("auto", AUTO), (" AUTO ", AUTO), ("0", 0), ("7", 7), (3, 3)]
)
def test_parse_every_reads_a_count_or_auto(text: str | int, want: object) -> None:
    assert parse_every(text) == want


@pytest.mark.parametrize("text", ["", "-1", "1.5", "often", -2, "auto5"])
def test_parse_every_refuses_anything_else(text: str | int) -> None:
    with pytest.raises(ValueError, match="integer >= 0 or 'auto'"):
        parse_every(text)


def test_the_config_and_its_environment_take_auto(monkeypatch: pytest.MonkeyPatch) -> None:
    assert CheckpointConfig(memory_every_steps="Auto").memory_every_steps == AUTO
    monkeypatch.setenv("NONSTOP_MEMORY_CKPT_EVERY", "auto")
    assert CheckpointConfig().resolved_memory_every_steps() == AUTO
    with pytest.raises(ValueError, match="memory_every_steps"):
        CheckpointConfig(memory_every_steps="sometimes")


def test_choose_every_keeps_the_snapshot_within_the_budget() -> None:
    # the overhead benchmark's figures on the 2-core CI machine: ~4.5 ms of CPU, ~124 ms steps
    assert choose_every([0.0045], [0.124]) == 4  # 4.5 / 1.24 = 3.6 -> every 4th step
    assert choose_every([0.0045], [0.124], budget=0.05) == 1
    # a GPU step of seconds: every step
    assert choose_every([0.05], [6.0]) == 1
    # the slowest rank decides; the step is the ranks' median
    assert choose_every([0.001, 0.006, 0.002], [0.1, 0.1, 0.5]) == 6
    # tiny steps: capped, so that a restart never redoes more than MAX_EVERY - 1 steps
    assert choose_every([0.01], [0.001]) == MAX_EVERY
    # no snapshot taken anywhere (no node has a replica server): the longest interval, so that
    # the replicas are not fingerprinted at every step for nothing; no step measured: every step
    assert choose_every([], [0.1]) == choose_every([0.0, 0.0], [0.1]) == MAX_EVERY
    assert choose_every([0.1], []) == choose_every([0.1], [0.0]) == 1


class Clocks:
    def __init__(self) -> None:
        self.now, self.cpu_s = 0.0, 0.0

    def wall(self) -> float:
        return self.now

    def cpu(self) -> float:
        return self.cpu_s


def drive(
    cadence: Cadence,
    clocks: Clocks,
    *,
    steps: int = 40,
    step_s: Callable[[int], float],
    train_cpu_s: float,
    back_cpu_s: float,
) -> tuple[list[dict[str, Any]], list[int], list[int]]:
    """Call the cadence as Checkpointer.maybe_save does, one call per step: the choices it
    reported, the steps at which it chose, and the steps that got a snapshot."""
    reported, chose, taken = [], [], []
    for step in range(1, steps + 1):
        clocks.now += step_s(step)
        if cadence.tick():
            chose.append(step)
            got = cadence.settle([cadence.mine()], step)
            if got is not None:
                reported.append(got)
        if cadence.due(step):
            n = cadence.begun()
            cadence.add_cpu(n, train_cpu_s, background=False)
            cadence.add_cpu(n, back_cpu_s, background=True)
            taken.append(step)
    return reported, chose, taken


def test_auto_chooses_after_the_probe_then_again_at_every_review() -> None:
    clocks = Clocks()
    cadence = Cadence(AUTO, clock=clocks.wall, cpu=clocks.cpu)
    reported, chose, taken = drive(
        cadence, clocks, steps=60, step_s=lambda _: 0.1, train_cpu_s=0.002, back_cpu_s=0.001
    )
    assert chose == [FIRST, FIRST + REVIEW, FIRST + 2 * REVIEW]
    # every step until the first choice; then 3 ms / (1% of 100 ms) = every 3rd step
    assert cadence.every == 3
    assert taken == [*range(1, FIRST), *(s for s in range(FIRST, 61) if s % 3 == 0)]
    # the same figures later: reported once, not at every review
    assert reported == [
        {
            "step": FIRST,
            "every": 3,
            "snapshot_cpu_s": 0.003,
            "step_s": 0.1,
            "budget": BUDGET,
            "choice": 1,
        }
    ]


def test_a_slow_start_is_followed_by_the_next_choice() -> None:
    """The first steps are slow (standbys importing beside them): the first choice is every
    step; the review after them sees the real step and stretches the interval."""
    clocks = Clocks()
    cadence = Cadence(AUTO, clock=clocks.wall, cpu=clocks.cpu)
    reported, _, taken = drive(
        cadence,
        clocks,
        steps=FIRST + 2 * REVIEW,
        step_s=lambda step: 0.5 if step <= FIRST else 0.1,
        train_cpu_s=0.004,
        back_cpu_s=0.0,
    )
    assert [(r["step"], r["every"]) for r in reported] == [(FIRST, 1), (FIRST + REVIEW, 4)]
    assert [s for s in taken if s > FIRST + REVIEW] == [
        s for s in range(FIRST + REVIEW + 1, FIRST + 2 * REVIEW + 1) if s % 4 == 0
    ]


def test_a_window_without_a_snapshot_keeps_the_cost_it_knew() -> None:
    clocks = Clocks()
    cadence = Cadence(AUTO, clock=clocks.wall, cpu=clocks.cpu)
    for _ in range(FIRST - 1):
        clocks.now += 0.01
        cadence.tick()
        cadence.add_cpu(cadence.begun(), 0.002, background=False)
    clocks.now += 0.01
    assert cadence.tick()
    first = cadence.settle([cadence.mine()], FIRST)
    assert first is not None and first["every"] == MAX_EVERY  # 2 ms of a 10 ms step
    for _ in range(REVIEW):  # no snapshot in the window: none was due yet
        clocks.now += 0.01
        cadence.tick()
    assert cadence.mine() == pytest.approx((0.002, 0.01))  # not (0, ...): every step again
    assert cadence.settle([cadence.mine()], FIRST + REVIEW) is None
    assert cadence.every == MAX_EVERY


def test_the_warmup_snapshots_are_not_measured() -> None:
    clocks = Clocks()
    cadence = Cadence(AUTO, clock=clocks.wall, cpu=clocks.cpu)
    for i in range(FIRST - 1):
        cadence.tick()
        cadence.add_cpu(cadence.begun(), 1.0 if i < WARMUP else 0.004, background=False)
        clocks.now += 0.2
    assert cadence.mine() == pytest.approx((0.004, 0.2))


def test_a_fixed_cadence_never_chooses_or_measures() -> None:
    clocks = Clocks()
    cadence = Cadence(5, clock=clocks.wall, cpu=clocks.cpu)
    reported, chose, taken = drive(
        cadence, clocks, step_s=lambda _: 0.1, train_cpu_s=1.0, back_cpu_s=1.0
    )
    assert reported == chose == [] and taken == [5, 10, 15, 20, 25, 30, 35, 40]
    assert cadence.mine() == (0.0, 0.0) and cadence.chosen is None


def test_every_rank_gets_the_same_interval_from_the_same_figures() -> None:
    figures = [(0.002, 0.1), (0.009, 0.12), (0.0, 0.0)]  # the third rank's node had no server
    chosen = []
    for _ in figures:
        cadence = Cadence(AUTO)
        chosen.append(cadence.settle(figures, FIRST))
    assert all(c == chosen[0] for c in chosen)
    assert chosen[0] is not None
    assert chosen[0]["every"] == 9  # 9 ms / (1% of the median 110 ms step) = 8.2 -> 9
