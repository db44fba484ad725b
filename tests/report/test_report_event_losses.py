"""The event writer's lost records are reported (issue 14, item 8): a writer whose queue
overflows counts the records it dropped in rank-R.losses.json beside its stream, says so on
stderr when it closes, and `nonstop report` warns and counts them (`events_lost`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from runbuilder import build_run

from nonstop.cli import main as nonstop
from nonstop.events import EventWriter
from nonstop.events.writer import read_losses


def test_dropped_records_reach_the_report(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    run = build_run(tmp_path / "run", run_id="lossy")
    stream = run / "events" / "attempt-1" / "rank-0.jsonl"
    w = EventWriter(
        stream, run_id="lossy", attempt=1, rank=0, host="node-a", max_queue=1, install_sigterm=False
    )
    for i in range(2000):  # far faster than one queue slot drains
        w.emit("heartbeat", step=i)
    w.close()
    assert w.dropped > 0
    assert read_losses(stream) == (w.dropped, 0)
    assert f"lost {w.dropped} event record(s) to a full queue" in capsys.readouterr().err

    assert nonstop(["report", str(run), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["events_lost"] == w.dropped
    assert any(f"lost {w.dropped} record(s)" in m for m in out["warnings"])
    assert nonstop(["report", str(run)]) == 0
    assert f"its event writer lost {w.dropped}" in capsys.readouterr().out


def test_no_losses_no_file(tmp_path: Path) -> None:
    stream = tmp_path / "rank-0.jsonl"
    w = EventWriter(stream, run_id="r", attempt=0, rank=0, host="h", install_sigterm=False)
    w.emit("heartbeat", step=0)
    w.close()
    assert read_losses(stream) == (0, 0) and not (tmp_path / "rank-0.losses.json").exists()
