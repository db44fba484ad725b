"""The HTML report: what it shows, that it is self-contained, and that it renders in Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser import CHARTS, load, parse
from runbuilder import build_run

from nonstop import rundir
from nonstop.cli import main as nonstop
from nonstop.report import charts, html
from nonstop.report import data as rd


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_run(tmp_path_factory.mktemp("html") / "run")


def test_page_shows_the_runs_figures(run: Path) -> None:
    data = rd.load(run)
    page = html.render(data)
    assert f'data-ettr="{data.summary["ettr"]:.6f}"' in page
    assert f"{data.summary['ettr']:.1%}" in page
    assert "NCCL Watchdog Timeouts" in page
    # messages are escaped, not markup
    assert "&lt;on rank 3&gt;" in page and "<on rank 3>" not in page
    charts = parse(page)
    assert set(charts.charts) == CHARTS
    assert all(n > 0 for n in charts.shapes.values()), charts.shapes
    assert "node-b r2 nvml" in page  # one power line per device
    assert len(page) < 400_000


def test_page_is_self_contained(run: Path) -> None:
    page = html.render(rd.load(run))
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert page.count("<script>") == 1


def test_data_series_find_the_straggler_and_the_outage(run: Path) -> None:
    data = rd.load(run)
    hm = rd.heatmap(data)
    assert hm is not None and hm.ranks == [0, 1, 2, 3]
    medians = {
        r: sorted(v for v in row if v is not None)[len(row) // 4]
        for r, row in zip(hm.ranks, hm.cells)
    }
    assert medians[2] / hm.reference_s > 1.4
    assert all(abs(medians[r] / hm.reference_s - 1) < 0.05 for r in (0, 1, 3))
    lost = [step for step, _, attempt, ok in rd.loss_series(data) if not ok]
    assert lost == [20, 21, 22, 23, 24] and {a for _, _, a, _ in rd.loss_series(data)} == {0, 1}
    tput = rd.throughput_series(data)
    failure = data.summary["failures"][0]["time"]
    restart = min(s.start for s in data.steps if s.attempt == 1)
    inside = [v for t, v in tput if failure + 1 < t < restart - 1]
    assert inside and all(v == 0 for v in inside)
    assert max(v for _, v in tput) > 0
    assert rd.checkpoint_stats(data)["checkpoints"] == 6
    assert [c["category"] for c in rd.failures_by_category(data)] == ["nccl_watchdog_timeout"]


def test_cli_writes_the_page_into_the_run_dir(run: Path, capsys: pytest.CaptureFixture) -> None:
    assert nonstop(["report", str(run), "--html"]) == 0
    assert f"wrote HTML report: {run / 'report.html'}" in capsys.readouterr().out
    assert set(parse((run / "report.html").read_text()).charts) == CHARTS


def test_page_renders_in_chromium_without_console_errors(run: Path, tmp_path: Path) -> None:
    page = html.write(rd.load(run), tmp_path / "out" / "report.html")
    dom, console = load(page, tmp_path / "profile", screenshot=tmp_path / "shot.png")
    assert console == []
    after = parse(dom)
    assert set(after.charts) == CHARTS
    assert {k: v.get("data-rendered") for k, v in after.charts.items()} == dict.fromkeys(
        CHARTS, "1"
    )
    assert after.body.get("data-charts-rendered") == str(len(CHARTS))
    assert (tmp_path / "shot.png").stat().st_size > 10_000


def test_the_browser_check_catches_errors_and_blocked_network(run: Path, tmp_path: Path) -> None:
    # The same page with a script error and an off-page image: both must show up.
    page = html.render(rd.load(run)).replace(
        "</main>", '<img src="http://127.0.0.1:9/x.png"></main><script>notDefined();</script>'
    )
    bad = tmp_path / "bad.html"
    bad.write_text(page)
    _, console = load(bad, tmp_path / "profile")
    text = "\n".join(console)
    assert "notDefined" in text
    assert "Content Security Policy" in text


def test_an_empty_run_still_renders(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    rundir.create(root).write_config({"run_id": "empty"})
    data = rd.load(root)
    page = html.render(data)
    assert "no steps recorded" in page and "no checkpoints saved" in page
    out = html.write(data)
    assert out == root / "report.html"
    dom, console = load(out, tmp_path / "profile")
    assert console == []
    assert all(v.get("data-rendered") == "1" for v in parse(dom).charts.values())


def test_failures_by_category_shows_the_actions_taken_beside_the_default() -> None:
    # a guessed hardware fault is restarted, not excluded: the chart must not say it was
    fail = {"category": "faulty_gpu", "action": "restart", "time": 1.0, "attempt": 0}
    data = rd.ReportData(
        "d", "r", {"failures": [fail, {**fail, "action": "exclude_node"}, fail]}, 0, 2
    )
    (c,) = rd.failures_by_category(data)
    assert (c["count"], c["action"], c["taken"]) == (3, "exclude_node", ["restart", "exclude_node"])
    assert "taken here: restart, exclude_node" in charts.failure_bars(data)


def test_html_into_a_folder_or_nowhere_and_tensorboard_into_a_file(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """`--html DIR` was an IsADirectoryError traceback that left DIR.tmp beside it; a place
    that cannot be written, and `--tensorboard FILE`, were tracebacks too."""
    folder = tmp_path / "pages"
    folder.mkdir()
    assert nonstop(["report", str(run), "--html", str(folder)]) == 0
    assert f"wrote HTML report: {folder / 'report.html'}" in capsys.readouterr().out
    assert set(parse((folder / "report.html").read_text()).charts) == CHARTS
    note = tmp_path / "notes.txt"
    note.write_text("mine")
    assert nonstop(["report", str(run), "--html", str(note / "r.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"nonstop report: error: --html {note / 'r.html'}: cannot write it (")
    assert len(err.splitlines()) == 1
    assert nonstop(["report", str(run), "--tensorboard", str(note)]) == 2
    assert capsys.readouterr().err == (
        f"nonstop report: error: {note} is a file; pass a folder to --tensorboard\n"
    )
    assert note.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "pages"]
