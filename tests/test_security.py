"""docs/security.md, tested: owner-only run directories, the replica server on the
rendezvous interface, and checkpoints whose metadata points outside their folder."""

from __future__ import annotations

import json
import pickle
import socket
import stat
from pathlib import Path

import pytest

from nonstop import envvars, rundir
from nonstop.errors import UserError


def mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_a_new_run_directory_is_the_owner_s_only(tmp_path):
    rd = rundir.create(tmp_path / "runs" / "r1")
    assert mode(rd.root) == 0o700
    for sub in ("events", "logs", "flight", "checkpoints", "control"):
        assert mode(rd.root / sub) == 0o700, sub
    rd.write_config({"run_id": "r1"})
    assert mode(rd.config) & 0o077 == 0  # not group- or world-readable
    # an existing run directory keeps what its owner chose
    (tmp_path / "shared").mkdir(mode=0o755)
    (tmp_path / "shared").chmod(0o750)
    assert mode(rundir.create(tmp_path / "shared").root) == 0o750


def test_the_replica_server_binds_the_rendezvous_interface_not_every_one():
    from nonstop.checkpoint.replica import ReplicaServer, interface_toward, new_token

    assert interface_toward("127.0.0.1:29400") == "127.0.0.1"
    assert interface_toward("localhost:29400") == "127.0.0.1"
    addr = interface_toward(f"{socket.gethostname()}:29400")  # a multi-node endpoint: us
    assert addr not in ("0.0.0.0", "::", "")
    srv = ReplicaServer(host=addr, port=0, token=new_token(), capacity_bytes=1 << 20).start()
    try:
        assert srv.address[0] == addr
    finally:
        srv.stop()


def test_nonstop_run_s_replica_server_is_not_on_0_0_0_0(tmp_path, monkeypatch):
    import argparse

    from nonstop.checkpoint.replica import discover
    from nonstop.supervisor.launch import _start_replica_server

    args = argparse.Namespace(
        memory_checkpoint_every=5, replicas=1, replica_addr=None, replica_capacity_gb=0.001
    )
    for var in (envvars.MEMORY_CKPT_EVERY, envvars.REPLICAS):
        monkeypatch.delenv(var, raising=False)
    rd = rundir.create(tmp_path / "run")
    server = _start_replica_server(args, rd, "node-a", f"{socket.gethostname()}:29400")
    try:
        assert server.address[0] != "0.0.0.0"
        assert discover(rd.root)["node-a"].host == server.address[0]
    finally:
        server.stop()


def test_a_checkpoint_whose_metadata_leaves_its_folder_is_refused(tmp_path):
    torch = pytest.importorskip("torch")
    from nonstop.checkpoint import Checkpointer, digest

    secret = tmp_path / "secret.bin"
    secret.write_bytes(b"not yours" * 100)
    model = torch.nn.Linear(3, 2)
    ck = Checkpointer(tmp_path / "run")
    ck.save(1, {"model": model}, wait=True)
    ck.close()
    folder = tmp_path / "run" / "checkpoints" / "step-1"
    md_path = folder / ".metadata"
    md = pickle.loads(md_path.read_bytes())
    for info in md.storage_data.values():  # every tensor now "lives" in a file outside
        info.relative_path = "../../../secret.bin"
    blob = pickle.dumps(md)
    md_path.write_bytes(blob)
    marker = json.loads((folder / "COMMIT.json").read_text())  # a consistent forgery: the
    marker["files"][".metadata"] = {
        "digest": digest.of(blob, marker["hash"]),
        "bytes": len(blob),
    }  # checksums pass
    (folder / "COMMIT.json").write_text(json.dumps(marker))
    ck2 = Checkpointer(tmp_path / "run")
    try:
        with pytest.raises(UserError, match="outside its checkpoint folder"):
            ck2.load_latest({"model": torch.nn.Linear(3, 2)})
    finally:
        ck2.close()


@pytest.mark.parametrize("rel", ["/etc/passwd", "../x", "a/../../x", "", ".", "a\x00b", None])
def test_unsafe_relative_paths(rel):
    from types import SimpleNamespace

    from nonstop.checkpoint.storage import check_relative_paths

    md = SimpleNamespace(storage_data={"k": SimpleNamespace(relative_path=rel)})
    with pytest.raises(UserError):
        check_relative_paths(md, "step-1/.metadata")  # type: ignore[arg-type]
    ok = SimpleNamespace(storage_data={"k": SimpleNamespace(relative_path="__0_0.distcp")})
    check_relative_paths(ok, "step-1/.metadata")  # type: ignore[arg-type]
