"""The triage table: log-line signatures -> failure category, specificity, confidence, meaning.

A plain data table (style rule 6). Each row is one regular expression over a single log line
(bytes, so that multi-gigabyte logs are scanned without decoding). When several rows match in
one incident, the highest ``specificity`` wins: a root cause (Xid 79 on a host) outranks the
symptoms it causes elsewhere (NCCL watchdog timeout, gloo connection reset, store timeout).
Categories are nonstop.taxonomy ids; the action comes from the taxonomy.

Sources for the Xid meanings: NVIDIA, "XID Errors" and "Xid Catalog" (docs.nvidia.com/deploy/
xid-errors/index.html, .../analyzing-xid-catalog.html). The Xid 94/95 mapping to
gpu_sram_memory follows nonstop.taxonomy's description of that category.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final


@dataclass(frozen=True)
class Signature:
    id: str
    pattern: str
    category: str
    specificity: int
    """Precedence among matches: root causes high (80-100), symptoms low (10-30)."""
    confidence: float
    meaning: str


# Xid code -> (category, specificity, confidence, meaning per NVIDIA's Xid documentation).
XIDS: Final[dict[int, tuple[str, int, float, str]]] = {
    8: ("faulty_gpu", 60, 0.6, "GPU stopped processing (channel idle timeout)"),
    13: ("software_bug", 45, 0.5, "Graphics engine exception: often an out-of-range access in a kernel"),
    31: ("software_bug", 45, 0.5, "GPU memory page fault (MMU fault): usually an illegal address in an application kernel"),
    32: ("faulty_gpu", 70, 0.6, "Invalid or corrupted push buffer stream (PCIe/bus errors)"),
    38: ("faulty_gpu", 70, 0.6, "Driver firmware error"),
    43: ("software_bug", 40, 0.5, "GPU stopped processing: a user application fault reset the channel"),
    45: ("faulty_gpu", 35, 0.4, "Preemptive cleanup after previous errors (follows a more specific Xid)"),
    48: ("gpu_hbm3_memory", 92, 0.95, "Double-bit ECC error (DBE) in GPU memory"),
    56: ("faulty_gpu", 60, 0.5, "Display engine error"),
    57: ("gpu_hbm3_memory", 80, 0.7, "Error programming video memory interface"),
    61: ("faulty_gpu", 85, 0.8, "Internal micro-controller breakpoint/warning (PMU)"),
    62: ("faulty_gpu", 88, 0.85, "Internal micro-controller halt"),
    63: ("gpu_hbm3_memory", 86, 0.85, "ECC page retirement or row-remapping recording event: reset the GPU"),
    64: ("gpu_hbm3_memory", 90, 0.9, "ECC page retirement or row-remapper recording failure"),
    68: ("faulty_gpu", 70, 0.6, "NVDEC0 (video decoder) exception"),
    69: ("faulty_gpu", 70, 0.6, "Graphics engine class error"),
    74: ("faulty_gpu", 88, 0.85, "NVLink error: link down, CRC or replay errors on a GPU's NVLink"),
    79: ("faulty_gpu", 100, 0.97, "GPU has fallen off the bus"),
    92: ("gpu_hbm3_memory", 70, 0.6, "High single-bit ECC error rate"),
    94: ("gpu_sram_memory", 90, 0.85, "Contained ECC error: the faulting application was stopped"),
    95: ("gpu_sram_memory", 93, 0.9, "Uncontained ECC error: every application on the GPU is affected"),
    109: ("faulty_gpu", 75, 0.6, "Context switch timeout"),
    110: ("faulty_gpu", 80, 0.7, "Security fault error"),
    119: ("gpu_system_processor", 95, 0.9, "GSP RPC timeout: the GPU System Processor stopped answering"),
    120: ("gpu_system_processor", 95, 0.9, "GSP error: the GPU System Processor reported a fault"),
    121: ("faulty_gpu", 85, 0.8, "C2C (chip-to-chip) link error"),
    122: ("faulty_gpu", 80, 0.7, "SPI PMU RPC read failure"),
    123: ("faulty_gpu", 80, 0.7, "SPI PMU RPC write failure"),
    136: ("faulty_gpu", 80, 0.7, "Interrupt seen in a reset state"),
    140: ("gpu_hbm3_memory", 92, 0.9, "Unrecovered ECC error: uncorrectable memory error the GPU could not contain"),
    143: ("faulty_gpu", 90, 0.85, "GPU initialization failure"),
    154: ("faulty_gpu", 88, 0.8, "GPU recovery action changed: reset or node reboot required"),
}  # fmt: skip

XID_PATTERN: Final = rb"NVRM: Xid \((?:PCI:)?(?P<pci>[0-9a-fA-F:.]+)\): (?P<xid>\d+)"

# id, pattern, category, specificity, confidence, meaning. Order does not matter.
_ROWS: Final[tuple[tuple[str, str, str, int, float, str], ...]] = (
    ("gpu_off_bus", r"(?:GPU has )?fallen off the bus", "faulty_gpu", 100, 0.97,
     "The GPU stopped answering on PCIe (kernel or nvidia-smi report)"),
    ("row_remap_failure", r"(?i)row[- ]remap(?:ping)? (?:failure|failed|pending)|remapped rows.*failure",
     "gpu_hbm3_memory", 90, 0.9, "HBM row remapping failed or is pending: the GPU needs a reset or service"),
    ("ecc_uncorrectable", r"(?i)uncorrectable ECC error|double[- ]bit ECC",
     "gpu_hbm3_memory", 88, 0.9, "Uncorrectable ECC error in GPU memory"),
    ("mce", r"(?i)Machine Check Exception|mce: \[Hardware Error\]|\[Hardware Error\]: Machine check",
     "cpu", 90, 0.85, "Machine-check exception: CPU or host memory hardware fault"),
    ("edac_ue", r"EDAC \w+: \d+ UE ", "system_memory", 88, 0.85,
     "Uncorrected host DRAM error reported by EDAC"),
    ("kernel_panic", r"Kernel panic - not syncing", "server_chassis", 80, 0.6,
     "The host kernel panicked; the node must be rebooted and checked"),
    ("nvme_error", r"(?i)nvme\d*: .*(?:I/O error|controller is down|timeout, reset controller)",
     "ssd", 82, 0.8, "Local NVMe drive failed or reset"),
    ("pcie_aer", r"(?i)AER: (?:Uncorrected|Fatal)|PCIe Bus Error: severity=(?:Uncorrected|Fatal)",
     "io_expansion_board", 75, 0.6, "Uncorrected PCIe error on the host's IO path"),
    ("thermal", r"(?i)(?:GPU|CPU\d*) .*(?:over[- ]?temperature|thermal (?:shutdown|violation))|clocks? throttled.*thermal",
     "gpu_thermal_interface_sensor", 78, 0.6, "Thermal shutdown or throttling"),
    ("psu", r"(?i)power supply (?:failure|lost|fault)|PSU\d* (?:failure|fault)", "power_supply",
     82, 0.7, "Power supply failure on the host"),
    ("ib_retry", r"IBV_WC_RETRY_EXC_ERR|IBV_WC_RNR_RETRY_EXC_ERR|transport retry counter exceeded|ibv_poll_cq.*error 12",
     "network_switch_cable", 70, 0.75, "InfiniBand/RoCE transport retries exceeded: link flap or switch fault"),
    ("ib_link_down", r"(?i)(?:mlx5_\d+|ib\d+|port \d+).*(?:link (?:down|is down)|physical state: Disabled)|NET/IB.*(?:Got async event|port error)",
     "network_switch_cable", 68, 0.65, "InfiniBand/RoCE port or link went down"),
    ("nic_failure", r"(?i)mlx5_core .*(?:firmware fatal|health compromised|device's health)",
     "nic", 80, 0.75, "The network adapter reported a fatal error"),
    ("nvlink", r"(?i)NVLink.*(?:error|fatal|inactive|down)|NCCL WARN .*nvlink", "faulty_gpu", 72,
     0.6, "NVLink error seen by NCCL or the driver"),
    ("cuda_ecc", r"CUDA error: uncorrectable ECC error encountered", "gpu_hbm3_memory", 87, 0.85,
     "CUDA reports an uncorrectable ECC error on the device"),
    ("cuda_illegal_access", r"CUDA error: an illegal memory access was encountered|cudaErrorIllegalAddress",
     "software_bug", 55, 0.55, "A kernel accessed an illegal address (a bug, or a GPU fault with an Xid)"),
    ("cuda_launch", r"CUDA error: (?:unspecified launch failure|the launch timed out|misaligned address|an illegal instruction)",
     "software_bug", 52, 0.5, "A CUDA kernel failed to run"),
    ("cuda_no_device", r"CUDA error: (?:no CUDA-capable device|CUDA-capable device\(s\) is/are busy|initialization error)",
     "faulty_gpu", 65, 0.6, "The CUDA device vanished or could not initialise"),
    ("cuda_oom", r"CUDA out of memory|OutOfMemoryError|cudaErrorMemoryAllocation|CUBLAS_STATUS_ALLOC_FAILED",
     "out_of_memory", 75, 0.9, "GPU memory exhausted: deterministic for this configuration"),
    ("host_oom", r"Out of memory: Killed process|oom-kill:|invoked oom-killer|Memory cgroup out of memory",
     "out_of_memory", 74, 0.85, "The host OOM killer killed a process"),
    ("no_space", r"No space left on device|Disk quota exceeded|ENOSPC", "storage", 66, 0.85,
     "Filesystem full"),
    ("stale_nfs", r"(?i)Stale (?:NFS )?file handle|ESTALE|nfs: server \S+ not responding",
     "storage", 66, 0.8, "Shared filesystem lost (stale NFS handle or unresponsive server)"),
    ("io_error", r"\[Errno 5\] Input/output error|Buffer I/O error on dev|blk_update_request: I/O error",
     "storage", 62, 0.7, "I/O error on a filesystem or block device"),
    ("nccl_remote", r"(?i)NCCL (?:WARN|INFO).*remote process exited|ncclRemoteError|remote process exited or there was a network error",
     "network_switch_cable", 48, 0.5, "NCCL saw a peer or the network fail"),
    ("nccl_system", r"ncclSystemError|NCCL error.*unhandled system error", "software_bug", 45, 0.45,
     "NCCL system call failed (often a symptom of a host or network problem)"),
    ("nccl_internal", r"ncclInternalError|ncclUnhandledCudaError|ncclInvalidUsage", "software_bug",
     42, 0.45, "NCCL internal or CUDA error"),
    ("nan_loss", r"(?i)\bloss(?: is|=|:)? ?(?:nan|-?inf)\b|non-finite loss|NaN or Inf found",
     "silent_data_corruption", 50, 0.4, "Loss became NaN or Inf (numerics, or silent data corruption)"),
    ("segfault", r"Segmentation fault|SIGSEGV|segfault at [0-9a-f]+", "software_bug", 35, 0.45,
     "A process crashed on an invalid memory access (native code)"),
    ("sigbus", r"SIGBUS|Bus error", "software_bug", 38, 0.45,
     "Bus error: a mapped file vanished or shared memory ran out"),
    ("user_exception", r"^(?:\[rank\d+\]: ?)?(?:[A-Za-z_][\w.]*\.)?(?:ValueError|TypeError|KeyError|IndexError|AttributeError|NameError|AssertionError|ZeroDivisionError|FileNotFoundError|ImportError|ModuleNotFoundError|NotImplementedError|RecursionError): ",
     "user_code_error", 40, 0.6, "A Python exception raised in the training script"),
    ("gloo_conn", r"Gloo connectFullMesh failed|gloo/transport/tcp/[\w.]+:\d+\] (?:Connection closed by peer|Read error|Timed out|connect)|gloo.*Connection (?:reset|refused)",
     "unknown", 30, 0.3, "gloo lost a peer: a symptom of a peer that died or hung"),
    ("store_timeout", r"(?i)(?:TCPStore|c10d store|DistStoreError).*(?:timed? ?out|Timeout)|Socket Timeout|RendezvousTimeoutError|RendezvousConnectionError|The client socket has timed out",
     "dependency", 25, 0.35, "The c10d store or rendezvous timed out"),
    ("nccl_watchdog", r"Watchdog caught collective operation timeout|ProcessGroupNCCL's watchdog got stuck|Some NCCL operations have failed or timed out",
     "nccl_watchdog_timeout", 20, 0.5, "A collective timed out (symptom unless nothing more specific is found)"),
    ("elastic_child_failed", r"torch\.distributed\.elastic\.multiprocessing\.errors\.ChildFailedError|exitcode\s*: -9 \(pid",
     "unknown", 10, 0.2, "torchrun reports a failed worker (see the worker's own log for why)"),
)  # fmt: skip


def _table() -> tuple[Signature, ...]:
    rows = [Signature(*r) for r in _ROWS]
    rows += [
        Signature(f"xid_{n}", XID_PATTERN.decode(), cat, spec, conf, f"Xid {n}: {meaning}")
        for n, (cat, spec, conf, meaning) in XIDS.items()
    ]
    return tuple(rows)


SIGNATURES: Final[tuple[Signature, ...]] = _table()
BY_ID: Final[dict[str, Signature]] = {s.id: s for s in SIGNATURES}
# Lower-case literals, one of which every line a row matches contains. The prefilter looks for
# these in the lower-cased chunk with one combined alternation of literals, which Python's regex
# engine scans ~50x faster than the alternation of the full patterns (the rows' own regexes
# then run only on candidate lines). tests/diagnose pins that no corpus line is lost this way.
NEEDLES: Final[dict[str, tuple[str, ...]]] = {
    "gpu_off_bus": ("fallen off the bus",),
    "row_remap_failure": ("remap",),
    "ecc_uncorrectable": ("uncorrectable ecc", "double bit ecc", "double-bit ecc"),
    "mce": ("machine check", "hardware error"),
    "edac_ue": ("edac",),
    "kernel_panic": ("kernel panic",),
    "nvme_error": ("nvme",),
    "pcie_aer": ("aer:", "pcie bus error"),
    "thermal": ("temperature", "thermal"),
    "psu": ("power supply", "psu"),
    "ib_retry": ("retry_exc_err", "retry counter exceeded", "ibv_poll_cq"),
    "ib_link_down": ("link down", "link is down", "state: disabled", "async event", "port error"),
    "nic_failure": ("firmware fatal", "health compromised", "device's health"),
    "nvlink": ("nvlink",),
    "cuda_ecc": ("uncorrectable ecc",),
    "cuda_illegal_access": ("illegal memory access", "cudaerrorillegaladdress"),
    "cuda_launch": ("cuda error",),
    "cuda_no_device": ("cuda error",),
    "cuda_oom": ("out of memory", "outofmemoryerror", "cudaerrormemoryallocation", "alloc_failed"),
    "host_oom": ("out of memory", "oom-kill"),
    "no_space": ("no space left", "quota exceeded", "enospc"),
    "stale_nfs": ("stale", "not responding"),
    "io_error": ("i/o error", "input/output error"),
    "nccl_remote": ("remote process exited", "ncclremoteerror"),
    "nccl_system": ("ncclsystemerror", "unhandled system error"),
    "nccl_internal": ("ncclinternalerror", "ncclunhandledcudaerror", "ncclinvalidusage"),
    "nan_loss": ("loss nan", "loss=nan", "loss:nan", "loss: nan", "loss is nan", "loss inf",
                 "loss=inf", "loss:inf", "loss: inf", "loss is inf", "loss -inf", "loss=-inf",
                 "loss: -inf", "loss is -inf", "non-finite loss", "nan or inf found"),
    "segfault": ("segmentation fault", "sigsegv", "segfault"),
    "sigbus": ("sigbus", "bus error"),
    "user_exception": tuple(f"{e}error: " for e in (
        "value", "type", "key", "index", "attribute", "name", "assertion", "zerodivision",
        "filenotfound", "import", "modulenotfound", "notimplemented", "recursion")),
    "gloo_conn": ("connectfullmesh", "gloo/transport/tcp", "gloo"),
    "store_timeout": ("tcpstore", "c10d store", "diststoreerror", "socket timeout",
                      "rendezvoustimeouterror", "rendezvousconnectionerror", "has timed out"),
    "nccl_watchdog": ("watchdog caught", "watchdog got stuck", "nccl operations have failed"),
    "elastic_child_failed": ("childfailederror", "exitcode"),
    "xid": ("nvrm: xid",),
    "pci_map": ("00000000:",),  # nvidia-smi prints 8-digit PCI domains
}  # fmt: skip

# Xid rows share one pattern; COMPILED keeps one entry for it, resolved by code in triage.
COMPILED: Final[tuple[tuple[str, re.Pattern[bytes]], ...]] = tuple(
    [(r[0], re.compile(r[1].encode(), re.M)) for r in _ROWS]
    + [("xid", re.compile(XID_PATTERN, re.M))]
)


def literal_trie(words: set[str]) -> re.Pattern[bytes]:
    """One regex matching any of `words`, shaped as a trie: `(?:c(?:uda error|...)|...)`.

    Python's regex engine tries alternatives one by one at every position; factoring common
    prefixes turns ~100 literal alternatives into one byte dispatch per level (about 5x faster
    than the flat alternation). Words containing a shorter word are dropped (it covers them).
    """
    kept = {w for w in words if not any(o != w and o in w for o in words)}
    trie: dict[Any, Any] = {}
    for w in kept:
        node = trie
        for ch in w.encode():
            node = node.setdefault(ch, {})
        node[None] = True

    def emit(node: dict[Any, Any]) -> bytes:
        alts = [
            re.escape(bytes([ch])) + emit(node[ch])
            for ch in sorted(k for k in node if k is not None)
        ]
        if not alts:
            return b""
        if len(alts) == 1 and None not in node:
            return alts[0]
        return b"(?:" + b"|".join(alts) + b")" + (b"?" if None in node else b"")

    return re.compile(emit(trie))


# The one combined prefilter, over lower-cased bytes.
PREFILTER: Final[re.Pattern[bytes]] = literal_trie({n for ns in NEEDLES.values() for n in ns})


def _rows_by_needle() -> dict[bytes, tuple[str, ...]]:
    """Prefilter match -> the rows worth trying on that line (those with a needle containing it)."""
    out: dict[bytes, list[str]] = {}
    every = {n for ns in NEEDLES.values() for n in ns}
    for kept in every:
        if any(o != kept and o in kept for o in every):
            continue
        out[kept.encode()] = [row for row, ns in NEEDLES.items() if any(kept in n for n in ns)]
    return {k: tuple(v) for k, v in out.items()}


ROWS_BY_NEEDLE: Final[dict[bytes, tuple[str, ...]]] = _rows_by_needle()
# Lines that carry no failure but tell triage which GPU index a PCI bus id is (nvidia-smi).
PCI_MAP_LINE: Final = re.compile(
    rb"^\|?\s*(?P<gpu>\d+)[, ]\s*(?:NVIDIA[^|]*\|\s*)?(?:[0-9A-Fa-f]{4,8}:)?(?P<bus>[0-9A-Fa-f]{2}):"
    rb"(?P<dev>[0-9A-Fa-f]{2})\.\d",
    re.M,
)
assert set(NEEDLES) == {r[0] for r in _ROWS} | {"xid", "pci_map"}, "every row needs needles"
