"""The report of a real `nonstop run` (2 CPU ranks, gloo, an injected crash): terminal, JSON and
an HTML page that renders in Chromium. The one test here that trains (about 20 s)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser import CHARTS, load, parse
from support import TINY
from support import nonstop_cli as nonstop

from nonstop.report import data as rd


@pytest.mark.slow
def test_report_of_a_real_run_with_a_crash(tmp_path: Path) -> None:
    run = tmp_path / "run"
    done = nonstop(
        "run",
        "--quiet",
        "--nproc-per-node",
        "2",
        "--run-dir",
        str(run),
        "--inject",
        "crash@step=8,rank=1",
        "-m",
        "nonstop.workloads.llama.train",
        "--steps",
        "20",
        "--checkpoint-every",
        "5",
        *TINY,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

    out = nonstop("report", str(run), "--json", "--html")
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["attempts"] == 2 and s["final_step"] == 19 and len(s["failures"]) == 1
    assert 0 < s["ettr"] < 1 and s["badput_s"]["recovery"] > 0

    data = rd.load(run)
    assert {st.rank for st in data.steps} == {0, 1}
    assert any(not st.survived for st in data.steps)  # steps after the last save were redone
    page = run / "report.html"
    dom, console = load(page, tmp_path / "profile")
    assert console == []
    charts = parse(dom).charts
    assert {k: v.get("data-rendered") for k, v in charts.items()} == dict.fromkeys(CHARTS, "1")

    text = nonstop("report", str(run))
    assert text.returncode == 0 and f"ETTR {s['ettr']:.1%}" in text.stdout
