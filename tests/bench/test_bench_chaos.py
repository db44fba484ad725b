"""The chaos benchmark's torchrun side: the schedule it runs, its ETTR, its result contract.
Synthetic run directories (real EventWriter); no training is launched."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from benchmarks import bench_chaos as bc
from benchmarks.chaos.peer import ettr_from_events, peer_schedule
from benchmarks.chaos.schedule import KINDS, ChaosFault, Schedule, make_schedule
from benchmarks.run import REQUIRED
from nonstop.events import EventWriter
from nonstop.rundir import create


def test_peer_schedule_keeps_the_faults_and_renumbers_attempts() -> None:
    s = Schedule(
        seed=0,
        steps=60,
        checkpoint_every=5,
        faults=[
            ChaosFault(kind="nan", attempt=0, rank=1, step=12),
            ChaosFault(kind="sigkill", attempt=1, rank=0, step=22),
            ChaosFault(kind="kill_in_restart", attempt=2, rank=1, step=0),
            ChaosFault(kind="diskfull", attempt=3, rank=0, step=30, to_step=37),
            ChaosFault(kind="sigstop", attempt=3, rank=1, step=45),
        ],
    )
    p = peer_schedule(s)
    assert [(f.kind, f.rank, f.step) for f in p.faults] == [
        (f.kind, f.rank, f.step) for f in s.faults
    ]
    # no guards under torchrun: the NaN ends no attempt, so every later key moves down one
    assert [f.attempt for f in p.faults] == [0, 0, 1, 2, 2]
    full = make_schedule(seed=1, kinds=KINDS)
    assert len(peer_schedule(full).faults) == len(full.faults)


def _steps(rd_root: Path, attempt: int, steps: list[tuple[int, float]]) -> None:
    rd = create(rd_root) if not rd_root.exists() else None
    path = (
        rd.events(attempt, 0) if rd else rd_root / "events" / f"attempt-{attempt}" / "rank-0.jsonl"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    w = EventWriter(path, run_id="r", attempt=attempt, rank=0, host="h", install_sigterm=False)
    for step, dur in steps:
        w.emit("step", step=step, start=100.0 + step, end=100.0 + step + dur)
    w.close()


def test_ettr_counts_each_step_once_in_the_latest_attempt(tmp_path: Path) -> None:
    _steps(tmp_path / "run", 0, [(0, 1.0), (1, 1.0), (2, 1.0), (3, 1.0)])  # 2, 3 are redone
    _steps(tmp_path / "run", 1, [(2, 2.0), (3, 2.0), (4, 2.0)])
    e = ettr_from_events(tmp_path / "run", wall_s=20.0)
    assert e["steps_kept"] == 5 and math.isclose(e["useful_s"], 1 + 1 + 2 + 2 + 2)
    assert math.isclose(e["ettr"], 8.0 / 20.0) and e["median_step_s"] == 2.0
    same_work = ettr_from_events(tmp_path / "run", wall_s=20.0, step_s=0.5)
    assert math.isclose(same_work["ettr"], 5 * 0.5 / 20.0)


def _side(ettr: float, wall: float, **kw: object) -> dict[str, object]:
    base = {
        "finished": True,
        "identical": True,
        "injected": 4,
        "detected": 4,
        "recovered": 4,
        "lost": 0,
        "missed": [],
        "skipped": [],
        "phantom": [],
        "not_applicable": [],
    }
    return {
        **base,
        **kw,
        "ettr": {"ettr": ettr, "wall_s": wall, "limit": 0.4},
        "ettr_events": {"ettr": ettr, "wall_s": wall},
    }


def test_summary_is_ours_over_torchrun_ettr_with_both_sides() -> None:
    runs = [
        {
            "seed": 0,
            "ours": _side(0.2, 60.0),
            "peer": _side(0.1, 100.0, detected=3),
            "fault_free": {"ettr": 0.3},
        }
    ]
    out = bc.combine(runs, load={"start": [1.0], "end": [1.0]})
    assert not [k for k in REQUIRED if k not in out]
    assert out["ours"] == 0.2 and out["peer"] == 0.1 and math.isclose(out["ratio"], 2.0)
    assert out["better"] == "higher" and out["reps"] == 1
    assert out["peer_side"]["detected"] == 3 and out["ours_side"]["identical"]
    assert out["daly_limit_from_nonstop_costs"] == 0.4 and out["limit"] == 0.3


def test_a_seed_whose_peer_missed_faults_is_left_out_of_the_ratio() -> None:
    """A peer run that never got some faults did less work: its ETTR is not comparable."""
    never = {"kind": "sigkill", "attempt": 2, "why": "the injector never logged it as fired"}
    runs = [
        {"seed": 1, "ours": _side(0.2, 60.0), "peer": _side(0.1, 100.0), "fault_free": {}},
        {
            "seed": 2,
            "ours": _side(0.2, 60.0),
            "peer": _side(0.9, 10.0, skipped=[never]),
            "fault_free": {},
        },
    ]
    out = bc.combine(runs, load={"start": [1.0], "end": [1.0]})
    assert out["scored_seeds"] == [1] and out["reps"] == 1
    assert out["peer"] == 0.1 and math.isclose(out["ratio"], 2.0)
    assert out["incomparable"] == {"2": [never]}
    assert out["seeds"] == [1, 2] and out["peer_side"]["skipped"] == [never]


def test_a_kill_in_restart_after_a_numerical_fault_waits_for_torchruns_next_restart() -> None:
    """Under torchrun a flipped parameter ends no attempt: the restart whose rank is killed is
    the one after the next crash, not the start of the attempt that was to flip the bit."""
    s = Schedule(
        seed=0,
        steps=60,
        checkpoint_every=5,
        faults=[
            ChaosFault(kind="sigkill", attempt=0, rank=0, step=12),
            ChaosFault(kind="param_bitflip", attempt=1, rank=0, step=20),
            ChaosFault(kind="kill_in_restart", attempt=2, rank=1, step=0),
            ChaosFault(kind="rdzv_loss", attempt=3, rank=0, step=30),
            ChaosFault(kind="sigstop", attempt=4, rank=1, step=45),
        ],
    )
    p = peer_schedule(s)
    assert [(f.kind, f.attempt) for f in p.faults] == [
        ("sigkill", 0),
        ("param_bitflip", 1),  # attempt 1 is no longer killed at its start: the bit flips
        ("rdzv_loss", 1),
        ("kill_in_restart", 2),  # the start of the attempt after the store loss
        ("sigstop", 3),
    ]


def test_a_workers_skip_batches_is_not_the_response_to_the_attempts_failure(tmp_path: Path) -> None:
    """Seed 6: attempt 9 began by skipping the spike's batches (the workers' action, recorded
    first), then a SIGSTOP'd rank was restarted; the fault's action is the restart."""
    import sqlite3

    from benchmarks.chaos.checks import supervisor_actions
    from nonstop.ledger.db import Ledger

    with Ledger.open(tmp_path / "ledger.db") as led:
        led.add_action(attempt=8, time_s=10.0, action="restart", reason="loss spike")
        led.add_action(attempt=9, time_s=11.0, action="skip_batches", reason="after a spike")
        led.add_action(attempt=9, time_s=30.0, action="restart", reason="hang of rank 0")
    conn = sqlite3.connect(tmp_path / "ledger.db")
    try:
        acts = supervisor_actions(conn)
    finally:
        conn.close()
    assert [a["action"] for a in acts if a["attempt"] == 9] == ["restart"]
    assert [a["attempt"] for a in acts] == [8, 9]


def test_the_peer_runs_at_torchruns_strongest_hang_detection(tmp_path: Path) -> None:
    from benchmarks.chaos.harness import Harness
    from benchmarks.chaos.peer import PeerHarness

    s = make_schedule(seed=1, kinds=KINDS, gap=(9, 13))
    peer = PeerHarness(peer_schedule(s), tmp_path / "peer", timeout_s=10)
    env = peer.env()
    assert env["BENCH_PG_TIMEOUT_S"] == env["BENCH_TIMER_S"] == "5"  # not gloo's 60 s alone
    assert env["TORCHELASTIC_ENABLE_FILE_TIMER"] == "1" and env["TORCHELASTIC_TIMER_FILE"]
    # its timer server kills torchrun itself: requeued up to its --max-restarts
    assert peer.max_requeues == len(s.faults) + 3
    assert Harness(s, tmp_path / "ours", timeout_s=10).max_requeues == 2


def test_both_launchers_get_the_same_rendezvous_and_restarts(tmp_path: Path) -> None:
    from benchmarks.chaos.harness import Harness
    from benchmarks.chaos.peer import PeerHarness

    s = make_schedule(seed=1, kinds=KINDS, gap=(9, 13))
    ours = Harness(s, tmp_path / "ours", timeout_s=10).command(1234)
    peer = PeerHarness(peer_schedule(s), tmp_path / "peer", timeout_s=10).command(1234)
    for cmd, rdzv_id in ((ours, "chaos-1"), (peer, "chaos-peer-1")):
        flags = dict(itertools.pairwise(cmd))
        assert flags["--nproc-per-node"] == str(s.world_size)
        assert flags["--rdzv-endpoint"] == "127.0.0.1:1234" and flags["--rdzv-id"] == rdzv_id
        assert flags["--max-restarts"] == str(len(s.faults) + 3)
    assert ours[2:5] == ["nonstop.cli", "run", "--quiet"] and "--run-dir" in ours
    assert peer[2] == "torch.distributed.run" and "benchmarks.chaos.peer_worker" in peer


def test_seeds_and_folder_come_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchmarks.chaos.harness import seeded_runs

    monkeypatch.setenv("NONSTOP_CHAOS_SEEDS", "3,5")
    monkeypatch.setenv("NONSTOP_CHAOS_DIR", str(tmp_path))
    runs, extra = seeded_runs(
        lambda seed, quick, root: {"seed": seed, "quick": quick, "root": root},
        True,
        [0],
        [1, 2],
        prefix="unused-",
    )
    assert runs == [{"seed": s, "quick": True, "root": tmp_path} for s in (3, 5)]
    assert extra["work_dir"] == str(tmp_path) and set(extra) == {"load", "date", "work_dir"}
    monkeypatch.delenv("NONSTOP_CHAOS_SEEDS")
    runs, _ = seeded_runs(lambda seed, quick, root: {"seed": seed}, False, [0], [1, 2], prefix="x")
    assert [r["seed"] for r in runs] == [1, 2]
