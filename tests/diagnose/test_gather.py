"""diagnose_run's reading half (nonstop.diagnose.gather) in worker processes gives what the
serial read gives: the same hosts, straggler streams, log scans, failing peers, flight summary,
and the same verdict, whatever the root cause (a hang, a straggler, an Xid on a host)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonstop.diagnose import gather, join
from nonstop.diagnose.synth import write_job
from nonstop.events import EventWriter
from nonstop.rundir import RunDir, create

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "logs"
RANKS = 24
PEER_GONE = "Read error [10.0.0.7]:15795: Connection reset by peer.\n"


def make_run(root: Path, *, slow: int | None = None) -> RunDir:
    """24 ranks, 2 per host: 12 steps each (rank `slow` 1.4x slower), a section per rank,
    logs (some with a watchdog timeout, some naming a lost peer)."""
    rd = create(root)
    rd.write_config({"world_size": RANKS})
    for r in range(RANKS):
        w = EventWriter(
            rd.events(0, r),
            run_id="g",
            attempt=0,
            rank=r,
            host=f"node-{r // 2}",
            install_sigterm=False,
        )
        w.emit("lifecycle", phase="attempt_start")
        w.emit("section", name="eval", phase="open")
        w.emit("section", name="eval", phase="close")
        for step in range(12):
            busy = 0.1 * (1.4 if r == slow else 1.0) * (1 + (r * 7 + step) % 5 / 100)
            w.emit("step", step=step, start=float(step), end=step + 1.0, compute_s=busy)
        w.close()
        log = rd.log(0, r)
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(f"[rank{r}] step 11 loss 2.0 grad_norm 0.9\n" + (PEER_GONE if r % 3 else ""))
    return rd


def same_read(rd: RunDir) -> tuple[gather.Attempt, gather.Attempt]:
    one = gather.read_attempt(rd, 0, workers=1)
    two = gather.read_attempt(rd, 0, workers=2, parallel_min=1)
    assert (one.workers, two.workers) == (1, 2)  # the second really ran in two processes
    assert one.hosts == two.hosts and len(one.hosts) == RANKS
    assert one.streams == two.streams
    assert one.logs == two.logs and one.scans == two.scans
    assert one.link_peers == two.link_peers
    if one.flight is None:
        assert two.flight is None
    else:
        assert two.flight is not None
        for field in ("ranks", "files", "versions", "pg_desc", "pg_ranks", "arrival", "windowed"):
            assert getattr(one.flight, field) == getattr(two.flight, field), field
    return one, two


def verdicts(rd: RunDir, monkeypatch: pytest.MonkeyPatch) -> tuple[dict, dict]:
    serial = join.diagnose_run(rd.root, 0, workers=1).to_dict()
    monkeypatch.setattr(gather, "PARALLEL_MIN_FILES", 1)
    parallel = join.diagnose_run(rd.root, 0, workers=2).to_dict()
    return serial, parallel


def test_a_hang_reads_the_same_in_two_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rd = make_run(tmp_path)
    write_job(rd.flight_dir(0), RANKS, 40, hang_rank=17)
    for r in (0, 1, 2):
        rd.log(0, r).write_text((CORPUS / "nccl_watchdog_timeout.log").read_text())
    one, _ = same_read(rd)
    assert one.flight is not None and len(one.flight.files) == RANKS
    assert any(ips == ["10.0.0.7"] for _, ips in one.link_peers)
    serial, parallel = verdicts(rd, monkeypatch)
    assert json.dumps(serial, sort_keys=True) == json.dumps(parallel, sort_keys=True)
    assert 17 in [c["rank"] for c in serial["culprits"]], serial["verdict"]


def test_a_straggler_without_dumps_reads_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rd = make_run(tmp_path, slow=9)
    for r in range(RANKS):  # no lost peer: nothing but the straggler to find
        rd.log(0, r).write_text(f"[rank{r}] step 11 loss 2.0\n")
    one, _ = same_read(rd)
    assert one.flight is None
    serial, parallel = verdicts(rd, monkeypatch)
    assert serial == parallel
    assert "straggler" in serial["verdict"] and [c["rank"] for c in serial["culprits"]] == [9]


def test_an_xid_on_a_host_beats_the_hang_in_two_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rd = make_run(tmp_path)
    write_job(rd.flight_dir(0), RANKS, 40, hang_rank=5)
    kern = (CORPUS / "xid79_then_watchdog.log").read_text().replace("node-b", "node-2")
    (rd.log(0, 0).parent / "host-node-2.kern.log").write_text(kern)
    same_read(rd)
    serial, parallel = verdicts(rd, monkeypatch)
    assert serial == parallel
    assert (serial["category"], serial["action"]) == ("faulty_gpu", "exclude_node")
    assert 5 in [c["rank"] for c in serial["culprits"]]
