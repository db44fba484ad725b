"""End to end: an Xid in the kernel log for a rank's pid, then the rank's death, under `nonstop run`
on a script that never imports nonstop, is a faulty GPU on that rank: exclude_node.

The Xid is written where NVIDIA's driver writes it: /dev/kmsg (a real write; this needs root),
or, where /dev/kmsg is not writable, the file-backed kernel-log source NONSTOP_KERNEL_LOG that
the agent reads as well.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import finish, pid_of, rows, start, unmodified

from nonstop.diagnose import kernel_log

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

PLAIN = unmodified(1200)
EXIT_EXCLUDE = 93


def _start(run_dir: Path, script: Path, klog: Path, *extra: str) -> subprocess.Popen[str]:
    env = {"NONSTOP_KERNEL_LOG": str(klog), "NONSTOP_HOST": "node-k"}
    return start(
        ["--nproc-per-node", "2", "--run-dir", str(run_dir), "--no-self-test", *extra, str(script)],
        env=env,
    )


def _failures(run_dir: Path) -> list[tuple]:
    return rows(run_dir, "SELECT rank, category, action, root_cause FROM failures")


def test_xid79_in_the_kernel_log_for_a_ranks_pid_then_its_death_excludes_the_node(
    tmp_path: Path,
) -> None:
    script, run_dir, klog = tmp_path / "plain.py", tmp_path / "run", tmp_path / "kern.log"
    script.write_text(PLAIN)
    p = _start(run_dir, script, klog)
    pid = pid_of(run_dir, 1)
    time.sleep(1.0)  # the agent's first kernel-log read of the attempt has happened
    # what NVIDIA's driver prints when a GPU falls off the bus, for this process
    text = (
        f"NVRM: Xid (PCI:0000:3b:00): 79, pid={pid}, name=python3, GPU has fallen off the "
        "bus. (written by nonstop's test suite)"
    )
    where = "kmsg" if kernel_log.write_kmsg(text) else "file"
    if where == "file":
        kernel_log.write_file_line(klog, text)
    os.kill(pid, signal.SIGKILL)
    code, out = finish(p)
    assert code == EXIT_EXCLUDE, out[-3000:]
    assert "excluding node node-k" in out
    roots = [f for f in _failures(run_dir) if f[3] == 1]
    assert roots == [(1, "faulty_gpu", "exclude_node", 1)], (_failures(run_dir), out[-2000:])
    kept = (run_dir / "logs/attempt-0/kernel-node-k.log").read_text()
    assert f"79, pid={pid}" in kept and "[nonstop: rank 1" in kept, kept
    meta = json.loads((run_dir / "logs/attempt-0/kernel-node-k.json").read_text())
    assert meta["source"].startswith("kmsg" if where == "kmsg" else ""), meta
    assert meta["ranks"] == [1]
    # one verdict: `nonstop diagnose` names what the ledger (and `nonstop report`) recorded
    d = subprocess.run(
        [sys.executable, "-m", "nonstop.cli", "diagnose", str(run_dir), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    v = json.loads(d.stdout)
    assert (v["category"], [c["rank"] for c in v["culprits"]][:1]) == ("faulty_gpu", [1]), v


def test_an_xid_for_another_process_is_not_our_evidence(tmp_path: Path) -> None:
    """The same death with the Xid naming a pid that is none of our ranks: not a GPU fault of
    ours (SIGKILL alone is weak evidence: unknown, restart)."""
    script, run_dir, klog = tmp_path / "plain.py", tmp_path / "run", tmp_path / "kern.log"
    script.write_text(PLAIN)
    p = _start(run_dir, script, klog, "--max-restarts", "0")
    pid = pid_of(run_dir, 1)
    time.sleep(1.0)
    other = os.getpid()  # the test's own process: alive, and not a rank
    text = f"NVRM: Xid (PCI:0000:3c:00): 79, pid={other}, name=python3, GPU has fallen off the bus."
    if not kernel_log.write_kmsg(text + " (written by nonstop's test suite)"):
        kernel_log.write_file_line(klog, text)
    os.kill(pid, signal.SIGKILL)
    code, out = finish(p)
    assert code != EXIT_EXCLUDE, out[-3000:]
    roots = [f for f in _failures(run_dir) if f[3] == 1]
    assert [(r, c, a) for r, c, a, _ in roots] == [(1, "unknown", "restart")], roots
    kept = (run_dir / "logs/attempt-0/kernel-node-k.log").read_text()
    assert f"pid={other}" not in kept
    meta = json.loads((run_dir / "logs/attempt-0/kernel-node-k.json").read_text())
    assert meta["foreign"] >= 1


def test_injected_xid_goes_to_the_kernel_log_not_the_ranks_log(tmp_path: Path) -> None:
    script, run_dir, klog = tmp_path / "plain.py", tmp_path / "run", tmp_path / "kern.log"
    script.write_text(PLAIN)
    p = _start(run_dir, script, klog, "--inject", "crash@after=4,rank=1,xid=79")
    code, out = finish(p)
    assert code == EXIT_EXCLUDE, out[-3000:]
    roots = [f for f in _failures(run_dir) if f[3] == 1]
    assert roots == [(1, "faulty_gpu", "exclude_node", 1)], roots
    assert "NVRM: Xid" not in (run_dir / "logs/attempt-0/rank-1.log").read_text()
    assert "79, pid=" in (run_dir / "logs/attempt-0/kernel-node-k.log").read_text()
