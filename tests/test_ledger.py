import sqlite3
import time

import pytest
from support.rundir import two_rank_run as write_run

from nonstop import rundir
from nonstop.cli import main as cli
from nonstop.errors import UserError
from nonstop.events import EventWarning, EventWriter
from nonstop.ledger import Ledger, open_run, summarize
from nonstop.ledger.db import SCHEMA_VERSION


def test_ingestion_is_idempotent(tmp_path):
    rd = write_run(tmp_path / "run")
    with open_run(rd.root) as led:
        n = led.rows("SELECT COUNT(*) FROM steps")[0][0]
    with open_run(rd.root) as led:
        assert led.rows("SELECT COUNT(*) FROM steps")[0][0] == n == 2 * (3 + 3)
        s = summarize(led)
    assert s.attempts == 2 and s.goodput.final_step == 4 and s.goodput.steps_lost == 1


def test_incremental_ingestion_picks_up_new_lines(tmp_path):
    rd = write_run(tmp_path / "run", attempts=1)
    with open_run(rd.root) as led:
        before = led.rows("SELECT COUNT(*) FROM steps")[0][0]
    w = EventWriter(
        rd.events(0, 0), run_id="t", attempt=0, rank=0, host="h0", install_sigterm=False
    )
    w.emit("step", step=99, start=1.0, end=2.0)
    w.close()
    with open_run(rd.root) as led:
        assert led.rows("SELECT COUNT(*) FROM steps")[0][0] == before + 1


def test_report_json_keys(tmp_path, capsys):
    import json

    rd = write_run(tmp_path / "run")
    assert cli(["report", str(rd.root), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("ettr", "wall_s", "productive_s", "badput_s", "attempts", "failures", "final_step"):
        assert key in out
    assert out["attempts"] == 2 and out["final_step"] == 4 and 0 < out["ettr"] < 1


def test_not_a_run_dir(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert cli(["report", str(tmp_path / "empty")]) == 2
    assert "not a nonstop run directory" in capsys.readouterr().err
    assert cli(["report", str(tmp_path / "missing")]) == 2
    (tmp_path / "file").write_text("x")
    assert cli(["report", str(tmp_path / "file")]) == 2


def test_corrupt_ledger_is_reported_and_left_untouched(tmp_path, capsys):
    rd = write_run(tmp_path / "run")
    garbage = b"this is not sqlite" * 100
    rd.ledger.write_bytes(garbage)
    assert cli(["report", str(rd.root)]) == 2
    assert "not a SQLite ledger" in capsys.readouterr().err
    assert rd.ledger.read_bytes() == garbage


def test_newer_schema_is_refused_and_left_untouched(tmp_path):
    rd = write_run(tmp_path / "run")
    with open_run(rd.root):
        pass
    conn = sqlite3.connect(rd.ledger)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = rd.ledger.read_bytes()
    with pytest.raises(UserError, match="newer"):
        Ledger.open(rd.ledger)
    assert rd.ledger.read_bytes() == before


def test_unknown_kinds_are_skipped_with_a_warning(tmp_path):
    rd = write_run(tmp_path / "run", attempts=1)
    w = EventWriter(
        rd.events(0, 0), run_id="t", attempt=0, rank=0, host="h0", install_sigterm=False
    )
    w.emit("from_the_future", x=1)
    w.close()
    with pytest.warns(EventWarning, match="from_the_future"), open_run(rd.root) as led:
        assert led.rows("SELECT unknown FROM ingested WHERE unknown > 0")[0][0] == 1


def test_supervisor_records_and_rates(tmp_path):
    rd = write_run(tmp_path / "run")
    with open_run(rd.root) as led:
        t = led.rows("SELECT MIN(start) FROM steps")[0][0]
        led.attempt_started(0, time_s=t - 1, world_size=2, nodes=["h0", "h1"])
        led.attempt_ended(0, time_s=t + 4, outcome="failed")
        led.attempt_started(1, time_s=t + 99, world_size=2, nodes=["h0", "h1"])
        led.attempt_ended(1, time_s=t + 106, outcome="succeeded")
        led.add_failure(
            attempt=0,
            time_s=t + 3.2,
            rank=1,
            host="h1",
            category="faulty_gpu",
            action="exclude_node",
            exit_code=-9,
            signal="SIGKILL",
        )
        led.add_detection(
            attempt=0,
            kind="exit",
            detection_time_s=t + 3.5,
            last_progress_time_s=t + 2.9,
            rank=1,
            host="h1",
        )
        s = summarize(led).to_dict()
        from nonstop.ledger import rates_from_ledger

        r = rates_from_ledger(led)
    assert s["failures"][0]["category"] == "faulty_gpu"
    assert s["badput_s"]["detection"] == pytest.approx(0.6)
    assert r.failures_by_category == {"faulty_gpu": 1}
    assert r.mean_detection_s == pytest.approx(0.6)
    assert r.node_days == pytest.approx((5 + 7) * 2 / 86400)


def test_a_healed_outage_is_network_time_and_no_failure_to_simulate(tmp_path):
    """The agents filed a network outage that healed (no restart): the report's time is
    `network` and `simulate --from-run` does not count it as a failure (issue 25)."""
    from nonstop.ledger import rates_from_ledger

    rd = write_run(tmp_path / "run", attempts=1, steps=5, crash_at=5)
    with open_run(rd.root) as led:
        t = led.rows("SELECT MIN(start) FROM steps WHERE step = 2")[0][0]
        led.conn.execute("UPDATE steps SET end = end + 20 WHERE step = 2")
        led.conn.execute("UPDATE steps SET start = start + 20, end = end + 20 WHERE step > 2")
        led.attempt_started(0, time_s=t - 3, world_size=2, nodes=["h0", "h1"])
        led.attempt_ended(0, time_s=t + 23, outcome="succeeded")
        led.add_failure(
            attempt=0,
            time_s=t,
            rank=1,
            host="h1",
            category="network_switch_cable",
            action="none",
            message="healed without a restart",
            evidence={"healed": True, "stalled_s": 20.5, "outage_s": 19.0, "steps_redone": 0},
        )
        s = summarize(led).to_dict()
        r = rates_from_ledger(led)
    assert s["badput_s"]["network"] == pytest.approx(20.0, abs=0.5)
    assert s["badput_s"]["straggler"] == 0.0
    assert r.failures_by_category == {} and r.healed == 1


def test_restart_path_inside_the_workers_is_timed(tmp_path):
    rd = rundir.create(tmp_path / "run")
    t = time.time()
    for r in range(2):
        w = EventWriter(
            rd.events(1, r), run_id="t", attempt=1, rank=r, host="h", install_sigterm=False
        )
        w.emit("step", step=7, start=t + 4.0, end=t + 4.5 + r)  # rank 1 is the slower one
        w.close()
    with open_run(rd.root) as led:
        led.add_restart_phase(attempt=1, phase="spawn", start_s=t - 0.1, end_s=t)
        for phase, dt in (("attempt_start", 0.5), ("pg_ready", 2.0), ("resumed", 3.5)):
            led.conn.execute(
                "INSERT INTO lifecycle VALUES (1, 0, ?, ?, 'h', NULL)", (phase, t + dt)
            )
        from nonstop.ledger.ingest import derive_start_phases

        derive_start_phases(led)
        got = {
            p: round(b - a, 3)
            for p, a, b in led.rows(
                "SELECT phase, start, end FROM restart_phases WHERE attempt = 1 AND phase != 'spawn'"
            )
        }
    assert got == {"interpreter": 0.5, "imports_and_pg": 1.5, "state_load": 1.5, "first_step": 2.0}


def test_node_days_count_every_host_that_trained(tmp_path):
    rd = rundir.create(tmp_path / "run")
    t = time.time()
    for r, host in enumerate(("node-a", "node-b")):
        w = EventWriter(
            rd.events(0, r), run_id="t", attempt=0, rank=r, host=host, install_sigterm=False
        )
        w.emit("step", step=0, start=t, end=t + 1)
        w.close()
    with open_run(rd.root) as led:
        led.attempt_started(0, time_s=t - 9, world_size=2, nodes=None)  # one agent's view
        led.attempt_ended(0, time_s=t + 1, outcome="succeeded")
        from nonstop.ledger import rates_from_ledger

        assert rates_from_ledger(led).node_days == pytest.approx(2 * 10 / 86400)


def test_a_restarts_phases_add_up_to_its_total(tmp_path):
    """A script that reports no lifecycle phases (Lightning starts its process group itself):
    its start-up and re-initialization are the restart's own phase, not lost (issue 26)."""
    from nonstop.ledger.restarts import restarts

    rd = rundir.create(tmp_path / "run")
    t = time.time()
    w = EventWriter(rd.events(1, 0), run_id="t", attempt=1, rank=0, host="h", install_sigterm=False)
    w.emit("step", step=7, start=t + 19.0, end=t + 20.4)  # the first step after the restart
    w.close()
    with open_run(rd.root) as led:
        led.attempt_started(0, time_s=t - 60, world_size=1, nodes=["h"])
        led.attempt_started(1, time_s=t + 1.0, world_size=1, nodes=["h"])
        led.set_restart_path(1, "cold")
        led.add_detection(attempt=0, kind="exit", detection_time_s=t, last_progress_time_s=t - 0.1)
        led.add_restart_phase(attempt=0, phase="teardown", start_s=t, end_s=t + 0.3)
        led.add_restart_phase(attempt=1, phase="rendezvous", start_s=t + 0.3, end_s=t + 0.5)
        led.add_restart_phase(attempt=1, phase="spawn", start_s=t + 0.5, end_s=t + 0.6)
        (row,) = restarts(led)
    assert row["total_s"] == pytest.approx(20.5)
    assert row["phases"]["script_start"] == pytest.approx(20.5 - 0.1 - 0.3 - 0.2 - 0.1)
    assert sum(row["phases"].values()) == pytest.approx(row["total_s"])


def test_a_detection_filed_once_by_many_processes_is_one_row(tmp_path):
    """Agents on several nodes name the same slow link in the same second: filed with `once`,
    it is one row, however the processes interleave (a read, then an insert, let two write)."""
    import multiprocessing as mp

    db = tmp_path / "ledger.sqlite"
    Ledger.open(db).close()
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_file_slow_link, args=(str(db),)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    with Ledger.open(db) as led:
        got = led.rows("SELECT attempt, host FROM detections WHERE kind = 'slow_link'")
        assert [tuple(r) for r in got] == [(0, "node1"), (1, "node1")]
        assert not led.add_detection(
            attempt=0, kind="slow_link", detection_time_s=0.0, host="node1", once=True
        )
        assert led.add_detection(
            attempt=0, kind="slow_link", detection_time_s=0.0, host="node2", once=True
        )


def _file_slow_link(root: str) -> None:
    with Ledger.open(root) as led:
        for attempt in (0, 1):
            for _ in range(50):
                led.add_detection(
                    attempt=attempt,
                    kind="slow_link",
                    detection_time_s=time.time(),
                    host="node1",
                    once=True,
                )
