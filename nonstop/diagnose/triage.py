"""Log triage: classify log files by the signatures of nonstop.diagnose.signatures.

    nonstop triage logs/attempt-0/*.log /var/log/kern.log [--json]

Streaming and bounded: a file is read in chunks of a few MB; one combined regular expression
(`PREFILTER`) finds candidate lines inside each chunk, and only those lines are tried against
each signature. Memory is one chunk plus a capped list of evidence lines, whatever the file
size. Bytes are never decoded except for evidence lines.

Python's regex engine scans that prefilter an order of magnitude slower than a literal
searcher (figures with their dates: docs/diagnose.md). For a file of GREP_MIN_BYTES or more,
an external searcher finds the same candidate lines and Python classifies what it prints:
ripgrep where it is installed (the fastest; the needles with Unicode off, `(?-u)`: ASCII
case folding and word boundaries), else GNU grep (the needles as an ERE, `-i` in the C
locale: the same semantics), else, or when the program fails, the Python scan.
NONSTOP_TRIAGE_SEARCH picks one. tests/props pins that each gives the Python scan's hits on any
bytes.

When several signatures match, the most specific wins (highest `specificity`, then earliest):
an ``NCCL watchdog timeout`` after ``Xid 79`` is a faulty GPU on the Xid's host. The culprit's
host, rank and GPU come from the winning line (kernel syslog host, NCCL ``host:pid:tid [gpu]``
prefix, ``[rankN]`` prefix, Xid PCI bus id mapped to a GPU index through nvidia-smi lines in any
scanned file or a given map) and fall back to what the caller knows (the file's rank and host).

When no signature matches at all and a line of the file has a failure marker (a generic
failure word or the look of a stack dump, a signal, a port down: signatures.MARKERS, found in
the same pass as the rows' needles), the statistical fallback (nonstop.diagnose.fallback) reads
the words of the file's last FALLBACK_TAIL_BYTES and may name a category (a file without any
marker is "no known failure signature" without it: clean rank logs cost no guess): the verdict then says
"Guess", carries `guessed=True` and the guess's probability as its confidence; below the
fallback's threshold it stays unknown, and a guessed hardware fault is only weak evidence
(restart, confidence at most 0.3: a guess never excludes a node; its category named at the
fallback's hardware threshold, unknown below it), as is a guess that would page someone below
the fallback's page threshold (unknown, restart). It never overrides a row: any hit, even one
a row reads as unknown, decides as before.

Before the fallback, a file no row matched is read for a loss spike in its numbers (`spike`: a
training loss or a gradient norm far above the median of the values logged before it, in the
last SPIKE_TAIL_BYTES), a jump between lines that no row can see; it too yields to any row.

Text a user hands `nonstop triage` (`descriptions=True`; never `triage_rank`, never a run's rank
logs) may be a reporter's description with no log line at all; where no row matched, the
description reader (nonstop.diagnose.prose) reads it before the fallback and may name a category:
"Guess from a description", `details["guess"]["from"] == "description"`. Before the reader, a
short text (at most prose.MAX_LINES lines and prose.MAX_BYTES) whose sentences state an operator's own hardware
conclusion ("please drain this node, one GPU is not working", "we swapped the PSU":
nonstop.diagnose.advice) is told as that category with its action, exclude_node for a part of
the node, as advice: "Advice from an operator's words", confidence advice.ADVICE_CONFIDENCE,
`details["guess"]["from"] == "operator"`. The automated path (`triage_rank`) never reads it: a
run's logs never exclude a node on words.
"""

from __future__ import annotations

import builtins
import os
import re
import shutil
import signal
import subprocess
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO, Final

from nonstop import envvars, taxonomy
from nonstop.diagnose import elastic, fallback, inputs, prose
from nonstop.diagnose.signatures import (
    BY_ID,
    CAUSES_LISTED,
    COMPILED,
    DIED_OF_SIGNAL,
    MARKER,
    MARKER_WORD_END,
    MARKERS,
    NEEDLES,
    PCI_MAP_LINE,
    PREFILTER,
    ROWS_BY_NEEDLE,
    SURVIVED,
    SURVIVED_DISCOUNT,
    WORD_END,
    XID_LOOSE_DISCOUNT,
    XIDS,
)
from nonstop.diagnose.verdict import Culprit, Verdict
from nonstop.diagnose.xids import recovery_action
from nonstop.errors import UserError

CHUNK_BYTES = 8 << 20
GREP_MIN_BYTES = 1 << 20  # smaller files: starting grep costs more than it saves
MAX_EVIDENCE = 20  # evidence lines kept per file
ECHO = 1  # the specificity of a line that repeats another rank's failure (torchrun's summary)
MAX_LINE = 400  # characters of a line kept as evidence
EXCLUDE_MIN_CONFIDENCE = 0.5  # below this, a hardware verdict is reported as unknown (restart)
FALLBACK_TAIL_BYTES = 256 << 10  # what the fallback reads of a file no row matched: its end
# An Xid code newer than the catalog: a driver error of unknown meaning is weak evidence.
_UNLISTED_XID = (taxonomy.UNKNOWN, 40, 0.3, "an Xid not in NVIDIA's catalog as nonstop has it")

# a syslog line's program: the kernel, or a name with its pid (a bare word could be a device's
# subsystem in a dmesg line: "sd 0:0:0:0: [sda] ...")
_PROGRAM = rb"(?:kernel|[\w.-]+\[\d+\]):"
_HOST_PATTERNS = (
    # syslog, journalctl's default (short) and short-precise (fractional seconds)
    re.compile(rb"^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)? (?P<host>[\w.-]+) "),
    # ISO syslog; the program a name, then ": " (`kubectl logs --timestamps` before a glog line,
    # "2026-12-05T16:45:22.1Z E1205 16:45:22.548 ...", named the host "E1205")
    re.compile(rb"^\d{4}-\d\d-\d\dT\S+ (?P<host>[\w.-]+) [A-Za-z][\w.-]*(?:\[\d+\])?:(?!\S)"),
    # journalctl -o short-full ("Sun 2026-11-29 03:12:41 UTC node-b kernel:"), short-unix
    # ("1764386000.001240 node-b kernel:") and short-monotonic ("[812346.001240] node-b ...")
    re.compile(
        rb"^[A-Z][a-z]{2} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ (?P<host>[\w.-]+) "
        + _PROGRAM
    ),
    re.compile(rb"^(?:\d{9,}\.\d+|\[\s*\d+\.\d+\]) (?P<host>[\w.-]+) " + _PROGRAM),
    re.compile(rb'"_HOSTNAME"\s*:\s*"(?P<host>[\w.-]+)"'),  # journalctl -o json
    # Slurm: "*** JOB 1234 ON node12 CANCELLED AT ...", "srun: error: node12: task 3: Killed"
    # ("srun: error: Node failure on node12" is a subject line: _SUBJECT_PATTERNS)
    re.compile(rb"\*\*\* (?:JOB|STEP) [\w.+]+ ON (?P<host>[\w.-]+) CANCELLED"),
    re.compile(rb"\bsrun: error: (?P<host>[\w.-]+): tasks? [\d,-]+:"),
    # Open MPI: "mpirun noticed that process rank 1 with PID 4242 on node node02 exited on ..."
    re.compile(rb"\bprocess rank \d+ with PID \d+ on node (?P<host>[\w.-]+)"),
    # Ray: a worker's output prefix on another node ("(RayTrainWorker pid=1234, ip=10.0.0.5)")
    # and a task's error ("ray::Runner.run() (pid=104449, ip=10.130.71.7, actor_id=...)");
    # SkyPilot's on a multi-node job's workers ("(worker1, rank=1, pid=2875, ip=172.31.4.17)")
    re.compile(
        rb"\((?:[\w.:-]+(?:, rank=\d+)?,? )?pid=\d+, ip=(?P<host>[\d.]+|[0-9a-fA-F:]*:[0-9a-fA-F:]+)[,)]"
    ),
    re.compile(rb"^(?:\[rank\d+\]:\s*)?(?P<host>[A-Za-z][\w.-]*):\d+:\d+ \[(?P<gpu>\d+)\] "),
    re.compile(rb"(?:on host|hostname[=:]|host[=:] ?)\s*(?P<host>[A-Za-z][\w.-]+)"),
)
# A scheduler's or cluster manager's line about a node names that node as its subject: the
# failing host is the node named, not the host whose log header carries the line (slurmctld on
# the controller: "ctl slurmctld[812]: error: Nodes gpu-[17-18] not responding, setting DOWN"
# is about gpu-17 and gpu-18). A Slurm hostlist ("gpu-[17-18]") is kept as written: Slurm's
# own --exclude and scontrol take it as it is.
_NODE = rb"(?P<host>[A-Za-z][\w.-]*(?:\[[\d,-]+\][\w.-]*)?)"
_SUBJECT_PATTERNS = (
    re.compile(rb"\bNodes? " + _NODE + rb" not responding\b"),
    re.compile(rb"\b(?:update_node|drain_nodes): node " + _NODE + rb" (?:reason|state) set to\b"),
    re.compile(rb"\bnode " + _NODE + rb" (?:has been|was) marked (?:as )?dead\b"),
    re.compile(rb"\bkilled: node " + _NODE + rb" (?:is )?down\b"),
    re.compile(rb"\bnode " + _NODE + rb" (?:went|has gone) down\b"),
    re.compile(rb"\bhost <(?P<host>[^>\s]+)> became unavailable\b"),
    re.compile(rb"\bNode failure on " + _NODE),
    re.compile(rb"\bNode " + _NODE + rb" status is now: NodeNotReady\b"),
)
# "[rank1]:" (torch), "[Rank 1]", "[rank: 1]" (Lightning's rank_prefixed_message), "[RANK 1]"
# (accelerate's logger with main_process_only=False), "rank=1"
# a launcher's sentence about a rank's process ("Rank 1 crashed with exit code -9.", Composer's
# launcher) names it too; a capital "Rank N" elsewhere (DeepSpeed's "OVERFLOW! Rank 0 Skipping
# step") is not read as one
# torch.multiprocessing.spawn's ProcessExitedException ("process 1 terminated with signal
# SIGKILL", "... with exit code 3") names its process by mp.spawn's index, the rank that
# `mp.spawn(main, nprocs=N)` hands main (in a one-node job, as PyTorch's DDP tutorial runs it)
_RANK = re.compile(
    rb"\[(?i:rank)(?:: ?| ?)(?P<rank>\d+)\]|\brank[ =:](?P<rank2>\d+)\b"
    rb"|\bRank (?P<rank3>\d+) (?:crashed|exited|terminated) with\b"
    rb"|\b[Pp]rocess (?P<rank4>\d+) terminated with (?:signal|exit code)\b"
)


def _rank_of(m: re.Match[bytes]) -> int:
    """The rank a match of _RANK names (whichever of its forms matched)."""
    return int(m.group("rank") or m.group("rank2") or m.group("rank3") or m.group("rank4"))


_PCI = re.compile(rb"(?:PCI:|GPU )(?:[0-9a-fA-F]{4,8}:)?(?P<pci>[0-9a-fA-F]{2}:[0-9a-fA-F]{2})\b")
_GPU = re.compile(rb"cuda:(?P<gpu>\d+)|\bGPU (?P<gpu2>\d+)\b|\bdevice (?P<gpu3>\d+)\b")


@dataclass
class Hit:
    """One line that matched a signature."""

    signature: str
    category: str
    specificity: int
    confidence: float
    meaning: str
    file: str
    line: int
    text: str
    host: str | None = None
    rank: int | None = None
    gpu: int | None = None
    pci: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "text": self.text,
            "signature": self.signature,
            "meaning": self.meaning,
        }


@dataclass
class Scan:
    """What scanning one file found: capped hits, counts, and the PCI-to-GPU map seen."""

    file: str
    hits: list[Hit] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    pci_map: dict[str, int] = field(default_factory=dict)
    lines: int = 0
    bytes: int = 0
    marked: bool = False
    """A line of the file has one of the failure markers (signatures.MARKERS): only then is the
    statistical fallback asked about a file no row matched."""
    torchrun: elastic.Summary | None = None
    """torchrun's failure summary in the file (its root cause), if it printed one."""
    tail: builtins.bytes | None = field(default=None, repr=False)
    """The file's last SPIKE_TAIL_BYTES as `_tail` reads them, where the scan kept them."""


def prepare() -> None:
    """Build now what the first `triage_rank` would build on first use: the needles' and the
    failure markers' tries, the statistical fallback's table and the searcher's probe (about
    0.2 s of CPU on this 2-core machine). The supervisor calls it on a thread as its first
    attempt starts, so that its first failure does not wait for them
    (nonstop.supervisor.agent, `_warm_triage`)."""
    PREFILTER.compiled()
    MARKER.compiled()
    fallback.model()
    _search()


def _bus(pci: str) -> str:
    """Normalise a PCI address to 'bus:device' lower case: '0000:3b:00.0' -> '3b:00'."""
    parts = pci.lower().split(":")
    bus = parts[-2] if len(parts) >= 2 else parts[-1]
    dev = parts[-1].split(".")[0]
    return f"{bus[-2:]}:{dev[:2]}"


_ROW_AT: dict[str, tuple[int, ...]] = {}
for _i, (_sid, _) in enumerate(COMPILED):
    _ROW_AT[_sid] = (*_ROW_AT.get(_sid, ()), _i)


def _classify(line: bytes) -> list[tuple[str, re.Match[bytes]]]:
    """Try only the rows whose needles occur in the line (usually one or two regexes)."""
    rows = {r for m in PREFILTER.finditer(line.lower()) for r in ROWS_BY_NEEDLE[m.group()]}
    # in COMPILED's order, without walking its 100-odd rows for the usual one or two
    order = sorted(i for r in rows for i in _ROW_AT.get(r, ()))
    return [(sid, m) for sid, pat in (COMPILED[i] for i in order) if (m := pat.search(line))]


def _hit(sid: str, m: re.Match[bytes], line: bytes, file: str, lineno: int) -> Hit:
    pci = None
    if sid in ("xid", "xid_loose"):
        code = int(m.group("xid"))
        if sid == "xid":
            pci = _bus(m.group("pci").decode())
        cat, spec, conf, meaning = _xid_class(code, line)
        if sid == "xid_loose":  # quoted by another tool or a person: less weight
            spec, conf = max(1, spec - XID_LOOSE_DISCOUNT), max(0.1, conf - 0.15)
        sid, meaning = f"xid_{code}", f"Xid {code}: {meaning}"
    else:
        s = BY_ID[sid]
        cat, spec, conf, meaning = s.category, s.specificity, s.confidence, s.meaning
    if _SURVIVED.search(line):  # the process said it went on: not what ended it
        spec, conf = max(1, spec - SURVIVED_DISCOUNT), max(0.1, conf - 0.3)
        meaning = f"{meaning} (survived: the line says the process went on)"
    text = line.decode("utf-8", "replace").rstrip()[:MAX_LINE]
    h = Hit(sid, cat, spec, conf, meaning, file, lineno, text, pci=pci)
    _locate(h, line)
    return h


def _locate(h: Hit, line: bytes) -> None:
    """The host, rank and GPU that `line` names, onto `h`: a node the line is about
    (_SUBJECT_PATTERNS) before the host that logged it."""
    for hp in (*_SUBJECT_PATTERNS, *_HOST_PATTERNS):
        if hm := hp.search(line):
            h.host = hm.group("host").decode()
            if "gpu" in hm.groupdict():
                h.gpu = int(hm.group("gpu"))
            break
    if rm := _RANK.search(line):
        h.rank = _rank_of(rm)
    if h.pci is None and (pm := _PCI.search(line)):
        h.pci = pm.group("pci").decode().lower()
    if h.gpu is None and h.pci is None and (gm := _GPU.search(line)):
        h.gpu = int(next(g for g in gm.groups() if g is not None))


_SURVIVED = re.compile(SURVIVED)
_CAUSED_BY = re.compile(rb"caused by previous Xid (\d+)")


def _xid_class(code: int, line: bytes) -> tuple[str, int, float, str]:
    """What an Xid line says, refined by what the line itself adds: Xid 45 names the Xid that
    caused it, Xid 154 the recovery the driver now requires, NVLink5 Xids whether they are
    fatal."""
    if code == 45 and (m := _CAUSED_BY.search(line)):
        cause = int(m.group(1))
        if cause != 45:
            cat, spec, conf, meaning = XIDS.get(cause, _UNLISTED_XID)
            return cat, max(1, spec - 10), conf, f"cleanup after Xid {cause}: {meaning}"
    if code == 154:
        action = recovery_action(line.decode("utf-8", "replace")) or ""
        if action and action.lower() != "none":
            return (
                "faulty_gpu",
                85,
                0.8,
                f"GPU recovery action changed to {action}: the GPU needs a reset",
            )
    cat, spec, conf, meaning = XIDS.get(code, _UNLISTED_XID)
    if b"Nonfatal" in line or b"Non-fatal" in line:
        return taxonomy.UNKNOWN, 25, 0.25, f"{meaning} (reported as non-fatal)"
    return cat, spec, conf, meaning


def scan(path: str | Path, *, chunk_bytes: int = CHUNK_BYTES, grep: bool | None = None) -> Scan:
    """Scan one file (streaming, bounded memory) for signature hits. `grep`: find candidate
    lines with an external searcher, ripgrep or GNU grep (None: when the file has
    GREP_MIN_BYTES or more and one is usable; see `_search`)."""
    path = Path(path)
    try:
        f: BinaryIO = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as e:
        raise UserError(f"{path}: cannot read log ({e.strerror or e})") from None
    if grep is None:
        try:
            grep = os.fstat(f.fileno()).st_size >= GREP_MIN_BYTES
        except OSError:
            grep = False
    if grep and _search() is not None:
        f.close()
        got = _grep_scans([path], chunk_bytes)
        if got is not None:
            return got[0]
        f = open(path, "rb")  # noqa: SIM115 - closed below
    result = Scan(file=str(path))
    lineno, carry = 1, b""
    with f:
        while True:
            block = f.read(chunk_bytes)
            buf = carry + block
            if not block:
                if not buf:
                    break
                end = len(buf)  # the last line has no newline
            else:
                end = buf.rfind(b"\n") + 1
                if end == 0:  # one line longer than a chunk: keep reading
                    carry = buf
                    continue
            lineno = _scan_buffer(result, buf, end, lineno)
            result.bytes += end
            carry = buf[end:]
            if not block:
                lineno += 1  # the unterminated last line
                break
    result.lines = lineno - 1
    _structure(result)
    return result


def _structure(result: Scan) -> None:
    """What a file says beyond its lines one by one: the host before each line (pdsh), a
    `kubectl describe pod` header's node, torchrun's failure summary's root cause."""
    head = _head(result.file) if result.hits else []
    _prefix_hosts(result, head)
    _task_labels(result, head)
    _pod_hosts(result)
    _rank_blocks(result)
    _torchrun_root(result)


# pdsh (DeepSpeed's multi-node runner, `pdsh -w node[1-4] torchrun ...`) and ClusterShell's
# clush put the host that printed it before every line: "worker-1: [rank1]: ValueError: ...".
# A line alone cannot tell that prefix from "ValueError: " or "WARNING: ": a file's head is read
# for it, and names that look like hosts (a digit, '-' or '.' in them; no exception's name) are
# its hosts where they begin at least PREFIX_MIN_SHARE of its non-blank lines. Before,
# `nonstop triage` of `deepspeed --hostfile ...` output named no host.
_LINE_HOST = re.compile(rb"(?P<host>[A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*): ")
_NOT_HOST = re.compile(rb"(?:Error|Exception|Warning|Exit|Interrupt)$|^[^\d.-]*$")
PREFIX_SAMPLE_LINES = 500  # lines of a file's head read for a per-line host prefix
PREFIX_MIN_SHARE = 0.5


def line_prefix_hosts(head: list[bytes]) -> frozenset[bytes]:
    """The hosts that pdsh-style "host: " prefixes name in `head`, a file's first lines; empty
    when its lines carry no such prefix."""
    lines = [line for line in head if line.strip()]
    seen = Counter(
        m.group("host")
        for line in lines
        if (m := _LINE_HOST.match(line)) and not _NOT_HOST.search(m.group("host"))
    )
    hosts = {name for name, n in seen.items() if n >= 2}
    covered = sum(seen[name] for name in hosts)
    return frozenset(hosts) if lines and covered >= PREFIX_MIN_SHARE * len(lines) else frozenset()


def _head(path: str) -> list[bytes]:
    """The first PREFIX_SAMPLE_LINES lines of `path` (none if it cannot be read), where the
    per-line prefixes of pdsh and of srun --label are looked for."""
    try:
        with open(path, "rb") as f:
            return [line for _, line in zip(range(PREFIX_SAMPLE_LINES), f, strict=False)]
    except OSError:
        return []


def _prefix_hosts(result: Scan, head: list[bytes]) -> None:
    """Each hit on a line with a pdsh-style host prefix (found in the file's `head`): that host,
    and the rank and GPU the rest of the line names (a pattern anchored at a line's start sees
    past the prefix)."""
    hosts = line_prefix_hosts(head)
    if not hosts:
        return
    for h in result.hits:
        raw = h.text.encode()
        m = _LINE_HOST.match(raw)
        if m is None or m.group("host") not in hosts:
            continue
        h.host = h.rank = h.gpu = None
        _locate(h, raw[m.end() :])
        h.host = m.group("host").decode()


# Launchers that put the task's number before every line they relay: Slurm's `srun --label`
# ("1: RuntimeError: ...", padded " 3: " once there are ten tasks) and Open MPI's `mpirun
# --tag-output` ("[1,3]<stderr>:", job and rank). With one task per rank (SLURM_PROCID or
# OMPI_COMM_WORLD_RANK as RANK, the usual way to run PyTorch under either) the task is the
# rank; a rank the line names itself ("[rank5]:", torchrun started once per node) wins. Their
# own messages name the task's host ("srun: error: node07: task 1: Exited with exit code 1",
# "process rank 1 with PID 4242 on node node02 exited on signal 9"): each rank's lines get it.
# Before, `nonstop triage` of `srun --label` output named no rank and no host.
_TASK_LABEL = re.compile(rb" *(?P<task>\d+): ")
_MPI_TAG_RE: Final = rb"\[\d+,(?P<task>\d+)\]<std(?:out|err|diag)>: ?"
_MPI_TAG = re.compile(_MPI_TAG_RE)
_TASK_HOST = (
    re.compile(rb"\bsrun: error: (?P<host>[\w.-]+): tasks? (?P<tasks>[\d,-]+):"),
    re.compile(rb"\bprocess rank (?P<tasks>\d+) with PID \d+ on node (?P<host>[\w.-]+)"),
)
TASKS_NAMED_MAX = 65536  # a range "0-99999999" in a task list is not expanded past this


def _tasks(spec: bytes) -> list[int]:
    """The task numbers of Slurm's list "0-3,7"."""
    out: list[int] = []
    for part in spec.split(b","):
        lo, _, hi = part.partition(b"-")
        if lo.isdigit() and (not hi or hi.isdigit()):
            first, last = int(lo), int(hi or lo)
            out.extend(range(first, min(last, first + TASKS_NAMED_MAX) + 1))
    return out


def _task_labels(result: Scan, head: list[bytes]) -> None:
    """Each hit on a line a launcher labelled with its task (srun --label, found in the file's
    `head`; mpirun --tag-output): that task as its rank, unless the line names one, and the
    host a launcher's message named for that task, unless the line names one."""
    lines = [line for line in head if line.strip()]
    labels = [m.group("task") for line in lines if (m := _TASK_LABEL.match(line))]
    # ... the same few tasks again and again: numbered lines ("12: ...") are no labels
    repeated = len(labels) >= 2 * len(set(labels))
    labelled = repeated and len(labels) >= PREFIX_MIN_SHARE * len(lines)
    hosts: dict[int, str] = {}
    task_of: dict[int, int] = {}  # id(hit) -> the task that printed it
    for h in result.hits:
        raw = h.text.encode()
        m = _MPI_TAG.match(raw) or (_TASK_LABEL.match(raw) if labelled else None)
        if m is not None:
            task = task_of[id(h)] = int(m.group("task"))
            host = h.host
            h.rank = h.host = None
            _locate(h, raw[m.end() :])  # the rank and host the line itself names
            h.host = h.host or host
            if h.rank is None:
                h.rank = task
        for pattern in _TASK_HOST:
            if tm := pattern.search(raw):
                tasks = _tasks(tm.group("tasks"))
                hosts.update(dict.fromkeys(tasks, tm.group("host").decode()))
                if labelled and len(tasks) == 1 and h.rank is None:
                    h.rank = tasks[0]  # "srun: error: node07: task 1: Killed", tasks as ranks
    # only a labelled line's task is srun's task: torchrun started once per node under srun
    # has task 0 for all of node 0's ranks, and its summary names the ranks' hosts
    for h in result.hits:
        if h.host is None and task_of.get(id(h), -1) in hosts:
            h.host = hosts[task_of[id(h)]]


# A launcher's header over the traceback it relays from a rank: torch.multiprocessing.spawn's
# ProcessRaisedException ("-- Process 1 terminated with the following error:") and Ray Train's
# WorkerGroupError ("[Rank 1 Error Snippet]:"). The rank's own lines name no rank (Ray's
# prefix names its worker's pid): a ValueError that mp.spawn or Ray Train relayed named none.
_BLOCK_HEAD = re.compile(
    rb"^(?P<pre>.*?)(?:-- Process (?P<r1>\d+) terminated with the following error:"
    rb"|\[Rank (?P<r2>\d+) Error Snippet\]:)\s*$"
)
# Ray Train's controller lists its workers ("- (ip=10.0.0.5, pid=19558) world_rank=1, ..."), and
# each worker's lines begin with its pid ("(RayTrainWorker pid=19558) "; "(..., ip=...)" on
# another node); the raylet names a dead worker's ("Worker PID: 19558")
_RAY_WORKER = re.compile(rb"\(ip=(?P<ip>[\w.:-]+), pid=(?P<pid>\d+)\) world_rank=(?P<rank>\d+)\b")
_RAY_PID = re.compile(
    rb"^(?:\x1b\[[\d;]*m)?\([\w.:-]+ pid=(?P<pid>\d+)[,)]|\bWorker PID: (?P<pid2>\d+)\b"
)
# and Ray's ActorDiedError names the dead worker's pid and address on lines of their own
# ("\tpid: 19558", then "\tip: 10.0.0.5")
_RAY_DIED_PID = re.compile(rb"^.*?\tpid: (?P<pid>\d+)\s*$")
_RAY_DIED_IP = re.compile(rb"\tip: (?P<ip>[\w.:-]+)\s*$")
_BLOCK_MARKS = (
    b"terminated with the following error",
    b"Error Snippet]",
    b"world_rank=",
    b"The actor died unexpectedly",
)
BLOCK_MAX_LINES = 400  # lines of a relayed traceback read after its header


MARKS_WHOLE_BYTES = 64 << 20
"""A file up to this size is searched whole for _BLOCK_MARKS; a larger one only in its last
MARKS_TAIL_BYTES, where a launcher prints the failure it relays (mp.spawn's exception, Ray
Train's error and worker list come as the job ends): a second read of a multi-GB log cost the
big-log triage benchmark 45% of its throughput."""
MARKS_TAIL_BYTES = 16 << 20


def _has_marks(path: str) -> bool:
    """Whether `path` may hold a _BLOCK_MARKS mark (read in chunks, as bytes; a large file's
    tail only)."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MARKS_WHOLE_BYTES:
                f.seek(size - MARKS_TAIL_BYTES)
            carry = b""
            while chunk := f.read(CHUNK_BYTES):
                buf = carry + chunk
                if any(m in buf for m in _BLOCK_MARKS):
                    return True
                carry = buf[-64:]
    except OSError:
        pass
    return False


@dataclass
class _Relayed:
    """What `_relayed_ranks` read: the rank over each line under a launcher's header, and each
    Ray Train worker's (rank or None, address) by its pid."""

    under: dict[int, int] = field(default_factory=dict)
    workers: dict[bytes, tuple[int | None, str]] = field(default_factory=dict)


def _relayed_ranks(path: str) -> _Relayed:
    """One pass over `path`'s lines: the launcher's headers (_BLOCK_HEAD) and the lines under
    each (those after it with the header's own prefix, to the first blank), Ray Train's list of
    its workers and its ActorDiedError's pid and address."""
    out = _Relayed()
    died: dict[bytes, tuple[int | None, str]] = {}
    head: tuple[bytes, int, int] | None = None  # prefix, rank, line number
    pid: tuple[bytes, int] | None = None  # an ActorDiedError's "\tpid: N", its line number
    try:
        with open(path, "rb") as f:
            for lineno, raw in enumerate(f, 1):
                line = raw.rstrip(b"\r\n")
                if (b"following error" in line or b"Error Snippet" in line) and (
                    hm := _BLOCK_HEAD.match(line)
                ):
                    head = (hm.group("pre"), int(hm.group("r1") or hm.group("r2")), lineno)
                    continue
                if head is not None:
                    pre, rank, top = head
                    body = line[len(pre) :] if line.startswith(pre) else b""
                    if lineno - top > BLOCK_MAX_LINES or not body.strip():
                        head = None
                    else:
                        out.under[lineno] = rank
                if b"world_rank=" in line and (wm := _RAY_WORKER.search(line)):
                    out.workers[wm.group("pid")] = (int(wm.group("rank")), wm.group("ip").decode())
                if b"\tpid: " in line and (dm := _RAY_DIED_PID.match(line)):
                    pid = (dm.group("pid"), lineno)
                elif pid and lineno - pid[1] <= 3 and (im := _RAY_DIED_IP.search(line)):
                    died[pid[0]] = (None, im.group("ip").decode())
                    pid = None
    except OSError:
        pass
    out.workers = {**died, **out.workers}
    return out


def _rank_blocks(result: Scan) -> None:
    """Each hit without a rank: the rank of the launcher's header it is under (_BLOCK_HEAD), or
    of the Ray Train worker whose pid its line names (then that worker's address as its host,
    where it names none)."""
    if all(h.rank is not None for h in result.hits) or not _has_marks(result.file):
        return
    got = _relayed_ranks(result.file)
    workers = got.workers
    for h in result.hits:
        if h.rank is None and h.line in got.under:
            h.rank = got.under[h.line]
        pm = _RAY_PID.search(h.text.encode()) if workers else None
        if pm and (worker := workers.get(pm.group("pid") or pm.group("pid2"))):
            h.rank = h.rank if h.rank is not None else worker[0]
            h.host = h.host or worker[1]
    ips = {r: ip for r, ip in workers.values() if r is not None}
    for h in result.hits:
        if h.rank in ips and h.host is None:
            h.host = ips[h.rank]


def _torchrun_root(result: Scan) -> None:
    """A launcher's console output with torchrun's failure summary (nonstop.diagnose.elastic):
    the lines of the summary's root cause, and its ChildFailedError line, are that rank's (on
    its host); the other failed ranks' entries, and a peer-went-away line of another rank, are
    the root's echo (lowest specificity). Before, `nonstop triage` of `torchrun ... 2>&1 | tee`
    output where rank 1 raised named rank 0, whose barrier lost rank 1 ("Connection closed by
    peer", printed by rank 0 and again in the summary's "Failures"), and a SIGKILLed or
    segfaulted rank 1 was rank 0 or no rank at all."""
    header = next((h for h in result.hits if b"ChildFailedError" in h.text.encode()), None)
    if header is None:
        return
    root = elastic.summary(result.file, header.line)
    if root is None:
        return
    entries = [root, *root.others]

    def inside(e: elastic.Summary) -> list[Hit]:
        return [h for h in result.hits if e.lines[0] <= h.line <= e.lines[1]]

    def echoed(e: elastic.Summary) -> bool:
        """SIGTERMed by torchrun's agent, or only a peer-went-away line in its entry."""
        lines = inside(e)
        return e.exitcode == -signal.SIGTERM or (
            bool(lines) and all(h.signature in COLLECTIVE_FAILED for h in lines)
        )

    # torchrun's "first observed" is by error-file timestamps in whole seconds: a victim whose
    # error file was written in the same second as the root's may be named first
    chosen = root
    if echoed(root):
        chosen = next((e for e in root.others if not echoed(e)), root)
        if chosen is not root:
            chosen.echo_of = root
    result.torchrun = chosen
    own = set(map(id, inside(chosen)))
    for h in [header, *result.hits]:
        if h is header or id(h) in own:
            h.rank, h.host = chosen.rank, chosen.host or h.host
        elif h.rank == chosen.rank and h.host is None:
            # the rank's own lines ("[rank1]: ValueError: ...") name no host; the summary does
            h.host = chosen.host
    for e in entries:
        if e is not chosen:
            for h in inside(e):
                _echo(h, chosen)
    _echoes(result.hits, chosen)


def _echo(h: Hit, root: elastic.Summary) -> None:
    if h.specificity > ECHO:
        h.specificity = ECHO
        h.meaning = f"{h.meaning} (an echo of torchrun's root cause, rank {root.rank})"


def _echoes(hits: list[Hit], root: elastic.Summary) -> None:
    """A peer-went-away line (COLLECTIVE_FAILED) of any rank but torchrun's root cause, or of
    no known rank, is the root's echo, in the summary's file or beside it (a --log-dir folder's
    rank logs and error files)."""
    for h in hits:
        if h.signature in COLLECTIVE_FAILED and h.rank != root.rank:
            _echo(h, root)


# `kubectl describe pod` names the pod's node once, in its header ("Node:  gpu-7/10.0.0.5"),
# and its events (OOMKilled, BackOff, Evicted) on lines of their own that name no host: a
# verdict on them said host=None. Only a file that begins as that output does ("Name:") is read
# for it; `kubectl describe pods` prints several pods, each event under its own pod's header.
_DESCRIBE_HEAD = re.compile(rb"Name:[ \t]+\S")
_POD_NODE = re.compile(rb"(?m)^Node:[ \t]+(?P<host>[A-Za-z0-9][\w.-]*)(?:/\S*)?[ \t]*\r?$")


def _pod_hosts(result: Scan) -> None:
    """Each hit without a host on a line under a `kubectl describe pod` header gets that
    pod's node."""
    if all(h.host for h in result.hits):
        return
    try:
        with open(result.file, "rb") as f:
            if not _DESCRIBE_HEAD.match(f.read(64)):
                return
            f.seek(0)
            nodes = [
                (lineno, m) for lineno, line in enumerate(f, 1) if (m := _POD_NODE.match(line))
            ]
    except OSError:
        return
    for h in result.hits:
        on = [m.group("host").decode() for lineno, m in nodes if lineno < h.line]
        if h.host is None and on:
            h.host = on[-1]


def _scan_buffer(result: Scan, buf: bytes, end: int, lineno: int) -> int:
    pos, done_to = 0, -1
    low = buf.lower()  # lower() keeps every byte offset
    if not result.marked and MARKER.search(low, 0, end):
        result.marked = True
    for m in PREFILTER.finditer(low, 0, end):
        start = buf.rfind(b"\n", 0, m.start()) + 1
        if start <= done_to:
            continue  # another match on a line already handled
        stop = buf.find(b"\n", m.end(), end)
        stop = end if stop < 0 else stop
        lineno += buf.count(b"\n", pos, start)
        pos, done_to = start, stop
        _take(result, buf[start:stop], lineno)
    return lineno + buf.count(b"\n", pos, end)


def _take(result: Scan, line: bytes, lineno: int) -> None:
    """One candidate line: a PCI-to-GPU map line, or hits (evidence capped, counts not)."""
    if b"00000000:" in line and (pm := PCI_MAP_LINE.match(line)):
        result.pci_map[f"{pm.group('bus').decode().lower()}:{pm.group('dev').decode()}"] = int(
            pm.group("gpu")
        )
        return
    for piece in _pieces(line):
        for sid, sm in _classify(_told(_relayed(piece))):
            h = _hit(sid, sm, piece, result.file, lineno)
            result.counts[h.signature] += 1
            if result.counts[h.signature] <= MAX_EVIDENCE // 2 or len(result.hits) < MAX_EVIDENCE:
                result.hits.append(h)


# What a relay puts before each line it hands on, where no line of a log begins so by itself:
# Open MPI's `--tag-output` ("[1,3]<stderr>:", no space after it), `kubectl logs --prefix`
# ("[pod/NAME/CONTAINER] ") and `--timestamps` (RFC 3339, "2026-12-05T16:45:22.123456789Z ").
# The rows read the line after it: a row anchored at a line's start (a Python exception's
# name, `Killed`, a tool's report) missed every line of `mpirun --tag-output` output.
_RELAY = re.compile(
    rb"(?:" + _MPI_TAG_RE + rb"|\[pod/[^\]\s/]+/[^\]\s]+\] "
    rb"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d) )+"
)


_CAUSES_LISTED = re.compile(CAUSES_LISTED)


def _told(line: bytes) -> bytes:
    """`line` up to a list of what may have caused it (signatures.CAUSES_LISTED): what the
    line reports, not what it guesses."""
    m = _CAUSES_LISTED.search(line)
    return line[: m.start()] if m else line


def _relayed(line: bytes) -> bytes:
    """`line` without a relay's prefix (_RELAY)."""
    m = _RELAY.match(line)
    return line[m.end() :] if m else line


LONG_LINE = 64 << 10  # a longer line is classified in windows of this size (`_pieces`)
LONG_LINE_WINDOWS = 64  # at most this many windows of one long line
_BEFORE = 1 << 10  # bytes kept before a needle in its window


def _pieces(line: bytes) -> list[bytes]:
    """`line` itself, or for a line over LONG_LINE (a progress bar redrawn with carriage
    returns, a minified JSON dump, a file without a newline) windows of LONG_LINE bytes, from
    _BEFORE before the first occurrence of each needle the line holds and before its last
    needle (at most LONG_LINE_WINDOWS): every row a needle names is tried where it first
    occurs and at the line's end. The rows' regexes cost time per byte searched, and searching a
    50 MB line whole, once per row its needles name, took over two minutes. What this gives up:
    a row's second and later matches in such a line are not counted."""
    if len(line) <= LONG_LINE:
        return [line]
    starts: list[int] = []
    seen: set[bytes] = set()
    end = last = -1
    for m in PREFILTER.finditer(line.lower()):
        last = m.start()
        if m.group() in seen:
            continue
        seen.add(m.group())
        if last >= end and len(starts) < LONG_LINE_WINDOWS:
            starts.append(max(0, last - _BEFORE))
            end = starts[-1] + LONG_LINE - _BEFORE
    if last >= end:
        starts.append(max(0, last - _BEFORE))
    return [line[s : s + LONG_LINE] for s in starts]


@dataclass(frozen=True)
class Searcher:
    """An external program that prints each candidate line as `FILE\\0N:line`."""

    name: str
    argv: tuple[str, ...]
    """Everything before `-- FILE...`."""


def _needle_ere(needle: str, word_end: frozenset[str] = WORD_END) -> str:
    return re.sub(r"([.\[\]()*+?{}|^$\\])", r"\\\1", needle) + (r"\b" if needle in word_end else "")


# the rows' needles, then the failure markers (a line with either is printed)
_PATTERNS = list(
    dict.fromkeys(
        sorted({_needle_ere(n) for ns in NEEDLES.values() for n in ns})
        + sorted({_needle_ere(n, MARKER_WORD_END) for n in MARKERS})
    )
)
GREP_ARGS: list[str] = [a for p in _PATTERNS for a in ("-e", p)]


def _rg_bytes(ere: str) -> str:
    """Non-ASCII characters as their UTF-8 bytes (`\\xe6...`): ripgrep refuses Unicode
    literals under `(?-u)`, and the needles are matched as bytes anyway."""
    return "".join(c if ord(c) < 128 else "".join(f"\\x{b:02x}" for b in c.encode()) for c in ere)


RG_ARGS: list[str] = [a for p in _PATTERNS for a in ("-e", "(?-u)" + _rg_bytes(p))]
"""The same patterns for ripgrep's Rust regex; `(?-u)`: ASCII case folding and word
boundaries on raw bytes, as grep's in the C locale and the lower-cased bytes regex."""

_SEARCHERS: dict[str, Searcher | None] = {}  # by name, probed once per process


def _probe(name: str) -> Searcher | None:
    """The searcher `name` ("rg" or "grep") if it is on PATH and gets a word-end needle right
    (`\\b` is a GNU extension to ERE; an old or odd program fails this and is not used)."""
    if name in _SEARCHERS:
        return _SEARCHERS[name]
    exe = shutil.which(name)
    found = None
    if exe is not None:
        if name == "rg":
            base = ("--no-config", "-i", "-a", "-n", "-H", "--null", "--no-heading")
            s = Searcher("rg", (exe, *base, "--color", "never", "--no-messages", *RG_ARGS))
            probe = [exe, "--no-config", "-i", "-a", "-c", "-e", r"(?-u)inf\b", "-"]
        else:
            s = Searcher("grep", (exe, "-E", "-i", "-a", "-n", "-H", "-Z", *GREP_ARGS))
            probe = [exe, "-E", "-i", "-a", "-c", "-e", r"inf\b", "-"]
        try:
            r = subprocess.run(
                probe,
                input=b"INFO\nloss inf\n",
                capture_output=True,
                env={**os.environ, "LC_ALL": "C"},
                timeout=10,
            )
            if r.returncode == 0 and r.stdout.strip() == b"1":
                found = s
        except (OSError, subprocess.SubprocessError):
            pass
    _SEARCHERS[name] = found
    return found


def _search() -> Searcher | None:
    """The searcher for big logs: NONSTOP_TRIAGE_SEARCH (rg, grep, python) if set, else ripgrep
    if usable, else GNU grep; None: the Python scan."""
    want = os.environ.get(envvars.TRIAGE_SEARCH, "").strip().lower()
    if want == "python":
        return None
    if want in ("rg", "grep"):
        return _probe(want)
    return _probe("rg") or _probe("grep")


def _count(
    paths: list[Path],
    chunk_bytes: int,
    tails: list[bytes | None] | None = None,
    kinds: list[str] | None = None,
) -> list[tuple[int, int]] | None:
    """(bytes, lines) of each file (a last line without a newline counts); None if one is
    unreadable. Four system calls for a small file (open, a read into a buffer reused for every
    file, the read that finds its end, close): 15% less CPU than a buffered file object asked
    for chunk_bytes per read on 4,096 rank logs of 32 KB (0.12 s against 0.15). With `tails`,
    each file's last SPIKE_TAIL_BYTES as `_tail` reads them, or None, is appended to it: kept
    for a file read in one read while the kept bytes stay under TAILS_KEPT_BYTES, so that the
    spike check of each clean rank log does not open it again. With `kinds`, what each file is
    by its first bytes (inputs.kind: "text", compressed, binary) is appended to it, from the
    same read: `nonstop triage` then need not open every file before the search starts."""
    out: list[tuple[int, int]] = []
    buf = bytearray(chunk_bytes)
    kept = 0
    for path in paths:
        size, newlines, last, reads = 0, 0, 10, 0
        tail: bytes | None = None
        try:
            fd = os.open(path, os.O_RDONLY)
            try:
                while n := os.readv(fd, [buf]):
                    if kinds is not None and not reads:
                        kinds.append(inputs.kind(bytes(buf[: min(n, inputs.HEAD_BYTES)])))
                    size += n
                    reads += 1
                    newlines += buf.count(b"\n", 0, n)
                    last = buf[n - 1]
            finally:
                os.close(fd)
        except OSError:
            return None
        if kinds is not None and not reads:
            kinds.append(inputs.kind(b""))
        if tails is not None:
            if reads <= 1 and kept < TAILS_KEPT_BYTES:
                tail = bytes(buf[max(0, size - SPIKE_TAIL_BYTES) : size])
                if size > SPIKE_TAIL_BYTES:
                    tail = tail.split(b"\n", 1)[-1]
                kept += len(tail)
            tails.append(tail)
        out.append((size, newlines + (1 if size and last != 10 else 0)))
    return out


TAILS_KEPT_BYTES = 256 << 20
"""What `_count` keeps of the files' tails at most (32 MB for 4,096 rank logs)."""


def _grep_scans(
    paths: list[Path], chunk_bytes: int = CHUNK_BYTES, kinds: list[str] | None = None
) -> list[Scan] | None:
    """Each file's scan from the candidate lines one searcher process (ripgrep or GNU grep)
    prints for all of them (`FILE\\0N:line`: a row's needle or a failure marker), classified
    here; bytes and lines counted from the files by a thread meanwhile (the searcher prints
    only candidates). None when the searcher failed or a name repeats (the caller scans in
    Python). `kinds`: as `_count`'s."""
    names = [os.fsencode(str(p)) for p in paths]
    if len(set(names)) != len(names):
        return None
    scans = {n: Scan(file=str(p)) for n, p in zip(names, paths, strict=True)}
    searcher = _search()
    if searcher is None:
        return None
    try:
        proc = subprocess.Popen(
            [*searcher.argv, "--", *map(str, paths)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "LC_ALL": "C"},
        )
    except OSError:
        return None
    counted: list[list[tuple[int, int]] | None] = []
    tails: list[bytes | None] = []
    counter = threading.Thread(
        target=lambda: counted.append(_count(paths, chunk_bytes, tails, kinds)),
        name="triage-count",
    )
    counter.start()  # overlaps the search: the parse below mostly waits on the pipe
    assert proc.stdout is not None
    with proc.stdout:
        for out in proc.stdout:
            name, nul, rest = out.partition(b"\0")
            no, sep, line = rest.partition(b":")
            result = scans.get(name)
            if not nul or not sep or not no.isdigit() or result is None:
                continue
            line = line[:-1] if line.endswith(b"\n") else line
            _take(result, line, int(no))
            if not result.marked and MARKER.search(line.lower()):
                result.marked = True
    counter.join()
    if proc.wait() not in (0, 1) or not counted or counted[0] is None:
        return None
    for result, (size, lines), tail in zip(scans.values(), counted[0], tails, strict=True):
        result.bytes, result.lines, result.tail = size, lines, tail
        _structure(result)
    return list(scans.values())


# the bytes of file names one searcher process is given: well under Linux's ARG_MAX (2 MiB,
# shared with the environment), so that 4,096 rank logs are one process, not eight (each start
# compiles the patterns again: 0.06 s per batch of 512, three quarters of the many-files time)
GREP_ARG_BYTES = 256 << 10


def _batches(files: list[Path], budget: int) -> list[list[Path]]:
    """`files` in order, cut where the next name would take a batch past `budget` bytes."""
    out: list[list[Path]] = [[]]
    used = 0
    for p in files:
        n = len(os.fsencode(str(p))) + 1
        if out[-1] and used + n > budget:
            out.append([])
            used = 0
        out[-1].append(p)
        used += n
    return out


def scan_all(paths: list[str | Path] | list[Path], *, grep: bool | None = None) -> list[Scan]:
    """`scan` of each file, in order. With an external searcher (ripgrep or GNU grep; `grep`:
    None when the files hold GREP_MIN_BYTES or more together), one process per GREP_ARG_BYTES
    of file names finds the candidate lines of all of them: 4,096 rank logs of 32 KB took 4 s
    through Python's regex engine."""
    files = [Path(p) for p in paths]
    if len(files) < 2 or grep is False or _search() is None:
        return [scan(p, grep=grep) for p in files]
    if grep is None and not (enough := _enough(files)):
        # an unreadable file (None): scan names it
        return [scan(p, grep=None if enough is None else False) for p in files]
    out: list[Scan] = []
    for batch in _batches(files, GREP_ARG_BYTES):
        got = _grep_scans(batch)
        out.extend(got if got is not None else [scan(p, grep=False) for p in batch])
    return out


def _enough(files: list[Path]) -> bool | None:
    """Whether `files` hold GREP_MIN_BYTES together; None if one cannot be read."""
    total = 0
    for p in files:  # until they are enough
        try:
            total += os.stat(p).st_size
        except OSError:
            return None
        if total >= GREP_MIN_BYTES:
            return True
    return False


def scan_unread(paths: Sequence[str | Path]) -> list[Scan] | None:
    """`scan_all` of files nobody has looked at yet (`nonstop triage`'s fast start: the search
    starts before every input was opened to see what it is), or None where that would differ
    from reading them as inputs first (inputs.collect): fewer than two, too few bytes for the
    external searcher, none installed, or a file that is not plain text by its first bytes
    (compressed, UTF-16, binary: inputs.kind, taken by the same read that counts the lines).
    The caller then collects and scans as usual."""
    files = [Path(p) for p in paths]
    if len(files) < 2 or _search() is None or not _enough(files):  # an unreadable one: None
        return None
    out: list[Scan] = []
    for batch in _batches(files, GREP_ARG_BYTES):
        kinds: list[str] = []
        got = _grep_scans(batch, kinds=kinds)
        if got is None or kinds != ["text"] * len(batch):
            return None
        out.extend(got)
    return out


# the rows that read only the filesystem's or the block layer's word that I/O failed on a disk
# (not the disk's own: SMART, a media error, the link); the disk a line of theirs names, its
# partition left off (sdf1 -> sdf, nvme0n1p2 -> nvme0n1); an md array is not a disk
_FS_IO_ROWS: Final = frozenset({"local_fs_error", "local_block_io_error"})
_DISK = re.compile(r"(?:\(\"?|\bdev(?:ice)? )(sd[a-z]+|nvme\d+n\d+|hd[a-z]|mmcblk\d+)")


def _several_disks(hits: list[Hit], best: Hit) -> Hit:
    """`best` (an `ssd` hit) read as shared storage when every `ssd` line of its host is the
    filesystem's or block layer's I/O error and they name two or more disks: one failing disk
    does not fail the others' I/O at once; what they share does (network block volumes seen as
    sd disks: Longhorn, iSCSI, a SAN; the path to them), so restart rather than exclude the
    node (the thirty-second's 982651df85b4, ext4 journals aborting on Longhorn volumes). The
    same holds for one disk whose I/O the SCSI layer refuses as offline (`scsi_offline_reject`):
    a transport that lost its remote target offlines it too (the thirty-sixth's b1ef0e93a617)."""
    mine = [h for h in hits if h.category == "ssd" and h.host == best.host]
    if any(h.signature not in _FS_IO_ROWS for h in mine):
        return best
    if any(h.signature == "scsi_offline_reject" and h.host == best.host for h in hits):
        # the SCSI layer refusing I/O to a device it holds offline, and nothing of the disk's
        # own: the I/O errors are what the offline device returns, and a transport that lost its
        # remote target (iSCSI, FC) offlines it as an error handler does (issue-27rows36: the
        # thirty-sixth's b1ef0e93a617, a Longhorn volume over iSCSI)
        return replace(
            best,
            category="storage",
            confidence=min(best.confidence, 0.5),
            meaning=(
                "I/O errors on a SCSI device set offline, with no error of the disk's own: the "
                "storage path (a transport that lost its target), not shown to be a local disk"
            ),
        )
    disks = {m.group(1) for h in mine for m in _DISK.finditer(h.text)}
    if len(disks) < 2:
        return best
    return replace(
        best,
        category="storage",
        confidence=min(best.confidence, 0.5),
        meaning=(
            f"I/O or filesystem errors on {len(disks)} disks at once ({', '.join(sorted(disks))}): "
            "not one failing disk but what they share (network block volumes, their path)"
        ),
    )


# the rows that read a GPU kernel's own fault as CUDA names it (launch failure, illegal address,
# misaligned address): software_bug
_KERNEL_FAULT_ROWS: Final = frozenset(
    {"gpu_kernel_fault_names", "cuda_launch", "cuda_illegal_access"}
)


def _busy_beside_kernel_fault(hits: list[Hit], best: Hit) -> Hit:
    """`best` (a `cuda_busy` hit: CUDA found the device busy or unavailable) read as the kernel
    fault the same host's log also shows, if it shows one. cudaErrorDevicesUnavailable names
    no fault of the GPU (the CUDA runtime API: an exclusive compute mode, long-running kernels,
    memory held by other work), and a kernel fault (cudaErrorLaunchFailure and its kin) leaves
    the process's context unusable, so that its later calls fail too: two readings, one of them
    a software fault, are not evidence enough to take the node out (issue-27rows42: the
    forty-second's 24bd33886111, an SGLang rank finding the device busy, then an unspecified
    launch failure, read faulty_gpu and its node excluded). An Xid, a reset-required state or
    any other row above `cuda_busy` still decides as before."""

    def same_node(h: Hit) -> bool:  # the host where lines name one, else the same file
        return h.host == best.host if best.host else (h.file == best.file and not h.host)

    fault = next((h for h in hits if h.signature in _KERNEL_FAULT_ROWS and same_node(h)), None)
    return best if fault is None else fault


def _outlived_missing_command(hits: list[Hit], best: Hit) -> Hit:
    """`best` (a `command_not_found` hit: a shell found no program by that name) read as the
    failure that the same file shows after it, if it shows one. A program missing at launch ends
    the launch; a process that goes on until something else fails was not stopped by it (a
    monitoring call from inside the script, `os.system("gpustat")`: the sixty-sixth's
    75b0acb971ba, "/bin/sh: gpustat: command not found" and, epochs later, ProcessGroupNCCL's
    watchdog, read dependency at first sight). What follows must be a failure of its own: set-up
    words (`dependency`) or no class (`unknown`) do not count. A failure before the missing
    program, or in another file, changes nothing."""
    later = [
        h
        for h in hits
        if h.file == best.file
        and h.line > best.line
        and h.category not in ("dependency", "unknown")
    ]
    return max(later, key=lambda h: (h.specificity, -h.line)) if later else best


def decide(
    hits: list[Hit],
    *,
    pci_map: dict[str, int] | None = None,
    default: Culprit | None = None,
    counts: Counter[str] | None = None,
) -> Verdict:
    """Pick the most specific hit and build the verdict (culprit from its line, then defaults)."""
    pci_map = pci_map or {}
    if not hits:
        return Verdict(
            verdict="No known failure signature in the logs.",
            confidence=0.1,
            culprits=[default] if default and default.rank is not None else [],
        )
    best = max(hits, key=lambda h: (h.specificity, -h.line))
    if best.category == "ssd":
        best = _several_disks(hits, best)
    if best.signature == "cuda_busy":
        best = _busy_beside_kernel_fault(hits, best)
    if best.signature == "command_not_found":
        best = _outlived_missing_command(hits, best)
    seer = None
    if best.signature in COLLECTIVE_FAILED and (dead := _dead_peer(hits, best)):
        seer, best = best, dead
    # a line that repeats another rank's failure (ECHO) names no culprit for a line that is not
    same = [
        h
        for h in hits
        if h.category == best.category
        and (h.specificity > ECHO or best.specificity <= ECHO)
        and (seer is None or h.signature not in COLLECTIVE_FAILED)  # the peers name no culprit
    ]
    gpus = (h.gpu if h.gpu is not None else pci_map.get(h.pci or "") for h in [best, *same])
    gpu = next((g for g in gpus if g is not None), None)
    d = default or Culprit()
    culprit = Culprit(
        rank=next((h.rank for h in [best, *same] if h.rank is not None), d.rank),
        host=best.host or next((h.host for h in same if h.host), None) or d.host,
        gpu=gpu if gpu is not None else d.gpu,
        evidence=[f"{best.file}:{best.line}: {best.text}"],
    )
    if best.pci and gpu is None:
        culprit.evidence.append(f"PCI {best.pci}: no nvidia-smi line maps it to a GPU index")
    n = (counts or Counter())[best.signature] or 1
    conf = min(0.99, best.confidence + (0.05 if len(same) > 1 or n > 1 else 0.0))
    cat = taxonomy.get(best.category)
    if cat.action == "exclude_node" and conf < EXCLUDE_MIN_CONFIDENCE:
        # weak evidence for a hardware fault: a wrong exclude_node costs a healthy node, so say
        # unknown (restart once, keep the evidence) and name what was seen
        weak = f"Weak evidence of {cat.name.lower()} ({best.meaning})"
        culprit.evidence.append(f"{weak}: not enough to exclude the node")
        return Verdict(
            verdict=f"{weak}; not enough to exclude the node. Action: restart.",
            category=taxonomy.UNKNOWN,
            action=taxonomy.action_for(taxonomy.UNKNOWN),
            culprits=[culprit],
            confidence=min(conf, 0.3),
            evidence=[f"{h.file}:{h.line}: [{h.signature}] {h.text}" for h in hits[:MAX_EVIDENCE]],
            details={
                "evidence_lines": [h.to_dict() for h in hits[:MAX_EVIDENCE]],
                "weak_category": best.category,
            },
        )
    where = ", ".join(
        f"{k} {v}"
        for k, v in (("host", culprit.host), ("rank", culprit.rank), ("GPU", culprit.gpu))
        if v is not None
    )
    others = sorted({h.signature for h in hits if h.category != best.category})
    text = (
        f"{cat.name}: {best.meaning}"
        + (f" ({where})" if where else "")
        + f". Action: {cat.action}."
        + (
            f" Also seen, read as symptoms or lesser causes: {', '.join(others[:6])}."
            if others
            else ""
        )
    )
    if seer is not None:
        saw = ", ".join(
            f"{k} {v}" for k, v in (("host", seer.host), ("rank", seer.rank)) if v is not None
        )
        text += f" Its peers lost it: {seer.meaning}" + (f" ({saw})." if saw else ".")
    ordered = sorted(hits, key=lambda h: (h is not best, -h.specificity, h.file, h.line))
    return Verdict(
        verdict=text,
        category=best.category,
        action=cat.action,
        culprits=[culprit],
        evidence=[f"{h.file}:{h.line}: [{h.signature}] {h.text}" for h in ordered[:MAX_EVIDENCE]],
        confidence=conf,
        details={"evidence_lines": [h.to_dict() for h in ordered[:MAX_EVIDENCE]]},
    )


def _tail(path: str | Path, limit: int = FALLBACK_TAIL_BYTES) -> bytes:
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        f.seek(max(0, size - limit))
        data = f.read(limit)
    return data if size <= limit else data.split(b"\n", 1)[-1]  # drop the cut first line


# A loss or gradient norm far above the values logged before it: a jump between lines, which no
# one-line row can see (loss_spike: the first sight of six of eight collections missed it, the
# only class no row took; tests/corpus/real/README.md, issue-27gen3). Read where no row matched,
# on the last SPIKE_TAIL_BYTES: where the failure is (a jump the job outlived by a hundred steps
# did not end it), and a bound on the work for each clean rank log that prints its loss (about
# 0.3 ms for 8 KiB of loss lines).
SPIKE_TAIL_BYTES = 8 << 10
SPIKE_WINDOW = 20  # values of the running baseline (its median)
# The runtime guards' spike_ratio (nonstop.runtime.guards: healthy small-batch losses reach 2x
# their median); one value before is baseline enough for a loss (a loss does not triple as it
# falls)
SPIKE_LOSS_RATIO = 3.0
# ... and at least this far above it: near convergence a tiny loss is noisy in ratio (a loss of
# 3.6e-6 logged 1.5e-5 the next epoch, fangyuanmao/PID#22), and a jump of less than a tenth of
# a nat is step-to-step noise for a cross-entropy
SPIKE_LOSS_MIN_JUMP = 0.1
# gradient norms jump more in healthy training (the guards saw 6.7-21x on a fault-free demo
# run and leave them off by default): 8x, over at least three values before it
SPIKE_GRAD_RATIO = 8.0
SPIKE_GRAD_HISTORY = 3
SPIKE_CONFIDENCE = 0.4
# `loss: 1.2`, `'loss': 1.2`, `loss = 1.2`, `lm loss: 1.2E+00`, `grad_norm: 3.4`, `grad norm:
# 3.4`: a literal first (the regex engine then skips to each `loss`/`norm`); what precedes the
# word is checked on the match (`_SERIES_KEY`)
_SERIES_VALUE = rb"['\"]?[ \t]*[:=][ \t]*['\"]?([0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?)(?![\w.])"
# ... and, for the loss only, `loss 1.7019,` with one space and no sign, ended by a comma, a
# bar, a semicolon, a blank or the line's end (LitGPT's pretrain and finetune scripts: "iter
# 1152 step 144: loss 11.4630, iter time: 1260.82ms", the sixtythird's 391d9f61986c; fairseq's
# "| epoch 001 | loss 9.412 | ppl 681.3"): the second group. Not "loss scale 1024" nor "loss
# scaler 0" (a word between), nor "loss 5x", "loss 2.5%" or "loss 2 times" (not ended so)
_SERIES_SPACED = rb"|[ ]([0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?)(?=[,;|]|[ \t]+\||[ \t]*(?:\r?\n|$))"
_SERIES = {
    "loss": re.compile(rb"loss(?:" + _SERIES_VALUE + _SERIES_SPACED + rb")"),
    "grad": re.compile(rb"norm" + _SERIES_VALUE),
}
# before `loss`: not a word (`eval_loss`, `val loss`, `validation loss` are no training loss),
# or `lm ` / `lm_`, or `total_` (detectron2's `total_loss`, the sum of its training losses, not
# `val_total_loss`: the thirty-third's 8edaede50b93, 21944 at iteration 0, 319373 at 1);
# before `norm`: `grad`/`gradient` and a space or underscore
_SERIES_KEY = {
    "loss": re.compile(
        rb"(?:(?:^|[^\w.])(?:lm[ _]|total_)|(?:^|[^\w.])(?<!\bval )(?<!\beval )(?<!\btest )(?<!\bvalidation ))$"
    ),
    "grad": re.compile(rb"(?:^|[^\w.])grad(?:ient)?[ _]$"),
}


def spike(text: bytes, *, default: Culprit | None = None) -> Verdict | None:
    """A loss_spike verdict when the last SPIKE_TAIL_BYTES of a log show a training loss
    (`loss`, `lm loss`; not a validation loss) at SPIKE_LOSS_RATIO times the median of the up
    to SPIKE_WINDOW values before it, or a gradient norm at SPIKE_GRAD_RATIO times theirs (at
    least SPIKE_GRAD_HISTORY before it); None otherwise. The largest jump is the evidence."""
    raw = text[-SPIKE_TAIL_BYTES:]
    tail = raw.lower()  # the same length: positions in one are positions in the other
    best: tuple[float, str, float, float, int] | None = None
    for key, pattern in _SERIES.items():
        keyed = _SERIES_KEY[key]
        vals: list[tuple[float, int]] = []
        for m in pattern.finditer(tail):
            at = m.start()
            if keyed.search(tail, max(0, at - 10), at):
                vals.append((float(m[1] or m[2]), at))
        ratio_needed, history, jump = (
            (SPIKE_LOSS_RATIO, 1, SPIKE_LOSS_MIN_JUMP)
            if key == "loss"
            else (SPIKE_GRAD_RATIO, SPIKE_GRAD_HISTORY, 0.0)
        )
        for i in range(history, len(vals)):
            v = vals[i][0]
            window = [x for x, _ in vals[max(0, i - SPIKE_WINDOW) : i]]
            if v < ratio_needed * min(window):  # the median is at least the least value
                continue
            window.sort()
            median = window[len(window) // 2]
            if median > 0 and v >= ratio_needed * median and v - median >= jump:
                r = v / median
                if best is None or r > best[0]:
                    best = (r, key, v, median, vals[i][1])
    if best is None:
        return None
    r, key, value, median, at = best
    line = raw[tail.rfind(b"\n", 0, at) + 1 : (tail.find(b"\n", at) + 1 or len(tail) + 1) - 1]
    what = "loss" if key == "loss" else "gradient norm"
    d = default or Culprit()
    why = (
        f"the {what} reached {value:g}, {r:.1f}x the median ({median:g}) of the values logged "
        f"before it"
    )
    text_ = line.strip().decode("utf-8", "replace")[:MAX_LINE]
    return Verdict(
        verdict=f"Loss Spike: {why}. Action: {taxonomy.action_for('loss_spike')}.",
        category="loss_spike",
        action=taxonomy.action_for("loss_spike"),
        culprits=[Culprit(rank=d.rank, host=d.host, gpu=d.gpu, evidence=[why])]
        if d.rank is not None or d.host
        else [],
        evidence=[text_],
        confidence=SPIKE_CONFIDENCE,
        details={
            "spike": {"series": key, "value": value, "median": median, "ratio": round(r, 2)},
            # the jump's line counted from the log's end (1: the last line), for the caller
            # who knows the file's length (`_unmatched`)
            "from_end": tail.count(b"\n", at) + (0 if tail.endswith(b"\n") else 1),
        },
    )


def guess(text: bytes, *, default: Culprit | None = None) -> Verdict | None:
    """The fallback's verdict for a log no signature matched, or None when it abstains."""
    return guessed(fallback.model().guess(text), default=default)


def read_description(text: bytes, *, default: Culprit | None = None) -> Verdict | None:
    """The description reader's verdict for a text that is a description (prose.is_description)
    no signature matched, or None when it abstains."""
    m = prose.model()
    told = prose.told(text) is not None
    return guessed(prose.read(m, text), default=default, model=m, source="description", told=told)


def advise(text: bytes, *, default: Culprit | None = None) -> Verdict | None:
    """The verdict for a short text no signature matched whose sentences state an operator's
    own hardware conclusion (advice.conclusion), or None: the category the operator named with
    its action (exclude_node for a part of the node), said to be advice read from a person's
    words, with a low confidence; the host the person names with it (advice.Conclusion.host)
    is the culprit's host, over `default`'s. Only on text a user hands `nonstop triage`."""
    # imported here: its 31 patterns are a sixth of `nonstop triage`'s start, and only a
    # short text a user hands it is read for advice
    from nonstop.diagnose import advice

    c = advice.conclusion(text)
    if c is None:
        return None
    cat = taxonomy.get(c.category)
    d = default or Culprit()
    host = c.host or d.host
    why = (
        f"no signature matched; an operator's own conclusion is stated in the text "
        f'({c.verb} ... {c.part}: "{c.sentence[:MAX_LINE]}"), read from a person\'s words, '
        f"not the machine's own evidence"
    )
    on = f" on {c.host}" if c.host else ""
    return Verdict(
        verdict=f"Advice from an operator's words: {cat.name}{on} ({why}). Action: {cat.action}.",
        category=c.category,
        action=cat.action,
        culprits=[Culprit(rank=d.rank, host=host, gpu=d.gpu, evidence=[f"advice: {why}"])]
        if d.rank is not None or host
        else [],
        confidence=advice.ADVICE_CONFIDENCE,
        details={
            "guess": {
                "category": c.category,
                "probability": advice.ADVICE_CONFIDENCE,
                "from": "operator",
            },
            "advice": {"sentence": c.sentence, "part": c.part, "verb": c.verb, "host": c.host},
        },
        guessed=True,
    )


def guessed(
    reading: tuple[str, float],
    *,
    default: Culprit | None = None,
    model: fallback.Model | None = None,
    source: str = "log",
    told: bool = False,
) -> Verdict | None:
    """`guess` from the fallback's reading of the log (category, probability); `model` and
    `source` ("log" or "description"): the description reader's reading of a description;
    `told`: the description tells the category in so many words (prose.TOLD)."""
    m = model or fallback.model()
    category, p = reading
    if m.abstains(category, p):
        return None  # the rows' "no known failure signature" stands
    said = m.decide(category, p)
    cat = taxonomy.get(category)
    d = default or Culprit()
    if source == "description" and told:
        head = "Guess from a description"
        why = (
            f"no signature matched and the text has no log line; it tells of "
            f"{cat.name.lower()} in so many words"
        )
    elif source == "description":
        head = "Guess from a description"
        why = (
            f"no signature matched and the text has no log line; the description reader reads "
            f"its words as {cat.name.lower()} with probability {p:.2f}"
        )
    else:
        head = "Guess"
        why = (
            f"no signature matched; the statistical fallback reads the log's words as "
            f"{cat.name.lower()} with probability {p:.2f}"
        )
    if said == taxonomy.UNKNOWN and taxonomy.action_for(category) == "stop_and_page":
        text_ = f"{head}: weak evidence of {cat.name.lower()} ({why}); not enough to page anyone"
    elif taxonomy.action_for(category) == "exclude_node":  # words are not enough to exclude
        text_ = (
            f"{head}: weak evidence of {cat.name.lower()} ({why}); not enough to exclude the node"
        )
    else:
        text_ = f"{head}: {cat.name} ({why})"
    action = fallback.action(said)
    weak = said == taxonomy.UNKNOWN or action != taxonomy.action_for(said)
    return Verdict(
        verdict=f"{text_}. Action: {action}.",
        category=said,
        action=action,
        culprits=[Culprit(rank=d.rank, host=d.host, gpu=d.gpu, evidence=[f"guess: {why}"])]
        if d.rank is not None or d.host
        else [],
        confidence=round(min(p, 0.3) if weak else p, 3),
        details={"guess": {"category": category, "probability": round(p, 3), "from": source}},
        guessed=True,
    )


def _unmatched(
    path: str | Path,
    marked: bool,
    use_fallback: bool,
    default: Culprit | None = None,
    lines: int = 0,
    descriptions: bool = False,
    tail: bytes | None = None,
) -> Verdict | None:
    """The verdict for a log of `lines` lines no row matched: a loss or gradient-norm spike in
    its numbers (`spike`, its line as evidence), else the fallback's guess if a line has a
    failure marker, else None. With `descriptions` (text a user handed `nonstop triage`), a
    short text stating an operator's hardware conclusion is advice (`advise`); else a text that
    is a description (prose.is_description) is read by the description reader first, and by
    the fallback only where the reader abstains. A log the fallback is not asked about
    costs a read of SPIKE_TAIL_BYTES only, or none where the scan kept them (`tail`)."""
    asked = marked and use_fallback
    # a description is a few lines: a longer file is never read for one
    described = descriptions and use_fallback and 0 < lines <= prose.MAX_LINES
    limit = FALLBACK_TAIL_BYTES if asked or described else SPIKE_TAIL_BYTES
    if tail is None or limit != SPIKE_TAIL_BYTES:
        tail = _tail(path, limit)
    # ... and a few kilobytes (prose.MAX_BYTES, as prose.is_description has it): a file of a
    # few very long lines (a minified JSON dump, a 50 MB line without a newline) is no one's
    # note, and prose.LOG_LINE's search is quadratic in a line's length (16 KB: 0.6 s, the
    # 256 KB tail of a one-line file: minutes)
    described = described and len(tail) <= prose.MAX_BYTES
    # a log with a failure word: its rank's (a clean log names no culprit)
    given, default = default, _sole_rank(tail, default) if marked else default
    got = spike(tail, default=default)
    if got is not None:
        line = max(1, lines - got.details.pop("from_end") + 1)
        text = got.evidence[0]
        got.evidence = [f"{path}:{line}: [loss_spike_series] {text}"]
        got.details["evidence_lines"] = [
            {
                "file": str(path),
                "line": line,
                "text": text,
                "signature": "loss_spike_series",
                "meaning": "A loss or gradient norm far above the median of the values before it",
            }
        ]
        return got
    # an operator's stated hardware conclusion, in a short text a user handed us: advice that
    # may exclude a node, said to be read from words (nonstop.diagnose.advice); never on a
    # run's rank logs (`described` is False for them)
    if described:
        got = advise(tail, default=default)
        if got is not None:
            said = got.details["advice"]["sentence"]
            line = _line_of(tail, said, lines)
            got.evidence = [f"{path}:{line}: [operator_conclusion] {said}"]
            got.details["evidence_lines"] = [
                {
                    "file": str(path),
                    "line": line,
                    "text": said[:MAX_LINE],
                    "signature": "operator_conclusion",
                    "meaning": "An operator's stated hardware conclusion: advice, not evidence",
                }
            ]
    # a description is read by the reader first: the fallback learned from log lines, and a
    # reporter's failure word ("shuts down") is no log's marker (benchmarks/triage_prose.py:
    # "replace" against "fill", tests/corpus/real/README.md, issue-27gen5)
    if got is None and described and prose.is_description(tail):
        got = read_description(tail, default=default)
    if asked and got is None:
        # nonstop's own lines (its runtime, bootstrap and fault injector: nonstop.log's
        # `nonstop[host ...]` prefix) are not the failure's evidence: the fallback learned
        # from other people's logs, and an injected fault's announcement is no real fault's
        # trace. Without them and with no failure marker left, nothing is guessed.
        theirs = _OWN_LINE.sub(b"", tail)
        if MARKER.search(theirs.lower()):
            got = guess(theirs, default=default)
    if got is None and default is not given:  # nothing known, but whose lines they are
        got = decide([], default=default)
    return got


def _sole_rank(tail: bytes, default: Culprit | None) -> Culprit | None:
    """The caller's culprit, with the rank every rank-prefixed line of `tail` names where the
    caller knows none and they name one alone (torch's "[rank1]: " before each line of a
    rank's traceback): a guess from a traceback no row knows ("[rank1]: MyConfigError: ...")
    named no rank."""
    if default is not None and default.rank is not None:
        return default
    ranks = {_rank_of(m) for m in _RANK.finditer(tail)}
    if len(ranks) != 1:
        return default
    d = default or Culprit()
    return Culprit(rank=ranks.pop(), host=d.host, gpu=d.gpu, evidence=list(d.evidence))


def _line_of(tail: bytes, sentence: str, lines: int) -> int:
    """The line of the file (`lines` long, `tail` its end) where `sentence` begins, as far as
    its first three words tell (1 if they are not found on one line)."""
    head = " ".join(sentence.split()[:3]).encode()
    got = tail.splitlines()
    at = next((i for i, line in enumerate(got) if head in line), 0)
    return max(1, lines - len(got) + at + 1)


_OWN_LINE: Final = re.compile(rb"(?m)^nonstop\[host [^\]\n]*\] [^\n]*(?:\n|$)")


def triage_file(
    path: str | Path,
    *,
    rank: int | None = None,
    host: str | None = None,
    pci_map: dict[str, int] | None = None,
    fallback: bool = True,
    descriptions: bool = False,
) -> Verdict:
    """Classify one log file. `rank`/`host` are what the caller knows about who wrote it;
    `fallback=False` gives the signature rows' verdict alone (no guess when none matched);
    `descriptions=True` (text a user hands `nonstop triage`, never a run's rank log) reads a
    description no row matched (nonstop.diagnose.prose)."""
    s = scan(path)
    pmap = {**s.pci_map, **(pci_map or {})}
    default = Culprit(rank=rank, host=host)
    g = None
    if not s.hits:
        g = _unmatched(path, s.marked, fallback, default, s.lines, descriptions)
    v = g or decide(s.hits, pci_map=pmap, default=default, counts=s.counts)
    v.details.update(file=str(path), lines=s.lines, bytes=s.bytes, matches=dict(s.counts))
    return _said_empty(_with_torchrun(v, [s]), [s])


def _with_torchrun(v: Verdict, scans: list[Scan]) -> Verdict:
    """A verdict over files with torchrun's failure summary says its root cause (the rank's
    exception or signal), in `details.torchrun_root_cause` and first in the evidence."""
    roots = [(s.file, s.torchrun) for s in scans if s.torchrun is not None]
    if not roots:
        return v
    file, root = roots[0]
    v.details["torchrun_root_cause"] = {
        "file": file,
        "line": root.lines[0],
        **{k: getattr(root, k) for k in ("rank", "local_rank", "host", "exitcode", "message")},
        "error_file": root.error_file,
        "first_observed": root.first_observed,
        "said": root.describe(),
    }
    v.evidence.insert(0, f"{file}:{root.lines[0]}: {root.describe()}")
    for c in v.culprits:
        if c.rank == root.rank:
            c.evidence.append(root.describe())
    return v


EMPTY = "The log is empty: nothing to classify."


def _said_empty(v: Verdict, scans: list[Scan]) -> Verdict:
    """A verdict over files that held no byte says so, at confidence 0, instead of "no known
    failure signature" (as if a log had been read and found clean)."""
    if scans and all(s.bytes == 0 for s in scans):
        v.verdict = EMPTY if len(scans) == 1 else "The logs are empty: nothing to classify."
        v.confidence = 0.0
    return v


def triage_files(
    paths: list[str | Path],
    *,
    pci_map: dict[str, int] | None = None,
    fallback: bool = True,
    descriptions: bool = False,
    scans: list[Scan] | None = None,
) -> tuple[list[Verdict], Verdict]:
    """Each file's verdict, and one joint verdict over all of them (most specific hit wins);
    `fallback=False`: the rows' verdicts alone; `descriptions`: as `triage_file`'s; `scans`:
    the files' scans where the caller has them (scan_all's)."""
    if scans is None:
        scans = scan_all(paths)
    for root in [s.torchrun for s in scans if s.torchrun is not None][:1]:
        for s in scans:
            _echoes(s.hits, root)
    pmap: dict[str, int] = {}
    for s in scans:
        pmap.update(s.pci_map)
    pmap.update(pci_map or {})
    per = []
    for s in scans:
        # the fallback reads a file no row matched only if it has a failure marker
        g = None
        if not s.hits:
            g = _unmatched(
                s.file,
                s.marked,
                fallback,
                lines=s.lines,
                descriptions=descriptions,
                tail=s.tail,
            )
        v = g or decide(s.hits, pci_map=pmap, counts=s.counts)
        v.details.update(file=s.file, lines=s.lines, bytes=s.bytes, matches=dict(s.counts))
        per.append(_said_empty(_with_torchrun(v, [s]), [s]))
    counts: Counter[str] = Counter()
    for s in scans:
        counts.update(s.counts)
    joint = _said_empty(
        decide([h for s in scans for h in s.hits], pci_map=pmap, counts=counts), scans
    )
    _peer_gone_names_no_culprit(joint, scans)
    _with_torchrun(joint, scans)
    if not counts:  # no file matched a row: the likeliest guess, if any file gave one
        guesses = [v for v in per if v.guessed or "spike" in v.details]
        if guesses:
            best = max(guesses, key=lambda v: v.confidence)
            joint = Verdict(
                verdict=best.verdict,
                category=best.category,
                action=best.action,
                culprits=best.culprits,
                confidence=best.confidence,
                evidence=best.evidence,
                details={
                    k: best.details[k]
                    for k in ("guess", "spike", "advice", "file", "evidence_lines")
                    if k in best.details
                },
                guessed=best.guessed,
            )
    return per, joint


# Log signatures that mean a rank's collective failed because a peer went away: the rank that
# wrote it is that peer's victim (here and in nonstop.diagnose.join). gloo's full mesh failing at
# group creation (`gloo_mesh_setup`, part of `gloo_conn` until issue-27rows15) stays one: at a
# restart it is often a peer that is gone.
COLLECTIVE_FAILED: Final = frozenset(
    {"peer_closed", "gloo_conn", "gloo_mesh_setup", "nccl_remote", "nccl_watchdog"}
)


_DIED_OF_SIGNAL = re.compile(DIED_OF_SIGNAL.encode())


def _dead_peer(hits: list[Hit], seer: Hit) -> Hit | None:
    """The first line saying that a process on another rank or host than `seer` (a rank whose
    collective lost its peer) died of a signal no launcher stops with: that is the peer. Before,
    `deepspeed --hostfile` output where worker-1's rank was SIGKILLed ("worker-1: ... exits with
    return code = -9") named worker-0's rank 0, which had only lost it."""
    for h in sorted(hits, key=lambda h: (h.file, h.line)):
        other = (h.rank is not None and h.rank != seer.rank) or (
            h.host is not None and seer.host is not None and h.host != seer.host
        )
        if h is not seer and other and _DIED_OF_SIGNAL.search(h.text.encode()):
            return h
    return None


def _peer_gone_names_no_culprit(joint: Verdict, scans: list[Scan]) -> None:
    """Where the best line over all files is a rank saying its peer went away, that rank is not
    the culprit: the joint verdict names none, says who saw it, and points to the files with a
    failure word that no row knows (the peer's own failure, often a plain exception). Before,
    `nonstop triage` of a torchrun --log-dir folder whose rank 1 raised named rank 0, which
    only lost rank 1, as the culprit."""
    lines = joint.details.get("evidence_lines") or []
    if not lines or lines[0].get("signature") not in COLLECTIVE_FAILED or not joint.culprits:
        return
    seen = joint.culprits[0]
    by = ", ".join(
        f"{k} {v}" for k, v in (("host", seen.host), ("rank", seen.rank)) if v is not None
    )
    own = [s.file for s in scans if s.marked and not s.hits]
    look = (
        f"; the peer's own failure matched no signature: look at {', '.join(own[:3])}"
        if own
        else "; no file given shows the peer's own failure"
    )
    meaning = BY_ID[lines[0]["signature"]].meaning
    joint.verdict = (
        f"{taxonomy.get(joint.category).name}: {meaning}"
        + (f" (seen by {by})" if by else "")
        + f"{look}. Action: {joint.action}."
    )
    joint.culprits = []
    joint.details["seen_by"] = {"host": seen.host, "rank": seen.rank}


def file_json(v: Verdict) -> dict[str, Any]:
    """The per-input JSON of `nonstop triage --json`."""
    c = v.culprits[0] if v.culprits else Culprit()
    return {
        "file": v.details.get("file"),
        "verdict": v.verdict,
        "category": v.category,
        "action": v.action,
        "culprit": {"host": c.host, "rank": c.rank, "gpu": c.gpu},
        "evidence": v.details.get("evidence_lines", []),
        "confidence": round(v.confidence, 3),
        "guessed": v.guessed,
        # what a guess read: a log's words (the fallback), a description's (prose) or an
        # operator's stated conclusion (advice)
        "guessed_from": v.details["guess"].get("from", "log") if v.guessed else None,
        "lines": v.details.get("lines"),
        "bytes": v.details.get("bytes"),
    }


# NVML events the telemetry thread records (nonstop.runtime.telemetry) -> a hit. Single-bit ECC
# errors are corrected: recorded, never a cause. Throttle reasons are NVML's bitmask.
THROTTLE_THERMAL = 0x20 | 0x40  # SW thermal slowdown, HW thermal slowdown
THROTTLE_POWER_BRAKE = 0x80  # HW power brake slowdown (external power signal: PSU, chassis)


def nvml_hits(events: list[Any], file: str) -> list[Hit]:
    """Hits from a rank's telemetry events of kind NVML event (xid, ecc_dbe, clock_throttle)."""
    hits = []
    for i, e in enumerate(events, start=1):
        p = getattr(e, "payload", e)
        m = p.get("metrics") or {}
        kind = p.get("event")
        gpu = int(m["gpu"]) if "gpu" in m else None
        if kind == "xid" and "xid" in m:
            code = int(m["xid"])
            cat, spec, conf, meaning = XIDS.get(code, _UNLISTED_XID)
            sid, meaning = f"nvml_xid_{code}", f"Xid {code} (NVML event): {meaning}"
        elif kind == "ecc_dbe":
            sid, cat, spec, conf = "nvml_ecc_dbe", "gpu_hbm3_memory", 90, 0.9
            meaning = "NVML: double-bit (uncorrectable) ECC error"
        elif kind == "clock_throttle" and int(m.get("reasons", 0)) & THROTTLE_POWER_BRAKE:
            sid, cat, spec, conf = "nvml_power_brake", "power_supply", 60, 0.5
            meaning = "NVML: hardware power brake slowdown (an external power fault signal)"
        elif kind == "clock_throttle" and int(m.get("reasons", 0)) & THROTTLE_THERMAL:
            sid, cat, spec, conf = "nvml_thermal", "gpu_thermal_interface_sensor", 55, 0.5
            meaning = "NVML: thermal slowdown of the GPU clocks"
        else:
            continue  # single-bit ECC (corrected) and other throttle reasons: context only
        text = f"NVML event {kind} on GPU {gpu}: " + ", ".join(f"{k}={v:g}" for k, v in m.items())
        hits.append(Hit(sid, cat, spec, conf, meaning, file, i, text, rank=p.get("rank"), gpu=gpu))
    return hits


def triage_rank(log_path: str | Path, *, rank: int, host: str, fallback: bool = True) -> Verdict:
    """Classify one rank's failure from everything this node kept for it: the rank's log, the
    node's kernel log (lines of this rank's pid, or of no process: the node's), and the NVML
    events in the rank's event stream (run_dir/events/attempt-N/rank-R.jsonl)."""
    from nonstop.diagnose.kernel_log import kernel_file

    log_path = Path(log_path)
    hits: list[Hit] = []
    counts: Counter[str] = Counter()
    pmap: dict[str, int] = {}
    sources = []
    marked, lines = False, 0
    if log_path.exists():
        s = scan(log_path)
        marked, lines = s.marked, s.lines
        hits += s.hits
        counts.update(s.counts)
        pmap.update(s.pci_map)
        sources.append(str(log_path))
    kfile = kernel_file(log_path, host)
    if kfile.exists():
        ks = scan(kfile)
        mine = [h for h in ks.hits if h.rank in (None, rank)]
        for h in mine:
            h.host = h.host or host
        hits += mine
        counts.update(h.signature for h in mine)
        sources.append(str(kfile))
    events = log_path.parents[2] / "events" / log_path.parent.name / f"rank-{rank}.jsonl"
    if events.exists():
        from nonstop.events import iter_events

        nv = [e for e in iter_events(events) if e.kind == "telemetry" and e.payload.get("event")]
        got = nvml_hits(nv, str(events))
        for h in got:
            h.rank, h.host = rank, host
        hits += got
        counts.update(h.signature for h in got)
    default = Culprit(rank=rank, host=host)
    g = None
    if not hits and log_path.exists():
        g = _unmatched(log_path, marked, fallback, default, lines)
    v = g or decide(hits, pci_map=pmap, default=default, counts=counts)
    v.details.update(files=sources, matches=dict(counts))
    return v
