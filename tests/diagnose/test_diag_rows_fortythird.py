"""Signature rows for the classes the forty-third collection showed missing
(tests/corpus/real/README.md, fortythird.jsonl, "After its rows", branch issue-27rows43). Each
row, new or widened, is tested on the forty-third's excerpts and on other wordings of its class,
from the source or documentation cited beside each, with the near misses it must not take; and
NHC's failure line, which no longer excludes a node for a check whose own line names the class
(the forty-third's wrong exclude_node, 3b421e8b245e)."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fortythird(rid: str) -> str:
    return excerpt("fortythird", rid)


FORTYTHIRD = [
    # (log text, category, why)
    # -- dependency: a node short of its configured shape (`slurm_node_config` widened; Slurm's
    # src/slurmctld/node_mgr.c validate_node_specs, its error lines and drain reasons)
    (_fortythird("c761d9b4aaf3"), "dependency", "forty-third c761d9b4aaf3 (sinfo -R)"),
    (_fortythird("73dac16ef6e6"), "dependency", "forty-third 73dac16ef6e6 (sinfo -N -l)"),
    (_fortythird("d6a38f6bd7f3"), "dependency", "forty-third d6a38f6bd7f3 (slurmctld.log)"),
    (
        "[2024-03-01T10:00:00.000] error: Node gpu07 has low real_memory size (491520 / 515000) "
        "< 100.00%",
        "dependency",
        "node_mgr.c's newer wording, with the percentage",
    ),
    (
        "Reason=Low RealMemory (reported:491520 < 100.00% of configured:515000) "
        "[slurm@2024-03-01T10:00:00]",
        "dependency",
        "the newer drain reason, as scontrol show node prints it",
    ),
    (
        "error: Node c12 has low socket*core*thread count (32 < 64)",
        "dependency",
        "the CPU shape's check",
    ),
    ("error: Node c12 has low cpu count (32 < 64)", "dependency", "the CPU count's check"),
    ("Low TmpDisk                 c[001-004]", "dependency", "the tmp disk's drain reason"),
    # -- dependency: NHC's GPU-count check (`slurm_node_config`; DeepOps' check_nv_gpu_count,
    # the Azure HPC images' NHC check_gpu_count "Expected to see %s but found %s")
    (_fortythird("3b421e8b245e"), "dependency", "forty-third 3b421e8b245e (nhc -v)"),
    (
        "ERROR:  nhc:  Health check failed:  check_gpu_count: Expected to see 8 but found 7",
        "dependency",
        "azhpc-images' check through NHC's die",
    ),
    (
        "Node Health Check failed.  Check check_nv_gpu_count 8 returned 1",
        "dependency",
        "NHC's summary line",
    ),
    # -- host_maintenance: the cluster manager lost the node (`cluster_node_lost` widened)
    (_fortythird("467f96bbbd75"), "host_maintenance", "forty-third 467f96bbbd75 (Slurm reason)"),
    (
        "   Reason=Not responding [slurm@2024-05-02T11:22:33]",
        "host_maintenance",
        "scontrol show node's reason with its stamp",
    ),
    (_fortythird("280054c8a804"), "host_maintenance", "forty-third 280054c8a804 (Flux)"),
    (_fortythird("3830fb33b1d8"), "host_maintenance", "forty-third 3830fb33b1d8 (flux overlay)"),
    (
        "broker.err[0]: elcap1124 (rank 820) has disconnected unexpectedly. Marking it LOST.",
        "host_maintenance",
        "flux-core src/broker/overlay.c's lost child",
    ),
    (
        "Jun 04 14:00:56 node17 flux[2231]: overlay.crit[17]: disconnecting: no heartbeat for 2m",
        "host_maintenance",
        "the heartbeat timeout, another rank and duration",
    ),
    (_fortythird("930e3de17da1"), "host_maintenance", "forty-third 930e3de17da1 (alert mail)"),
    (
        "description: gpu-node-3 has been unready for more than 15 minutes.",
        "host_maintenance",
        "kubernetes-mixin's KubeNodeNotReady description",
    ),
    (
        "message: node1 has been unready for more than an hour.",
        "host_maintenance",
        "the older mixin's wording",
    ),
    # -- out_of_memory: PBS's and TORQUE's memory kills (`job_memory_limit` widened; the lines
    # aiida-crystal17's parser tests map to its out-of-memory exit codes)
    (_fortythird("6c276aae5227"), "out_of_memory", "forty-third 6c276aae5227 (mem job total)"),
    (_fortythird("801284ebe9c8"), "out_of_memory", "forty-third 801284ebe9c8 (vmem)"),
    (
        "=>> PBS: job killed: vmem job total 1 kb exceeded limit 10 kb",
        "out_of_memory",
        "vmem's job-total wording",
    ),
    (
        "=>> PBS: job killed: pvmem 4294967296 exceeded limit 2147483648",
        "out_of_memory",
        "the per-process vmem limit",
    ),
    (excerpt("tenth", "c6ccff2f2985"), "out_of_memory", "tenth c6ccff2f2985, still read"),
    # -- power_supply: Dell's lost redundancy (`redundancy_lost` widened; iDRAC's RDU0012)
    (_fortythird("322e0f318591"), "power_supply", "forty-third 322e0f318591 (idrac_exporter)"),
    (
        "RDU0012: Power supply redundancy is lost.",
        "power_supply",
        "the iDRAC message with its id",
    ),
    ("PSU redundancy has been lost", "power_supply", "another BMC's wording"),
    # -- storage: a monitoring alert for a full filesystem (`node_filesystem_alert_full`; the
    # node-mixin's NodeFilesystemAlmostOutOfSpace and NodeFilesystemAlmostOutOfFiles)
    (_fortythird("8abb7494bbfd"), "storage", "forty-third 8abb7494bbfd (alert mail)"),
    (
        "Filesystem on /dev/nvme0n1p1, mounted on /scratch, at 10.1.2.3:9100 has only 0.41% "
        "available inodes left.",
        "storage",
        "the inodes alert",
    ),
    (
        "Filesystem on /dev/sda1 at node7:9100 has only 0.00% available space left.",
        "storage",
        "the older mixin's wording",
    ),
    # -- dependency: Slurm refusing its configuration or a gres specification
    # (`slurm_config_invalid`; node_conf.c, read_config.c, slurm_errno.c)
    (_fortythird("a346e6f8e825"), "dependency", "forty-third a346e6f8e825 (NodeHostName)"),
    (_fortythird("2a953a9b1953"), "dependency", "forty-third 2a953a9b1953 (gres)"),
    (_fortythird("ea0b5146b289"), "dependency", "forty-third ea0b5146b289 (srun's gres)"),
    (
        "slurmctld: fatal: Duplicated NodeHostName localhost in config file",
        "dependency",
        "the fatal wording of newer releases",
    ),
    (
        "sbatch: error: Batch job submission failed: Invalid Trackable RESource (TRES) "
        "specification",
        "dependency",
        "ESLURM_INVALID_TRES",
    ),
    # -- dependency: RDMA devices listed but not openable (`rdma_device_open_failed`; NCCL's
    # misc/ibvwrap.cc and transport/net_ib.cc, rdma-core's rc_pingpong.c, perftest)
    (_fortythird("832dab16a158"), "dependency", "forty-third 832dab16a158 (NCCL in a pod)"),
    (
        "node1:1234:1300 [0] transport/net_ib.cc:149 NCCL WARN NET/IB : Unable to open device "
        "mlx5_3",
        "dependency",
        "net_ib.cc alone",
    ),
    ("Couldn't get context for mlx5_0", "dependency", "rc_pingpong's wording"),
    ("Couldn't get context for the device", "dependency", "perftest's wording"),
]

NOT = [
    # -- not a node short of its shape: the words in other contexts
    ("Reason=Low priority job [root@2024-03-01]", "dependency", "another reason"),
    ("WARNING: host memory is low", "dependency", "a low-memory warning"),
    (
        "ERROR:  nhc:  Health check failed:  check_fs_mount:  /scratch not mounted",
        "dependency",
        "NHC's other checks stay a node taken out",
    ),
    ("Check check_nv_gpu_count 8 returned 0", "dependency", "the GPU count check passing"),
    # -- not a node lost
    ("heartbeat.warning[1150]: heartbeat overdue", "host_maintenance", "a warning alone"),
    ("heartbeat.warning[1150]: heartbeat received", "host_maintenance", "the heartbeat back"),
    ("├─ 821 elcap1125: full", "host_maintenance", "a full subtree"),
    ("├─ 822 elcap1126: offline", "host_maintenance", "an offline rank (shut down)"),
    ("Node c002 now responding", "host_maintenance", "Slurm's node back"),
    (
        "Pod training-0 has been unready for more than 120 seconds.",
        "host_maintenance",
        "a pod, in seconds",
    ),
    # -- not a memory kill
    (excerpt("tenth", "36ca45973ea7"), "out_of_memory", "PBS's walltime kill (tenth)"),
    (
        "=>> PBS: job killed: ncpus 12.5 exceeded limit 8 (sum)",
        "out_of_memory",
        "the CPU limit",
    ),
    # -- not a lost supply
    ("The power supplies are redundant.", "power_supply", "redundancy there"),
    (excerpt("twentyninth", "52205585e8ba"), "power_supply", "lost and regained (twenty-ninth)"),
    # -- not a full filesystem
    (
        "Filesystem on /dev/sdb1, mounted on /data, at 10.0.0.33:9100 has only 4.50% available "
        "space left.",
        "storage",
        "below the warning threshold, not full",
    ),
    (
        "Filesystem on /dev/sdb1, mounted on /data, at 10.0.0.33:9100 is predicted to run out "
        "of space within the next 24 hours.",
        "storage",
        "a prediction",
    ),
    # -- not a configuration refusal
    ("NodeName=c[001-004] NodeHostName=c[001-004] CPUs=64", "dependency", "slurm.conf itself"),
    ("srun: job 1234 queued and waiting for resources", "dependency", "a queued job"),
    # -- not an RDMA device that cannot be opened
    (
        "node1:1234:1300 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB "
        "ib0:10.0.0.1<0>",
        "dependency",
        "NCCL's devices in use",
    ),
    ("unable to open device /dev/video0", "dependency", "a camera"),
    # the prefilter must not hide GPFS's lost membership behind a Flux needle (it once did)
    (excerpt("thirtyninth", "3792df1d8dd6"), "host_maintenance", "GPFS's lost membership"),
]


test_row = row_test(FORTYTHIRD)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FORTYTHIRD + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The excerpts the rows now read get their labels' actions: the lost nodes and the lost
    supply redundancy exclude the node, the memory kills page, the configuration and the
    full filesystem restart."""
    for rid, action in (
        ("280054c8a804", "exclude_node"),
        ("3830fb33b1d8", "exclude_node"),
        ("467f96bbbd75", "exclude_node"),
        ("930e3de17da1", "exclude_node"),
        ("322e0f318591", "exclude_node"),
        ("6c276aae5227", "stop_and_page"),
        ("801284ebe9c8", "stop_and_page"),
        ("3b421e8b245e", "restart"),
        ("c761d9b4aaf3", "restart"),
        ("a346e6f8e825", "restart"),
        ("8abb7494bbfd", "restart"),
        ("832dab16a158", "restart"),
    ):
        v = rows_alone(tmp_path, _fortythird(rid))
        assert v.action == action, (rid, v.verdict)


def test_nhc_s_failure_line_and_the_lines_of_its_checks(tmp_path: Path) -> None:
    """NHC's "Health check failed" still takes a node out (host_maintenance) for a check that
    names no class and for its Xid check (the tenth's test of mej/nhc#147); an Xid its check
    prints beside it ("Found XID errors: N", now read) outranks it where the Xid is stronger
    (79, a GPU off the bus; 48, a double-bit ECC error), not Xid 63, which xids.py makes weak
    (alone, as the driver's own Xid 63 line, unknown and restart). For its GPU-count check the
    configuration decides (the forty-third's wrong exclude_node, 3b421e8b245e, is gone)."""
    nhc = "ERROR:  nhc:  Health check failed:  Check check_xid_errors returned 1"
    for text, want in (
        (_fortythird("3bdded106d78"), ("host_maintenance", "exclude_node")),
        ("Found XID errors: 63", ("unknown", "restart")),
        (
            "NVRM: Xid (PCI:0000:3b:00): 63, ECC page retirement recording event",
            ("unknown", "restart"),
        ),
        ("Found XID errors: 79\n" + nhc, ("faulty_gpu", "exclude_node")),
        ("Found XID errors: 48\n" + nhc, ("gpu_hbm3_memory", "exclude_node")),
        (_fortythird("3b421e8b245e"), ("dependency", "restart")),
        (
            "ERROR:  nhc:  Health check failed:  check_hw_ib:  No IB port is ACTIVE",
            ("host_maintenance", "exclude_node"),
        ),
    ):
        v = rows_alone(tmp_path, text)
        assert (v.category, v.action) == want, (text, v.verdict)
