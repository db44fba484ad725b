"""Interval policy and configuration: fixed steps or seconds, and `auto` (Daly)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from nonstop.checkpoint import (
    DEFAULT_MTBI_S,
    ENV_MTBI_S,
    CheckpointConfig,
    Checkpointer,
    IntervalPolicy,
    parse_interval,
)
from nonstop.sim.interval import daly_interval_s


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_auto_uses_daly_from_measured_blocking_and_mtbi() -> None:
    p = IntervalPolicy(CheckpointConfig(mtbi_s=7200.0, min_interval_s=0.0), start_s=0.0)
    p.measured(2.5)
    assert p.interval_s() == daly_interval_s(2.5, 7200.0)
    assert p.interval_s() == pytest.approx(188.07, abs=0.01)  # Young's sqrt(2 delta M) = 189.7


def test_auto_re_evaluates_when_mtbi_changes() -> None:
    p = IntervalPolicy(CheckpointConfig(mtbi_s=3600.0, min_interval_s=0.0), start_s=0.0)
    p.measured(1.0)
    before = p.interval_s()
    assert not p.due(1, 60.0)  # 60 s < Daly(1 s, 1 h) ~ 85 s
    p.set_mtbi_s(900.0)  # the ledger saw interruptions come faster
    assert p.interval_s() == daly_interval_s(1.0, 900.0) < before
    assert p.due(1, 60.0)  # ~ 43 s now


def test_auto_floors_at_min_interval() -> None:
    p = IntervalPolicy(CheckpointConfig(mtbi_s=3600.0, min_interval_s=120.0), start_s=0.0)
    p.measured(0.001)
    assert p.interval_s() == 120.0


def test_mtbi_comes_from_config_then_environment_then_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ENV_MTBI_S, raising=False)
    assert CheckpointConfig().resolved_mtbi_s() == DEFAULT_MTBI_S == 3600.0
    monkeypatch.setenv(ENV_MTBI_S, "11100")
    assert CheckpointConfig().resolved_mtbi_s() == 11100.0
    assert CheckpointConfig(mtbi_s=50.0).resolved_mtbi_s() == 50.0
    monkeypatch.setenv(ENV_MTBI_S, "soon")
    with pytest.raises(ValueError, match="NONSTOP_MTBI_S"):
        CheckpointConfig().resolved_mtbi_s()


def test_fixed_steps_and_seconds() -> None:
    p = IntervalPolicy(CheckpointConfig(every_steps=3), start_s=0.0)
    assert [s for s in range(1, 10) if p.due(s, 0.0) and (p.saved(s, 0.0) or True)] == [3, 6, 9]
    q = IntervalPolicy(CheckpointConfig(every_s=30.0), start_s=0.0)
    assert not q.due(1, 29.0) and q.due(1, 30.0)
    assert q.time_based and not p.time_based


def test_checkpointer_seconds_interval_with_fake_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    model = torch.nn.Linear(2, 2)
    cfg = CheckpointConfig(every_s=60.0, async_save=False)
    with Checkpointer(tmp_path, config=cfg, clock=clock) as ckpt:
        saved = []
        for s in range(1, 8):
            clock.now += 25.0
            if ckpt.maybe_save(s, {"model": model}):
                saved.append(s)
    assert saved == [3, 6]  # at 75 s and 150 s


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"every_steps": 0}, "every_steps"),
        ({"every_s": -1.0}, "every_s"),
        ({"keep_last": 0}, "keep_last"),
        ({"keep_every": 2.5}, "keep_every"),
        ({"mtbi_s": float("nan")}, "mtbi_s"),
        ({"if_busy": "skip"}, "if_busy"),
        ({"every_steps": 5, "every_s": 5.0}, "every_steps"),
        ({"min_interval_s": -2}, "min_interval_s"),
    ],
)
def test_config_validation_names_field_and_value(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError, match=field) as info:
        CheckpointConfig(**kwargs)  # type: ignore[arg-type]
    assert repr(next(iter(kwargs.values()))) in str(info.value)


def test_parse_interval() -> None:
    assert parse_interval("auto") == {"every_steps": None, "every_s": None}
    assert parse_interval("500") == {"every_steps": 500, "every_s": None}
    assert parse_interval("20 steps") == {"every_steps": 20, "every_s": None}
    assert parse_interval("30m") == {"every_steps": None, "every_s": 1800.0}
    assert parse_interval("1.5h")["every_s"] == 5400.0
    with pytest.raises(ValueError, match="fortnight"):
        parse_interval("fortnight")
    assert CheckpointConfig(**parse_interval("90s")).mode == "seconds"  # type: ignore[arg-type]
