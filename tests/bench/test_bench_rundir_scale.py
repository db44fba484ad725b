"""bench_rundir_scale's run directory at a tiny size, through nonstop's own readers: the layout,
the ledger's supervisor rows, ingestion of every stream, and the hang's verdict naming the
rank; never the timings."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import bench_rundir_scale as bs
from benchmarks.bench_flight_recorder import run_tool
from nonstop import rundir
from nonstop.ledger import Ledger, ingest_run


def test_run_directory_has_every_rank_and_ingests(tmp_path: Path) -> None:
    facts = bs.build(tmp_path / "run", 16, entries=40)
    rd = rundir.open_existing(tmp_path / "run")
    assert facts["hang"] == 5
    assert len(rd.event_files()) == 32  # 16 ranks x 2 attempts
    assert len(list(rd.flight_dir(0).iterdir())) == 16
    assert rd.log(0, 5).with_name("rank-5.stacks.txt").exists()
    led = Ledger.open(rd.ledger)
    try:
        stats = ingest_run(rd, led)
        assert stats.files == 32 and stats.torn == 0 and stats.corrupt == 0
        steps = led.conn.execute("SELECT COUNT(*) FROM steps").fetchone()[0]
        assert steps == 16 * (bs.STEPS + bs.STEPS - bs.CKPT_STEP)
        assert led.conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 2
    finally:
        led.close()


def test_diagnose_names_the_hung_rank(tmp_path: Path) -> None:
    root = tmp_path / "run"
    bs.build(root, 16, entries=40)
    cmds = bs.commands(root)
    assert run_tool(cmds["ingest"], 120)["status"] == "ok"
    rep = run_tool(cmds["report"], 120)
    assert rep["status"] == "ok" and json.loads(rep["stdout"])
    d = run_tool(cmds["diagnose"], 120)
    assert d["status"] == "ok", d["stderr"][-500:]
    v = bs._verdict(d)
    assert v["category"] == "hang" and 5 in v["culprits"]
