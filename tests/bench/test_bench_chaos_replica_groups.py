"""Chaos in replica-group mode (benchmarks/chaos/replica_groups.py, rg_checks.py).

The schedule's contract runs in milliseconds; the slow test runs the quick schedule (a SIGKILL
in one group, torchft's Lighthouse SIGKILLed by the harness) against a fault-free reference,
requires every check to hold, then edits the real run's data (a step committed twice, a
group's final fingerprint, the ledger's record of the injected fault) and requires the checks
to fail on each.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks import bench_chaos_replica_groups as bench
from benchmarks.chaos import replica_groups as rg
from benchmarks.chaos.rg_checks import evaluate
from benchmarks.run import BENCHMARKS, REQUIRED


def test_schedule_spreads_every_kind_across_the_groups() -> None:
    for seed in range(6):
        s = rg.make_schedule(seed=seed)
        assert sorted(f.kind for f in s.faults) == sorted(rg.KINDS)
        steps = [f.step for f in s.faults]
        assert steps == sorted(steps) and steps[0] == 20
        gaps = [b - a for a, b in zip([*steps], [*steps[1:], s.steps], strict=True)]
        for f, g in zip(s.faults, gaps, strict=True):  # each group back before the next fault
            lo, hi = rg.HANG_GAP if f.kind == "sigstop" else rg.GAP
            assert lo <= g <= hi
        for g in range(s.groups):  # a group's faults end its attempts one after the other
            assert [f.attempt for f in s.faults if f.group == g] == list(
                range(sum(f.group == g for f in s.faults))
            )
    assert {f.group for seed in range(6) for f in rg.make_schedule(seed=seed).faults} == {-1, 0, 1}
    s = rg.make_schedule(seed=0, kinds=rg.QUICK_KINDS)
    (kill,) = [f for f in s.faults if f.kind == "sigkill"]
    assert (
        kill.spec() == f"crash@step={kill.step},group={kill.group},rank=0,attempt=0,signal=SIGKILL"
    )
    assert kill.group_spec() == f"crash@step={kill.step},rank=0,attempt=0,signal=SIGKILL"
    (lh,) = [f for f in s.faults if f.kind == "lighthouse_kill"]
    assert lh.spec() is None and s.injects() == [kill.spec()]  # the harness kills it, not a hook
    with pytest.raises(ValueError, match="unknown fault kind 'bitflip'"):
        rg.make_schedule(seed=0, kinds=["bitflip"])


def test_the_command_routes_faults_and_the_reference_has_none(tmp_path: Path) -> None:
    s = rg.make_schedule(seed=1)
    cmd = rg.command(s, tmp_path / "run")
    assert cmd[cmd.index("--replica-groups") + 1] == "2"
    assert [cmd[i + 1] for i, x in enumerate(cmd) if x == "--inject"] == s.injects()
    assert "--fault-tolerant" in cmd and cmd[cmd.index("--min-step-s") + 1] == str(rg.STEP_S)
    ref = rg.command(s, tmp_path / "ref", faults=False)
    assert "--inject" not in ref and "--min-step-s" not in ref
    assert ref[ref.index("--steps") + 1] == str(s.steps)
    assert "chaos-replica-groups" in BENCHMARKS


def _edit_events(path: Path, edit: Callable[[list[str]], list[str]]) -> None:
    lines = path.read_text().splitlines()
    path.write_text("\n".join(edit(lines)) + "\n")


@pytest.mark.slow
@pytest.mark.timeout(420)
def test_quick_schedule_passes_and_each_check_fails_on_edited_data(tmp_path: Path) -> None:
    s = rg.make_schedule(seed=0, kinds=rg.QUICK_KINDS)
    ref = rg.reference_run(s, tmp_path, timeout_s=150)
    record = rg.RGHarness(s, tmp_path, timeout_s=240).run()
    run = tmp_path / "run"
    out = evaluate(s, run, record, ref)
    assert out["passed"], json.dumps(out, indent=1, default=str)
    assert out["injected"] == 2 and out["recovered"] == 2 and not out["skipped"]
    assert out["lighthouse"]["kills"] == out["lighthouse"]["restarts"] == 1
    assert out["loss"]["relative_gap"] <= out["loss"]["tolerance"]
    assert bench.combine([out], load={})["passed"]
    assert not [k for k in REQUIRED if k not in bench.combine([out], load={})]

    def copy() -> Path:
        d = tmp_path / "edited"
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(run, d)
        return d

    # a step committed twice by group 0: its first committed step recorded again at the end
    d = copy()
    ev = d / "groups" / "g0" / "events" / "attempt-0" / "rank-0.jsonl"
    step = next(ln for ln in ev.read_text().splitlines() if '"kind":"step"' in ln
                and '"committed":true' in ln)  # fmt: skip
    _edit_events(ev, lambda lines: [*lines, step])
    bad = evaluate(s, d, record, ref)
    assert not bad["checks"]["no_step_twice"] and not bad["passed"]
    assert bad["report"]["steps_committed_twice"] == 1

    # group 1 ends with other parameters than group 0
    d = copy()
    (fin,) = [p for p in (d / "groups" / "g1" / "events").glob("attempt-*/rank-0.jsonl")
              if '"phase":"finished"' in p.read_text()]  # fmt: skip
    _edit_events(fin, lambda lines: [ln.replace('"state_sha256":"', '"state_sha256":"0')
                                     for ln in lines])  # fmt: skip
    bad = evaluate(s, d, record, ref)
    assert not bad["checks"]["fingerprints_equal"] and not bad["passed"]

    # the injected SIGKILL missing from its group's ledger: the ledger is not the injector
    d = copy()
    (g,) = [f.group for f in s.faults if f.kind == "sigkill"]
    conn = sqlite3.connect(d / "groups" / f"g{g}" / "ledger.db")
    with conn:
        conn.execute("DELETE FROM failures")
    conn.close()
    bad = evaluate(s, d, record, ref)
    assert not bad["checks"]["ledger_is_injector"] and not bad["passed"]
