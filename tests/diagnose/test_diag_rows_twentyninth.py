"""Signature rows for the classes the twenty-ninth collection showed missing
(tests/corpus/real/README.md, twentyninth.jsonl, "After its rows", branch issue-27rows29). Each
row is tested on the twenty-ninth's excerpts and on other wordings of its class, with the near
misses it must not take."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _twentyninth(rid: str) -> str:
    return excerpt("twentyninth", rid)


TWENTYNINTH = [
    # (log text, category, why)
    # -- out_of_memory: YARN's memory guard killing a container
    (_twentyninth("2e504788cc18"), "out_of_memory", "twentyninth 2e504788cc18 (virtual memory)"),
    (_twentyninth("fbe8587994c7"), "out_of_memory", "twentyninth fbe8587994c7 (physical memory)"),
    (
        "Container [pid=41873,containerID=container_1502_0001_01_000004] is running beyond "
        "physical memory limits. Current usage: 2.1 GB of 2 GB physical memory used; 4.0 GB of "
        "4.2 GB virtual memory used. Killing container.",
        "out_of_memory",
        "YARN's NodeManager",
    ),
    (
        "Reason: Container killed by YARN for exceeding physical memory limits. 5.6 GB of 5.5 GB "
        "physical memory used.",
        "out_of_memory",
        "Spark's newer wording",
    ),
    # -- out_of_memory: an allocator's own status outside CUDA's runtime
    (_twentyninth("eaf01fc935e9"), "out_of_memory", "twentyninth eaf01fc935e9 (OpenCL)"),
    (
        "clBuildProgram/clCreateBuffer failed: CL_OUT_OF_HOST_MEMORY",
        "out_of_memory",
        "OpenCL's host allocation",
    ),
    (_twentyninth("0083f0b5a255"), "out_of_memory", "twentyninth 0083f0b5a255 (zstd)"),
    (
        "zstd: error 11 : Allocation error : not enough memory",
        "out_of_memory",
        "zstd's own command line",
    ),
    # -- out_of_memory: CUDA's or cuFFT's allocation status as a bare number
    (_twentyninth("dd5827a6417d"), "out_of_memory", "twentyninth dd5827a6417d (OpenMM's FFT)"),
    (_twentyninth("0bae1b6b2edf"), "out_of_memory", "twentyninth 0bae1b6b2edf (NVENC context)"),
    (
        "openmm.OpenMMException: Error initializing FFT: 2",
        "out_of_memory",
        "OpenMM's exception from Python",
    ),
    # -- storage: a store refusing writes on a full volume or quota
    (_twentyninth("c7380b668bbf"), "storage", "twentyninth c7380b668bbf (flood stage)"),
    (_twentyninth("e84a6a862c57"), "storage", "twentyninth e84a6a862c57 (the 429 block)"),
    (_twentyninth("7a5016b970c0"), "storage", "twentyninth 7a5016b970c0 (etcd in Sensu)"),
    (_twentyninth("b45b6f6c67df"), "storage", "twentyninth b45b6f6c67df (etcd in PD)"),
    (
        '{"type":"cluster_block_exception","reason":"blocked by: [FORBIDDEN/12/index read-only / '
        'allow delete (api)];"}',
        "storage",
        "Elasticsearch 6's block",
    ),
    (
        "memberID:8e9e05c52164694d alarm:NOSPACE",
        "storage",
        "etcdctl alarm list",
    ),
    # -- silent_data_corruption: a database's checksum finding one flipped bit
    (_twentyninth("bcadf16e10c2"), "silent_data_corruption", "twentyninth bcadf16e10c2"),
    (_twentyninth("7e1bf42dff23"), "silent_data_corruption", "twentyninth 7e1bf42dff23 (Sentry)"),
    # -- planned_stop: AWS Batch's Spot host taken back
    (_twentyninth("34c9ccdc0c3a"), "planned_stop", "twentyninth 34c9ccdc0c3a (Host EC2)"),
    (
        "Status Reason: Host EC2 Terminated",
        "planned_stop",
        "the eleventh's 68b77e3b6ca9 wording",
    ),
    # -- network_switch_cable: perftest's port check
    (_twentyninth("91cdeda539e3"), "network_switch_cable", "twentyninth 91cdeda539e3 (perftest)"),
    # -- cpu: the panic the lockup detectors raise
    (_twentyninth("283aa1e86d52"), "cpu", "twentyninth 283aa1e86d52 (softlockup panic)"),
    (
        "[ 4211.334455] Kernel panic - not syncing: Hard LOCKUP",
        "cpu",
        "hardlockup_panic",
    ),
    # -- dependency: HCCL's transport set-up at start
    (_twentyninth("d04ee6c9950e"), "dependency", "twentyninth d04ee6c9950e (EI0009)"),
]

NOT = [
    # (text, the category it must not be read as, why)
    (
        _twentyninth("3408b60b771e"),
        "out_of_memory",
        "a YARN container killed on request (exit 137, the bare-kill rule: unknown)",
    ),
    (
        "Container [pid=41873] is running 3.2 GB of 4 GB physical memory",
        "out_of_memory",
        "a container's usage under its limit",
    ),
    (
        "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5)",
        "out_of_memory",
        "CL_OUT_OF_RESOURCES: also a kernel's crash on NVIDIA's OpenCL",
    ),
    (
        "openmm.OpenMMException: Error initializing FFT: 5",
        "out_of_memory",
        "another cuFFT status (internal error)",
    ),
    (
        "[h264_nvenc @ 0x55d1] Failed creating CUDA context for NVENC: 0x64",
        "out_of_memory",
        "CUDA_ERROR_NO_DEVICE (100)",
    ),
    (
        "[o.e.c.r.a.DiskThresholdMonitor] high disk watermark [90%] exceeded on "
        "[Lq-N3tZ][/data/nodes/0] free: 9.1gb[8.9%], shards will be relocated away from this node",
        "storage",
        "the high watermark only moves shards",
    ),
    (
        "DB::Exception: Checksum doesn't match: corrupted data. Reference: 3981c13d. Actual: "
        "a2ef2b1f. Size of compressed block: 155036",
        "silent_data_corruption",
        "a checksum mismatch with no single flipped bit",
    ),
    (
        "Port number 1 state is Active",
        "network_switch_cable",
        "a port up",
    ),
    (
        "Kernel panic - not syncing: Fatal exception in interrupt",
        "cpu",
        "a panic of another cause stays the host's",
    ),
]

test_row = row_test(TWENTYNINTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(TWENTYNINTH + NOT)


def test_the_bit_flip_excludes(tmp_path: Path) -> None:
    """ClickHouse's own diagnosis of a single flipped bit (bcadf16e10c2, 7e1bf42dff23) excludes
    the node: the label and both of its collector's alternatives (`ssd`, `system_memory`) do."""
    for rid in ("bcadf16e10c2", "7e1bf42dff23"):
        v = rows_alone(tmp_path, _twentyninth(rid))
        assert (v.category, v.action) == ("silent_data_corruption", "exclude_node"), v.verdict


def test_the_full_stores_never_exclude(tmp_path: Path) -> None:
    """A full volume or quota is `storage` (restart); no row reads the disk as failed from a
    store's words about its space."""
    for rid in ("c7380b668bbf", "e84a6a862c57", "7a5016b970c0", "b45b6f6c67df", "cb92fd138848"):
        v = rows_alone(tmp_path, _twentyninth(rid))
        assert (v.category, v.action) == ("storage", "restart"), (rid, v.verdict)


def test_the_left_alone_disks_are_not_excluded(tmp_path: Path) -> None:
    """Chia's short reads and writes of a temp file (960d0afe54b0, ede089b2e079, ca6a4a28245b,
    unsure `ssd` with `storage`) name no device failure in a machine's record: no row excludes."""
    for rid in ("960d0afe54b0", "ede089b2e079", "ca6a4a28245b"):
        v = rows_alone(tmp_path, _twentyninth(rid))
        assert v.action != "exclude_node", (rid, v.verdict)
