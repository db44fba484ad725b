"""A checkpoint its own attempt's anomaly made suspect is never loaded (single process)."""

from __future__ import annotations

import torch

from nonstop.checkpoint import CheckpointConfig, Checkpointer
from nonstop.checkpoint import commit as cm
from nonstop.runtime import guards


def model_state():
    torch.manual_seed(0)
    m = torch.nn.Linear(4, 2)
    return {"model": m, "optimizer": torch.optim.SGD(m.parameters(), lr=0.1)}


def test_rollback_loads_the_newest_checkpoint_before_the_anomaly(tmp_path, monkeypatch):
    monkeypatch.setenv("NONSTOP_ATTEMPT", "0")
    seen = []
    with Checkpointer(
        tmp_path,
        config=CheckpointConfig(async_save=False, keep_last=5),
        verify=lambda s: seen.append(s) or "00ff",
    ) as ck:
        state = model_state()
        for step in (5, 10, 15):
            ck.save(step, state)
    assert seen == [5, 10, 15]  # verified before every save
    assert cm.read_marker(ck.storage, 10).fingerprint == "00ff"
    assert cm.read_marker(ck.storage, 10).attempt == 0
    # the guards of attempt 0 saw a NaN at step 11 (0-based): checkpoint 15 holds its aftermath
    guards.write_anomaly(tmp_path, {"kind": "nan", "attempt": 0, "step": 11})
    monkeypatch.setenv("NONSTOP_ATTEMPT", "1")
    with Checkpointer(tmp_path, config=CheckpointConfig(async_save=False)) as ck:
        assert ck.load_latest(model_state()) == 10
        assert any("nan anomaly of attempt 0" in why for _, why in ck.last_load.skipped)
        ck.save(15, model_state())  # the re-run's own checkpoint of step 15 is good
    with Checkpointer(tmp_path, config=CheckpointConfig(async_save=False)) as ck:
        assert ck.load_latest(model_state()) == 15
