"""How the background writer treats the host: the previous save's page cache is handed back
before the next save writes (docs/checkpoint.md, "Page cache")."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import torch
from torch import nn

from nonstop.checkpoint import CheckpointConfig, Checkpointer, LocalStorage


class LoggingStorage(LocalStorage):
    """Records, in order, the files opened for writing and the files whose cache is dropped."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.log: list[tuple[str, str]] = []

    @contextmanager
    def open_write(self, key: str) -> Iterator[IO[bytes]]:
        self.log.append(("write", key))
        with super().open_write(key) as f:
            yield f

    def drop_cache(self, key: str) -> None:
        self.log.append(("drop", key))
        super().drop_cache(key)


def _state() -> dict[str, object]:
    torch.manual_seed(0)
    model = nn.Linear(64, 64)
    return {"model": model, "optimizer": torch.optim.SGD(model.parameters(), lr=0.1)}


def test_previous_saves_pages_are_dropped_before_the_next_save_writes(tmp_path: Path) -> None:
    storage = LoggingStorage(tmp_path / "ckpt")
    ckpt = Checkpointer(tmp_path, config=CheckpointConfig(keep_last=2), storage=storage)
    state = _state()
    first = ckpt.save(1, state, wait=True)
    assert first is not None and first.ok
    assert not [k for op, k in storage.log if op == "drop"]  # nothing written before
    storage.log.clear()
    second = ckpt.save(2, state, wait=True)
    assert second is not None and second.ok
    ckpt.close()
    drops = [k for op, k in storage.log if op == "drop"]
    assert "step-1/__0_0.distcp" in drops and "step-1/.metadata" in drops
    assert all(k.startswith("step-1/") for k in drops)  # only what this rank wrote last time
    first_write = next(i for i, (op, k) in enumerate(storage.log) if k.startswith("step-2"))
    last_drop = max(i for i, (op, _) in enumerate(storage.log) if op == "drop")
    assert last_drop < first_write
    assert ckpt.load_latest(_state()) == 2  # the dropped pages are only a cache


def test_only_the_previous_saves_pages_are_dropped(tmp_path: Path) -> None:
    storage = LoggingStorage(tmp_path / "ckpt")
    ckpt = Checkpointer(tmp_path, config=CheckpointConfig(keep_last=2), storage=storage)
    state = _state()
    assert ckpt.save(1, state, wait=True).ok  # type: ignore[union-attr]
    ckpt.save(2, state, wait=True)  # drops step-1's pages
    storage.log.clear()
    ckpt.save(3, state, wait=True)
    ckpt.close()
    drops = {k for op, k in storage.log if op == "drop"}
    assert drops and all(k.startswith("step-2/") for k in drops)


def test_drop_cache_is_a_hint(tmp_path: Path) -> None:
    storage = LocalStorage(tmp_path)
    storage.drop_cache("missing.bin")  # no error
    with storage.open_write("f.bin") as f:
        f.write(b"x" * 10000)
    storage.drop_cache("f.bin")
    with storage.open_read("f.bin") as f:
        assert f.read() == b"x" * 10000


class RefusingStorage(LocalStorage):
    def drop_cache(self, key: str) -> None:
        raise OSError(5, "Input/output error")


def test_a_storage_whose_drop_fails_still_saves(tmp_path: Path) -> None:
    ckpt = Checkpointer(
        tmp_path, config=CheckpointConfig(keep_last=2), storage=RefusingStorage(tmp_path / "c")
    )
    state = _state()
    for step in (1, 2):
        result = ckpt.save(step, state, wait=True)
        assert result is not None and result.ok, result
    ckpt.close()


def test_pages_a_load_read_are_dropped_before_the_next_save_writes(tmp_path: Path) -> None:
    storage = LoggingStorage(tmp_path / "ckpt")
    with Checkpointer(tmp_path, config=CheckpointConfig(keep_last=3), storage=storage) as first:
        assert first.save(1, _state(), wait=True).ok  # type: ignore[union-attr]
    # a restart: a new Checkpointer loads step 1, then saves step 2
    ckpt = Checkpointer(tmp_path, config=CheckpointConfig(keep_last=3), storage=storage)
    state = _state()
    assert ckpt.load_latest(state) == 1
    storage.log.clear()
    assert ckpt.save(2, state, wait=True).ok  # type: ignore[union-attr]
    ckpt.close()
    drops = [k for op, k in storage.log if op == "drop"]
    assert "step-1/__0_0.distcp" in drops  # read by the load (verified and copied)
    assert all(k.startswith("step-1/") for k in drops)
    first_write = next(i for i, (op, k) in enumerate(storage.log) if k.startswith("step-2"))
    assert max(i for i, (op, _) in enumerate(storage.log) if op == "drop") < first_write


def test_pages_of_another_storage_a_load_read_are_not_dropped(tmp_path: Path) -> None:
    other = LocalStorage(tmp_path / "other" / "checkpoints")
    with Checkpointer(tmp_path / "other", config=CheckpointConfig(), storage=other) as c:
        assert c.save(4, _state(), wait=True).ok  # type: ignore[union-attr]
    storage = LoggingStorage(tmp_path / "ckpt")
    ckpt = Checkpointer(tmp_path, config=CheckpointConfig(), storage=storage)
    assert ckpt.load_latest(_state(), sources=[other]) == 4
    storage.log.clear()
    assert ckpt.save(5, _state(), wait=True).ok  # type: ignore[union-attr]
    ckpt.close()
    assert not [k for op, k in storage.log if op == "drop"]  # step-4 is not this storage's
