"""Signature rows for the classes the thirty-second collection showed missing
(tests/corpus/real/README.md, thirtysecond.jsonl, "After its rows", branch issue-27rows32). Each
row is tested on the thirty-second's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take; and the
reading of several disks' I/O errors at once as shared storage (triage._several_disks), which
took the thirty-second's one wrong exclude_node away."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _thirtysecond(rid: str) -> str:
    return excerpt("thirtysecond", rid)


THIRTYSECOND = [
    # (log text, category, why)
    # -- cpu: a processor sensor's SEL record gone non-recoverable (`bmc_processor_nonrecoverable`;
    # ipmitool's generic severity offsets "Transition to Non-recoverable [from less severe]")
    (_thirtysecond("e75a73216dde"), "cpu", "thirty-second e75a73216dde (Intel's SEL, Machine Chk)"),
    (
        "  1c | 03/02/2024 | 11:02:13 | Processor #0x5a | Transition to Non-recoverable from less "
        "severe | Asserted",
        "cpu",
        "an unnamed processor sensor, from less severe",
    ),
    ("Processor CPU2 Status | Transition to Non-recoverable", "cpu", "no assertion column"),
    # -- out_of_memory: THC's CUDA error 2 (`thc_cuda_oom`; LuaTorch's cutorch and PyTorch < 1.0)
    (_thirtysecond("2a62172fe216"), "out_of_memory", "thirty-second 2a62172fe216 (cutorch)"),
    (
        "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCCachingHostAllocator.cpp line=265 "
        "error=2 : out of memory",
        "out_of_memory",
        "PyTorch 0.4's THCudaCheck",
    ),
    (
        "RuntimeError: cuda runtime error (2) : out of memory at "
        "/opt/conda/conda-bld/pytorch_1524584710464/work/aten/src/THC/generic/THCStorage.cu:58",
        "out_of_memory",
        "PyTorch 0.4's RuntimeError",
    ),
    # -- user_code_error: runpy refusing what `python -m` was given (`python_m_not_a_module`;
    # CPython's Lib/runpy.py)
    (_thirtysecond("179efaefa9de"), "user_code_error", "thirty-second 179efaefa9de (deepspeed)"),
    (
        "/usr/bin/python3: No module named torch.distributed.__main__; 'torch.distributed' is a "
        "package and cannot be directly executed",
        "user_code_error",
        "another package run with -m",
    ),
    (
        "/usr/bin/python3: Error while finding module specification for 'train.py' "
        "(ModuleNotFoundError: __path__ attribute not found on 'train' while trying to find "
        "'train.py')",
        "user_code_error",
        "a script's file name given to -m",
    ),
    # -- numerical_nan: a trainer's JSON state with NaN or Infinity (`json_metric_nonfinite`;
    # Python's json writes NaN, Infinity, -Infinity)
    (_thirtysecond("99211da1d4ba"), "numerical_nan", "thirty-second 99211da1d4ba (trainer_state)"),
    (
        '{"loss": NaN, "grad_norm": 12.5, "learning_rate": 1e-05, "step": 40}',
        "numerical_nan",
        "jsonl",
    ),
    ('      "eval_loss": -Infinity,', "numerical_nan", "an eval loss, -Infinity"),
    # -- software_bug: NCCL's numbered completion status of the request's own kind
    # (`verbs_wc_local_error`; enum ibv_wc_status 1, 2, 4, 6, 8, 9, 10)
    (_thirtysecond("0a7decdf0fcd"), "software_bug", "thirty-second 0a7decdf0fcd (status 4)"),
    (
        "node023:10214:10303 [0] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion "
        "from peer 10.1.3.201<33057> with status=10 opcode=0 len=0 vendor err 136",
        "software_bug",
        "NCCL 2.19's wording, remote access",
    ),
    # -- dependency: NCCL's topology detection at init (`nccl_topology_detect`; graph/xml.cc,
    # graph/xml.h)
    (_thirtysecond("cd637ea1f5b6"), "dependency", "thirty-second cd637ea1f5b6 (real path)"),
    (excerpt("twentythird", "0b92b3ab6d10"), "dependency", "twenty-third 0b92b3ab6d10 (xml.h)"),
    (
        "gpu-0:42:42 [3] NCCL INFO graph/xml.cc:332 NCCL WARN Could not find real path of "
        "/sys/class/pci_bus/0000:00/../../0000:00:05.0",
        "dependency",
        "another VM's PCI path",
    ),
    # -- dependency: HCCL's links not established at start (`hccl_link_establish_timeout`)
    (_thirtysecond("750f72750380"), "dependency", "thirty-second 750f72750380 (HCCL's guide)"),
    (
        "[ERROR] HCCL(2100,python):2024-01-02-10:00:00.000.000 [hccl_socket_manager.cc:797] "
        "[2200][Wait][LinkEstablish]wait socket establish timeout, role[0] rank[3] timeout[1800 s]",
        "dependency",
        "another rank, the server role",
    ),
    # -- planned_stop: Azure's pre-maintenance event (`azure_pre_maintenance_event`)
    (_thirtysecond("0142782a3c6b"), "planned_stop", "thirty-second 0142782a3c6b (the schema page)"),
    (
        '{"id": "e1f0", "eventType": "Microsoft.Maintenance.PreMaintenanceEvent", "subject": '
        '"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Maintenance/'
        'maintenanceConfigurations/cfg"}',
        "planned_stop",
        "the event as Event Grid delivers it",
    ),
    # -- storage: filesystem or block-layer I/O errors on two or more disks of one host at once
    # (triage._several_disks)
    (_thirtysecond("982651df85b4"), "storage", "thirty-second 982651df85b4 (Longhorn volumes)"),
    (
        "kernel: blk_update_request: I/O error, dev sdc, sector 2048 op 0x1:(WRITE) flags 0x800\n"
        "kernel: EXT4-fs error (device sdd1): ext4_find_entry:1455: inode #2: comm ls: reading "
        "directory lblock 0",
        "storage",
        "the block layer on sdc, ext4 on sdd1 (iSCSI LUNs)",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    (
        "Processor CPU Machine Chk | Transition to Non-recoverable | Deasserted",
        "cpu",
        "the state left",
    ),
    ("Memory #0x53 | Transition to Non-recoverable | Asserted", "cpu", "not a processor sensor"),
    ("Processor CPU1 | Transition to OK | Asserted", "cpu", "back to OK"),
    (
        "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCTensorCopy.cu line=69 error=77 : an "
        "illegal memory access was encountered",
        "out_of_memory",
        "another CUDA error",
    ),
    (
        "Error while finding module specification for 'torch.distributed.launch' "
        "(ModuleNotFoundError: No module named 'torch.distributed')",
        "user_code_error",
        "a module truly missing: dependency",
    ),
    ("/usr/bin/python: No module named deepspeed", "user_code_error", "not installed"),
    ('    "grad_norm": 1.0054431303639499e+19,', "numerical_nan", "a finite grad norm"),
    ('    "max_grad_norm": Infinity,', "numerical_nan", "a setting: no clipping"),
    (
        "NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129",
        "software_bug",
        "retries exceeded: the link",
    ),
    (
        "NCCL WARN NET/IB : Got completion with error 5, opcode 1, len 0, vendor err 249",
        "software_bug",
        "flushed: follows another error",
    ),
    (
        "Test NCCL failure common.cu:961 'internal error - please report this issue to the NCCL "
        "developers'",
        "dependency",
        "NCCL's internal error alone",
    ),
    (
        "[ERROR] HCCL(1,python):2024 [hccl_socket.cc:100] EI0006: Getting socket times out. "
        "Reason: Remote Rank did not send the data in time.",
        "dependency",
        "EI0006 mid-run",
    ),
    (
        '{"eventType": "Microsoft.Maintenance.PostMaintenanceEvent"}',
        "planned_stop",
        "after the maintenance",
    ),
    # one disk, its partitions and the disk itself: the disk (ssd), not shared storage
    (
        "kernel: EXT4-fs error (device sda1): ext4_find_entry:1455: inode #2: reading lblock 0\n"
        "kernel: blk_update_request: I/O error, dev sda, sector 123 op 0x0:(READ)\n"
        "kernel: EXT4-fs (sda2): I/O error while writing superblock",
        "storage",
        "one disk, two partitions",
    ),
    # two disks, one of which says its medium failed: the disk's own word decides (ssd)
    (
        "kernel: sd 0:0:1:0: [sdb] tag#0 Sense Key : Medium Error [current]\n"
        "kernel: blk_update_request: I/O error, dev sdb, sector 88 op 0x0:(READ)\n"
        "kernel: EXT4-fs error (device sdc1): ext4_find_entry:1455: inode #2: reading lblock 0",
        "storage",
        "a medium error on one of the disks",
    ),
    # two hosts, one disk each (syslog's host): each host's one disk
    (
        "Sep  6 14:24:35 node1 kernel: EXT4-fs error (device sda1): ext4_find_entry:1455: inode #2\n"
        "Sep  6 14:24:36 node2 kernel: EXT4-fs error (device sdb1): ext4_find_entry:1455: inode #2",
        "storage",
        "two hosts, one disk each",
    ),
]

test_row = row_test(THIRTYSECOND)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(THIRTYSECOND + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The nine excerpts the rows now read get their labels' actions: the BMC's processor record
    excludes the node, THC's out of memory and `python -m`'s mistake page, the rest restart."""
    for rid, action in (
        ("e75a73216dde", "exclude_node"),
        ("2a62172fe216", "stop_and_page"),
        ("179efaefa9de", "stop_and_page"),
        ("99211da1d4ba", "restart"),
        ("0a7decdf0fcd", "restart"),
        ("cd637ea1f5b6", "restart"),
        ("750f72750380", "restart"),
        ("0142782a3c6b", "restart"),
        ("982651df85b4", "restart"),
    ):
        v = rows_alone(tmp_path, _thirtysecond(rid))
        assert v.action == action, (rid, v.verdict)


def test_one_disk_is_still_excluded(tmp_path: Path) -> None:
    """Errors on one local disk still exclude the node (several disks' I/O errors do not)."""
    v = rows_alone(
        tmp_path,
        "kernel: EXT4-fs error (device nvme0n1p2): ext4_journal_check_start:83: comm dd\n"
        "kernel: Buffer I/O error on dev nvme0n1p2, logical block 0, lost sync page write",
    )
    assert (v.category, v.action) == ("ssd", "exclude_node"), v.verdict
