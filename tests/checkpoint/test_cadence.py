"""The in-memory snapshot's cadence: fixed, or `auto` within a CPU budget (cadence.py).

The clock and the CPU clock are driven by hand here; test_ckpt_replica.py runs `auto` in a
Checkpointer with a real replica server, and tests/supervisor/test_memory_auto.py under
`nonstop run`.
"""

from __future__ import annotations

import pytest

from nonstop.checkpoint.cadence import (
    AUTO,
    BUDGET,
    MAX_EVERY,
    PROBE,
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
    # nothing measured (no server on any node, or a zero clock): every step, as asked
    assert choose_every([], [0.1]) == choose_every([0.0], [0.1]) == choose_every([0.1], []) == 1


class Clocks:
    def __init__(self) -> None:
        self.now, self.cpu_s = 0.0, 0.0

    def wall(self) -> float:
        return self.now

    def cpu(self) -> float:
        return self.cpu_s


def drive(
    cadence: Cadence, clocks: Clocks, *, step_s: float, train_cpu_s: float, back_cpu_s: float
):
    """Call the cadence as Checkpointer.maybe_save does, one call per step; the step at which it
    asked to settle and the steps that got a snapshot."""
    settle_at, taken = None, []
    for step in range(1, 41):
        clocks.now += step_s
        if cadence.tick():
            settle_at = step
            cadence.settle([cadence.mine()], step)
        if cadence.due(step):
            n = cadence.begun()
            cadence.add_cpu(n, train_cpu_s, background=False)
            cadence.add_cpu(n, back_cpu_s, background=True)
            taken.append(step)
    return settle_at, taken


def test_auto_measures_after_the_warmup_then_settles_once() -> None:
    clocks = Clocks()
    cadence = Cadence(AUTO, clock=clocks.wall, cpu=clocks.cpu)
    settle_at, taken = drive(cadence, clocks, step_s=0.1, train_cpu_s=0.002, back_cpu_s=0.001)
    assert settle_at == WARMUP + PROBE + 1
    # every step while measuring; then 3 ms / (1% of 100 ms) = every 3rd step
    assert cadence.every == 3
    assert taken == list(range(1, settle_at)) + [s for s in range(settle_at, 41) if s % 3 == 0]
    assert cadence.chosen == {
        "step": settle_at,
        "every": 3,
        "snapshot_cpu_s": 0.003,
        "step_s": 0.1,
        "budget": BUDGET,
        "measured": PROBE,
    }
    assert cadence.tick() is False  # never again in this process


def test_the_warmup_snapshots_are_not_measured() -> None:
    clocks = Clocks()
    cadence = Cadence(AUTO, clock=clocks.wall, cpu=clocks.cpu)
    for i in range(WARMUP + PROBE):
        cadence.tick()
        cadence.add_cpu(cadence.begun(), 1.0 if i < WARMUP else 0.004, background=False)
        clocks.now += 0.2
    assert cadence.mine() == pytest.approx((0.004, 0.2))


def test_a_fixed_cadence_never_settles_or_measures() -> None:
    clocks = Clocks()
    cadence = Cadence(5, clock=clocks.wall, cpu=clocks.cpu)
    settle_at, taken = drive(cadence, clocks, step_s=0.1, train_cpu_s=1.0, back_cpu_s=1.0)
    assert settle_at is None and taken == [5, 10, 15, 20, 25, 30, 35, 40]
    assert cadence.mine() == (0.0, 0.0) and cadence.chosen is None


def test_every_rank_gets_the_same_interval_from_the_same_figures() -> None:
    figures = [(0.002, 0.1), (0.009, 0.12), (0.0, 0.0)]  # the third rank's node had no server
    chosen = []
    for _ in figures:
        cadence = Cadence(AUTO)
        chosen.append(cadence.settle(figures, 12))
    assert all(c == chosen[0] for c in chosen)
    assert chosen[0]["every"] == 9  # 9 ms / (1% of the median 110 ms step) = 8.2 -> 9
