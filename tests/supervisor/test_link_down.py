"""A node's own link down during an attempt (policy.link_down, Policy.link_flaps): the network's
failure whatever its ranks said, a restart the first time, the node excluded on a repeat."""

import pytest

from nonstop.supervisor import policy
from nonstop.supervisor.policy import Decision, Policy

FLAP = (
    "this node's link eth0 (10.0.0.2) went down during the attempt (carrier changes 2 -> 4; now up)"
)


@pytest.mark.parametrize(
    ("d", "flaps", "action"),
    [
        (
            Decision(
                "unknown",
                "restart",
                "secondary (a peer failed first): exit 1: reset by peer",
                root_cause=False,
            ),
            1,
            "restart",
        ),
        (
            Decision("hang", "restart", "hang: every rank waits in the same collective"),
            1,
            "restart",
        ),
        (Decision("software_bug", "restart", "exit 1: gloo timeout"), 2, "exclude_node"),
        (Decision("hang", "restart", "hang"), 3, "exclude_node"),
    ],
)
def test_link_down_is_the_network_and_a_repeat_excludes(d, flaps, action):
    out = policy.link_down(d, FLAP, flaps)
    assert (out.category, out.action, out.root_cause) == ("network_switch_cable", action, True)
    assert out.reason.startswith(FLAP) and "secondary (" not in out.reason
    assert FLAP in out.evidence
    assert ("in 2 attempts" in out.reason or "in 3 attempts" in out.reason) == (
        action == "exclude_node"
    )


def test_flaps_are_counted_per_host_and_attempt_and_remembered(tmp_path):
    p = Policy(path=tmp_path / "policy.json")
    assert p.link_flaps("node1", 0) == 1
    assert p.link_flaps("node1", 0) == 1  # the same attempt counts once
    assert p.link_flaps("node2", 0) == 1
    assert Policy(path=tmp_path / "policy.json").link_flaps("node1", 3) == 2  # a new supervisor


@pytest.mark.parametrize(
    ("unreachable", "total", "words"),
    [
        (["node1", "node2"], 2, "the fabric: this node's link is up but it reached none of its 2"),
        (["node1"], 1, "peer node(s) node1 unreachable from here (1 of 1"),
        (["node2"], 3, "peer node(s) node2 unreachable from here (1 of 3"),
    ],
)
def test_unreachable_peers_are_the_network_never_an_exclusion(unreachable, total, words):
    for d in (
        Decision("hang", "restart", "hang: every rank waits in the same collective"),
        Decision("unknown", "restart", "secondary (a peer failed first): reset", root_cause=False),
    ):
        out = policy.peers_unreachable(d, unreachable, total)
        assert (out.category, out.action, out.root_cause) == (
            "network_switch_cable",
            "restart",
            True,
        )
        assert out.reason.startswith(words), out.reason


def test_a_specific_cause_of_the_ranks_stands_before_the_networks_silence():
    d = Decision("gpu_hbm3_memory", "exclude_node", "uncorrectable ECC")
    assert policy.peers_unreachable(d, ["node1"], 1) is d


def test_the_one_unreachable_peers_link_is_named_and_excluded_on_a_repeat():
    d = Decision("hang", "restart", "secondary (a peer failed first): every rank waits")
    once = policy.peer_link_down(d, "node1", reached=2, total=3, flaps=1)
    assert (once.category, once.action, once.root_cause, once.hosts) == (
        "network_switch_cable",
        "restart",
        True,
        ["node1"],
    )
    assert once.reason.startswith("node1's link: unreachable from here"), once.reason
    assert "the ranks here: every rank waits" in once.reason  # the ranks' words, unprefixed
    assert once.evidence[-1].startswith("node1's link")
    again = policy.peer_link_down(d, "node1", reached=2, total=3, flaps=2)
    assert again.action == "exclude_node" and "failed in 2 attempts" in again.reason
    specific = Decision("gpu_hbm3_memory", "exclude_node", "uncorrectable ECC")
    assert policy.peer_link_down(specific, "node1", reached=2, total=3, flaps=2) is specific
