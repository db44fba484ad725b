"""bench_checkpoint end to end in its --quick form (a few MB): every method really saves, the
JSON line keeps the harness's contract, and a saved checkpoint of each kind loads back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.run import REQUIRED

REPO = Path(__file__).resolve().parents[2]
METHODS = ("ours", "dcp-async-process", "dcp-async-thread", "dcp-sync")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_quick_run_reports_every_method_and_size() -> None:
    p = subprocess.run(
        [sys.executable, "benchmarks/run.py", "checkpoint", "--quick", "--json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,  # well inside the marker: a timeout firing while pytest reports ends the session
    )
    assert p.returncode == 0, p.stderr[-3000:]
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert not [k for k in REQUIRED if k not in out]
    assert out["reps"] == 2 and set(out["spread"]) == {"ours", "peer", "ratio"}
    (row,) = out["rows"]
    assert row["best_peer"] in METHODS[1:]
    assert row["best_peer_lost"] in METHODS[1:] and set(row["ratio_lost_ci"]) == set(METHODS[1:])
    for m in METHODS:
        assert len(row[m]["samples_blocking_s"]) == 2
        assert len(row[m]["samples_lost_s"]) == 2  # the headline: run-queue waits taken out
        assert row[m]["durable_s"] > 0 and row[m]["load_s"] > 0, (m, row[m])
    assert out["ratio"] == pytest.approx(out["ours"] / out["peer"])
    assert out["peer_name"].startswith(row["best_peer_lost"]) and "run queue" in out["method"]
    assert out["limit"] > 0 and len(out["load"]) == 3 and out["date"].endswith("Z")
    assert {"sha256", "zlib.crc32"} <= set(out["hash_mbps"])  # the checksum candidates, measured
    assert out["nvrx"]["run"] is False and out["nvrx"]["why"]  # a peer not run says why


def test_run_queue_wait_is_read_from_the_threads_schedstat() -> None:
    from benchmarks.bench_checkpoint import _queued_s

    with open("/proc/thread-self/schedstat") as f:
        fields = [int(x) for x in f.read().split()]
    first = _queued_s()
    assert first >= fields[1] / 1e9 - 1e-9  # the second field, in seconds, and it only grows
    assert _queued_s() >= first
