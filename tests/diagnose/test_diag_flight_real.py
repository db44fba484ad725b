"""Real gloo hangs under real processes: the analysis must name the rank that never arrived."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nonstop.diagnose import analyze_flight, diagnose_run
from nonstop.diagnose.frdump import load_dump

WORKER = Path(__file__).with_name("fr_worker.py")
ROOT = Path(__file__).resolve().parents[2]
WORLD = 3


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(run_dir: Path, mode: str) -> None:
    """Start WORLD ranks, their output in logs/attempt-0/rank-R.log as the supervisor keeps it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    port = _port()
    logs = run_dir / "logs" / "attempt-0"
    logs.mkdir(parents=True)
    procs = []
    for r in range(WORLD):
        with open(logs / f"rank-{r}.log", "wb") as out:
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        str(WORKER),
                        str(r),
                        str(WORLD),
                        str(port),
                        str(run_dir),
                        mode,
                    ],
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            )
    waiting = procs[: WORLD - 1]
    try:
        deadline = time.monotonic() + 60
        for p in waiting:
            p.wait(timeout=max(1.0, deadline - time.monotonic()))
        last_dump = run_dir / "flight-json" / f"rank-{WORLD - 1}.json"
        while mode == "sleep" and not last_dump.exists() and time.monotonic() < deadline:
            time.sleep(0.05)  # the sleeping rank dumps from a thread too; wait for it
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait(timeout=10)
    for r, p in enumerate(waiting):
        log = (logs / f"rank-{r}.log").read_text()
        assert p.returncode == 0, f"rank {r} exited {p.returncode}: {log}"


@pytest.mark.timeout(90)
def test_sleeping_rank_is_named_from_pickle_and_json_dumps(tmp_path: Path) -> None:
    _run(tmp_path, "sleep")
    dump, truncated = load_dump(tmp_path / "flight" / "attempt-0" / "rank-0")
    assert not truncated and dump["version"].startswith("2.")
    for folder in (tmp_path / "flight" / "attempt-0", tmp_path / "flight-json"):
        v = analyze_flight(folder)
        assert [c.rank for c in v.culprits] == [2], v.verdict
        assert v.category == "nccl_watchdog_timeout"
        pg0 = next(g for g in v.details["groups"] if g["desc"] == "default_pg")
        assert pg0["state"] == "hung" and pg0["waiting"] == [0, 1]
        assert pg0["never_entered"] == {"2": pg0["frontier"] - 1}
        assert pg0["last_all_completed"] == pg0["frontier"] - 1
        assert "Double" in pg0["frontier_op"]


@pytest.mark.timeout(90)
def test_stopped_rank_without_dump_is_named_with_its_host(tmp_path: Path) -> None:
    _run(tmp_path, "stop")
    assert not (tmp_path / "flight" / "attempt-0" / "rank-2").exists()
    v = diagnose_run(tmp_path)  # world size and hosts come from the event streams
    assert [(c.rank, c.host) for c in v.culprits] == [(2, "node-1")], v.to_dict()
    assert v.category == "nccl_watchdog_timeout" and v.action == "restart"
    assert "never dumped" in " ".join(v.culprits[0].evidence)


@pytest.mark.timeout(90)
def test_dead_rank_without_dump_whose_peers_collective_failed_is_the_culprit(
    tmp_path: Path,
) -> None:
    """Rank 2 exits; the others' all_reduce raises (gloo: connection reset), they log it and
    dump. gloo retires a collective that raised like one that succeeded, so the dumps alone show
    every group idle; the dead rank is still the prime suspect and is named, with evidence."""
    _run(tmp_path, "dead")
    folder = tmp_path / "flight" / "attempt-0"
    assert not (folder / "rank-2").exists()
    v = analyze_flight(folder, world_size=WORLD)
    assert [c.rank for c in v.culprits] == [2], v.verdict
    assert "prime suspect" in v.culprits[0].evidence[0]
    # with the run directory, the failed collective (from the ranks' logs) is not completed
    d = diagnose_run(tmp_path)
    assert [(c.rank, c.host) for c in d.culprits] == [(2, "node-1")], d.to_dict()
    pg0 = next(g for g in d.details["flight"]["details"]["groups"] if g["desc"] == "default_pg")
    assert pg0["waiting"] == [0, 1] and pg0["missing"] == [2], pg0


@pytest.mark.timeout(90)
def test_a_json_dumps_pg_status_counts_though_its_ids_are_strings(tmp_path: Path) -> None:
    """torch's JSON dump (`_dump_fr_trace_json`) writes pg_status' sequence ids as strings
    ("last_completed_collective": "4"; the pickle has ints): they were ignored, so a dump whose
    entries carry no `retired` (gloo's entries stay "scheduled") said the last collective every
    rank completed was #0; and one without input_dtypes named the op "all_reduce [[8]] None"."""
    import json

    _run(tmp_path, "sleep")
    out = tmp_path / "no-retired"
    out.mkdir()
    for src in sorted((tmp_path / "flight-json").glob("rank-*.json")):
        dump = json.loads(src.read_text())
        assert isinstance(dump["pg_status"]["0"]["last_completed_collective"], str)
        for e in dump["entries"]:
            del e["retired"], e["input_dtypes"]  # optional keys
        (out / src.name).write_text(json.dumps(dump))
    want = analyze_flight(tmp_path / "flight-json")
    got = analyze_flight(out)
    pg0 = [next(g for g in v.details["groups"] if g["desc"] == "default_pg") for v in (want, got)]
    assert pg0[1]["last_all_completed"] == pg0[0]["last_all_completed"] == pg0[0]["frontier"] - 1
    assert [c.rank for c in got.culprits] == [2], got.verdict
    assert "gloo:all_reduce [[8]] that rank 2 never entered" in got.verdict  # not "[[8]] None"
