"""The network-namespace cluster (tests/support/cluster.py) for the tests in this folder.

Four nodes, one cluster per pytest-xdist worker (tests/conftest.py gives worker gw<n> the
prefix `nsc<n>` and the /24 10.<77-n>.0; gw0 and a run without xdist keep `nsc` on 10.77.0), so
the workers' cluster tests run side by side. Each test still holds an exclusive lock on its
cluster for its whole length (a developer's second pytest on the same prefix would otherwise
reset its nodes mid-test), and finds it up, with no processes and the network whole.
Without root or iproute2 the tests skip with the reason, except under CI=1 (set by .ci/run),
where they fail. The last worker to use it tears it down at its session's end, and a reaper
does if the session is killed.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import time
from pathlib import Path

import pytest
from support import cluster as netns

NODES = 4
LOCK = Path(f"/tmp/nonstop-cluster-{netns.PREFIX}.lock")
_released = [0.0]  # when this worker last let the cluster go


def _lock() -> int:
    # a worker that just released waits a moment, so that a waiting peer gets its turn
    # (flock is not fair: an immediate re-lock could starve the other worker into a timeout)
    pause = 2.0 - (time.monotonic() - _released[0])
    if pause > 0:
        time.sleep(pause)
    fd = os.open(LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def _unlock(fd: int) -> None:
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)
    _released[0] = time.monotonic()


@pytest.fixture(scope="session")
def _cluster_session():
    yield
    fd = _lock()
    try:
        netns.down()
    finally:
        _unlock(fd)


@pytest.fixture
def cluster(_cluster_session):
    """Four nodes, node0..node3 at SUBNET.10-13, nothing running, the network whole."""
    fd = _lock()
    try:
        try:
            c = netns.up(NODES, owner_pid=os.getpid())
        except (netns.ClusterUnavailable, OSError, subprocess.CalledProcessError) as e:
            if os.environ.get("CI") == "1":
                pytest.fail(f"no namespace cluster: {e}; CI=1 requires it (.ci/run runs as root)")
            pytest.skip(f"no namespace cluster: {e}")
        yield c
        c.reset()
    finally:
        _unlock(fd)
