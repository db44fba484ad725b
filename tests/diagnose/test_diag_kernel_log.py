"""The kernel-log reader: /dev/kmsg records (real ones where this machine allows a write), the
file-backed source, the attempt's window, attribution by pid and PCI bus id, and saying why
nothing is readable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nonstop.diagnose import kernel_log as kl

XID = "NVRM: Xid (PCI:0000:3b:00): 79, pid={pid}, name=python3, GPU has fallen off the bus."
# a path that can never be opened (under a file, not a folder): "/nonexistent" was created once
# on a shared host (a folder opens read-only, and the tests then read it as the kernel log)
NO_KMSG = "/dev/null/kmsg"


def _kmsg_writable() -> bool:
    try:
        fd = os.open(kl.KMSG, os.O_WRONLY)
    except OSError:
        return False
    os.close(fd)
    return os.access(kl.KMSG, os.R_OK)


needs_kmsg = pytest.mark.skipif(not _kmsg_writable(), reason="/dev/kmsg not writable (not root)")


def test_kmsg_record_format() -> None:
    raw = b"4,1234,5000000,-;NVRM: Xid (PCI:0000:3b:00): 79, pid=77\\x0a tail\n SUBSYSTEM=pci\n"
    seq, t, text = kl.parse_kmsg_record(raw, boot_wall_s=1000.0)  # type: ignore[misc]
    assert (seq, t) == (1234, 1005.0)
    assert text == "NVRM: Xid (PCI:0000:3b:00): 79, pid=77\n tail"
    assert kl.parse_kmsg_record(b"garbage", 0.0) is None


def test_timestamped_lines_of_syslog_and_iso_files() -> None:
    t, text = kl.parse_timestamped("2026-12-01T10:35:48.5+00:00 node-b kernel: NVRM: Xid")
    assert t == pytest.approx(1796121348.5) and text == "node-b kernel: NVRM: Xid"
    t2, _ = kl.parse_timestamped("Dec  1 10:35:48 node-b kernel: mce: [Hardware Error]", year=2026)
    assert t2 is not None
    assert kl.parse_timestamped("no stamp here") == (None, "no stamp here")


def test_a_december_syslog_line_read_in_january_is_last_year() -> None:
    import datetime as dt

    january = dt.datetime(2027, 1, 2, 9, 0, 0).timestamp()  # local time, as syslog stamps
    t, _ = kl.parse_timestamped("Dec 31 23:59:58 node-b kernel: NVRM: Xid", now_s=january)
    assert t == dt.datetime(2026, 12, 31, 23, 59, 58).timestamp()
    assert t is not None and t < january
    # the same day's line stays this year's, even a little ahead of the reader's clock
    t2, _ = kl.parse_timestamped("Jan  2 09:30:00 node-b kernel: mce", now_s=january)
    assert t2 == dt.datetime(2027, 1, 2, 9, 30, 0).timestamp()


def test_file_source_reads_the_window_incrementally(tmp_path: Path) -> None:
    f = tmp_path / "kern.log"
    now = time.time()
    kl.write_file_line(f, "old line from a previous attempt", now - 60)
    klog = kl.KernelLog(since_s=now - 1, extra_file=str(f), kmsg_path=NO_KMSG, use_commands=False)
    kl.write_file_line(f, XID.format(pid=41))
    first = klog.read()
    assert [ln.text for ln in first] == [XID.format(pid=41)] and first[0].pid == 41
    assert klog.read() == []  # nothing new
    kl.write_file_line(f, "EDAC MC0: 1 UE memory read error on DIMM#0")
    assert [ln.text[:4] for ln in klog.read()] == ["EDAC"]
    assert klog.source == "file" and kl.ENV_KERNEL_LOG in klog.why


def test_no_readable_source_says_what_was_tried() -> None:
    klog = kl.KernelLog(since_s=0, extra_file=None, kmsg_path=NO_KMSG, use_commands=False)
    assert klog.read() == []
    assert klog.source == "" and "no kernel log readable" in klog.why
    assert NO_KMSG in klog.why and kl.ENV_KERNEL_LOG in klog.why


def test_attribution_by_pid_bus_id_and_node() -> None:
    lines = [
        kl.KernelLine(1.0, XID.format(pid=100), "file"),  # our rank 3
        kl.KernelLine(2.0, XID.format(pid=999), "file"),  # another process on the host
        kl.KernelLine(3.0, "NVRM: Xid (PCI:0000:5d:00): 48, pid='<unknown>', DBE", "file"),
        kl.KernelLine(4.0, "mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 6", "file"),
        kl.KernelLine(5.0, "python invoked oom-killer: gfp_mask=0x100cca", "file"),
        kl.KernelLine(6.0, "Out of memory: Killed process 100 (python)", "file"),
    ]
    got = kl.attribute(lines, {100: 3}, {"5d:00": 1}, host_pids=True)
    assert [(a.line.time_s, a.rank, a.foreign, a.unattributed) for a in got] == [
        (1.0, 3, False, False),
        (2.0, None, True, False),
        (3.0, 1, False, False),
        (4.0, None, False, False),
        (6.0, 3, False, False),
    ]
    # in a container's own pid namespace the kernel's pids are the host's, ours the
    # container's: a pid that is not a rank's may still be one, so it is the node's
    got = kl.attribute(lines, {100: 3}, {"5d:00": 1}, host_pids=False)
    assert [(a.rank, a.foreign, a.unattributed) for a in got][1] == (None, False, True)
    assert not any(a.foreign for a in got)


def test_node_watch_keeps_only_this_nodes_lines_of_the_attempt(tmp_path: Path) -> None:
    f = tmp_path / "kern.log"
    t0 = time.time()
    kl.write_file_line(f, XID.format(pid=1), t0 - 30)  # before the attempt: never counts
    watch = kl.NodeKernelWatch(tmp_path / "run", "node-a")
    watch.klog = kl.KernelLog(
        since_s=t0 - 5, extra_file=str(f), kmsg_path=NO_KMSG, use_commands=False
    )
    watch.attempt = 0
    kl.write_file_line(f, XID.format(pid=1), t0)  # rank 0's
    kl.write_file_line(f, XID.format(pid=2), t0)  # a process of another node's agent
    out = watch.keep(0, t0 - 5, {1: 0})
    kept = out.read_text().splitlines()
    assert len(kept) == 1 and "node-a kernel: NVRM: Xid" in kept[0]
    assert kept[0].endswith("[nonstop: rank 0, pid 1]")
    meta = json.loads((out.parent / "kernel-node-a.json").read_text())
    assert meta["ranks"] == [0] and meta["foreign"] == 1 and meta["source"] == "file"
    # the next attempt starts a new window: the old attempt's lines are not carried over
    kl.write_file_line(f, "mlx5_core 0000:c1:00.0: mlx5_load_one failed with error code -22")
    out1 = watch.keep(1, time.time() + 3600, {7: 0})
    assert out1.read_text() == ""


_IN_NAMESPACE = """
import json, sys, time
from nonstop.diagnose import kernel_log as kl

f, root = sys.argv[1], sys.argv[2]
watch = kl.NodeKernelWatch(root, "node-a")
watch.klog = kl.KernelLog(
    since_s=0, extra_file=f, kmsg_path="/dev/null/kmsg", use_commands=False
)
watch.attempt = 0
out = watch.keep(0, 0, {12345: 0})  # a rank's pid as this namespace numbers it
print(json.dumps({"meta": json.loads((out.parent / "kernel-node-a.json").read_text()),
                  "kept": out.read_text().splitlines()}))
"""


def _unshare_works() -> bool:
    cmd = ["unshare", "--pid", "--fork", "--mount-proc", "true"]
    try:
        return subprocess.run(cmd, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(not _unshare_works(), reason="no pid namespaces here (unshare needs root)")
def test_a_containers_pid_namespace_keeps_lines_of_unknown_pids_as_the_nodes(tmp_path) -> None:
    """A real pid namespace (unshare): the kernel names a process by its host pid (here this
    test's own), which the namespace cannot match with its ranks; outside it the same lines
    are another process's, left out as foreign."""
    f = tmp_path / "kern.log"
    host_pid = os.getpid()
    kl.write_file_line(f, XID.format(pid=host_pid))
    kl.write_file_line(f, f"Out of memory: Killed process {host_pid} (python)")
    env = {**os.environ, "PYTHONPATH": str(Path(kl.__file__).parents[2])}

    def run(*prefix: str) -> dict:
        cmd = [*prefix, sys.executable, "-c", _IN_NAMESPACE, str(f), str(tmp_path / prefix[0])]
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    inside = run("unshare", "--pid", "--fork", "--mount-proc")
    assert inside["meta"]["host_pids"] is False
    assert (inside["meta"]["unattributed"], inside["meta"]["foreign"]) == (2, 0)
    assert len(inside["kept"]) == 2
    assert all("unknown in this container's pid namespace" in k for k in inside["kept"])
    outside = run("env")
    assert outside["meta"]["host_pids"] is True
    assert (outside["meta"]["unattributed"], outside["meta"]["foreign"]) == (0, 2)
    assert outside["kept"] == []


@needs_kmsg
def test_real_kmsg_window_and_sequence_boundary() -> None:
    """Real records written to /dev/kmsg: one before the reader's window never counts, one after
    does; after a new window starts (rebase), a record the reader already passed never counts
    again, even if the new window's start is put before its timestamp."""
    tag = f"nonstop-test-{os.getpid()}-{time.monotonic_ns()}"
    # how far this host's kernel clock is from the wall clock (it led by more than 0.3 s on a
    # CI host): "before" must be before the window by more than that for its timestamp to say so
    probe_reader = kl.KernelLog(since_s=time.time() - 1, extra_file=None)
    wrote_at = time.time()
    assert kl.write_kmsg(f"{tag} probe")
    probe = [ln for ln in probe_reader.read() if tag in ln.text]
    assert len(probe) == 1
    offset = abs(probe[0].time_s - wrote_at)
    probe_reader.close()
    assert kl.write_kmsg(f"{tag} before")
    time.sleep(0.3 + 2 * offset)
    # the window starts a little after now: a record written next carries a kernel timestamp
    # before it wherever the kernel's clock lags by 15 ms or more (21 ms here after 19 h of
    # uptime), and still counts, because it arrived after the reader opened
    klog = kl.KernelLog(since_s=time.time() + 0.015, extra_file=None)
    assert kl.write_kmsg(f"{tag} after pid=4242")
    mine = [ln for ln in klog.read() if tag in ln.text]
    assert [ln.text.split()[-2:] for ln in mine] == [["after", "pid=4242"]], offset
    assert mine[0].seq is not None and mine[0].pid == 4242 and klog.source == "kmsg"
    klog.rebase(mine[0].time_s - 10)
    assert kl.write_kmsg(f"{tag} next")
    again = [ln.text.split()[-1] for ln in klog.read() if tag in ln.text]
    assert again == ["next"]
    assert klog.floor_seq >= mine[0].seq


def test_bare_sigkill_with_the_oom_killer_in_the_kernel_log_is_out_of_memory(
    tmp_path: Path,
) -> None:
    """A rank whose log shows only torchrun's exit -9: the OOM killer's line for that rank's pid,
    kept from the kernel log, makes it out_of_memory; the same line for another pid does not."""
    from nonstop.diagnose.triage import triage_rank

    f = tmp_path / "kern.log"
    t0 = time.time()
    watch = kl.NodeKernelWatch(tmp_path / "run", "node-a")
    watch.klog = kl.KernelLog(
        since_s=t0 - 5, extra_file=str(f), kmsg_path=NO_KMSG, use_commands=False
    )
    watch.attempt = 0
    kl.write_file_line(f, "Out of memory: Killed process 4242 (python3) total-vm:81234567kB", t0)
    kept = watch.keep(0, t0 - 5, {4242: 1, 4343: 0})
    bare = "torch.distributed.elastic.multiprocessing.api: failed (exitcode: -9) local_rank: 1\n"
    for r in (0, 1):
        (kept.parent / f"rank-{r}.log").write_text(bare)
    v1 = triage_rank(kept.parent / "rank-1.log", rank=1, host="node-a")
    assert (v1.category, [c.rank for c in v1.culprits]) == ("out_of_memory", [1])
    v0 = triage_rank(kept.parent / "rank-0.log", rank=0, host="node-a")
    assert v0.category != "out_of_memory"
