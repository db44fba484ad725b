"""A DDP script in the style of the PyTorch DDP tutorial (ddp_tutorial.py) under torchrun and
under `nonstop run`: fault-free (three times, so that an exit-time race shows), a crash
(SIGKILL of rank 1 at step 20) and a hang (SIGSTOP of rank 1 at step 20; under nonstop run in
the restarted attempt of the same run), each compared with torchrun on the same script: exit
code, final loss, the ranks' console lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.clients import Ran, nonstop, torchrun

EPOCHS = 3
STUCK_S = 12.0
PER_EPOCH = r"\[rank\d\] Epoch \d \| steps 8 \| loss [\d.]+"


def args(d: Path) -> list[str]:
    d.mkdir(parents=True, exist_ok=True)
    return [str(EPOCHS), "1", str(d / "snapshot.pt")]


# one worker for the module under xdist: `clean`, the torchrun reference, runs once
pytestmark = pytest.mark.xdist_group("ddp_tutorial")


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Ran:
    """The fault-free torchrun run both tests compare with (run once)."""
    d = tmp_path_factory.mktemp("clean")
    ref = torchrun("ddp_tutorial.py", args(d), d)
    assert ref.completed, ref.out[-3000:]
    return ref


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_fault_free_like_torchrun(tmp_path: Path, clean: Ran) -> None:
    ref = clean
    assert len(ref.lines(PER_EPOCH)) == 2 * EPOCHS
    for i in range(3):
        d = tmp_path / f"n{i}"
        ours = nonstop("ddp_tutorial.py", args(d), d)
        assert ours.code == 0, ours.out[-3000:]
        assert ours.final_loss == ref.final_loss
        assert ours.lines(PER_EPOCH) == ref.lines(PER_EPOCH)  # the same console, every rank
        assert ours.lines(r"final loss [\d.]+") == ref.lines(r"final loss [\d.]+")


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_crash_and_hang_like_torchrun_and_better(tmp_path: Path, clean: Ran) -> None:
    # a crash: torchrun with one restart resumes from the epoch-2 snapshot and ends exactly
    # where the fault-free run ends
    theirs = torchrun(
        "ddp_tutorial.py", args(tmp_path / "tc"), tmp_path / "tc", fault="crash@20", restarts=1
    )
    # a hang: torchrun waits on the stopped rank (gloo's 30 min timeout); still there 12 s
    # later, after nonstop run's 10 s hang timeout below
    stuck = torchrun(
        "ddp_tutorial.py",
        args(tmp_path / "th"),
        tmp_path / "th",
        fault="hang@20",
        restarts=1,
        stuck=("client fault: hang", STUCK_S),
    )
    assert "client fault: hang at step 20 on rank 1" in stuck.out, stuck.out[-3000:]
    assert stuck.code is None and stuck.final_loss is None, stuck.out[-3000:]
    # nonstop run, one run for both: the crash, then the hang at the same step of the restarted
    # attempt, detected; each time it resumes from the snapshot, and it ends where the
    # fault-free run ends
    ours = nonstop(
        "ddp_tutorial.py",
        args(tmp_path / "nc"),
        tmp_path / "nc",
        fault="crash@20,hang@20@1",
        flags=("--hang-timeout", "10"),
    )
    assert theirs.completed and ours.code == 0, (theirs.out + ours.out)[-3000:]
    for r in (theirs, ours):
        assert "client fault: crash at step 20 on rank 1" in r.out
        assert "Resuming training from snapshot at epoch 2" in r.out
        assert r.final_loss == clean.final_loss
    assert "attempt 0 failed" in ours.out and "rank 1" in ours.out
    assert "client fault: hang at step 20 on rank 1" in ours.out and "hang detected" in ours.out
    assert "attempt 1 failed" in ours.out, ours.out[-3000:]
    print(
        f"\nddp tutorial: the crash-then-hang run took {ours.wall_s:.1f} s under nonstop run "
        f"(fault-free under torchrun: {clean.wall_s:.1f} s); torchrun still stuck "
        f"{STUCK_S:.0f} s after the hang"
    )
