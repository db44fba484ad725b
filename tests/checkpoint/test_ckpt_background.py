"""With NONSTOP_BACKGROUND_NICE, the thread that hands in-memory snapshots over runs below
training's CPU priority; the copies that optimizer steps wait for, and the durable writer, never
do (nonstop.checkpoint.background). By default nothing is lowered."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn

from nonstop.checkpoint import CheckpointConfig, Checkpointer, background
from nonstop.checkpoint.checkpointer import Checkpointer as CheckpointerClass
from nonstop.checkpoint.memory import MemoryReplicas
from nonstop.checkpoint.replica import ReplicaServer, new_token, publish
from nonstop.errors import UserError

pytestmark = pytest.mark.skipif(not hasattr(os, "setpriority"), reason="no per-thread nice")


def _nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def _snapshot_steps(run: Path, steps: int) -> None:
    """Train a small model `steps` steps with an in-memory snapshot at each, on node "solo"
    (NONSTOP_HOST) with its own replica server."""
    srv = ReplicaServer(token=new_token(), capacity_bytes=1 << 20).start()
    publish(run, "solo", srv)
    try:
        model = nn.Linear(8, 8)
        opt = torch.optim.AdamW(model.parameters(), lr=0.1)
        config = CheckpointConfig(every_steps=100, memory_every_steps=1)
        with Checkpointer(run, config=config) as ckpt:
            for step in range(1, steps + 1):
                model(torch.randn(2, 8)).sum().backward()
                opt.step()
                opt.zero_grad()
                ckpt.maybe_save(step, {"model": model, "optimizer": opt})
    finally:
        srv.stop()


def test_the_increment_defaults_to_none_and_refuses_what_is_not_a_nice_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NONSTOP_BACKGROUND_NICE", raising=False)
    assert background.nice_increment() == background.DEFAULT_NICE == 0
    monkeypatch.setenv("NONSTOP_BACKGROUND_NICE", " 0 ")
    assert background.nice_increment() == 0
    monkeypatch.setenv("NONSTOP_BACKGROUND_NICE", "19")
    assert background.nice_increment() == 19
    for bad in ("-1", "20", "ten", "1.5"):
        monkeypatch.setenv("NONSTOP_BACKGROUND_NICE", bad)
        with pytest.raises(UserError, match="NONSTOP_BACKGROUND_NICE"):
            background.nice_increment()


def test_the_pool_thread_runs_lowered_and_its_creator_does_not() -> None:
    own = _nice()
    with background.executor("test-lowered", 5) as pool:
        assert pool.submit(_nice).result() == min(19, own + 5)
    with background.executor("test-capped", 19) as pool:
        assert pool.submit(_nice).result() == 19
    with background.executor("test-unchanged", 0) as pool:
        assert pool.submit(_nice).result() == own
    assert _nice() == own


def test_the_durable_writer_keeps_training_priority(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It pickles and plans in Python, holding the GIL: lowered, it held training up
    (docs/checkpoint.md, "Writer priority")."""
    monkeypatch.setenv("NONSTOP_BACKGROUND_NICE", "7")
    own, seen = _nice(), []
    write = CheckpointerClass._write_and_commit

    def recording(self: Checkpointer, *args: Any) -> Any:
        seen.append(_nice())
        return write(self, *args)

    monkeypatch.setattr(CheckpointerClass, "_write_and_commit", recording)
    model = nn.Linear(64, 64)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with Checkpointer(tmp_path, config=CheckpointConfig()) as ckpt:
        ckpt.save(1, {"model": model, "optimizer": opt})
        result = ckpt.wait()
    assert result is not None and result.ok
    assert seen == [own]


def test_a_snapshot_copies_at_training_priority_and_hands_over_lowered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NONSTOP_HOST", "solo")
    monkeypatch.setenv("NONSTOP_BACKGROUND_NICE", "6")
    own, seen = _nice(), {}
    hand_over, finish_copy = MemoryReplicas._hand_over, MemoryReplicas._finish_copy

    def over(self: MemoryReplicas, *args: Any) -> Any:
        seen["hand_over"] = _nice()
        return hand_over(self, *args)

    def copy(self: MemoryReplicas, *args: Any) -> Any:
        seen["copy"] = _nice()
        return finish_copy(self, *args)

    monkeypatch.setattr(MemoryReplicas, "_hand_over", over)
    monkeypatch.setattr(MemoryReplicas, "_finish_copy", copy)
    _snapshot_steps(tmp_path, 2)
    assert seen == {"copy": own, "hand_over": min(19, own + 6)}


def test_by_default_the_hand_over_follows_the_copy_at_training_priority(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NONSTOP_HOST", "solo")
    monkeypatch.delenv("NONSTOP_BACKGROUND_NICE", raising=False)
    own, seen = _nice(), []
    hand_over = MemoryReplicas._hand_over

    def over(self: MemoryReplicas, *args: Any) -> Any:
        seen.append((_nice(), threading.current_thread().name))
        return hand_over(self, *args)

    monkeypatch.setattr(MemoryReplicas, "_hand_over", over)
    _snapshot_steps(tmp_path, 1)
    assert len(seen) == 1 and seen[0][0] == own
    assert seen[0][1].startswith("nonstop-replica_"), seen  # the copy's thread, not a second one
