"""The node's kernel log, read where the NVIDIA driver, the kernel and the NIC drivers write it.

    from nonstop.diagnose.kernel_log import KernelLog
    klog = KernelLog(since_s=attempt_start)      # wall-clock start of the attempt
    lines = klog.read()                           # new records since the last read (cheap)
    klog.source, klog.why                         # "kmsg", or why nothing was readable

Sources, in order: ``/dev/kmsg`` (every record has a sequence number and a timestamp; the file
descriptor stays open, so each read returns only new records), else ``journalctl -k`` (journald's
copy, wall-clock timestamps), else ``dmesg`` (the ring buffer through the dmesg binary). The file
named by ``NONSTOP_KERNEL_LOG`` is read as well when set: a copy of the host's kern.log mounted
into a container, or where nonstop's fault injector writes Xid lines when /dev/kmsg is not
writable (not root). When none is readable, ``why`` says what was tried and what failed.

Lines from before the attempt never count. The reader is opened (or `rebase`d) when the attempt
starts: a /dev/kmsg record with a higher sequence number than the last one in the buffer then
counts whatever its timestamp, and one at or below it never counts after a rebase. Only the
records already in the buffer when the reader first opens are judged by timestamp (at or after
the attempt's start), because the kernel's record clock drifts from the wall clock, more with
every hour of uptime (docs/benchmarks.md, "Figures behind the code"). Lines name their process
by pid
(``pid=1234`` in Xid lines, ``Killed process 1234`` from the OOM killer, ``python[1234]:
segfault``); `attribute` gives each line to a rank by pid, or to the node when it names no
process, or marks it foreign (another process on this host: not our evidence). The kernel
prints pids as the host's initial pid namespace numbers them; in a container's own pid
namespace the ranks' pids are the container's, so a pid that is not one of them may still be
a rank's: such a line is unattributed (kept as the node's), never foreign.

Standard library only; no torch.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import re
import shutil
import subprocess
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from nonstop import envvars, log
from nonstop.kmsg import (  # noqa: F401 (the writers: nonstop.kmsg, re-exported)
    KMSG,
    write_file_line,
    write_kmsg,
)

_log = log.get("diagnose.kernel_log")

ENV_KERNEL_LOG: Final = envvars.KERNEL_LOG
CLOCK_SLACK_S: Final = 0.02
"""The kernel's record clock (local_clock) drifts from CLOCK_MONOTONIC, from which its wall
times are derived, more with uptime (docs/benchmarks.md, "Figures behind the code"), so a
record written just after a window opened can read as before it. Records the reader sees
arrive count by sequence number instead; this slack is for the ones already in the buffer
when it opens."""
_NEVER: Final = 2**63
MAX_LINES: Final = 20_000  # kept per attempt; a noisy host cannot fill memory
COMMAND_TIMEOUT_S: Final = 5.0

# The process a kernel line is about. Xid: "pid=1234" (or pid='<unknown>'); OOM killer:
# "Killed process 1234 (python)", "oom-kill:...,pid=1234,"; oom_reaper: "reaped process 1234";
# faults: "python[1234]: segfault at", "traps: python[1234] general protection".
PID_PATTERNS: Final = (
    re.compile(r"\bpid[=: ]'?(?P<pid>\d+)"),
    re.compile(r"[Kk]illed process (?P<pid>\d+)"),
    re.compile(r"reaped process (?P<pid>\d+)"),
    re.compile(r"\S+\[(?P<pid>\d+)\]:? (?:segfault|general protection|trap )"),
    re.compile(r"traps: \S+\[(?P<pid>\d+)\]"),
)
# Lines of an OOM event that name no victim (the task that triggered the kill may be anyone's);
# the victim's own line ("Killed process N") carries the pid.
OOM_CONTEXT: Final = re.compile(r"invoked oom-killer|^Mem-Info:|oom_score_adj|Tasks state")
XID_LINE: Final = re.compile(r"NVRM: Xid \((?:PCI:)?(?P<pci>[0-9a-fA-F:.]+)\): (?P<xid>\d+)")
_ISO = re.compile(r"^(?P<ts>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)\s+")
_LAST_S: Final = 253402300800.0  # 10000-01-01T00:00:00Z (tests/props/test_props_fuzz_kernel_log.py)
_FUTURE_SLACK_S: Final = 86400.0
"""How far ahead of the reader's clock a year-less syslog stamp may be and still be this year's."""
_SYSLOG = re.compile(r"^(?P<ts>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d)\s+")


@dataclass(frozen=True)
class KernelLine:
    """One kernel log record."""

    time_s: float
    """Wall-clock time of the record (epoch seconds)."""
    text: str
    """The message, without the record's header."""
    source: str
    """kmsg, journalctl, dmesg or file."""
    seq: int | None = None
    """/dev/kmsg's sequence number (None for other sources)."""

    @property
    def pid(self) -> int | None:
        """The process the line is about, when it names one."""
        for p in PID_PATTERNS:
            if m := p.search(self.text):
                return int(m.group("pid"))
        return None

    def format(self, host: str, note: str = "") -> str:
        """ISO-syslog form (`2026-12-01T10:35:48.123456+00:00 HOST kernel: TEXT`), which
        `nonstop triage` reads with the host."""
        ts = _dt.datetime.fromtimestamp(self.time_s, _dt.UTC).isoformat()
        return f"{ts} {host} kernel: {self.text}" + (f"  [nonstop: {note}]" if note else "")


def parse_kmsg_record(raw: bytes, boot_wall_s: float) -> tuple[int, float, str] | None:
    """(seq, wall time, message) of one /dev/kmsg record: 'prio,seq,usec,flags;text\\n'
    followed by optional ' KEY=value' continuation lines (dropped)."""
    head, sep, rest = raw.partition(b";")
    if not sep:
        return None
    fields = head.split(b",")
    if len(fields) < 3:
        return None
    try:
        seq, usec = int(fields[1]), int(fields[2])
    except ValueError:
        return None
    text = rest.split(b"\n", 1)[0].decode("utf-8", "replace")
    text = re.sub(r"\\x([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), text)  # kmsg escapes
    return seq, boot_wall_s + usec / 1e6, text


def parse_timestamped(
    line: str, *, year: int | None = None, now_s: float | None = None
) -> tuple[float | None, str]:
    """(wall time or None, message) of a text log line with an ISO or classic syslog stamp.
    The host and the 'kernel:' tag stay in the message (triage reads the host from them).
    A classic stamp has no year: `year` when given, else the year that puts it at or before
    `now_s` (time.time()): a December line read in January is last year's, not in the
    future (a day's slack for a clock or a zone a little ahead)."""
    if m := _ISO.match(line):
        raw = m.group("ts").replace(",", ".").replace("Z", "+00:00")
        with contextlib.suppress(ValueError):
            t = _dt.datetime.fromisoformat(raw)
            if t.tzinfo is None:
                t = t.astimezone()
            if 0 <= t.timestamp() < _LAST_S:  # a stamp past 9999 UTC cannot be written back
                return t.timestamp(), line[m.end() :]
    if m := _SYSLOG.match(line):
        now = time.time() if now_s is None else now_s
        y = year or time.localtime(now).tm_year
        with contextlib.suppress(ValueError):
            t = _dt.datetime.strptime(f"{y} {m.group('ts')}", "%Y %b %d %H:%M:%S")
            if year is None and t.timestamp() > now + _FUTURE_SLACK_S:
                t = t.replace(year=y - 1)  # Feb 29 of a leap year has no last year: ValueError
            return t.timestamp(), line[m.end() :]
    return None, line


def boot_wall_s() -> float:
    """Wall-clock time of boot as the kernel's record timestamps count from it."""
    return time.time() - time.clock_gettime(time.CLOCK_MONOTONIC)


@dataclass
class KernelLog:
    """Incremental reader of this node's kernel log from `since_s` (wall clock) on; it opens
    at construction, so create it when the window starts.

    /dev/kmsg's timestamps are the kernel's own clock, which drifts from the wall clock over a
    long uptime, so sequence numbers draw the boundary where they can: a record that arrives
    after the reader opened (or after `rebase`, for a window already begun) counts; one the
    reader had seen before a `rebase` never counts again. Only the records already in the
    buffer when it opens are judged by timestamp (at or after `since_s`).
    """

    since_s: float
    extra_file: str | None = None
    """Also read this file (default: $NONSTOP_KERNEL_LOG)."""
    kmsg_path: str = KMSG
    use_commands: bool = True
    """Fall back to journalctl -k / dmesg when /dev/kmsg is not readable."""
    source: str = ""
    why: str = ""
    floor_seq: int = -1
    """Records with a sequence number at or below this one predate the window."""
    _fd: int | None = field(default=None, repr=False)
    _boot: float = field(default=0.0, repr=False)
    _file_offset: int = field(default=0, repr=False)
    _last_seq: int = field(default=-1, repr=False)
    _trust_seq: int = field(default=_NEVER, repr=False)
    """Records above this sequence number arrived in the window: no timestamp test."""
    _backlog: list[KernelLine] = field(default_factory=list, repr=False)
    _cmd_seen: set[tuple[float, str]] = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        if self.extra_file is None:
            self.extra_file = os.environ.get(ENV_KERNEL_LOG) or None
        self._open()

    # -- opening ---------------------------------------------------------------------------

    def _open(self) -> None:
        tried = []
        try:
            self._fd = os.open(self.kmsg_path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            self._boot = boot_wall_s()
            self.source = "kmsg"
            self._backlog = self._read_kmsg()  # what was there before: judged by timestamp
            if self.since_s <= time.time() + CLOCK_SLACK_S:
                self._trust_seq = self._last_seq
        except OSError as e:
            tried.append(f"{self.kmsg_path}: {e.strerror or e}")
            for cmd in ("journalctl", "dmesg") if self.use_commands else ():
                ok, why = self._try_command(cmd)
                if ok:
                    self.source = cmd
                    break
                tried.append(why)
        if not self.source:
            self.why = (
                "no kernel log readable: "
                + "; ".join(tried)
                + f" (run as root, or set {ENV_KERNEL_LOG}=FILE to a readable copy)"
            )
        elif tried:
            self.why = f"{self.source}, because " + "; ".join(tried)
        if self.extra_file:
            self.source = "+".join(filter(None, (self.source, "file")))
            self.why = "; ".join(
                filter(None, (self.why, f"and {ENV_KERNEL_LOG}={self.extra_file}"))
            )

    def _command(self, cmd: str) -> list[str]:
        if cmd == "journalctl":
            since = max(0.0, self.since_s - 2)
            return [
                "journalctl",
                "-k",
                "-q",
                "--no-pager",
                "-o",
                "short-iso-precise",
                "--since",
                f"@{since:.0f}",
            ]
        return ["dmesg", "--time-format", "iso"]

    def _run(self, cmd: str) -> subprocess.CompletedProcess[str]:
        """`cmd`'s kernel log since the window's start, captured (its errors raised)."""
        return subprocess.run(
            self._command(cmd),
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT_S,
            errors="replace",
        )

    def _try_command(self, cmd: str) -> tuple[bool, str]:
        if shutil.which(cmd) is None:
            return False, f"{cmd}: not installed"
        try:
            r = self._run(cmd)
        except (OSError, subprocess.TimeoutExpired) as e:
            return False, f"{cmd}: {e}"
        if r.returncode != 0 or (cmd == "journalctl" and "No journal files" in r.stderr):
            msg = (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[-1]
            return False, f"{cmd}: {msg[:200]}"
        return True, ""

    def rebase(self, since_s: float) -> None:
        """Start a new window (a new attempt) at `since_s`: what the reader has already seen
        predates it, whatever the records' timestamps say."""
        self.since_s = since_s
        self.floor_seq = self._last_seq
        self._trust_seq = self._last_seq if since_s <= time.time() + CLOCK_SLACK_S else _NEVER

    def __del__(self) -> None:  # a raw fd outlives its object unless closed: one per agent
        self.close()

    def close(self) -> None:
        fd = getattr(self, "_fd", None)  # absent if __init__ failed before it: __del__ still runs
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
            self._fd = None

    # -- reading ---------------------------------------------------------------------------

    def read(self) -> list[KernelLine]:
        """New records of the window since the last call, oldest first."""
        out, self._backlog = self._backlog, []
        if self._fd is not None:
            out += self._read_kmsg()
        elif self.source.split("+")[0] in ("journalctl", "dmesg"):
            out += self._read_command(self.source.split("+")[0])
        if self.extra_file:
            out += self._read_file(self.extra_file)
        out.sort(key=lambda ln: ln.time_s)
        return out

    def _read_kmsg(self) -> list[KernelLine]:
        assert self._fd is not None
        out: list[KernelLine] = []
        while len(out) < MAX_LINES:
            try:
                raw = os.read(self._fd, 8192)
            except BlockingIOError:
                break
            except BrokenPipeError:  # the ring buffer overwrote records we had not read
                continue
            except OSError as e:
                self.why = f"/dev/kmsg read failed: {e.strerror or e}"
                self.close()
                break
            if not raw:
                break
            rec = parse_kmsg_record(raw, self._boot)
            if rec is None:
                continue
            seq, t, text = rec
            self._last_seq = max(self._last_seq, seq)
            if seq > self.floor_seq and (
                seq > self._trust_seq or t >= self.since_s - CLOCK_SLACK_S
            ):
                out.append(KernelLine(t, text, "kmsg", seq))
        return out

    def _read_command(self, cmd: str) -> list[KernelLine]:
        try:
            r = self._run(cmd)
        except (OSError, subprocess.TimeoutExpired) as e:
            self.why = f"{cmd} failed: {e}"
            return []
        out = []
        for line in r.stdout.splitlines():
            t, text = parse_timestamped(line)
            if t is None or t < self.since_s or (t, text) in self._cmd_seen:
                continue
            self._cmd_seen.add((t, text))
            # journalctl/dmesg print "HOST kernel: TEXT" / "TEXT": keep the message only
            text = re.sub(r"^\S+ kernel: ", "", text)
            out.append(KernelLine(t, text, cmd))
        return out

    def _read_file(self, path: str) -> list[KernelLine]:
        try:
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                if size < self._file_offset:  # rotated or truncated: start over
                    self._file_offset = 0
                f.seek(self._file_offset)
                data = f.read(8 << 20)
        except FileNotFoundError:
            return []  # nothing written yet
        except OSError as e:
            self.why = f"{path}: {e.strerror or e}"
            return []
        end = data.rfind(b"\n") + 1
        self._file_offset += end
        out = []
        for raw in data[:end].decode("utf-8", "replace").splitlines():
            t, text = parse_timestamped(raw)
            if t is None or t < self.since_s:
                continue
            text = re.sub(r"^(?:\S+ )?kernel: ", "", text)
            out.append(KernelLine(t, text, "file"))
        return out


@dataclass(frozen=True)
class Attributed:
    line: KernelLine
    rank: int | None
    """The rank whose process the line names; None for node-level lines."""
    foreign: bool = False
    """The line names a process that is not one of our ranks: not our evidence."""
    unattributed: bool = False
    """The line names a pid that this pid namespace cannot tell from our ranks' (a container's
    own namespace: the kernel prints the host's pids): kept as the node's."""


INIT_PID_NS_INODE: Final = 0xEFFFFFFC
"""The inode of the initial pid namespace (the kernel's PROC_PID_INIT_INO), as
/proc/self/ns/pid shows it: the namespace whose pids the kernel log prints."""


def in_host_pid_namespace(ns_path: str = "/proc/self/ns/pid") -> bool:
    """Whether this process sees the pids the kernel log prints (the initial pid namespace);
    False in a container's own pid namespace. Where it cannot be read, True: the pids are
    compared as they always were."""
    try:
        return os.stat(ns_path).st_ino == INIT_PID_NS_INODE
    except OSError:
        return True


def attribute(
    lines: list[KernelLine],
    pids: dict[int, int],
    gpu_ranks: dict[str, int] | None = None,
    *,
    host_pids: bool | None = None,
) -> list[Attributed]:
    """Give each line to a rank by pid (pids: pid -> rank), or by the Xid's PCI bus id through
    `gpu_ranks` ('3b:00' -> rank, from NVML where present); lines that name no process are the
    node's; lines that name another process are foreign, unless `pids` are not the kernel's
    (`host_pids` False, by default in_host_pid_namespace()): then they are unattributed."""
    gpu_ranks = gpu_ranks or {}
    if host_pids is None:
        host_pids = in_host_pid_namespace()
    out = []
    for ln in lines:
        if OOM_CONTEXT.search(ln.text):
            continue
        pid = ln.pid
        rank = pids.get(pid) if pid is not None else None
        if rank is None and (m := XID_LINE.search(ln.text)):
            rank = gpu_ranks.get(_bus(m.group("pci")))
        other = rank is None and pid is not None
        out.append(
            Attributed(ln, rank, foreign=other and host_pids, unattributed=other and not host_pids)
        )
    return out


def _bus(pci: str) -> str:
    parts = pci.lower().split(":")
    bus = parts[-2] if len(parts) >= 2 else parts[-1]
    return f"{bus[-2:]}:{parts[-1].split('.')[0][:2]}"


class NodeKernelWatch:
    """What a node agent keeps of the kernel log: read cheaply while an attempt runs (so the
    ring buffer cannot lose the lines), and on every detection written under the run directory
    as ``logs/attempt-N/kernel-HOST.log`` (this node's lines: its ranks' and the node's own) and
    ``kernel-HOST.json`` (source, why, counts, lines left out as another process's)."""

    def __init__(
        self,
        run_root: str | os.PathLike[str],
        host: str,
        *,
        min_interval_s: float = 2.0,
        kmsg_path: str = KMSG,
        extra_file: str | None = None,
    ) -> None:
        self.root, self.host = Path(run_root), host
        self.min_interval_s = min_interval_s
        self.kmsg_path = kmsg_path
        # the file read besides /dev/kmsg (KernelLog.extra_file: None reads ENV_KERNEL_LOG,
        # "" none; the supervisor passes its --kernel-log)
        self.extra_file = extra_file
        self.attempt: int | None = None
        self.klog: KernelLog | None = None
        self.lines: list[KernelLine] = []
        self.dropped = 0
        self._last_read = -1e18

    def poll(self, attempt: int, attempt_start_s: float, *, force: bool = False) -> None:
        """Read new records (at most every `min_interval_s` unless forced)."""
        if attempt != self.attempt:
            if self.klog is None:
                self.klog = KernelLog(
                    since_s=attempt_start_s, kmsg_path=self.kmsg_path, extra_file=self.extra_file
                )
            else:
                self.klog.read()  # what is in the buffer now belongs to the old attempt
                self.klog.rebase(attempt_start_s)
            self.attempt, self.lines, self.dropped = attempt, [], 0
            force = True
        now = time.monotonic()
        if not force and now - self._last_read < self.min_interval_s:
            return
        self._last_read = now
        assert self.klog is not None
        new = self.klog.read()
        room = MAX_LINES - len(self.lines)
        self.lines += new[:room]
        self.dropped += max(0, len(new) - room)

    def keep(
        self,
        attempt: int,
        attempt_start_s: float,
        pids: dict[int, int],
        gpu_ranks: dict[str, int] | None = None,
    ) -> Path:
        """Read what is new, attribute it, and write this node's lines under the run dir."""
        import json

        self.poll(attempt, attempt_start_s, force=True)
        assert self.klog is not None
        host_pids = in_host_pid_namespace()  # else the ranks' pids are not the kernel's
        att = attribute(self.lines, pids, gpu_ranks, host_pids=host_pids)
        mine = [a for a in att if not a.foreign]
        folder = self.root / "logs" / f"attempt-{attempt}"
        folder.mkdir(parents=True, exist_ok=True)
        out = folder / f"kernel-{self.host}.log"
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text("".join(a.line.format(self.host, _note(a)) + "\n" for a in mine))
        os.replace(tmp, out)
        meta = {
            "source": self.klog.source or None,
            "why": self.klog.why,
            "since_s": self.klog.since_s,
            "floor_seq": self.klog.floor_seq,
            "lines": len(mine),
            "dropped": self.dropped,
            "foreign": sum(a.foreign for a in att),
            "unattributed": sum(a.unattributed for a in att),
            "host_pids": host_pids,
            "ranks": sorted({a.rank for a in mine if a.rank is not None}),
            "pids": {str(p): r for p, r in pids.items()},
        }
        (folder / f"kernel-{self.host}.json").write_text(json.dumps(meta, indent=1) + "\n")
        return out


def _note(a: Attributed) -> str:
    """What the kept line says of its attribution (triage reads a `rank N` in it)."""
    if a.rank is not None:
        return f"rank {a.rank}, pid {a.line.pid}"
    if a.unattributed:
        return f"pid {a.line.pid} unknown in this container's pid namespace: the node's"
    return ""


def kernel_file(log_path: str | os.PathLike[str], host: str) -> Path:
    """The kernel-log file a node agent keeps next to a rank's log."""
    return Path(log_path).parent / f"kernel-{host}.log"


def gpu_ranks_from_nvml(local_to_global: dict[int, int]) -> dict[str, int]:
    """PCI bus ('3b:00') -> global rank of the rank using that GPU, from NVML; {} without."""
    try:
        from nonstop.runtime.telemetry import _device_for, load_nvml

        nvml = load_nvml()  # never raises: None without a library, driver or GPU
    except ImportError as e:
        _log.debug("no NVML for the GPUs' bus ids: %r", e)
        return {}
    if nvml is None:
        return {}
    out = {}
    # NVMLError: a GPU the driver cannot describe; other errors are ours, said at WARNING
    with log.swallowed(
        _log,
        "mapping GPUs to ranks through NVML (Xid lines stay unattributed)",
        expected=getattr(nvml, "NVMLError", ()),
    ):
        count = nvml.nvmlDeviceGetCount()
        for local, rank in local_to_global.items():
            h = nvml.nvmlDeviceGetHandleByIndex(_device_for(local, count))
            bus = nvml.nvmlDeviceGetPciInfo(h).busId
            out[_bus(bus.decode() if isinstance(bus, bytes) else str(bus))] = rank
    return out


_WATCHES: weakref.WeakKeyDictionary[object, NodeKernelWatch] = weakref.WeakKeyDictionary()


def watch_for(
    agent: object, run_root: str | os.PathLike[str], host: str, extra_file: str | None = None
) -> NodeKernelWatch:
    """The one NodeKernelWatch of a node agent (kept here, so the agent holds no new state);
    `extra_file` as NodeKernelWatch's, used when the watch is made."""
    w = _WATCHES.get(agent)
    if w is None:
        w = _WATCHES[agent] = NodeKernelWatch(run_root, host, extra_file=extra_file)
    return w


def release_for(agent: object) -> None:
    """Close the kernel log an agent read (it is being replaced: a lost rendezvous store)."""
    w = _WATCHES.pop(agent, None)
    if w is not None and w.klog is not None:
        w.klog.close()


def poll_for(
    agent: object, run_root: str | os.PathLike[str], host: str, extra_file: str | None = None
) -> None:
    """The agent's cheap periodic read (its monitor loop): never raises."""
    attempt, start = getattr(agent, "attempt", None), getattr(agent, "attempt_start", None)
    if not isinstance(attempt, int) or attempt < 0 or not isinstance(start, float):
        return
    try:
        watch_for(agent, run_root, host, extra_file).poll(attempt, start)
    except Exception as e:  # monitoring never costs the job
        w = _WATCHES.get(agent)
        if w is not None and w.klog is not None:
            w.klog.why = f"kernel log read failed: {e!r}"
