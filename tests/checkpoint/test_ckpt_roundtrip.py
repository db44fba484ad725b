"""Single-process save/load: round trip, async staging, atomic visibility, events, safety."""

from __future__ import annotations

import io
import json
import pickle
import random
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import numpy as np
import pytest
import torch
from torch import nn
from torch.distributed.checkpoint.metadata import TensorStorageMetadata

from nonstop.checkpoint import CheckpointConfig, Checkpointer, LocalStorage
from nonstop.checkpoint.commit import committed_steps
from nonstop.checkpoint.staging import Stager
from nonstop.checkpoint.state import classify, collect
from nonstop.checkpoint.storage import SafeReader
from nonstop.errors import UserError
from nonstop.events import EventWriter, read_events


class Position:
    """A data pipeline position with the Stateful protocol."""

    def __init__(self) -> None:
        self.epoch, self.index = 0, 0

    def state_dict(self) -> dict[str, Any]:
        return {"epoch": self.epoch, "index": self.index, "order": (3, 1, 2)}

    def load_state_dict(self, sd: dict[str, Any]) -> None:
        assert sd["order"] == (3, 1, 2)  # tuples survive the JSON skeleton
        self.epoch, self.index = sd["epoch"], sd["index"]


def make(seed: int) -> dict[str, Any]:
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(5, 7), nn.Dropout(0.1), nn.Linear(7, 2))
    opt = torch.optim.AdamW(model.parameters(), lr=0.05)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
    return {
        "model": model,
        "optimizer": opt,
        "lr_scheduler": sched,
        "data": Position(),
        "extras": {},
    }


def train(state: dict[str, Any], steps: int) -> None:
    model, opt = state["model"], state["optimizer"]
    for _ in range(steps):
        loss = model(torch.randn(4, 5)).pow(2).mean() + float(np.random.rand()) * random.random()
        opt.zero_grad()
        loss.backward()
        opt.step()
        state["lr_scheduler"].step()
        state["data"].index += 4
    state["extras"].update(note="hi", inf=float("inf"), counts={1: 2}, arr=np.arange(3))


def test_round_trip_restores_everything_including_rng(tmp_path: Path) -> None:
    state = make(0)
    train(state, 3)
    ckpt = Checkpointer(tmp_path, config=CheckpointConfig(async_save=False))
    result = ckpt.save(3, state)
    assert result is not None and result.ok and result.bytes > 0
    after = (random.random(), float(np.random.rand()), torch.rand(3))
    params = {k: v.clone() for k, v in state["model"].state_dict().items()}
    ckpt.close()

    fresh = make(1)
    random.seed(5)
    ckpt2 = Checkpointer(tmp_path)
    assert ckpt2.load_latest(fresh) == 3
    ckpt2.close()
    for k, v in fresh["model"].state_dict().items():
        assert torch.equal(v, params[k]), k
    assert fresh["optimizer"].state_dict()["state"][0]["step"] == 3
    assert fresh["optimizer"].param_groups[0]["lr"] == state["optimizer"].param_groups[0]["lr"]
    assert fresh["lr_scheduler"].state_dict() == state["lr_scheduler"].state_dict()
    assert (fresh["data"].epoch, fresh["data"].index) == (0, 12)
    ex = fresh["extras"]
    assert ex["note"] == "hi" and ex["inf"] == float("inf") and ex["counts"] == {1: 2}
    assert np.array_equal(ex["arr"], np.arange(3)) and ex["arr"].dtype == np.arange(3).dtype
    assert random.random() == after[0]
    assert float(np.random.rand()) == after[1]
    assert torch.equal(torch.rand(3), after[2])


def test_no_checkpoint_starts_at_zero(tmp_path: Path) -> None:
    with Checkpointer(tmp_path) as ckpt:
        assert ckpt.load_latest(make(0)) == 0
        assert ckpt.last_load is not None and ckpt.last_load.step is None


class GatedStorage(LocalStorage):
    """Writes wait for `gate`: a save stays in flight until the test opens it."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.gate = threading.Event()

    @contextmanager
    def open_write(self, key: str) -> Iterator[IO[bytes]]:
        assert self.gate.wait(30), "the test never opened the gate"
        with super().open_write(key) as f:
            yield f


def test_async_save_blocks_only_for_staging_and_is_invisible_until_committed(
    tmp_path: Path,
) -> None:
    state = make(0)
    storage = GatedStorage(tmp_path / "ckpt")
    events = EventWriter(tmp_path / "ev.jsonl", run_id="r", attempt=0, rank=0, host="h")
    ckpt = Checkpointer(
        tmp_path, config=CheckpointConfig(every_steps=1), storage=storage, events=events
    )
    assert ckpt.maybe_save(1, state)  # returns while the write is held at the gate
    snapshot = {k: v.clone() for k, v in state["model"].state_dict().items()}
    train(state, 1)  # training goes on: optimizer.step() waits for the copy, not the write
    assert not torch.equal(state["model"][0].weight, snapshot["0.weight"])
    assert committed_steps(storage) == []  # nothing visible while writing
    assert not ckpt.maybe_save(2, state)  # due, but one save is in flight: deferred
    storage.gate.set()
    first = ckpt.wait()
    assert first is not None and first.ok and first.step == 1
    assert ckpt.maybe_save(3, state)  # the deferred save happens at the next step
    ckpt.close()
    assert committed_steps(storage) == [3, 1]

    fresh = make(1)
    ckpt2 = Checkpointer(tmp_path, storage=LocalStorage(tmp_path / "ckpt"))
    # step 3 holds the trained values; check the staged snapshot through step 1 explicitly
    storage.remove("step-3")
    assert ckpt2.load_latest(fresh) == 1
    ckpt2.close()
    for k, v in fresh["model"].state_dict().items():
        assert torch.equal(v, snapshot[k]), k

    events.close()
    recs = [e.payload for e in read_events(tmp_path / "ev.jsonl")[0] if e.kind == "checkpoint"]
    phases = [(r["step"], r["phase"]) for r in recs]
    assert phases == [
        (1, "begin"),
        (1, "staged"),
        (1, "committed"),
        (3, "begin"),
        (3, "staged"),
        (3, "committed"),
    ]
    committed = recs[2]
    assert committed["bytes"] > 0 and committed["total_s"] >= committed["blocking_s"] >= 0
    assert committed["path"].endswith("step-1")


def test_synchronous_mode_commits_before_returning(tmp_path: Path) -> None:
    ckpt = Checkpointer(tmp_path, config=CheckpointConfig(every_steps=2, async_save=False))
    state = make(0)
    assert not ckpt.maybe_save(1, state)
    assert ckpt.maybe_save(2, state)
    assert committed_steps(ckpt.storage) == [2]
    assert ckpt.history[-1].ok
    ckpt.close()


def test_checkpoint_holds_tensors_only_and_metadata_unpickling_is_restricted(
    tmp_path: Path,
) -> None:
    ckpt = Checkpointer(tmp_path, config=CheckpointConfig(async_save=False))
    ckpt.save(1, make(0))
    ckpt.close()
    storage = LocalStorage(tmp_path / "checkpoints")
    md = SafeReader(storage, "step-1").read_metadata()
    assert all(isinstance(m, TensorStorageMetadata) for m in md.state_dict_metadata.values())

    class Evil:
        def __reduce__(self) -> Any:
            return (print, ("pwned",))

    (tmp_path / "checkpoints" / "evil").mkdir()
    (tmp_path / "checkpoints" / "evil" / ".metadata").write_bytes(pickle.dumps(Evil()))
    with pytest.raises(pickle.UnpicklingError, match=r"builtins\.print"):
        SafeReader(storage, "evil").read_metadata()


def test_unsupported_state_is_a_user_error(tmp_path: Path) -> None:
    with Checkpointer(tmp_path, config=CheckpointConfig(async_save=False)) as ckpt:
        with pytest.raises(UserError, match="cannot checkpoint a BytesIO"):
            ckpt.save(1, {"extras": {"f": io.BytesIO()}})
        with pytest.raises(UserError, match="two modules"):
            ckpt.save(1, {"a": nn.Linear(1, 1), "b": nn.Linear(1, 1)})
        with pytest.raises(UserError, match="not allowed"):
            ckpt.save(1, {"_x": {}})


def test_commit_marker_records_checksums_and_metadata(tmp_path: Path) -> None:
    with Checkpointer(
        tmp_path, config=CheckpointConfig(async_save=False), run_config={"lr": 1}
    ) as c:
        c.save(7, make(0))
    marker = json.loads((tmp_path / "checkpoints" / "step-7" / "COMMIT.json").read_text())
    assert marker["step"] == 7 and marker["world_size"] == 1 and len(marker["config_hash"]) == 64
    assert ".metadata" in marker["files"]
    assert marker["hash"] == "crc32-64m"  # the manifest names its checksum
    assert all(len(f["digest"]) >= 8 for f in marker["files"].values())
    assert marker["entries"] == ["data", "extras", "lr_scheduler", "model", "optimizer"]


def _as_legacy_sha256_marker(folder: Path) -> None:
    """Rewrite a checkpoint's COMMIT.json as nonstop wrote it before the marker named its hash:
    version 1, a sha256 per file, no `hash`."""
    import hashlib

    marker = json.loads((folder / "COMMIT.json").read_text())
    for name, f in marker["files"].items():
        f.pop("digest")
        f["sha256"] = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    del marker["hash"]
    marker["version"] = 1
    (folder / "COMMIT.json").write_text(json.dumps(marker))


def test_a_sha256_checkpoint_of_an_older_nonstop_still_loads_and_is_verified(
    tmp_path: Path,
) -> None:
    state = make(0)
    train(state, 2)
    with Checkpointer(tmp_path, config=CheckpointConfig(async_save=False, keep_last=5)) as c:
        c.save(2, state)
        c.save(4, state)
    _as_legacy_sha256_marker(tmp_path / "checkpoints" / "step-2")
    _as_legacy_sha256_marker(tmp_path / "checkpoints" / "step-4")
    with open(tmp_path / "checkpoints" / "step-4" / "__0_0.distcp", "r+b") as f:
        f.seek(100)
        byte = f.read(1)
        f.seek(100)
        f.write(bytes([byte[0] ^ 1]))
    fresh = make(1)
    with Checkpointer(tmp_path) as c:
        assert c.load_latest(fresh) == 2  # step 4 fails its sha256 check, step 2 passes
        assert c.last_load is not None
        (where, why), *_ = c.last_load.skipped
    assert where == "step-4" and "fails its sha256 check" in why
    for k, v in fresh["model"].state_dict().items():
        assert torch.equal(v, state["model"].state_dict()[k]), k


def test_a_marker_naming_an_unknown_hash_is_refused_clearly(tmp_path: Path) -> None:
    with Checkpointer(tmp_path, config=CheckpointConfig(async_save=False)) as c:
        c.save(3, make(0))
    path = tmp_path / "checkpoints" / "step-3" / "COMMIT.json"
    marker = json.loads(path.read_text())
    marker["hash"] = "blake3"
    path.write_text(json.dumps(marker))
    with Checkpointer(tmp_path) as c:
        assert c.load_latest(make(1)) == 0
        assert c.last_load is not None
        (where, why), *_ = c.last_load.skipped
    assert where == "step-3" and "'blake3' is not one this nonstop knows" in why


def _zip_crcs(data: bytes) -> list[int]:
    """The CRC-32 of every record in a zip's central directories (a .distcp holds one zip, as
    torch.save writes it, per tensor)."""
    import struct

    out, at = [], data.find(b"PK\x01\x02")
    while at >= 0:
        out.append(struct.unpack_from("<I", data, at + 16)[0])
        at = data.find(b"PK\x01\x02", at + 4)
    return out


def test_torch_saves_own_crc_is_skipped_in_checkpoint_files_only(tmp_path: Path) -> None:
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint import FileSystemReader

    from nonstop.checkpoint.hashing import _torch_crc_off

    state = make(0)
    with Checkpointer(tmp_path, config=CheckpointConfig(keep_last=1)) as c:
        c.save(1, state, wait=True)
    crcs = _zip_crcs((tmp_path / "checkpoints" / "step-1" / "__0_0.distcp").read_bytes())
    assert crcs and not any(crcs)  # our crc32-64m covers these bytes; torch.load never checks
    mine = io.BytesIO()
    torch.save(torch.arange(10.0), mine)
    assert all(_zip_crcs(mine.getvalue()))  # this thread's own torch.save is untouched
    seen: dict[str, bool] = {}

    def other() -> None:
        seen["other"] = torch.serialization.get_crc32_options()

    with _torch_crc_off():
        seen["writer"] = torch.serialization.get_crc32_options()
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == {"writer": False, "other": True}
    assert torch.serialization.get_crc32_options()
    # still a DCP checkpoint: plain dcp.load reads it
    weight = state["model"].state_dict()["0.weight"]
    loaded = {"model/0.weight": torch.empty_like(weight)}
    reader = FileSystemReader(tmp_path / "checkpoints" / "step-1")
    dcp.load(loaded, storage_reader=reader, no_dist=True)
    assert torch.equal(loaded["model/0.weight"], weight)


@pytest.mark.parametrize("backward", [True, False])
@pytest.mark.parametrize("size", [0, 1, 1023, 1024, 1025, 5000])
def test_file_checksum_from_the_mapping_equals_the_streamed_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int, backward: bool
) -> None:
    from nonstop.checkpoint import digest

    monkeypatch.setattr(digest, "CHUNK", 1024)  # chunk boundaries without 64 MiB files
    monkeypatch.setattr(digest, "BACKWARD", backward)  # either order: the same checksums
    data = bytes(random.Random(size).getrandbits(8) for _ in range(size))
    path = tmp_path / "f.bin"
    path.write_bytes(data)
    want = digest.of(data, digest.CRC32_64M)
    assert want.count(",") == max(0, -(-size // 1024) - 1)
    assert digest.of_file(path, digest.CRC32_64M) == want
    assert digest.of_file(path, digest.CRC32_64M, threads=1) == want


def test_the_file_is_asked_of_the_disk_ahead_of_the_hash_once_per_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file not in memory streams: every chunk is asked for (MADV_WILLNEED) once, ahead of
    its hash, never marked first to reclaim (MADV_SEQUENTIAL: a load's second pass read the
    file from the disk again), from the file's end (the load's read pass, from its start, then
    finds the most recently read pages first)."""
    import mmap

    from nonstop.checkpoint import digest

    page = mmap.PAGESIZE
    monkeypatch.setattr(digest, "CHUNK", 2 * page)
    advice: list[tuple[int, int, int]] = []

    class Recording(mmap.mmap):
        def madvise(self, option: int, start: int = 0, length: int = 0) -> None:
            advice.append((option, start, length))
            super().madvise(option, start, length)

    monkeypatch.setattr(digest.mmap, "mmap", Recording)
    data = random.Random(1).randbytes(10 * 2 * page + 100)  # 11 chunks, the last short
    path = tmp_path / "f.bin"
    path.write_bytes(data)
    assert digest.of_file(path, digest.CRC32_64M, threads=2) == digest.of(data, digest.CRC32_64M)
    populated = sorted((s, n) for o, s, n in advice if o == digest.MADV_POPULATE_READ)
    asked = [(o, s, n) for o, s, n in advice if o != digest.MADV_POPULATE_READ]
    assert {o for o, _, _ in asked} == {mmap.MADV_WILLNEED}
    starts = [s for _, s, _ in asked]
    assert sorted(starts) == [i * 2 * page for i in range(11)]
    assert starts[:4] == [i * 2 * page for i in (10, 9, 8, 7)]  # asked in order, end first
    assert max(s + n for _, s, n in asked) == len(data)  # the short last chunk too
    # and each chunk read in before it is touched (a bad sector is then an error, not SIGBUS:
    # test_ckpt_bad_sector.py), after a probe of the first page
    chunks = [(i * 2 * page, min(len(data), (i + 1) * 2 * page) - i * 2 * page) for i in range(11)]
    assert populated == sorted([(0, page), *chunks])


@pytest.fixture
def crc_impl() -> Iterator[Any]:
    """digest.use_crc32, restored to the default (isal where installed) afterwards."""
    from nonstop.checkpoint import digest

    yield digest.use_crc32
    digest.use_crc32()


def test_isal_is_the_default_crc32_and_gives_zlibs_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, crc_impl: Any
) -> None:
    from nonstop.checkpoint import digest

    assert digest.CRC32_IMPL == "isal"  # a dependency: installed with nonstop
    monkeypatch.setattr(digest, "CHUNK", 1024)
    rng = random.Random(7)
    data = bytes(rng.getrandbits(8) for _ in range(5000))
    (tmp_path / "f.bin").write_bytes(data)
    seen = {}
    for impl in ("isal", "zlib"):
        assert crc_impl(impl) == impl == digest.CRC32_IMPL
        h = digest.Hasher(digest.CRC32_64M)
        for a, b in ((0, 1), (1, 1023), (1023, 2049), (2049, 5000)):  # across chunk edges
            h.update(memoryview(data)[a:b])
        on_file = digest.of_file(tmp_path / "f.bin", digest.CRC32_64M)
        seen[impl] = (h.hexdigest(), digest.of(data), on_file)
        assert len(set(seen[impl])) == 1, seen
    assert seen["isal"] == seen["zlib"]
    assert seen["zlib"][0].split(",")[0] == f"{zlib.crc32(data[:1024]):08x}"
    with pytest.raises(ValueError, match="unknown CRC-32 implementation 'crc64'"):
        crc_impl("crc64")


@pytest.mark.parametrize(("writer", "reader"), [("zlib", "isal"), ("isal", "zlib")])
def test_a_checkpoint_verifies_across_crc32_implementations_and_a_flip_is_caught(
    tmp_path: Path, crc_impl: Any, writer: str, reader: str
) -> None:
    state = make(0)
    train(state, 2)
    crc_impl(writer)
    with Checkpointer(tmp_path, config=CheckpointConfig(async_save=False, keep_last=5)) as c:
        c.save(2, state)
        c.save(4, state)
    with open(tmp_path / "checkpoints" / "step-4" / "__0_0.distcp", "r+b") as f:
        f.seek(200)
        byte = f.read(1)
        f.seek(200)
        f.write(bytes([byte[0] ^ 0x10]))
    crc_impl(reader)
    fresh = make(1)
    with Checkpointer(tmp_path) as c:
        assert c.load_latest(fresh) == 2  # step 4 fails its check, step 2 verifies
        assert c.last_load is not None
        (where, why), *_ = c.last_load.skipped
    assert where == "step-4" and "crc32-64m check" in why
    for k, v in fresh["model"].state_dict().items():
        assert torch.equal(v, state["model"].state_dict()[k]), k


def test_without_isal_the_checksums_fall_back_to_zlib_with_the_same_values() -> None:
    import subprocess
    import sys

    code = (
        "import sys, zlib; sys.modules['isal'] = None\n"
        "from nonstop.checkpoint import digest\n"
        "data = bytes(range(256)) * 1000\n"
        "print(digest.CRC32_IMPL, digest.of(data) == f'{zlib.crc32(data):08x}')\n"
        "try:\n    digest.use_crc32('isal')\nexcept ValueError as e:\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    ).stdout.splitlines()
    assert out == ["zlib True", "isal is not installed (pip install isal)"]


def test_optimizer_step_waits_for_the_background_copy() -> None:
    state = make(0)
    train(state, 1)
    opt = state["optimizer"]
    stager = Stager(pin_memory=False)
    flat = collect(classify(state), step=1, rank=0, world_size=1)
    before = {k: v.clone() for k, v in flat.items()}
    finish = stager.begin(flat, [opt], overlap=True)  # parameters and moments not copied yet
    stepper = threading.Thread(target=train, args=(state, 1))
    stepper.start()  # its optimizer.step() must wait for finish()
    staged = finish()
    stepper.join(30)
    stager.close()
    assert not torch.equal(state["model"][0].weight, before["model/0.weight"])
    for k, v in staged.items():
        assert torch.equal(v, before[k]), k


def test_collect_with_one_optimizer_equals_the_separate_dcp_calls() -> None:
    """One optimizer: collect asks DCP once (get_state_dict) instead of twice; the flat dict is
    the same keys and tensors, and a list of plain scalars (Python's RNG state) encodes as the
    general encoder would, element by element."""
    from torch.distributed.checkpoint.state_dict import (
        get_model_state_dict,
        get_optimizer_state_dict,
    )

    from nonstop.checkpoint.state import flatten, rng_state

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model(torch.randn(5, 4)).sum().backward()
    opt.step()
    got = collect(classify({"model": model, "optimizer": opt}), step=1, rank=0, world_size=1)
    want = {
        **flatten("model", get_model_state_dict(model))[1],
        **flatten("optimizer", get_optimizer_state_dict(model, opt))[1],
    }
    for k, t in want.items():
        assert torch.equal(got[k], t), k
    rng = rng_state()["python"]
    skeleton, _ = flatten("r", {"python": rng, "mixed": [1, "a", None, True, 2.5, (3, 4)]})
    assert skeleton["python"] == {"__tuple__": [rng[0], {"__tuple__": list(rng[1])}, rng[2]]}
    assert skeleton["mixed"] == [1, "a", None, True, 2.5, {"__tuple__": [3, 4]}]


def _dcp_flat(model: nn.Module, opt: torch.optim.Optimizer) -> dict[str, Any]:
    from torch.distributed.checkpoint.state_dict import get_state_dict

    from nonstop.checkpoint.state import flatten

    model_sd, opt_sd = get_state_dict(model, opt)
    return {**flatten("model", model_sd)[1], **flatten("optimizer", opt_sd)[1]}


def _same_as_dcp(got: dict[str, Any], model: nn.Module, opt: torch.optim.Optimizer) -> None:
    want = _dcp_flat(model, opt)
    mine = {k: v for k, v in got.items() if k.startswith(("model/", "optimizer/"))}
    assert mine.keys() == want.keys()
    for k, t in want.items():
        assert torch.equal(mine[k], t), k


def test_a_plan_reads_what_dcp_would_step_after_step_and_relearns_when_tensors_change() -> None:
    """state.Plan: DCP is asked once; later calls read the live tensors and the optimizer's
    groups (the learning rate changes every step) and give what DCP would, byte for byte. A
    parameter given new memory (`.data =`) sends the next call to DCP again."""
    from nonstop.checkpoint.state import Plan

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3), nn.Linear(3, 2))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 1.0 / (s + 1))
    entries = classify({"model": model, "optimizer": opt})
    plan = Plan()
    for step in range(1, 5):
        model(torch.randn(5, 4)).sum().backward()
        opt.step()
        opt.zero_grad()
        sched.step()
        got = collect(entries, step=step, rank=0, world_size=1, plan=plan)
        _same_as_dcp(got, model, opt)
    assert plan.usable and plan.misses == 1
    model[0].weight.data = model[0].weight.data.clone()  # new memory: the plan is stale
    got = collect(entries, step=5, rank=0, world_size=1, plan=plan)
    _same_as_dcp(got, model, opt)
    assert plan.misses == 2 and plan.usable
    assert got["model/0.weight"].data_ptr() == model[0].weight.data_ptr()


class _Counted(nn.Linear):
    """A module with extra state (not a tensor): DCP's answer is not only live tensors."""

    def __init__(self) -> None:
        super().__init__(2, 2)
        self.seen = 0

    def get_extra_state(self) -> dict[str, int]:
        return {"seen": self.seen}

    def set_extra_state(self, state: dict[str, int]) -> None:
        self.seen = state["seen"]


def test_a_plan_that_would_not_reproduce_dcp_asks_dcp_every_time() -> None:
    from nonstop.checkpoint.state import Plan

    model = _Counted()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    entries = classify({"model": model, "optimizer": opt})
    plan = Plan()
    for step in range(1, 4):
        model(torch.randn(3, 2)).sum().backward()
        opt.step()
        model.seen = step
        got = collect(entries, step=step, rank=0, world_size=1, plan=plan)
        _same_as_dcp(got, model, opt)
    assert not plan.usable and plan.misses == 3


@pytest.mark.parametrize("commit_ok", [True, False])
def test_a_commit_that_landed_is_kept_when_telling_the_other_ranks_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, commit_ok: bool
) -> None:
    """Rank 0 commits, then the collective that tells the other ranks fails (a peer died right
    after the commit): the checkpoint is complete on storage and the next start loads it, so
    rank 0 records it committed, not failed (a cluster CI run of 2026-12-05 loaded a step its
    ledger said had failed). A commit that did not land stays a failure."""
    torch.manual_seed(0)
    model = nn.Linear(8, 8)
    state = {"model": model}
    with Checkpointer(tmp_path, config=CheckpointConfig()) as ckpt:

        def peer_gone(value: dict[str, Any]) -> dict[str, Any]:
            raise RuntimeError("Connection reset by peer")

        monkeypatch.setattr(ckpt.coord, "outcome", peer_gone)
        if not commit_ok:
            monkeypatch.setattr(ckpt, "_commit", lambda *a, **k: {"ok": False, "error": "EIO"})
        result = ckpt.save(4, state, wait=True)
    assert result is not None and result.ok == commit_ok
    assert committed_steps(LocalStorage(tmp_path / "checkpoints")) == ([4] if commit_ok else [])
    if not commit_ok:
        assert "Connection reset by peer" in (result.error or "")
