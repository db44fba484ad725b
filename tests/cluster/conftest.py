"""The network-namespace cluster (tests/support/cluster.py) for the tests in this folder.

One cluster of four nodes per test session, reset (no processes, every link up and unshaped)
before each test. Without root or iproute2 the tests skip with the reason, except under CI=1
(set by .ci/run), where they fail. The cluster is torn down when the session ends, and by a
reaper if the session is killed.
"""

from __future__ import annotations

import os
import subprocess

import pytest
from support import cluster as netns

NODES = 4


@pytest.fixture(scope="session")
def _cluster_session():
    try:
        c = netns.up(NODES, owner_pid=os.getpid())
    except (netns.ClusterUnavailable, OSError, subprocess.CalledProcessError) as e:
        if os.environ.get("CI") == "1":
            pytest.fail(f"no namespace cluster: {e}; CI=1 requires it (.ci/run runs as root)")
        pytest.skip(f"no namespace cluster: {e}")
    yield c
    netns.down(c.root)


@pytest.fixture
def cluster(_cluster_session):
    """Four nodes, node0..node3 at 10.77.0.10-13, nothing running, the network whole."""
    _cluster_session.reset()
    yield _cluster_session
    _cluster_session.reset()
