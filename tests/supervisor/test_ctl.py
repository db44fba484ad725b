"""`nonstop ctl`: live settings, from bad input to a hang timeout changed in a running job."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import TINY, last_step, rows

from nonstop import cli, rundir
from nonstop.errors import UserError
from nonstop.events import read_events
from nonstop.supervisor import live_settings as ctl


def test_assignments_are_checked_with_clear_messages():
    assert ctl.parse_assignment("hang_timeout=3") == ("hang_timeout", 3.0)
    assert ctl.parse_assignment("hang_timeout=auto") == ("hang_timeout", None)
    assert ctl.parse_assignment("fr_stacks=off") == ("fr_stacks", False)
    assert ctl.parse_assignment(" straggler_every = 5 ") == ("straggler_every", 5)
    for bad, msg in [
        ("hang_timeout", "KEY=VALUE"),
        ("warp=9", "unknown setting 'warp'"),
        ("hang_timeout=-1", "seconds"),
        ("straggler_every=0.5", "steps"),
        ("fr_stacks=maybe", "on/off"),
        ("telemetry_s=nan", "seconds"),
    ]:
        with pytest.raises(UserError, match=msg):
            ctl.parse_assignment(bad)


def test_run_and_ctl_share_one_hang_timeout_parser(capsys):
    for bad in ("nan", "inf", "-1", "0", "soon"):
        with pytest.raises(UserError):
            ctl.parse_assignment(f"hang_timeout={bad}")
        assert cli.main(["run", "--hang-timeout", bad, "-m", "json.tool"]) == 2
        assert "--hang-timeout must be seconds above 0 or 'auto'" in capsys.readouterr().err


def test_versions_merge_and_each_process_sees_only_what_changed(tmp_path):
    rd = rundir.create(tmp_path / "run")
    live = ctl.LiveSettings(rd.root)
    assert live.poll() is None  # nothing set yet
    assert ctl.write_settings(rd.root, {"hang_timeout": 30.0, "fr_stacks": False}) == 1
    assert live.poll() == (1, {"hang_timeout": 30.0, "fr_stacks": False})
    assert live.poll() is None  # unchanged file: a stat, nothing else
    assert ctl.write_settings(rd.root, {"hang_timeout": 3.0}) == 2
    assert live.poll() == (2, {"hang_timeout": 3.0})
    assert ctl.read_settings(rd.root) == (2, {"hang_timeout": 3.0, "fr_stacks": False})
    late = ctl.LiveSettings(rd.root)  # a restarted attempt starts with what is in force
    assert late.poll() == (2, {"hang_timeout": 3.0, "fr_stacks": False})


def test_garbage_settings_file_is_ignored_and_the_cli_refuses_bad_input(tmp_path, capsys):
    rd = rundir.create(tmp_path / "run")
    ctl.settings_path(rd.root).write_text("{not json")
    assert ctl.read_settings(rd.root) == (0, {})
    assert cli.main(["ctl", str(rd.root), "set", "warp=9"]) == 2
    assert "unknown setting 'warp'" in capsys.readouterr().err
    assert cli.main(["ctl", str(tmp_path / "missing"), "show"]) == 2
    assert cli.main(["ctl", str(rd.root), "set"]) == 2
    assert ctl.settings_path(rd.root).read_text() == "{not json"  # refused: nothing written
    assert cli.main(["ctl", str(rd.root), "set", "phase_timing=off"]) == 0
    assert cli.main(["ctl", str(rd.root), "show"]) == 0
    assert "version 1: phase_timing=off" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_live_hang_timeout_change_takes_effect_without_a_restart(run_dir: Path):
    cmd = [
        sys.executable,
        "-m",
        "nonstop.cli",
        "run",
        "--quiet",
        "--nproc-per-node",
        "2",
        "--run-dir",
        str(run_dir),
        "--no-self-test",
        "--hang-timeout",
        "60",
        "--inject",
        "hang@step=300,rank=1,how=sigstop",
        "-m",
        "nonstop.workloads.llama.train",
        *TINY,
        "--steps",
        "400",
        "--checkpoint-every",
        "100",
    ]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as p:
        deadline = time.monotonic() + 120
        while last_step(run_dir) < 20 and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.2)
        assert cli.main(["ctl", str(run_dir), "set", "hang_timeout=3", "phase_timing=off"]) == 0
        out, _ = p.communicate(timeout=200)
    assert p.returncode == 0, out
    applied = out.index("settings v1 applied: hang_timeout=3.0 phase_timing=off")
    # the running attempt's watchdog judged the hang by the new setting, not by the 60 s it
    # started with: the detection says which timeout it applied (no wall-time bound)
    detected = out.index("hang detected after ")
    assert "(timeout 3.0 s, explicit): rank 1" in out[detected:], out[detected:][:300]
    assert applied < detected
    ((attempt, kind, rank, stalled_from, detected_at),) = rows(
        run_dir,
        "SELECT attempt, kind, rank, last_progress_time, detection_time FROM detections"
        " WHERE kind = 'hang'",
    )
    assert (attempt, kind, rank) == (0, "hang", 1)
    reason, applied_at = rows(
        run_dir, "SELECT reason, time FROM actions WHERE action = 'reconfigure' ORDER BY time"
    )[0]
    assert "hang_timeout=3.0" in reason and "[settings v1]" in reason
    # in order: the change was applied, then the rank stopped, then the hang was called
    assert applied_at <= stalled_from < detected_at, (applied_at, stalled_from, detected_at)
    # the ranks applied theirs: step events after `reconfigured` carry no per-phase seconds
    # but compute's (straggler detection reads it)
    events, _ = read_events(run_dir / "events/attempt-0/rank-0.jsonl")
    at = next(e.time for e in events if e.payload.get("phase") == "reconfigured")
    before = [e.payload for e in events if e.kind == "step" and e.payload["end"] < at]
    after = [e.payload for e in events if e.kind == "step" and e.payload["start"] > at]
    assert before and all("compute_s" in pl and "optimizer_s" in pl for pl in before)
    assert after and not any("optimizer_s" in pl for pl in after)
    assert all("compute_s" in pl for pl in after)
    # the next attempt started with the settings in force
    events1, _ = read_events(run_dir / "events/attempt-1/rank-0.jsonl")
    assert any(e.payload.get("phase") == "reconfigured" for e in events1)


def test_a_rank_applies_its_share_at_the_watchers_tick(tmp_path):
    from nonstop.runtime import Runtime
    from nonstop.runtime.telemetry import TelemetrySampler
    from nonstop.supervisor.bootstrap import Watcher

    rd = rundir.create(tmp_path / "run")
    rt = Runtime(run_dir=rd.root, run_id="run", attempt=0, rank=0, world_size=1, host="h")
    rt.telemetry = TelemetrySampler(rt, interval_s=5.0, host=False)  # not started
    watcher = Watcher(rt)
    watcher.apply_settings()
    assert (rt.fr_stacks, rt.phase_timing, rt.telemetry.interval_s) == (True, True, 5.0)
    ctl.write_settings(rd.root, {"fr_stacks": False, "telemetry_s": 0.5, "hang_timeout": 9.0})
    watcher.apply_settings()
    assert (rt.fr_stacks, rt.phase_timing, rt.telemetry.interval_s) == (False, True, 0.5)
    rt.close()
    events, _ = read_events(rd.events(0, 0))
    (ev,) = [e for e in events if e.payload.get("phase") == "reconfigured"]
    assert ev.payload["version"] == 1 and ev.payload["settings"]["fr_stacks"] is False
