"""The newcomer's path: `nonstop demo` trains through a crash, a hang and a straggler, and
`nonstop report` tells where the time went."""

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def test_demo_recovers_from_injected_faults_and_reports(tmp_path):
    run_dir = tmp_path / "demo"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "nonstop.cli",
            "demo",
            "--steps",
            "40",
            "--quiet",
            "--run-dir",
            str(run_dir),
        ],
        capture_output=True,
        text=True,
        timeout=400,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Goodput: ETTR" in r.stdout
    rep = subprocess.run(
        [sys.executable, "-m", "nonstop.cli", "report", str(run_dir), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert rep.returncode == 0, rep.stderr
    s = json.loads(rep.stdout)
    assert s["final_step"] == 39 and s["attempts"] == 3
    assert [f["attempt"] for f in s["failures"]] == [0, 1]
    assert s["failures"][1]["category"] == "hang"  # the hang (gloo: no NCCL watchdog)
    assert s["productive_s"] + sum(s["badput_s"].values()) == pytest.approx(s["wall_s"])
    assert s["badput_s"]["checkpoint"] > 0 and s["badput_s"]["recovery"] > 0
    # resumed from checkpoints: far fewer steps redone than the 12 + 26 a cold restart costs
    assert s["steps_lost"] < 12
    # both restarts went to warm standbys, and each is accounted phase by phase
    assert [r["path"] for r in s["restarts"]] == ["warm", "warm"], s["restarts"]
    assert all(r["total_s"] and "rendezvous" in r["phases"] for r in s["restarts"])
    # the loss fell
    import sqlite3

    conn = sqlite3.connect(run_dir / "ledger.db")
    first, last = conn.execute(
        "SELECT (SELECT loss FROM steps WHERE rank = 0 ORDER BY start LIMIT 1),"
        " (SELECT loss FROM steps WHERE rank = 0 ORDER BY start DESC LIMIT 1)"
    ).fetchone()
    conn.close()
    assert last < first - 1.0
