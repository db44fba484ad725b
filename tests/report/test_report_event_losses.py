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


def test_bad_event_lines_are_said_on_every_report_not_only_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """The first report to ingest a stream warned of its bad lines; the next one (the lines
    already ingested) said nothing, and `--json` never printed them on stderr."""
    run = build_run(tmp_path / "run", run_id="damaged")
    stream = run / "events" / "attempt-0" / "rank-0.jsonl"
    with stream.open("a") as f:
        f.write('garbage\n{"kind": \n')
    assert nonstop(["report", str(run), "--json"]) == 0
    first = capsys.readouterr()
    assert sum("skipped a bad event line" in m for m in json.loads(first.out)["warnings"]) == 2
    assert first.err.count("warning:") == 2
    for args in (["--json"], []):
        assert nonstop(["report", str(run), *args]) == 0
        again = capsys.readouterr()
        said = f"{stream.resolve()}: 2 bad event lines skipped"
        assert f"warning: {said}" in (again.out if not args else again.err)
        if args:
            assert said in json.loads(again.out)["warnings"]


def test_a_bad_line_after_an_ingest_is_numbered_from_the_files_start(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """A report ingests a stream, the run goes on and a bad line is appended: the next report's
    warning numbered it from where that ingest began ("rank-0.jsonl:1:"), not as an editor
    shows it, so the user opened the file at the wrong line."""
    run = build_run(tmp_path / "run", run_id="grown")
    stream = run / "events" / "attempt-0" / "rank-0.jsonl"
    assert nonstop(["report", str(run), "--json"]) == 0
    capsys.readouterr()
    with stream.open("a") as f:
        f.write("garbage\n")
    lines = stream.read_bytes().count(b"\n")
    assert lines > 1
    assert nonstop(["report", str(run), "--json"]) == 0
    said = [m for m in json.loads(capsys.readouterr().out)["warnings"] if "bad event line" in m]
    assert said and said[0].startswith(f"{stream.resolve()}:{lines}: skipped"), said


def test_a_stream_from_a_newer_nonstop_is_said_in_a_few_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """5,000 records of a newer schema (a newer nonstop wrote the stream: schema_version 2, a
    new kind, a new field) and unknown kinds: the report is made, and says so in a few lines.
    Before, `--json` held one warning per line (100,000 lines: 16 MB of warnings)."""
    run = build_run(tmp_path / "run", run_id="newer")
    stream = run / "events" / "attempt-1" / "rank-0.jsonl"
    last = json.loads(stream.read_text().splitlines()[-1])
    with stream.open("a") as f:
        for i in range(5000):
            f.write(json.dumps({**last, "schema_version": 2, "kind": "step2", "new": i}) + "\n")
            f.write(json.dumps({**last, "kind": "gpu_clock", "payload": {"mhz": i}}) + "\n")
    assert nonstop(["report", str(run), "--json"]) == 0
    got = capsys.readouterr()
    said = [m for m in json.loads(got.out)["warnings"] if str(stream.resolve()) in m]
    assert len(said) == 5, said  # three lines named, the rest counted, the unknown kind once
    assert f"{stream.resolve()}: 4,997 more bad event lines skipped" in said
    assert sum("unknown kind 'gpu_clock'" in m for m in said) == 1
    assert len(got.err.splitlines()) <= 11
