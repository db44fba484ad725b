"""`nonstop report --tensorboard`: an event file TensorBoard itself reads back."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from runbuilder import build_run

from nonstop.cli import main as nonstop
from nonstop.errors import UserError
from nonstop.ledger import summarize_run
from nonstop.report import data as rd
from nonstop.report import tb_export

pytest.importorskip("tensorboard", reason="the tensorboard package is not installed")
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator


def read(logdir: Path) -> EventAccumulator:
    acc = EventAccumulator(str(logdir), size_guidance={"scalars": 0})
    acc.Reload()
    return acc


def test_export_is_readable_by_tensorboard(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    run = build_run(tmp_path / "run")
    assert nonstop(["report", str(run), "--tensorboard", str(tmp_path / "tb")]) == 0
    assert "wrote TensorBoard events" in capsys.readouterr().out
    logdir = tmp_path / "tb" / "synthetic-run"
    [event_file] = logdir.glob("events.out.tfevents.*.nonstop")
    acc = read(logdir)
    tags = set(acc.Tags()["scalars"])
    assert {
        "train/loss",
        "train/tokens_per_s",
        "time/step_s",
        "time/busy_max_s",
        "checkpoint/blocking_s",
        "goodput/ettr",
        "badput/recovery_s",
        "failures/nccl_watchdog_timeout",
        "telemetry/power_w/node-b_r2",
    } <= tags
    loss = acc.Scalars("train/loss")
    assert [e.step for e in loss] == list(range(60))  # the surviving trajectory, once each
    data = rd.load(run)
    kept = {s.step: s.loss for s in rd.lead_rank_steps(data) if s.survived}
    assert all(e.value == pytest.approx(kept[e.step]) for e in loss)
    [ettr] = acc.Scalars("goodput/ettr")
    assert ettr.value == pytest.approx(summarize_run(run).goodput.ettr)
    assert ettr.step == 59
    power = acc.Scalars("telemetry/power_w/node-b_r2")
    assert len(power) > 30 and all(e.value > 300 for e in power)
    samples = [t for t, r, _, src, _m in data.telemetry if r == 2 and src == "nvml"]
    assert [e.step for e in power] == [int(t - data.start) for t in samples]  # none dropped
    # exporting again replaces the earlier file instead of doubling every point
    tb_export.export(data, tmp_path / "tb")
    assert [p.name for p in logdir.iterdir()] != [event_file.name]
    assert len(list(logdir.glob("events.out.tfevents.*.nonstop"))) == 1
    assert len(read(logdir).Scalars("train/loss")) == 60


def test_missing_tensorboard_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = build_run(tmp_path / "run")
    monkeypatch.setitem(sys.modules, "torch.utils.tensorboard", None)  # import now fails
    with pytest.raises(UserError, match=r"pip install 'nonstop\[tensorboard\]'"):
        tb_export.export(rd.load(run), tmp_path / "tb")
