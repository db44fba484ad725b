"""The failing link named (nonstop.diagnose.peers): peer addresses in the words of gloo, NCCL
and c10d, the host common to the failing connections, and no guess when there is none."""

import pytest

from nonstop.diagnose import peers

GLOO_CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [10.77.0.11]:44207"
)
GLOO_RESET = (
    "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Read error "
    "[10.1.2.3]:52614: Connection reset by peer"
)
GLOO_CONNECT = (
    "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect "
    "[172.16.0.4]:30291: Connection refused"
)
NCCL_SOCKET = (
    "node3:1234:5678 [0] NCCL WARN NET/Socket : Connection closed by remote peer 10.0.0.3<45678>"
)
NCCL_IB = (
    "node2:99:120 [1] NCCL WARN NET/IB : Got completion from peer 10.0.0.3<60231> with status=12 "
    "opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.2 remoteGidsfe80::"
)
C10D = (
    "[W1202 14:19:02.6 socket.cpp:755] [c10d] The client socket has failed to connect to "
    "[10.77.0.10]:29400 (errno: 110 - Connection timed out)."
)


@pytest.mark.parametrize(
    ("line", "ip"),
    [
        (GLOO_CLOSED, "10.77.0.11"),
        (GLOO_RESET, "10.1.2.3"),
        (GLOO_CONNECT, "172.16.0.4"),
        (NCCL_SOCKET, "10.0.0.3"),
        (NCCL_IB, "10.0.0.3"),
        (C10D, "10.77.0.10"),
    ],
)
def test_peer_address_in_each_backends_words(line, ip):
    assert peers.failing_peers(line) == [ip]


@pytest.mark.parametrize(
    "line",
    [
        "listening on 10.0.0.3:29400",  # no failure on the line
        "step 10 loss 1.2 lr 0.0003",
        "version 2.13.0.1 timed out",  # a version, not an address with a port
        "Connection closed by peer [0.0.0.0]:0",
    ],
)
def test_no_peer_where_no_failing_connection_names_one(line):
    assert peers.failing_peers(line) == []


def test_the_common_host_is_named_with_the_count():
    hosts = {"10.0.0.1": "node0", "10.0.0.2": "node1", "10.0.0.3": "node2"}
    reports = [
        ("node0", NCCL_SOCKET),
        ("node0", NCCL_IB),
        ("node1", "Connection closed by peer [10.0.0.3]:1"),
        ("node1", "Connection reset by peer [10.0.0.3]:2 and peer [10.0.0.1]:9 timed out"),
    ]
    v = peers.common_peer(reports, hosts)
    assert v is not None and (v.host, v.address, v.involving, v.total) == (
        "node2",
        "10.0.0.3",
        4,
        5,
    )
    assert v.text().startswith("node2 (10.0.0.3): 4 of 5 failing connections involve it")
    assert v.to_dict()["observers"] == ["node0", "node1"]


def test_no_common_host_is_no_verdict():
    # a switch lost: every node names every other, equally: the fabric, not a host
    hosts = {"10.0.0.1": "node0", "10.0.0.2": "node1"}
    reports = [
        ("node0", "Connection closed by peer [10.0.0.2]:1"),
        ("node1", "Connection closed by peer [10.0.0.1]:1"),
    ]
    assert peers.common_peer(reports, hosts) is None
    assert peers.common_peer([("node0", "all good")], hosts) is None


def test_an_observers_own_address_is_not_its_peer():
    own = {"node1": "10.0.0.2"}
    reports = [
        (
            "node1",
            "connect [10.0.0.2]:5 failed: Connection refused; peer [10.0.0.9]:7 reset by peer",
        )
    ]
    v = peers.common_peer(reports, {}, own=own)
    assert v is not None and v.address == "10.0.0.9"


def test_node_records_round_trip_and_survive_garbage(tmp_path):
    peers.record_node(tmp_path, "node0", "10.0.0.1")
    peers.record_node(tmp_path, "node1", "10.0.0.2")
    (peers.nodes_dir(tmp_path) / "broken.json").write_text("{not json")
    assert peers.node_addresses(tmp_path) == {"10.0.0.1": "node0", "10.0.0.2": "node1"}
