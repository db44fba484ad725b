"""Time-keyed faults on a script that never imports nonstop, under a real `nonstop run`
(2 gloo ranks, real signals): each fault happens and is logged once, or it is not logged
and the rank says why.

    .venv/bin/pytest tests/test_faults_e2e.py -m slow
"""

from __future__ import annotations

import re
import textwrap

import pytest
from support import nonstop_run, rows, unmodified, write_script

pytestmark = pytest.mark.slow


@pytest.mark.timeout(480)
def test_time_keyed_faults_fire_on_an_unmodified_script(tmp_path):
    script = write_script(tmp_path, unmodified(160))
    run_dir = tmp_path / "run"
    inject = [
        "hang@after=3,rank=0,how=sleep",  # attempt 0: the main thread sleeps forever
        "exception@after=3,rank=1,attempt=1",  # raised in the main thread by a signal
        "hang@after=3,rank=1,how=collective,attempt=2",  # a receive nobody matches
        "slow@after=1,for=2,rank=0,factor=2,attempt=3",  # pauses, then the run finishes
        "crash@step=2,rank=0,attempt=3",  # no steps in this script: never fires, says why
        "diskfull@after=1,rank=1,attempt=3",  # nothing saves through nonstop: never fires
    ]
    r = nonstop_run(
        [
            "--nproc-per-node",
            "2",
            "--run-dir",
            str(run_dir),
            "--hang-timeout",
            "4",
            "--no-self-test",
            "--max-restarts",
            "5",
            *[x for s in inject for x in ("--inject", s)],
            str(script),
        ],
        timeout=400,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    # the injector's log, as ingested: exactly the faults that happened, once each
    logged = rows(
        run_dir,
        "SELECT attempt, rank, message FROM errors "
        "WHERE message LIKE 'injected %' ORDER BY attempt",
    )
    got = sorted((a, rk, m.split("(")[-1].rstrip(")")) for a, rk, m in logged)
    assert got == [(0, 0, inject[0]), (1, 1, inject[1]), (2, 1, inject[2]), (3, 0, inject[3])]
    # and the supervisor saw each of the three that end an attempt, on the right rank
    found = rows(
        run_dir,
        "SELECT attempt, kind, rank FROM detections WHERE kind != 'straggler' ORDER BY attempt",
    )
    hangs = [(a, rk) for a, k, rk in found if k == "hang"]
    assert hangs == [(0, 0), (2, 1)], found
    assert (1, "exit", 1) in found, found  # its peer may exit too (gloo: connection closed)
    causes = rows(
        run_dir,
        "SELECT attempt, rank, category FROM failures WHERE root_cause = 1 ORDER BY attempt",
    )
    assert [(a, rk) for a, rk, _ in causes] == [(0, 0), (1, 1), (2, 1)], causes
    assert causes[1][2] == "user_code_error"
    # what never fired says so, in the rank's log and as a lifecycle event
    log0 = (run_dir / "logs/attempt-3/rank-0.log").read_text()
    assert f"{inject[4]} never fired on rank 0: this script reports no steps" in log0
    log1 = (run_dir / "logs/attempt-3/rank-1.log").read_text()
    assert f"{inject[5]} never fired on rank 1: nothing saved through" in log1
    notes = rows(run_dir, "SELECT attempt, rank FROM lifecycle WHERE phase = 'fault_not_fired'")
    assert sorted(notes) == [(3, 0), (3, 1)]


OWN_LOOP = textwrap.dedent(
    """
    import torch
    import nonstop.runtime as ns
    from nonstop.checkpoint import CheckpointConfig, Checkpointer

    rt = ns.init()
    model = torch.nn.Linear(4, 4)
    ckpt = Checkpointer(rt.run_dir, config=CheckpointConfig(every_steps=2), events=rt)
    state = {"model": model}
    for step in range(ckpt.load_latest(state), 12):
        with rt.step(step):
            model.weight.data.add_(1.0)
        ckpt.maybe_save(step + 1, state)
        ckpt.wait()
    ckpt.close()
    rt.close()
    """
)


@pytest.mark.timeout(360)
def test_a_full_disk_hits_any_script_that_saves_through_the_checkpointer(tmp_path):
    script = tmp_path / "own_loop.py"  # not the demo workload: its own training loop
    script.write_text(OWN_LOOP)
    run_dir = tmp_path / "run"
    spec = "diskfull@step=3,rank=0,to=7"
    r = nonstop_run(
        ["--nproc-per-node", "1", "--run-dir", str(run_dir), "--inject", spec, str(script)],
        timeout=280,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    saves = rows(run_dir, "SELECT step, phase, error FROM checkpoints ORDER BY step, phase")
    failed = [s for s, phase, err in saves if phase == "failed" and "No space" in (err or "")]
    committed = [s for s, phase, _ in saves if phase == "committed"]
    assert failed and all(3 < s <= 7 for s in failed), saves  # only while the disk was full
    assert max(committed) > max(failed), saves  # healed at step 7: training went on, saved
    logged = rows(run_dir, "SELECT message FROM errors WHERE message LIKE 'injected %'")
    assert [m for (m,) in logged] == [
        f"injected diskfull at the first refused checkpoint write on rank 0 ({spec})"
    ]
    # nonstop's own lines in the rank's log say where they come from (nonstop.log)
    log0 = (run_dir / "logs/attempt-0/rank-0.log").read_text()
    assert re.search(
        r"^nonstop\[host \S+ attempt 0 rank 0\] nonstop\.faults: injected diskfull", log0, re.M
    ), log0[-2000:]
    assert run_dir.stat().st_mode & 0o777 == 0o700  # docs/security.md: the owner's only
    assert (run_dir / "config.json").stat().st_mode & 0o077 == 0
