"""In-memory checkpoint replicas: the server, the blob, the choice, and real 2-rank recoveries.

.venv/bin/pytest tests/checkpoint/test_ckpt_replica.py -q
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn

from nonstop.checkpoint import CheckpointConfig, Checkpointer, digest
from nonstop.checkpoint.cadence import FIRST, MAX_EVERY
from nonstop.checkpoint.config import ENV_MEMORY_EVERY, ENV_REPLICAS
from nonstop.checkpoint.memory import Packer, choose, pack, ring_after, unpack
from nonstop.checkpoint.replica import (
    Channel,
    CorruptReplica,
    Key,
    Peer,
    ReplicaError,
    ReplicaServer,
    Unreachable,
    adopt,
    discover,
    get,
    list_entries,
    new_token,
    publish,
    put,
    unpublish,
)

WORKER = Path(__file__).with_name("replica_worker.py")
ROOT = Path(__file__).resolve().parents[2]
KEY = Key(rank=1, world_size=2, step=7, lineage="abc")


@pytest.fixture
def server() -> Iterator[ReplicaServer]:
    srv = ReplicaServer(token="secret", capacity_bytes=1000).start()
    yield srv
    srv.stop()


def peer(srv: ReplicaServer, token: str | None = None) -> Peer:
    host, port = srv.address
    return Peer(host, port, token or srv.token)


def put_bytes(p: Peer, key: Key, data: bytes) -> None:
    put(p, key, memoryview(data), digest.of(data), timeout_s=5)


def raw(srv: ReplicaServer, payload: bytes, *, close_early: bool = False) -> bytes:
    """Send raw bytes to the server; whatever it answers before closing."""
    with socket.create_connection(srv.address, timeout=5) as s:
        s.sendall(payload)
        if close_early:
            return b""
        chunks = []
        try:  # the server may answer and close before we are done sending: that is fine
            s.shutdown(socket.SHUT_WR)
            while chunk := s.recv(65536):
                chunks.append(chunk)
        except OSError:  # ENOTCONN, ECONNRESET: it hung up first
            pass
        return b"".join(chunks)


def frame(header: dict[str, Any]) -> bytes:
    data = json.dumps(header).encode()
    return struct.pack("!I", len(data)) + data


# -- the server -------------------------------------------------------------------------------


def test_put_get_list_and_replacement(server: ReplicaServer) -> None:
    p = peer(server)
    put_bytes(p, KEY, b"x" * 100)
    assert get(p, KEY) == bytearray(b"x" * 100)
    (entry,) = list_entries(p)
    assert entry.key == KEY and entry.size == 100
    newer = Key(rank=1, world_size=2, step=8, lineage="abc")
    put_bytes(p, newer, b"y" * 50)
    put_bytes(p, Key(rank=0, world_size=2, step=8, lineage="abc"), b"z")
    assert {(e.key.rank, e.key.step) for e in list_entries(p)} == {(1, 7), (1, 8), (0, 8)}
    put_bytes(p, Key(rank=1, world_size=2, step=9, lineage="abc"), b"v")
    assert {(e.key.rank, e.key.step) for e in list_entries(p)} == {(1, 7), (1, 8), (1, 9), (0, 8)}
    put_bytes(p, Key(rank=1, world_size=2, step=10, lineage="abc"), b"u")  # the three newest
    assert {(e.key.rank, e.key.step) for e in list_entries(p)} == {(1, 8), (1, 9), (1, 10), (0, 8)}
    with pytest.raises(ReplicaError, match="no such snapshot"):
        get(p, KEY)
    put_bytes(p, Key(rank=0, world_size=3, step=9, lineage="abc"), b"w")  # a new world size
    assert [e.key.world_size for e in list_entries(p)] == [3]
    assert server.store.held_bytes() == 1


def test_wrong_token_is_refused(server: ReplicaServer) -> None:
    put_bytes(peer(server), KEY, b"data")
    bad = peer(server, token="guess")
    for call in (
        lambda: put_bytes(bad, KEY, b"evil"),
        lambda: get(bad, KEY),
        lambda: list_entries(bad),
    ):
        with pytest.raises(ReplicaError, match="wrong token"):
            call()
    assert get(peer(server), KEY) == bytearray(b"data")


@pytest.mark.parametrize(
    "payload",
    [
        b"\x00",  # a truncated length
        struct.pack("!I", 10) + b"{",  # a truncated header
        struct.pack("!I", 1 << 30),  # a header too long to accept
        struct.pack("!I", 4) + b"\xff\xfe\x00\x01",  # not UTF-8
        frame({"op": "put"}),  # no token
        frame({"op": "list", "token": "secret", "x": [1] * 10}) + os.urandom(64),
        frame({"op": "fly", "token": "secret"}),
        frame({"op": "put", "token": "secret", **asdict(KEY), "digest": "0" * 8, "size": -5}),
        frame(
            {
                "op": "get",
                "token": "secret",
                "rank": "0",
                "world_size": 2,
                "step": 1,
                "lineage": "abc",
            }
        ),
        os.urandom(4096),
    ],
)
def test_garbage_does_not_kill_the_server(server: ReplicaServer, payload: bytes) -> None:
    raw(server, payload)
    raw(server, payload, close_early=True)
    put_bytes(peer(server), KEY, b"still serving")
    assert get(peer(server), KEY) == bytearray(b"still serving")


def test_truncated_body_and_bad_checksum_store_nothing(server: ReplicaServer) -> None:
    header = {"op": "put", "token": "secret", **asdict(KEY), "digest": "0" * 8, "size": 500}
    raw(server, frame(header) + b"only part of it")  # the client closes mid-body
    assert b"digest mismatch: received" in raw(server, frame(header) + b"a" * 500)
    assert server.entries() == [] and server.store.held_bytes() == 0  # reservations released


def test_capacity_is_enforced(server: ReplicaServer) -> None:
    p = peer(server)
    with pytest.raises(ReplicaError, match=r"replica server full.*capacity of 1000 bytes"):
        put_bytes(p, KEY, b"x" * 1001)
    put_bytes(p, KEY, b"x" * 600)
    # A replacement needs room for both until the new one is complete.
    with pytest.raises(ReplicaError, match="full"):
        put_bytes(p, Key(rank=1, world_size=2, step=8, lineage="abc"), b"y" * 600)
    put_bytes(p, Key(rank=1, world_size=2, step=8, lineage="abc"), b"y" * 400)
    assert server.store.held_bytes() == 1000  # both snapshots of the rank stay
    assert [e.key.step for e in server.entries()] == [KEY.step, 8]


def test_ranks_two_snapshots_apart_still_have_one_in_common(server: ReplicaServer) -> None:
    """The farthest apart a node's death can leave the ranks: rank 0's own server has its
    step 6 (its hand-over to its own node is fast), so rank 1 had begun to take step 5, which
    waited only for its step 4 to arrive; 5 is lost on the wire with the node. The survivor
    keeps three per rank, and the job resumes at 4. With two kept (until 2026-12-07: rank 0
    [5, 6], rank 1 [3, 4]) nothing was in common and the job restarted from storage."""
    from nonstop.checkpoint.memory import candidates

    p = peer(server)
    for step in range(1, 7):
        put_bytes(p, Key(rank=0, world_size=2, step=step, lineage="abc"), b"a" * 10)
    for step in range(1, 5):
        put_bytes(p, Key(rank=1, world_size=2, step=step, lineage="abc"), b"b" * 10)
    held = [
        [(e.key.step, e.key.lineage) for e in server.entries() if e.key.rank == r] for r in (0, 1)
    ]
    assert [sorted(s for s, _ in h) for h in held] == [[4, 5, 6], [2, 3, 4]]
    assert candidates(held, floor=0) == ([(4, "abc")], "")


def test_corrupt_snapshot_is_detected_by_the_client(server: ReplicaServer) -> None:
    put_bytes(peer(server), KEY, b"payload")
    server.flip_byte(KEY.rank, 3)
    with pytest.raises(CorruptReplica, match="digest mismatch"):
        get(peer(server), KEY)


def test_a_put_without_digest_is_hashed_by_the_server(server: ReplicaServer) -> None:
    """A rank's own node's server takes the digest of what it receives (no wire between)."""
    p = peer(server)
    put(p, KEY, memoryview(b"local bytes"), "", timeout_s=5)
    (entry,) = list_entries(p)
    assert entry.digest == digest.of(b"local bytes")
    assert get(p, KEY) == bytearray(b"local bytes")
    server.flip_byte(KEY.rank, 0)
    with pytest.raises(CorruptReplica, match="digest mismatch"):
        get(p, KEY)
    with pytest.raises(ReplicaError, match="digest must be a crc32-64m digest or empty"):
        put(p, KEY, memoryview(b"x"), "abc", timeout_s=5)


def test_adopt_keeps_a_shared_file_and_detects_its_corruption(server: ReplicaServer) -> None:
    """A rank on the server's host writes its snapshot into the shared folder and hands it
    over by name: nothing crosses the socket, and `get` still checks the sender's digest."""
    assert server.shared_dir is not None and server.shared_dir.is_dir()
    p = Peer(*server.address, server.token, str(server.shared_dir))
    (server.shared_dir / "r1-abc-0.snap").write_bytes(b"shared bytes and a tail")
    adopt(p, KEY, "r1-abc-0.snap", 12, digest.of(b"shared bytes"), timeout_s=5)
    assert get(p, KEY) == bytearray(b"shared bytes")  # its first `size` bytes
    server.flip_byte(KEY.rank, 2)
    with pytest.raises(CorruptReplica, match="digest mismatch"):
        get(p, KEY)
    for name, why in (("../x", "plain file name"), ("missing.snap", "cannot adopt")):
        with pytest.raises(ReplicaError, match=why):
            adopt(p, KEY, name, 1, digest.of(b"x"), timeout_s=5)
    with pytest.raises(ReplicaError, match="not a file of ours of >= 999"):
        adopt(p, KEY, "r1-abc-0.snap", 999, digest.of(b"x"), timeout_s=5)
    shared = server.shared_dir
    server.stop()
    assert not shared.exists()  # tmpfs outlives the process: the server removes its folder


def test_a_later_lineage_frees_the_files_of_the_one_before(server: ReplicaServer) -> None:
    """A restarted rank (a new lineage) replaces its snapshots; the old files are deleted
    once no longer held, while the current lineage's files stay for the sender to reuse."""
    assert server.shared_dir is not None
    p = Peer(*server.address, server.token, str(server.shared_dir))
    files = []
    for step, lineage in ((1, "old"), (2, "old"), (3, "new"), (4, "new"), (5, "new")):
        name = f"r1-{lineage}-{step % 4}.snap"
        (server.shared_dir / name).write_bytes(b"s" * 10)
        key = Key(rank=1, world_size=2, step=step, lineage=lineage)
        adopt(p, key, name, 10, digest.of(b"s" * 10), timeout_s=5)
        files.append(server.shared_dir / name)
    assert [e.key.step for e in server.entries()] == [3, 4, 5]  # the three newest
    assert [f.exists() for f in files] == [False, False, True, True, True]


def test_a_channel_keeps_one_connection_and_opens_it_again_when_the_server_closed_it() -> None:
    """A rank's adopts go over one kept connection (one server thread, not one per snapshot);
    one the server closed at its idle timeout is opened again once, transparently; a refusal
    is still a refusal, and a stopped server answers nothing on a kept connection either."""
    srv = ReplicaServer(token=new_token(), capacity_bytes=1 << 20, timeout_s=0.5).start()
    shared = srv.shared_dir
    assert shared is not None
    ch = Channel(Peer(*srv.address, srv.token, str(shared)), timeout_s=5)
    try:

        def hand_over(step: int, content: bytes = b"s" * 10) -> None:
            name = f"r1-abc-{step % 4}.snap"
            (shared / name).write_bytes(content)
            key = Key(rank=1, world_size=2, step=step, lineage="abc")
            ch.adopt(key, name, len(content), digest.of(content))

        hand_over(1)
        first = ch._sock
        for step in (2, 3):
            hand_over(step)
            assert ch._sock is first  # the same connection, request after request
        assert len(srv._open) == 1
        time.sleep(1.0)  # past the server's idle timeout: it closed its end
        assert not srv._open
        hand_over(4, b"t" * 10)
        assert ch._sock is not first
        assert [e.key.step for e in srv.entries()] == [2, 3, 4]
        with pytest.raises(ReplicaError, match="cannot adopt"):
            ch.adopt(Key(rank=1, world_size=2, step=5, lineage="abc"), "gone.snap", 1, "0" * 8)
        hand_over(5)
        srv.stop()  # its shared folder goes with it: the name no longer matters
        with pytest.raises(Unreachable):
            ch.adopt(Key(rank=1, world_size=2, step=6, lineage="abc"), "r1-abc-0.snap", 1, "0" * 8)
    finally:
        ch.close()
        srv.stop()


def test_a_stopped_server_is_unreachable() -> None:
    srv = ReplicaServer(token=new_token(), capacity_bytes=10).start()
    p = peer(srv)
    srv.stop()
    with pytest.raises(Unreachable, match="cannot reach"):
        list_entries(p, timeout_s=2)


def test_server_arguments_are_validated() -> None:
    with pytest.raises(ValueError, match="token"):
        ReplicaServer(token="", capacity_bytes=1)
    with pytest.raises(ValueError, match="capacity_bytes must be >= 1, got 0"):
        ReplicaServer(token="t", capacity_bytes=0)


def test_publish_discover_unpublish(
    tmp_path: Path, server: ReplicaServer, caplog: pytest.LogCaptureFixture
) -> None:
    path = publish(tmp_path, "node-a", server, host="10.1.2.3")
    assert path == tmp_path / "control" / "replicas" / "node-a.json"
    assert path.stat().st_mode & 0o777 == 0o600  # it holds the token
    (path.parent / "broken.json").write_text("{not json")
    with caplog.at_level(logging.WARNING, logger="nonstop.checkpoint"):
        shared = str(server.shared_dir or "")
        assert discover(tmp_path) == {
            "node-a": Peer("10.1.2.3", server.address[1], "secret", shared)
        }
    assert "broken.json" in caplog.text
    unpublish(tmp_path, "node-a")
    unpublish(tmp_path, "node-a")
    assert discover(tmp_path) == {}
    with pytest.raises(ValueError, match="node name"):
        publish(tmp_path, "../escape", server)


# -- the blob, the ring and the choice --------------------------------------------------------


def test_pack_unpack_roundtrip_and_rejections() -> None:
    flat = {
        "f": torch.randn(3, 5).t(),  # not contiguous
        "bf": torch.randn(7).to(torch.bfloat16),
        "b": torch.tensor([True, False, True]),
        "scalar": torch.tensor(3, dtype=torch.int64),
        "empty": torch.empty(0, 4),
        "u8": torch.arange(5, dtype=torch.uint8),
    }
    key = Key(rank=0, world_size=1, step=3, lineage="l")
    buf, blob = pack(flat, asdict(key), None)
    data = bytearray(blob.numpy().tobytes())
    got = unpack(data, key)
    assert got.keys() == flat.keys()
    for k, t in flat.items():
        assert got[k].dtype == t.dtype and torch.equal(got[k], t), k
    same, _ = pack(flat, asdict(key), buf)
    assert same is buf  # the buffer is reused
    with pytest.raises(ValueError, match="holds rank 0 step 3"):
        unpack(data, Key(rank=0, world_size=1, step=4, lineage="l"))
    with pytest.raises(ValueError, match="truncated"):
        unpack(data[:-64], key)
    with pytest.raises(ValueError, match="not a nonstop replica"):
        unpack(bytearray(b"garbage" * 10), key)


def test_a_packer_reuses_its_layout_step_after_step_and_relearns_a_new_one() -> None:
    """A Packer writing into a reused buffer step after step (the header's step changes, the
    values change, a JSON skeleton changes length) unpacks to the state of that step, without
    moving its layout or rebuilding the views of the tensors whose shape stayed; a tensor that
    outgrows its room (here the big one, which has none) lays the state out anew."""
    flat = {"w": torch.randn(256, 300), "m": torch.randn(4, 3).t(), "n": torch.tensor(7)}
    packer, buf, views = Packer(), None, None
    for step, skeleton in ((9, b"[1]"), (10, b"[1.5]"), (11, b"[1.25e-05]"), (1000, b"[2]")):
        key = Key(rank=1, world_size=2, step=step, lineage="l")
        flat["w"].add_(1.0)
        flat["j"] = torch.frombuffer(bytearray(skeleton), dtype=torch.uint8)
        buf, blob = packer.pack(flat, asdict(key), buf)
        assert packer.size(flat, asdict(key)) <= buf.numel()
        got = unpack(bytearray(blob.numpy().tobytes()), key)
        assert got.keys() == flat.keys()
        assert all(torch.equal(got[k], t) for k, t in flat.items()), step
        now = next(iter(packer._views.values()))
        if views is not None:
            assert now[0] is views[0] and now[1] is views[1]  # w and m: the same views
        views = list(now)
    flat["w"] = torch.randn(400, 300)  # a bigger state: a bigger buffer, the new layout
    key = Key(rank=1, world_size=2, step=1001, lineage="l")
    grown, blob = packer.pack(flat, asdict(key), buf)
    assert grown is not buf
    got = unpack(bytearray(blob.numpy().tobytes()), key)
    assert got["w"].shape == (400, 300) and torch.equal(got["w"], flat["w"])


def test_ring_and_choice() -> None:
    assert ring_after("b", ["a", "b", "c", "d"]) == ["c", "d", "a"]
    assert ring_after("z", ["a"]) == ["a"]
    assert choose([[(5, "x"), (4, "x")], [(5, "x")]], floor=3) == ((5, "x"), "")
    assert choose([[(5, "x")], [(5, "x")]], floor=5) == ((5, "x"), "")
    none, why = choose([[(5, "x")], []], floor=0)
    assert none is None and why == "no replica found for rank(s) 1"
    assert (
        "different steps or attempts (rank 0: [5]; rank 1: [4])"
        in choose([[(5, "x")], [(4, "x")]], floor=0)[1]
    )
    assert "different" in choose([[(5, "x")], [(5, "y")]], floor=0)[1]  # another attempt's
    assert choose([[(5, "x")], [(5, "x")]], floor=6)[1] == (
        "newest common replica (step 5) is older than storage's (6)"
    )


def test_config_fields_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_MEMORY_EVERY, raising=False)
    monkeypatch.delenv(ENV_REPLICAS, raising=False)
    assert CheckpointConfig().resolved_memory_every_steps() == 0
    assert CheckpointConfig().resolved_replicas() == 1
    monkeypatch.setenv(ENV_MEMORY_EVERY, "4")
    monkeypatch.setenv(ENV_REPLICAS, "2")
    assert CheckpointConfig().resolved_memory_every_steps() == 4
    assert CheckpointConfig().resolved_replicas() == 2
    assert CheckpointConfig(memory_every_steps=0, replicas=0).resolved_memory_every_steps() == 0
    monkeypatch.setenv(ENV_MEMORY_EVERY, "often")
    with pytest.raises(ValueError, match="NONSTOP_MEMORY_CKPT_EVERY must be an integer >= 0"):
        CheckpointConfig().resolved_memory_every_steps()
    with pytest.raises(ValueError, match="replicas must be an integer >= 0 or None, got -1"):
        CheckpointConfig(replicas=-1)


# -- one process: the Checkpointer with and without a server ---------------------------------


class Events:
    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def emit(self, kind: str, **payload: Any) -> None:
        self.seen.append({"kind": kind, **payload})


def _train(
    run: Path,
    steps: int,
    events: Events,
    *,
    width: int = 4,
    config: CheckpointConfig | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[nn.Module, Checkpointer]:
    torch.manual_seed(0)
    net = nn.Linear(width, 3 if width == 4 else width)
    opt = torch.optim.AdamW(net.parameters(), lr=0.1)
    config = config or CheckpointConfig(every_steps=3, memory_every_steps=2)
    ckpt = Checkpointer(run, config=config, events=events, clock=clock)
    for step in range(1, steps + 1):
        net(torch.randn(2, width)).sum().backward()
        opt.step()
        opt.zero_grad()
        ckpt.maybe_save(step, {"model": net, "optimizer": opt})
    ckpt.close()
    return net, ckpt


def _load(
    run: Path,
    events: Events | None,
    *,
    net: nn.Module | None = None,
    config: CheckpointConfig | None = None,
) -> tuple[nn.Module, Checkpointer]:
    net = net or nn.Linear(4, 3)
    opt = torch.optim.AdamW(net.parameters(), lr=0.1)
    config = config or CheckpointConfig(every_steps=3, memory_every_steps=2)
    ckpt = Checkpointer(run, config=config, events=events)
    ckpt.load_latest({"model": net, "optimizer": opt})
    ckpt.close()
    return net, ckpt


def test_single_process_memory_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NONSTOP_HOST", "solo")
    srv = ReplicaServer(token=new_token(), capacity_bytes=1 << 20).start()
    publish(tmp_path, "solo", srv)
    try:
        events = Events()
        trained, _ = _train(tmp_path, 4, events)
        replicated = [e for e in events.seen if e["phase"] == "replicated"]
        assert [e["step"] for e in replicated] == [2, 4]
        assert replicated[0]["targets"] == ["solo"] and replicated[0]["bytes"] > 0
        assert 0 <= replicated[0]["blocking_s"] <= replicated[0]["total_s"]
        loaded, ckpt = _load(tmp_path, events)
        assert ckpt.last_load is not None
        assert (ckpt.last_load.step, ckpt.last_load.source) == (4, "memory")
        assert ckpt.last_load.replica_from == "solo"
        assert events.seen[-1] == {
            "kind": "checkpoint",
            "phase": "loaded",
            "step": 4,
            "source": "memory",
            "replica_from": "solo",
            "load_s": ckpt.last_load.load_s,
        }
        for k, v in trained.state_dict().items():
            assert torch.equal(v, loaded.state_dict()[k]), k
    finally:
        srv.stop()


def test_without_a_server_snapshots_are_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("NONSTOP_HOST", "lonely")
    events = Events()
    with caplog.at_level(logging.INFO, logger="nonstop.checkpoint"):
        _train(tmp_path, 4, events)
        _, ckpt = _load(tmp_path, events)
    assert caplog.text.count("no replica server published for node lonely") == 2  # once each
    assert not [e for e in events.seen if e["phase"] == "replicated"]
    assert ckpt.last_load is not None
    assert (ckpt.last_load.step, ckpt.last_load.source) == (3, "storage")
    assert "in-memory replicas not used, loading from storage: no replica found for rank(s) 0" in (
        ckpt.last_load.messages
    )


def test_auto_measures_chooses_and_keeps_to_its_interval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`auto` snapshots every step while it measures, chooses once (a `cadence` event), then
    snapshots only at multiples of its choice, and a load finds the newest of those. The wall
    clock is slowed to a crawl (0.1 ms a call) so that the real CPU cost of a snapshot is far
    over 1% of a step: the choice must stretch the interval."""
    monkeypatch.setenv("NONSTOP_HOST", "solo")
    srv = ReplicaServer(token=new_token(), capacity_bytes=1 << 22).start()
    publish(tmp_path, "solo", srv)
    ticks = iter(range(10**9))
    try:
        events = Events()
        config = CheckpointConfig(every_steps=1000, memory_every_steps="auto")
        steps = 140
        _train(tmp_path, steps, events, width=64, config=config, clock=lambda: next(ticks) * 1e-4)
        chosen = [e for e in events.seen if e["phase"] == "cadence"]
        assert chosen and chosen[0]["step"] == FIRST, chosen
        assert all(1 < c["every"] <= MAX_EVERY for c in chosen), chosen
        assert all(c["snapshot_cpu_s"] > 0 and c["step_s"] > 0 for c in chosen)
        # every step before the first choice, then the multiples of the interval in force
        want = list(range(1, FIRST))
        for i, c in enumerate(chosen):
            until = chosen[i + 1]["step"] if i + 1 < len(chosen) else steps + 1
            want += [s for s in range(c["step"], until) if s % c["every"] == 0]
        replicated = [e["step"] for e in events.seen if e["phase"] == "replicated"]
        assert replicated == want, chosen
        _, ckpt = _load(tmp_path, None, net=nn.Linear(64, 64), config=config)
        assert ckpt.last_load is not None
        assert (ckpt.last_load.step, ckpt.last_load.source) == (replicated[-1], "memory")
    finally:
        srv.stop()


# -- real processes ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def launch(spec: dict[str, Any], env: dict[str, str] | None = None, timeout_s: float = 90) -> None:
    """Start one rank per entry of spec["nodes"] and wait; fail with their output on error."""
    port, world = _free_port(), len(spec["nodes"])
    procs = [
        subprocess.Popen(
            [sys.executable, str(WORKER), json.dumps(spec)],
            env={
                **os.environ,
                **(env or {}),
                "RANK": str(rank),
                "WORLD_SIZE": str(world),
                "MASTER_ADDR": "127.0.0.1",
                "MASTER_PORT": str(port),
                "OMP_NUM_THREADS": "1",
            },
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for rank in range(world)
    ]
    try:
        outputs = [(p.communicate(timeout=timeout_s)[0], p.returncode) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    bad = [(rank, rc, out[-3000:]) for rank, (out, rc) in enumerate(outputs) if rc != 0]
    assert not bad, f"worker(s) failed: {bad}"


def start_server(run: Path, node: str) -> subprocess.Popen[str]:
    """A node's replica server in its own process, published in the run directory."""
    proc = subprocess.Popen(
        [sys.executable, str(WORKER), "serve", str(run), node],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def train(run: Path, out: Path, nodes: list[str], *, steps: int, every: int) -> None:
    spec = {
        "scenario": "train",
        "run_dir": str(run),
        "out": str(out),
        "nodes": nodes,
        "seed": 1,
        "steps": steps,
        "every": every,
    }
    launch(spec, env={ENV_MEMORY_EVERY: "1", ENV_REPLICAS: "1"})  # as `nonstop run` sets them


def load(run: Path, out: Path, nodes: list[str]) -> list[dict[str, Any]]:
    """Load on every rank, from memory if possible, then from storage only; what each loaded."""
    launch({"scenario": "load", "run_dir": str(run), "out": str(out), "nodes": nodes, "seed": 9})
    return [json.loads((out / f"memory-{r}.json").read_text()) for r in range(len(nodes))]


def assert_same(out: Path, a: str, b: str, ranks: int = 2) -> None:
    for rank in range(ranks):
        x = torch.load(out / f"{a}-{rank}.pt", weights_only=True)
        y = torch.load(out / f"{b}-{rank}.pt", weights_only=True)
        assert x.keys() == y.keys()
        for k in x:
            assert torch.equal(x[k], y[k]), (a, b, rank, k)


def storage_record(out: Path, rank: int) -> dict[str, Any]:
    return dict(json.loads((out / f"storage-{rank}.json").read_text()))


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_memory_load_equals_durable_load(tmp_path: Path) -> None:
    run, out = tmp_path / "run", tmp_path
    servers = {
        n: ReplicaServer(token=new_token(), capacity_bytes=16 << 20).start()
        for n in ("node-a", "node-b")
    }
    try:
        for node, srv in servers.items():
            publish(run, node, srv)
        train(run, out, ["node-a", "node-b"], steps=6, every=3)  # durable 3 and 6, memory 1..6
        for srv in servers.values():  # each node holds its rank and its peer's
            assert sorted((e.key.rank, e.key.step) for e in srv.entries()) == [
                (0, 4),
                (0, 5),
                (0, 6),
                (1, 4),
                (1, 5),
                (1, 6),
            ]  # the three newest of each rank
        got = load(run, out, ["node-a", "node-b"])
    finally:
        for srv in servers.values():
            srv.stop()
    assert [(g["step"], g["source"], g["replica_from"]) for g in got] == [
        (6, "memory", "node-a"),
        (6, "memory", "node-b"),
    ]
    assert [storage_record(out, r)["source"] for r in (0, 1)] == ["storage", "storage"]
    assert storage_record(out, 0)["step"] == 6
    assert_same(out, "memory", "storage")
    assert_same(out, "memory", "trained")


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_losing_one_of_two_nodes_recovers_from_the_survivor(tmp_path: Path) -> None:
    run, out = tmp_path / "run", tmp_path
    procs = {n: start_server(run, n) for n in ("node-a", "node-b")}
    try:
        train(run, out, ["node-a", "node-b"], steps=6, every=3)
        procs["node-b"].send_signal(signal.SIGKILL)  # node-b is gone, with its memory
        procs["node-b"].wait()
        procs["node-c"] = start_server(run, "node-c")  # its replacement, empty
        got = load(run, out, ["node-a", "node-c"])
    finally:
        for p in procs.values():
            p.kill()
            p.communicate()  # reaps it and closes its pipe
    assert [(g["step"], g["source"], g["replica_from"]) for g in got] == [
        (6, "memory", "node-a"),
        (6, "memory", "node-a"),
    ]
    assert any("replica server of node-b not asked: cannot reach" in m for m in got[1]["messages"])
    assert_same(out, "memory", "storage")
    assert_same(out, "memory", "trained")


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_corrupt_or_incomplete_replicas_fall_back_to_storage(tmp_path: Path) -> None:
    run, out = tmp_path / "run", tmp_path
    srv = ReplicaServer(token=new_token(), capacity_bytes=16 << 20).start()
    spare = ReplicaServer(token=new_token(), capacity_bytes=16 << 20).start()
    try:
        publish(run, "node-a", srv)
        train(run, out, ["node-a", "node-a"], steps=5, every=4)  # durable 4, memory 5
        srv.flip_byte(1)  # step 5 of rank 1: every rank still holds step 4 in memory
        got = load(run, out, ["node-a", "node-a"])
        assert [(g["step"], g["source"]) for g in got] == [(4, "memory"), (4, "memory")]
        assert any(
            m.startswith("rejected replica of rank 1 step 5 on node-a: digest mismatch")
            for m in got[1]["messages"]
        )
        srv.flip_byte(1, step=4)  # and now step 4 too: only storage is left
        got = load(run, out, ["node-a", "node-a"])
        assert [(g["step"], g["source"]) for g in got] == [(4, "storage"), (4, "storage")]
        for why in (
            "in-memory replica of step 5 not used: rank 1: no verified copy of step 5",
            "in-memory replicas not used, loading from storage: rank 1: no verified copy of step 4",
        ):
            for g in got:
                assert any(m.startswith(why) and "digest mismatch" in m for m in g["messages"])
        assert any(
            m.startswith("rejected replica of rank 1 step 5 on node-a: digest mismatch")
            for m in got[1]["messages"]
        )
        assert_same(out, "memory", "storage")

        # Incomplete: node-a's server now holds rank 0's snapshot only.
        entry = max((e for e in srv.entries() if e.key.rank == 0), key=lambda e: e.key.step)
        host, port = srv.address
        blob = get(Peer(host, port, srv.token), entry.key)
        put(peer(spare), entry.key, memoryview(blob), entry.digest)
        publish(run, "node-a", spare)
        got = load(run, out, ["node-a", "node-a"])
    finally:
        srv.stop()
        spare.stop()
    assert [(g["step"], g["source"]) for g in got] == [(4, "storage"), (4, "storage")]
    assert all(
        "in-memory replicas not used, loading from storage: no replica found for rank(s) 1"
        in g["messages"]
        for g in got
    )
    assert_same(out, "memory", "storage")


def test_a_snapshot_copies_parameters_behind_the_next_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With overlap (the default), a snapshot leaves the parameters and moments to its sender
    thread and the next optimizer step waits for that copy: the snapshot holds the step it was
    taken at, never a later one, even when its copy is slow and the next step comes at once."""
    monkeypatch.setenv("NONSTOP_HOST", "solo")
    finish = Packer.finish

    def slow_finish(self: Packer) -> None:
        time.sleep(0.2)  # a step that did not wait would change the weights meanwhile
        finish(self)

    monkeypatch.setattr(Packer, "finish", slow_finish)
    srv = ReplicaServer(token=new_token(), capacity_bytes=1 << 24).start()
    publish(tmp_path, "solo", srv)
    config = CheckpointConfig(every_steps=100, memory_every_steps=1)
    try:
        torch.manual_seed(0)
        net = nn.Linear(64, 64)
        opt = torch.optim.AdamW(net.parameters(), lr=0.1)
        ckpt = Checkpointer(tmp_path, config=config)

        def step() -> None:
            net(torch.randn(2, 64)).sum().backward()
            opt.step()
            opt.zero_grad()

        for i in range(1, 4):
            step()
            ckpt.maybe_save(i, {"model": net, "optimizer": opt})
        held = net.weight.detach().clone()
        step()  # right after the snapshot of step 3: waits for its copy
        assert not torch.equal(net.weight, held)
        ckpt.close()
        net2 = nn.Linear(64, 64)
        opt2 = torch.optim.AdamW(net2.parameters(), lr=0.1)
        ckpt2 = Checkpointer(tmp_path, config=config)
        assert ckpt2.load_latest({"model": net2, "optimizer": opt2}) == 3
        assert ckpt2.last_load is not None and ckpt2.last_load.source == "memory"
        assert torch.equal(net2.weight, held)
        ckpt2.close()
    finally:
        srv.stop()


SMALL_SHM_CHILD = """
import json, os, sys, torch
from pathlib import Path
from torch import nn
from nonstop.checkpoint import CheckpointConfig, Checkpointer, replica
from nonstop.checkpoint.replica import ReplicaServer, new_token, publish

run, shm = Path(sys.argv[1]), Path(sys.argv[2])
replica.SHM = shm  # the server's shared folder goes in the small tmpfs
os.environ["NONSTOP_HOST"] = "boxed"
srv = ReplicaServer(token=new_token(), capacity_bytes=1 << 30).start()
assert srv.shared_dir is not None and srv.shared_dir.parent == shm
publish(run, "boxed", srv)
seen = []
class Events:
    def emit(self, kind, **payload):
        seen.append(payload)
def train():
    torch.manual_seed(0)
    net = nn.Linear(2048, 2048)  # 16 MiB of weights: with AdamW's state, 48 MiB a snapshot
    opt = torch.optim.AdamW(net.parameters(), lr=0.1)
    return net, opt
net, opt = train()
config = CheckpointConfig(every_steps=100, memory_every_steps=1)
with Checkpointer(run, config=config, events=Events()) as ckpt:
    for step in range(1, 3):
        net(torch.randn(2, 2048)).sum().backward()
        opt.step()
        opt.zero_grad()
        ckpt.maybe_save(step, {"model": net, "optimizer": opt})
    ckpt.wait()
fresh, fopt = train()
with Checkpointer(run, config=config) as ckpt:
    step = ckpt.load_latest({"model": fresh, "optimizer": fopt})
    source = ckpt.last_load.source
same = all(torch.equal(v, fresh.state_dict()[k]) for k, v in net.state_dict().items())
srv.stop()
print(json.dumps({"step": step, "source": source, "same": same,
                  "replicated": [e.get("step") for e in seen if e.get("phase") == "replicated"]}))
"""


@pytest.mark.timeout(120)
def test_a_shared_folder_too_small_for_the_snapshot_falls_back_to_sending_not_sigbus(
    tmp_path: Path,
) -> None:
    """Docker gives a container 64 MB of /dev/shm unless told otherwise. A snapshot file there is
    sized with ftruncate, which a full tmpfs does not refuse, and then written through a
    mapping: the first page tmpfs cannot back was SIGBUS, and the training rank died at its
    first snapshot. The file's space is now reserved first (posix_fallocate), which a full
    tmpfs refuses with ENOSPC, and the snapshot is sent over the socket instead."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    shm = tmp_path / "shm"
    shm.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(shm)], check=True)
    try:
        r = subprocess.run(
            [sys.executable, "-c", SMALL_SHM_CHILD, str(tmp_path / "run"), str(shm)],
            capture_output=True,
            text=True,
            timeout=100,
        )
    finally:
        subprocess.run(["umount", "-l", str(shm)], check=False)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])  # -7 was SIGBUS
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out == {"step": 2, "source": "memory", "same": True, "replicated": [1, 2]}, out
    assert "shared folder unusable" in r.stderr and "No space left on device" in r.stderr
