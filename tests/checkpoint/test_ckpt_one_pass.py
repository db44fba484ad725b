"""Verified loads in one pass over the disk (docs/checkpoint.md, "Loading").

Where an older checkpoint is there to fall back on, the newest one's checksums are computed
while its tensors are read into the live state (threads hashing each file ahead of the copy),
and checked before anything else is put back; a checkpoint with nothing older is checked before
it touches anything. Whatever a failed one-pass
load overwrote, the fallback overwrites again, or the load refuses with a clear message.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn

from nonstop.checkpoint import (
    CheckpointConfig,
    Checkpointer,
    LocalStorage,
    commit,
    dcp_io,
    digest,
    reading,
)
from nonstop.errors import UserError


def make(seed: int) -> dict[str, Any]:
    torch.manual_seed(seed)
    model = nn.Linear(64, 32)
    return {
        "model": model,
        "optimizer": torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9),
        "data": {"position": 0},
    }


def train_and_save(tmp_path: Path, steps: list[int]) -> dict[int, dict[str, Any]]:
    """Train, saving at `steps`; what the state was at each save."""
    state = make(0)
    seen: dict[int, dict[str, Any]] = {}
    with Checkpointer(tmp_path, config=CheckpointConfig(async_save=False, keep_last=10)) as c:
        for s in range(1, max(steps) + 1):
            state["model"](torch.randn(3, 64)).sum().backward()
            state["optimizer"].step()
            state["optimizer"].zero_grad()
            state["data"]["position"] = 10 * s
            if s in steps:
                assert c.save(s, state).ok  # type: ignore[union-attr]
                seen[s] = {
                    "params": {k: v.clone() for k, v in state["model"].state_dict().items()},
                    "position": 10 * s,
                }
    return seen


def flip(tmp_path: Path, step: int, where: float = 0.5) -> None:
    victim = tmp_path / "checkpoints" / f"step-{step}" / "__0_0.distcp"
    data = bytearray(victim.read_bytes())
    data[int(len(data) * where)] ^= 0x10
    victim.write_bytes(bytes(data))


def spy_reads_and_hashes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records, in order, each data file's read into the state (start and end) and each
    checksum begun, with its direction. A read waits (at most 10 s) for a checksum to have
    begun: a hash that runs beside the read starts it; one that runs only after the read
    makes the read record that it waited in vain."""
    calls: list[str] = []
    begun = threading.Event()
    real_read, real_digest = reading.read_into, commit.digest_of

    def read(*args: Any, **kwargs: Any) -> int:
        calls.append("read" if begun.wait(10) else "read, no hash running")
        out = real_read(*args, **kwargs)
        calls.append("read done")
        return out

    def digest(
        storage: Any, key: str, algorithm: str, *, forward: bool = False, pace: Any = None
    ) -> str:
        calls.append(f"hash {key}{' forward' if forward else ''}{' paced' if pace else ''}")
        begun.set()
        return real_digest(storage, key, algorithm, forward=forward, pace=pace)

    monkeypatch.setattr(dcp_io, "read_into", read)
    monkeypatch.setattr(commit, "digest_of", digest)
    return calls


def test_with_an_older_checkpoint_the_newest_is_hashed_while_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = train_and_save(tmp_path, [2, 4])
    calls = spy_reads_and_hashes(monkeypatch)
    state = make(1)
    with Checkpointer(tmp_path) as c:
        assert c.load_latest(state) == 4
    assert "read" in calls and "read, no hash running" not in calls, calls
    hashed = [x for x in calls if x.startswith("hash")]
    assert hashed and all(
        x.startswith("hash step-4/") and x.endswith(" forward paced") for x in hashed
    )
    assert state["data"]["position"] == seen[4]["position"]
    for k, v in state["model"].state_dict().items():
        assert torch.equal(v, seen[4]["params"][k])


def test_a_lone_checkpoint_is_hashed_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    train_and_save(tmp_path, [3])
    calls = spy_reads_and_hashes(monkeypatch)
    with Checkpointer(tmp_path) as c:
        assert c.load_latest(make(1)) == 3
    first_read = calls.index("read")
    hashed = [i for i, x in enumerate(calls) if x.startswith("hash step-3/")]
    assert hashed and max(hashed) < first_read, calls  # every checksum done before the read
    assert not any(" forward" in x for x in calls)  # from the end, as it always was


def test_a_lone_corrupt_checkpoint_never_touches_the_state(tmp_path: Path) -> None:
    train_and_save(tmp_path, [3])
    flip(tmp_path, 3)
    state, before = make(1), make(1)
    with Checkpointer(tmp_path) as c:
        assert c.load_latest(state) == 0
        assert c.last_load is not None and "crc32-64m check" in c.last_load.skipped[0][1]
    for k, v in state["model"].state_dict().items():
        assert torch.equal(v, before["model"].state_dict()[k])  # still the fresh model
    assert state["data"] == {"position": 0}


def test_a_corrupt_newest_read_in_one_pass_leaves_exactly_the_older_state(
    tmp_path: Path,
) -> None:
    """The corrupt step's tensors were copied into the live model and optimizer before its
    checksum failed; the fallback overwrites every one of them, and the per-rank state (the
    data position) is never taken from the corrupt step."""
    seen = train_and_save(tmp_path, [2, 4])
    flip(tmp_path, 4)
    state = make(1)
    with Checkpointer(tmp_path) as c:
        assert c.load_latest(state) == 2
        assert c.last_load is not None
        (where, why), *_ = c.last_load.skipped
    assert where == "step-4" and "crc32-64m check" in why
    assert (tmp_path / "checkpoints" / "step-4.corrupt").is_dir()
    assert state["data"]["position"] == seen[2]["position"]
    for k, v in state["model"].state_dict().items():
        assert torch.equal(v, seen[2]["params"][k])
    # the momentum buffers too: a second, fresh load of step 2 gives the same optimizer state
    again = make(1)
    with Checkpointer(tmp_path) as c:
        assert c.load_latest(again) == 2
    for p, q in zip(state["model"].parameters(), again["model"].parameters(), strict=True):
        buf = state["optimizer"].state[p]["momentum_buffer"]
        assert torch.equal(buf, again["optimizer"].state[q]["momentum_buffer"])


def test_a_header_too_damaged_to_read_is_corruption_not_a_changed_model(tmp_path: Path) -> None:
    """A flipped bit in an item's zip header makes the read itself fail: in one pass that is
    told apart from a state that does not fit by the checksum, and the older one loads."""
    seen = train_and_save(tmp_path, [2, 4])
    flip(tmp_path, 4, where=0.0)  # the first item's local header magic
    state = make(1)
    with Checkpointer(tmp_path) as c:
        assert c.load_latest(state) == 2
        assert c.last_load is not None and "crc32-64m check" in c.last_load.skipped[0][1]
    for k, v in state["model"].state_dict().items():
        assert torch.equal(v, seen[2]["params"][k])


def test_when_every_checkpoint_is_corrupt_the_overwritten_state_is_refused_loudly(
    tmp_path: Path,
) -> None:
    train_and_save(tmp_path, [2, 4])
    flip(tmp_path, 4)
    flip(tmp_path, 2)
    with Checkpointer(tmp_path) as c, pytest.raises(UserError) as e:
        c.load_latest(make(1))
    assert "step 4 failed after its tensors were read" in str(e.value)
    assert "crc32-64m check" in str(e.value)  # and why
    assert "run it again" in str(e.value)
    base = tmp_path / "checkpoints"
    assert (base / "step-4.corrupt").is_dir() and (base / "step-2.corrupt").is_dir()
    with Checkpointer(tmp_path) as c:  # and the next run starts cleanly from step 0
        assert c.load_latest(make(1)) == 0


def test_an_older_checkpoint_without_the_overwritten_optimizer_is_refused(tmp_path: Path) -> None:
    """The fallback must put back every live entry the corrupt read overwrote."""
    state = make(0)
    with Checkpointer(tmp_path, config=CheckpointConfig(async_save=False, keep_last=10)) as c:
        assert c.save(2, {"model": state["model"]}).ok  # type: ignore[union-attr]
        assert c.save(4, state).ok  # type: ignore[union-attr]
    flip(tmp_path, 4)
    with Checkpointer(tmp_path) as c, pytest.raises(UserError) as e:
        c.load_latest(make(1))
    assert "step 2, older, lacks optimizer" in str(e.value)


def test_a_checkpoint_in_another_groups_folder_is_hashed_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A corrupt checkpoint in another storage is not moved aside, so a failed one-pass load of
    it would be read again by every run after: it is checked first, and never touches the
    state."""
    a, b = tmp_path / "g0", tmp_path / "g1"
    seen = train_and_save(a, [2, 4])
    train_and_save(b, [6])
    flip(b, 6)
    calls = spy_reads_and_hashes(monkeypatch)
    state = make(1)
    with Checkpointer(a) as c:
        others = LocalStorage(b / "checkpoints")
        assert c.load_latest(state, sources=[c.storage, others]) == 4
    assert calls.count("read") == 1, calls  # step 6 was never read into the state
    first_read = calls.index("read")
    assert any(x.startswith("hash step-6/") for x in calls[:first_read]), calls
    assert not any(x.startswith("hash step-6/") and x.endswith(" forward") for x in calls), calls
    assert (b / "checkpoints" / "step-6").is_dir()  # not ours: left where it is
    for k, v in state["model"].state_dict().items():
        assert torch.equal(v, seen[4]["params"][k])


# -- the checksums paced to the copy (digest.Pace) ------------------------------------------


def _small_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """A 1 MiB file hashed in 64 KiB chunks (16), and its checksum hashed freely."""
    monkeypatch.setattr(digest, "CHUNK", 64 << 10)
    path = tmp_path / "data.distcp"
    path.write_bytes(os.urandom(1 << 20))
    return path, digest.of_file(path, digest.DEFAULT, backward=False)


def _hash_in_thread(path: Path, pace: digest.Pace) -> tuple[threading.Thread, list[str]]:
    out: list[str] = []
    t = threading.Thread(
        target=lambda: out.append(digest.of_file(path, digest.DEFAULT, backward=False, pace=pace)),
        daemon=True,
    )
    t.start()
    return t, out


def test_the_checksums_stay_within_their_lead_of_the_copy_and_agree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hashed freely, the checksum threads ran 1.5-2.5 GB ahead of the copy of a 4 GB file and
    a full page cache lost the pages before the copy came to them (the file read twice).
    Paced, no chunk is hashed further than the lead ahead of the copy: with the copy at the
    start, the hash stops after its lead; as the copy goes on, it follows, and its checksum
    is the one hashed freely."""
    path, free = _small_chunks(tmp_path, monkeypatch)
    lead = 3 * digest.CHUNK
    pace = digest.Pace(lead=lead)
    with open(path, "rb") as f:
        ident = digest.Pace.ident(f.fileno())
    started: list[int] = []
    real_wait = digest.Pace.wait

    def wait(self: digest.Pace, ident: tuple[int, int], start: int) -> None:
        real_wait(self, ident, start)
        with self._cond:
            started.append(start - self._copied[ident])  # how far ahead of the copy
        return None

    monkeypatch.setattr(digest.Pace, "wait", wait)
    pace.copying(ident, 0)  # the copy begins the file
    t, out = _hash_in_thread(path, pace)
    t.join(1.0)
    assert t.is_alive(), "the hash waits for the copy"
    assert len(started) <= 3 + (os.cpu_count() or 1), started  # its lead, and no more
    for at in range(0, (1 << 20) + 1, 64 << 10):
        pace.copying(ident, at)
        time.sleep(0.01)
    t.join(10.0)
    assert out == [free]
    assert max(started) < lead, started
    assert pace.waited_s > 0


def test_a_hash_is_never_held_by_a_copy_that_is_over_or_never_came(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the copy never said it reads (another rank's share) is hashed freely; `close`
    (the load returned or failed) frees a hash that waited; hashed from the end (a lone
    checkpoint, checked before it is read) nothing is paced."""
    path, free = _small_chunks(tmp_path, monkeypatch)
    assert digest.of_file(path, digest.DEFAULT, backward=False, pace=digest.Pace()) == free
    pace = digest.Pace(lead=digest.CHUNK)
    with open(path, "rb") as f:
        pace.copying(digest.Pace.ident(f.fileno()), 0)
    assert digest.of_file(path, digest.DEFAULT, backward=True, pace=pace) == free
    t, out = _hash_in_thread(path, pace)
    t.join(0.5)
    assert t.is_alive()
    pace.close()
    t.join(10.0)
    assert out == [free]


def test_a_one_pass_load_tells_the_checksums_where_its_copy_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checkpointer's one pass: the read-in reports its progress through each data file
    to the pace the checksums wait on, and ends each file (its whole size) when done."""
    train_and_save(tmp_path, [2, 4])
    reported: list[int] = []
    real = digest.Pace.copying

    def copying(self: digest.Pace, ident: tuple[int, int], upto: int) -> None:
        reported.append(upto)
        real(self, ident, upto)

    monkeypatch.setattr(digest.Pace, "copying", copying)
    with Checkpointer(tmp_path) as c:
        assert c.load_latest(make(1)) == 4
    data = tmp_path / "checkpoints" / "step-4" / "__0_0.distcp"
    assert reported and reported[-1] == data.stat().st_size, reported


def test_the_lead_is_half_the_available_memory_and_never_under_its_floor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With memory to spare the hash runs ahead as far as the page cache can hold (half of
    MemAvailable); on a full host no further than LEAD_FLOOR; where /proc does not say, the
    floor."""
    monkeypatch.setattr(digest, "_available", lambda: 10 << 30)
    assert digest.Pace().lead == 5 << 30
    monkeypatch.setattr(digest, "_available", lambda: 100 << 20)
    assert digest.Pace().lead == digest.Pace.LEAD_FLOOR
    monkeypatch.setattr(digest, "_available", lambda: 0)
    assert digest.Pace().lead == digest.Pace.LEAD_FLOOR
    monkeypatch.undo()
    assert digest._available() > 0  # Linux: /proc/meminfo says
