"""The host a scheduler's line is about: slurmctld on the controller logs "Nodes gpu-[17-18]
not responding, setting DOWN" under its own host ("ctl"); the node to exclude is gpu-[17-18]
(a Slurm hostlist, as Slurm's --exclude and scontrol take it), not the controller. Each
scheduler's wording is tested, and near misses keep the host that logged the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonstop.diagnose import triage

SUBJECT = [
    # Slurm's controller, as syslog and as its own log file stamps it
    ("Dec  6 10:00:01 ctl slurmctld[812]: error: Nodes gpu-[17-18] not responding, setting DOWN",
     "gpu-[17-18]"),
    ("Dec  6 10:00:01 ctl slurmctld[812]: error: Nodes a100-03 not responding", "a100-03"),
    ("[2026-12-05T10:01:02.123] error: Node gpu-9 not responding, setting DOWN", "gpu-9"),
    ("Dec  6 10:00:01 ctl slurmctld[812]: update_node: node dgx-12 reason set to: "
     "health check failed", "dgx-12"),
    ("Dec  6 10:00:01 ctl slurmctld[812]: Node failure on gpu-[2,5]", "gpu-[2,5]"),
    # PBS, LSF, Ray, Kubernetes events, a node gone in a cluster manager's words
    ("06/12/2026 10:00:01;0008;Server@pbs;Job;812.pbs;Job killed: node cn042 down", "cn042"),
    ("Dec  6 10:00:01 lsfmaster mbatchd[55]: host <gpu07.cluster> became unavailable",
     "gpu07.cluster"),
    ("2026-12-06 10:00:01,123 WARNING gcs.py:1 -- node worker-3 has been marked dead",
     "worker-3"),
    ("Dec  6 10:00:01 cp1 kube-controller-manager[9]: Node gpu-node-3 status is now: "
     "NodeNotReady", "gpu-node-3"),
]  # fmt: skip

NEAR_MISSES = [
    # the logging host is the subject: no other node named
    ("Dec  6 10:00:01 gpu-4 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1, name=python, "
     "GPU has fallen off the bus.", "gpu-4"),
    # a storage server that is not responding is not a node of the job
    ("Dec  6 10:00:01 gpu-4 kernel: nfs: server nas01 not responding, still trying", "gpu-4"),
]  # fmt: skip


def _triage(tmp_path: Path, line: str) -> triage.Verdict:
    path = tmp_path / "controller.log"
    path.write_text(line + "\n")
    return triage.triage_file(path, fallback=False)


@pytest.mark.parametrize(("line", "host"), SUBJECT)
def test_the_node_a_scheduler_line_is_about_is_the_host(tmp_path: Path, line: str, host: str):
    v = _triage(tmp_path, line)
    assert v.action == "exclude_node", (v.category, v.action, line)
    assert v.hosts == [host], (v.hosts, line)


@pytest.mark.parametrize(("line", "host"), NEAR_MISSES)
def test_a_line_about_no_other_node_keeps_its_logging_host(tmp_path: Path, line: str, host: str):
    v = _triage(tmp_path, line)
    assert v.hosts in ([host], []), (v.hosts, line)
    assert "nas01" not in v.hosts
