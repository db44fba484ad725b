"""A PyTorch Lightning Trainer(strategy="ddp") on 2 CPU processes (lightning_ddp.py) under
torchrun and under `nonstop run`: fault-free, a crash (SIGKILL of rank 1 at step 12) and a hang
(SIGSTOP of rank 1 at step 12). Lightning resumes from its last.ckpt (step 10) in both; the
recovered hang ends with the loss torchrun reaches after the crash at the same step."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.clients import nonstop, torchrun

pytest.importorskip("lightning")

STEPS = "20"


def args(d: Path) -> list[str]:
    d.mkdir(parents=True, exist_ok=True)
    return [STEPS, str(d / "ckpt")]


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_lightning_like_torchrun(tmp_path: Path) -> None:
    ref = torchrun("lightning_ddp.py", args(tmp_path / "t"), tmp_path / "t")
    ours = nonstop("lightning_ddp.py", args(tmp_path / "n"), tmp_path / "n")
    for r in (ref, ours):
        assert r.code == 0, r.out[-3000:]
        assert "final loss" in r.out and "at step 20" in r.out
    assert ours.final_loss == ref.final_loss
    # Lightning's own lines, from every rank, as torchrun shows them
    same = (
        r"Initializing distributed: GLOBAL_RANK: \d, MEMBER: \d/2|\[rank: \d\] Seed set to 0|"
        r"`Trainer.fit` stopped: `max_steps=20` reached"
    )
    assert ours.lines(same) == ref.lines(same) and len(ref.lines(same)) >= 5

    crashed = torchrun("lightning_ddp.py", args(tmp_path / "tc"), tmp_path / "tc",
                       fault="crash@12", restarts=1)  # fmt: skip
    ours = nonstop("lightning_ddp.py", args(tmp_path / "nc"), tmp_path / "nc", fault="crash@12")
    for r in (crashed, ours):
        assert r.code == 0, r.out[-3000:]
        assert "client fault: crash at step 12 on rank 1" in r.out
        assert "Restoring states from the checkpoint path" in r.out
    assert ours.final_loss == crashed.final_loss

    ours = nonstop("lightning_ddp.py", args(tmp_path / "nh"), tmp_path / "nh", fault="hang@12",
                   flags=("--hang-timeout", "10"))  # fmt: skip
    assert ours.code == 0, ours.out[-3000:]
    assert "hang detected" in ours.out and "Restoring states from the checkpoint path" in ours.out
    assert ours.final_loss == crashed.final_loss
