"""`nonstop report`: the JSON contract, the terminal report, and two runs compared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from runbuilder import build_run

from nonstop.cli import main as nonstop
from nonstop.ledger import summarize_run
from nonstop.report.terminal import print_summary

# Keys scripts already read from `nonstop report --json`: none may go.
STABLE = {
    "ettr",
    "wall_s",
    "productive_s",
    "badput_s",
    "attempts",
    "failures",
    "final_step",
    "steps_total",
    "steps_lost",
    "ideal_step_s",
    "warnings",
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("cli")
    return (
        build_run(base / "before", run_id="before", ckpt_every=10),
        build_run(base / "after", run_id="after", ckpt_every=5),
    )


def _json(capsys: pytest.CaptureFixture, *args: str) -> dict:
    assert nonstop(["report", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_keeps_every_key_and_agrees_with_the_ledger(
    runs: tuple[Path, Path], capsys: pytest.CaptureFixture
) -> None:
    out = _json(capsys, str(runs[0]))
    assert set(out) >= STABLE
    ref = summarize_run(runs[0]).to_dict()
    for key in STABLE - {"warnings", "failures"}:
        assert out[key] == ref[key], key
    # each failure keeps the ledger's keys; the report adds the rank's last lines and a detail
    assert [{k: f[k] for k in r} for f, r in zip(out["failures"], ref["failures"])] == ref[
        "failures"
    ]
    assert all("detail" in f and "last_lines" in f for f in out["failures"])
    assert out["warnings"] == []
    assert out["run_id"] == "before"
    assert out["failures_by_category"] == {"nccl_watchdog_timeout": 1}
    assert out["checkpoints"] == 6
    assert out["checkpoint_blocking_mean_s"] == pytest.approx(0.08)
    assert out["tokens_per_s"] == pytest.approx(4096 / 0.5)
    assert out["peak_power_w"] > 600 and out["peak_temp_c"] > 64


def test_json_output_stays_one_object_when_writing_files(
    runs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    assert nonstop(["report", str(runs[0]), "--json", "--html", str(tmp_path / "r.html")]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["ettr"] > 0
    assert "wrote HTML report" in captured.err
    assert (tmp_path / "r.html").exists()


def test_terminal_report_has_the_headline(
    runs: tuple[Path, Path], capsys: pytest.CaptureFixture
) -> None:
    assert nonstop(["report", str(runs[0])]) == 0
    out = capsys.readouterr().out
    ettr = summarize_run(runs[0]).goodput.ettr
    assert f"ETTR {ettr:.1%}" in out
    for text in ("lost_progress", "NCCL Watchdog Timeouts", "checkpoints", "peak power"):
        assert text in out


def test_print_summary_takes_the_plain_ledger_summary(runs: tuple[Path, Path]) -> None:
    # nonstop demo passes summarize_run(...).to_dict() without the report's extra keys
    console = Console(record=True, width=120)
    print_summary(summarize_run(runs[1]).to_dict(), console=console)
    text = console.export_text()
    assert "ETTR" in text and "recovery" in text and "Failures (1)" in text


def test_compare_json_has_both_summaries_and_deltas(
    runs: tuple[Path, Path], capsys: pytest.CaptureFixture
) -> None:
    out = _json(capsys, str(runs[0]), str(runs[1]))
    a, b, d = out["a"], out["b"], out["delta"]
    assert (a["run_id"], b["run_id"]) == ("before", "after")
    assert set(a) >= STABLE and set(b) >= STABLE
    assert d["ettr"] == pytest.approx(b["ettr"] - a["ettr"])
    assert d["checkpoints"] == b["checkpoints"] - a["checkpoints"] == 13 - 6
    for cat, v in d["badput_s"].items():
        assert v == pytest.approx(b["badput_s"][cat] - a["badput_s"][cat])
    assert d["badput_s"]["checkpoint"] > 0  # saving twice as often blocks more
    assert d["failures_by_category"] == {"nccl_watchdog_timeout": 0}


def test_compare_in_the_terminal(runs: tuple[Path, Path], capsys: pytest.CaptureFixture) -> None:
    assert nonstop(["report", str(runs[0]), str(runs[1])]) == 0
    out = capsys.readouterr().out
    assert "A: before" in out and "B: after" in out
    assert "badput: checkpoint" in out and "+7" in out


def test_user_mistakes_get_one_line(
    tmp_path: Path, runs: tuple[Path, Path], capsys: pytest.CaptureFixture
) -> None:
    assert nonstop(["report", str(tmp_path / "nope")]) == 2
    assert "no such run directory" in capsys.readouterr().err
    assert nonstop(["report", str(runs[0]), str(runs[1]), "--html"]) == 2
    assert "take one run" in capsys.readouterr().err
