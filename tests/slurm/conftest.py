"""A real one-node Slurm cluster for the tests in this folder (tests/slurm/slurm_cluster.py).

Started once per session, as root; without Slurm or root the tests skip with the reason,
except under CI=1 (set by .ci/run, which installs slurm-wlm and munge), where they fail.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import slurm_cluster


@pytest.fixture(scope="session")
def slurm() -> Iterator[Path]:
    """The slurm.conf of a running one-node cluster; if this session started it, its
    slurmctld and slurmd stop with the session (they were left running after the tests)."""
    root = slurm_cluster.ROOT
    ours = not (slurm_cluster.conf_path(root).exists() and slurm_cluster._answers(root))
    try:
        conf = slurm_cluster.up()
    except (slurm_cluster.SlurmUnavailable, OSError, subprocess.CalledProcessError) as e:
        if os.environ.get("CI") == "1":
            pytest.fail(f"no Slurm cluster: {e}; CI=1 requires it (.ci/run installs it)")
        pytest.skip(f"no Slurm cluster: {e}")
    yield conf
    if ours:  # a cluster someone started by hand (`make slurm-up`) stays up
        slurm_cluster.down()
