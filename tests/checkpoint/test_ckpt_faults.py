"""Failures: corrupt and torn checkpoints on load, a full disk while saving, retention."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path
from typing import Any

import torch
from torch import nn

from nonstop.checkpoint import CheckpointConfig, Checkpointer, FaultyStorage, LocalStorage
from nonstop.checkpoint.commit import committed_steps, to_delete
from nonstop.events import EventWriter, read_events


def make(seed: int) -> dict[str, Any]:
    torch.manual_seed(seed)
    model = nn.Linear(6, 4)
    return {"model": model, "optimizer": torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)}


def step(state: dict[str, Any]) -> None:
    state["model"](torch.randn(3, 6)).sum().backward()
    state["optimizer"].step()
    state["optimizer"].zero_grad()


def saved_at(tmp_path: Path, steps: list[int], **cfg: Any) -> dict[int, dict[str, torch.Tensor]]:
    """Train and save synchronously at `steps`; the parameters as of each save."""
    state = make(0)
    params = {}
    with Checkpointer(
        tmp_path, config=CheckpointConfig(async_save=False, keep_last=10, **cfg)
    ) as c:
        for s in range(1, max(steps) + 1):
            step(state)
            if s in steps:
                assert c.save(s, state).ok  # type: ignore[union-attr]
                params[s] = {k: v.clone() for k, v in state["model"].state_dict().items()}
    return params


def load(tmp_path: Path) -> tuple[int, Checkpointer, dict[str, Any]]:
    state = make(1)
    ckpt = Checkpointer(tmp_path)
    got = ckpt.load_latest(state)
    ckpt.close()
    return got, ckpt, state


def test_bit_flip_falls_back_to_the_previous_checkpoint_and_says_why(tmp_path: Path) -> None:
    params = saved_at(tmp_path, [2, 4])
    victim = tmp_path / "checkpoints" / "step-4" / "__0_0.distcp"
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0x10
    victim.write_bytes(bytes(data))

    got, ckpt, state = load(tmp_path)
    assert got == 2
    assert ckpt.last_load is not None
    (where, why), *_ = ckpt.last_load.skipped
    assert where == "step-4" and "crc32-64m check" in why and "__0_0.distcp" in why
    assert any("moved to step-4.corrupt" in m for m in ckpt.last_load.messages)
    assert (tmp_path / "checkpoints" / "step-4.corrupt").is_dir()
    for k, v in state["model"].state_dict().items():
        assert torch.equal(v, params[2][k])


def test_torn_checkpoint_without_marker_is_ignored(tmp_path: Path) -> None:
    saved_at(tmp_path, [3])
    base = tmp_path / "checkpoints"
    shutil.copytree(base / "step-3", base / "step-9")
    (base / "step-9" / "COMMIT.json").unlink()  # the writer died before the commit
    (base / "step-11.tmp").mkdir()  # and another one mid-write
    got, ckpt, _ = load(tmp_path)
    assert got == 3
    assert ckpt.last_load is not None
    assert ("step-9", "no commit marker: the save never finished (torn)") in ckpt.last_load.skipped
    assert not (base / "step-11.tmp").exists()  # leftovers of unfinished saves are removed


def test_truncated_file_is_detected_without_hashing(tmp_path: Path) -> None:
    saved_at(tmp_path, [1, 2])
    victim = tmp_path / "checkpoints" / "step-2" / ".metadata"
    victim.write_bytes(victim.read_bytes()[:-5])
    got, ckpt, _ = load(tmp_path)
    assert got == 1
    assert ckpt.last_load is not None and "truncated" in ckpt.last_load.skipped[0][1]


def test_full_disk_while_saving_keeps_training_and_the_previous_checkpoint(tmp_path: Path) -> None:
    storage = FaultyStorage(tmp_path / "checkpoints")
    events = EventWriter(tmp_path / "ev.jsonl", run_id="r", attempt=0, rank=0, host="h")
    state = make(0)
    ckpt = Checkpointer(
        tmp_path, config=CheckpointConfig(every_steps=2), storage=storage, events=events
    )
    good: dict[str, torch.Tensor] = {}
    for s in range(1, 7):
        step(state)
        if s == 3:
            storage.arm(fail_after_bytes=100, err=errno.ENOSPC)  # the disk fills up
        if s == 5:
            ckpt.wait()
            storage.heal()
        if ckpt.maybe_save(s, state) and s == 2:
            good = {k: v.clone() for k, v in state["model"].state_dict().items()}
        ckpt.wait()  # make the outcome of each save visible before the next step
        if s == 4:
            assert committed_steps(storage) == [2]
            assert not storage.exists("step-4.tmp")  # the partial save gave its space back
            fresh = make(1)
            with Checkpointer(tmp_path, storage=LocalStorage(tmp_path / "checkpoints")) as c2:
                assert c2.load_latest(fresh) == 2
            for k, v in fresh["model"].state_dict().items():
                assert torch.equal(v, good[k])
    ckpt.close()
    assert [r.ok for r in ckpt.history] == [True, False, True]
    assert committed_steps(storage) == [6, 2]
    events.close()
    failed = [
        e.payload
        for e in read_events(tmp_path / "ev.jsonl")[0]
        if e.payload.get("phase") == "failed"
    ]
    assert len(failed) == 1 and failed[0]["step"] == 4
    assert "No space left on device" in failed[0]["error"]


def test_retention_keeps_last_k_plus_every_mth(tmp_path: Path) -> None:
    state = make(0)
    cfg = CheckpointConfig(every_steps=1, keep_last=2, keep_every=4, async_save=False)
    with Checkpointer(tmp_path, config=cfg) as ckpt:
        for s in range(1, 11):
            step(state)
            ckpt.maybe_save(s, state)
    assert committed_steps(ckpt.storage) == [10, 9, 8, 4]


def test_retention_never_deletes_the_checkpoint_just_committed() -> None:
    # a stale, higher-numbered checkpoint from an abandoned attempt must not push out the new one
    assert to_delete([50, 30, 20], keep_last=1, keep_every=None, newest=30) == [20]
    assert to_delete([5, 4, 3, 2, 1], keep_last=2, keep_every=2, newest=5) == [1, 3]
    assert to_delete([7], keep_last=1, keep_every=None, newest=7) == []


def test_loading_from_several_folders_takes_the_newest_good_one_and_moves_nothing(
    tmp_path: Path,
) -> None:
    """Replica groups each write their own folder; a resume reads the newest good checkpoint of
    any of them. A corrupt one in another's folder is skipped, not moved (not ours)."""
    a, b = tmp_path / "g0", tmp_path / "g1"
    params_a = saved_at(a, [2, 4])
    saved_at(b, [6])
    victim = b / "checkpoints" / "step-6" / "__0_0.distcp"
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0x10
    victim.write_bytes(bytes(data))
    (b / "checkpoints" / "step-8.tmp").mkdir()  # another group's save in flight
    state = make(1)
    with Checkpointer(a) as ckpt:
        others = LocalStorage(b / "checkpoints")
        assert ckpt.load_latest(state, sources=[ckpt.storage, others]) == 4
        skipped = dict(ckpt.last_load.skipped)  # type: ignore[union-attr]
    assert any("step-6" in k and "corrupt" in v for k, v in skipped.items()), skipped
    for k, v in params_a[4].items():
        assert torch.equal(state["model"].state_dict()[k], v)
    assert (b / "checkpoints" / "step-6").is_dir() and (b / "checkpoints" / "step-8.tmp").is_dir()
    assert not list((b / "checkpoints").glob("*.corrupt"))
