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


# -- a slow link ---------------------------------------------------------------------------

SS = """\
0      0      10.0.0.10:41234      10.0.0.11:29500
\t cubic wscale:7,7 rto:252 rtt:48.5/3.1 mss:1448 retrans:0/7 segs_out:300 segs_in:90
0      0      [::ffff:10.0.0.10]:41236 [::ffff:10.0.0.11]:52100
\t cubic rto:260 rtt:60.1/2.0 mss:1448 segs_out:100
0      0      10.0.0.10:41240      10.0.0.12:52100
\t cubic rto:204 rtt:0.2/0.1 mss:1448
0      0      127.0.0.1:5000       127.0.0.1:6000
\t cubic rto:204 rtt:0.01/0.01
"""


def test_parse_ss_per_peer_rtt_and_retransmits():
    got = peers.parse_ss(SS)
    assert got == {
        "10.0.0.11": {"conns": 2, "rtt_ms": 60.1, "segs": 400, "retrans": 7},
        "10.0.0.12": {"conns": 1, "rtt_ms": 0.2, "segs": 0, "retrans": 0},
    }


ADDR = {"10.0.0.10": "n0", "10.0.0.11": "n1", "10.0.0.12": "n2"}


def _sample(host, retrans=0, **rtt):
    ip = {v: k for k, v in ADDR.items()}
    return {
        "host": host,
        "peers": {
            ip[h]: {
                "conns": 1,
                "rtt_ms": r,
                "segs": 1000,
                "retrans": retrans if "n1" in (host, h) else 1,
            }
            for h, r in rtt.items()
        },
    }


def test_slow_link_by_queueing_is_the_host_every_slow_pair_involves():
    samples = [
        _sample("n0", n1=80.0, n2=0.3),
        _sample("n1", n0=75.0, n2=85.0),
        _sample("n2", n0=0.2, n1=82.0),
    ]
    link = peers.slow_link(samples, ADDR)
    assert link is not None and link.host == "n1"
    assert (link.slow, link.total, link.rtt_ms, link.others_ms) == (2, 3, 85.0, 0.3)
    assert link.text().startswith("n1's link: 2 of 3 node pairs slow, all involving it")


def test_slow_link_by_lost_segments_on_a_loaded_host():
    # RTTs alike (a loaded host's milliseconds); node1's pairs retransmit 5% of their segments
    samples = [
        _sample("n0", retrans=50, n1=7.0, n2=5.3),
        _sample("n1", retrans=50, n0=0.3, n2=0.1),
        _sample("n2", retrans=50, n0=0.9, n1=5.4),
    ]
    link = peers.slow_link(samples, ADDR)
    assert link is not None and link.host == "n1" and link.slow == 2
    assert link.loss == 0.05 and link.others_loss == 0.001
    # a second sample, later, counts from the newest totals (the counters only grow)
    later = [_sample("n0", retrans=80, n1=7.0, n2=5.3)]
    assert peers.slow_link(samples + later, ADDR).host == "n1"


def test_no_slow_link_when_nothing_stands_out_or_nobody_is_common():
    even = [_sample("n0", n1=0.3, n2=0.4), _sample("n1", n2=0.5), _sample("n2", n0=0.3)]
    assert peers.slow_link(even, ADDR) is None
    # a loaded host's lag: 100x, but 12 ms (what the kernel measured beside 0.05 ms pairs)
    assert peers.slow_link([_sample("n0", n1=12.3, n2=0.05), _sample("n1", n2=0.1)], ADDR) is None
    # two nodes: one pair, nothing to compare it with
    assert peers.slow_link([_sample("n0", retrans=500, n1=80.0)], ADDR) is None
    # one slow pair among three: either end
    assert peers.slow_link([_sample("n0", n1=80.0, n2=0.2), _sample("n1", n2=0.3)], ADDR) is None


def test_net_samples_round_trip_by_attempt(tmp_path):
    peers.record_net_sample(tmp_path, "n0", 0, {"10.0.0.11": {"rtt_ms": 1.0}}, 5.0)
    peers.record_net_sample(tmp_path, "n0", 1, {"10.0.0.11": {"rtt_ms": 2.0}}, 6.0)
    with open(peers.net_samples_path(tmp_path, "n0"), "a") as f:
        f.write('{"torn')
    assert peers.read_net_samples(tmp_path, 1) == [
        {"host": "n0", "peers": {"10.0.0.11": {"rtt_ms": 2.0}}}
    ]
    assert len(peers.read_net_samples(tmp_path)) == 2
    assert peers.node_addresses(tmp_path) == {}  # the samples are no node records
