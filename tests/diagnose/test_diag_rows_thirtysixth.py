"""Signature rows for the classes the thirty-sixth collection showed missing
(tests/corpus/real/README.md, thirtysixth.jsonl, "After its rows", branch issue-27rows36). Each
row is tested on the thirty-sixth's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take; and the three
wrong exclude_node the rows took away (3ef33824fe67: the kubelet's PLEG reason read as a node
lost; 944ed3b1d8e7: "PSU" inside phosphor-psu-monitor's name read as a failed supply;
b1ef0e93a617: "rejecting I/O to offline device", which a transport that lost its remote target
prints too, read as a failing local disk)."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _thirtysixth(rid: str) -> str:
    return excerpt("thirtysixth", rid)


THIRTYSIXTH = [
    # (log text, category, why)
    # -- software_bug: the kubelet's own reason, its PLEG stalled or the runtime down
    # (`kubelet_runtime_unhealthy`; pkg/kubelet/pleg/generic.go Healthy(), runtime_state.go,
    # kubelet.go updateRuntimeUp)
    (
        _thirtysixth("3ef33824fe67"),
        "software_bug",
        "thirty-sixth 3ef33824fe67 (NodeNotReady, PLEG)",
    ),
    (_thirtysixth("9c2fb7db2827"), "software_bug", "thirty-sixth 9c2fb7db2827 (describe node)"),
    (_thirtysixth("2f54b6289737"), "software_bug", "thirty-sixth 2f54b6289737 (skipping sync)"),
    (_thirtysixth("a7ae2e9d2e29"), "software_bug", "thirty-sixth a7ae2e9d2e29 (structured log)"),
    (
        "I0212 10:04:11.113350    1217 kubelet.go:1846] skipping pod synchronization - "
        "[container runtime is down]",
        "software_bug",
        "runtime_state.go's runtime-down error in the sync loop",
    ),
    (
        "  Ready            False   Tue, 08 Jan 2019 10:10:28 +0000   Tue, 08 Jan 2019 09:55:49 "
        "+0000   KubeletNotReady              container runtime is down,PLEG is not healthy: pleg "
        "was last seen active 17m56.0296s ago; threshold is 3m0s",
        "software_bug",
        "kubectl describe node, both reasons (kubernetes issue 72533)",
    ),
    (
        "KubeletNotReady container runtime not ready: RuntimeReady=false "
        "reason:DockerDaemonNotReady message:docker: failed to get docker version: Cannot "
        "connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
        "software_bug",
        "kubelet.go updateRuntimeUp's runtime-not-ready condition",
    ),
    # -- dependency: a D-Bus call to a member its service lacks (`dbus_unknown_member`; the
    # D-Bus specification's standard error names)
    (_thirtysixth("944ed3b1d8e7"), "dependency", "thirty-sixth 944ed3b1d8e7 (sd_bus_call)"),
    (
        'org.freedesktop.DBus.Error.UnknownMethod: Method "GetAll" with signature "s" on '
        'interface "org.freedesktop.DBus.Properties" doesn\'t exist',
        "dependency",
        "libdbus's wording of an unknown method",
    ),
    (
        "GDBus.Error:org.freedesktop.DBus.Error.UnknownMethod: No such interface "
        "“org.freedesktop.login1.Manager” on object at path /org/freedesktop/login1",
        "dependency",
        "GDBus's wording (gdbusconnection.c)",
    ),
    (
        "Failed to get property: sd_bus_call: org.freedesktop.DBus.Error.UnknownProperty: "
        "Unknown property or interface.",
        "dependency",
        "sd-bus's unknown property",
    ),
    # -- power_supply: OpenBMC's PSU monitor decoding the supply's PMBus status
    # (`openbmc_psu_pmbus_fault`; phosphor-power, phosphor-power-supply/power_supply.cpp)
    (_thirtysixth("e818dd565e92"), "power_supply", "thirty-sixth e818dd565e92 (INPUT, VIN_UV)"),
    (
        "phosphor-psu-monitor[612]: ps0 PGOOD fault: STATUS_WORD = 0x0840, "
        "STATUS_MFR_SPECIFIC = 0x00",
        "power_supply",
        "analyzePgoodFault with the supply's short name",
    ),
    (
        "ps1 IOUT fault: STATUS_WORD = 0x4010, STATUS_MFR_SPECIFIC = 0x00, STATUS_IOUT = 0x80",
        "power_supply",
        "analyzeIoutOCFault",
    ),
    (
        "ps2 VOUT_OV_FAULT fault: STATUS_WORD = 0x0020, STATUS_MFR_SPECIFIC = 0x00, "
        "STATUS_VOUT = 0x80",
        "power_supply",
        "analyzeVoutOVFault",
    ),
    # -- storage: I/O refused to an offline SCSI device, nothing of the disk's own
    # (`scsi_offline_reject` and triage._several_disks; scsi_lib.c, SDEV_TRANSPORT_OFFLINE)
    (_thirtysixth("b1ef0e93a617"), "storage", "thirty-sixth b1ef0e93a617 (Longhorn over iSCSI)"),
    (
        " session1: session recovery timed out after 120 secs\n"
        "sd 3:0:0:1: rejecting I/O to offline device\n"
        "blk_update_request: I/O error, dev sdb, sector 2048 op 0x0:(READ) flags 0x0 phys_seg 1 "
        "prio class 0",
        "storage",
        "an iSCSI session past its replacement timeout (scsi_transport_iscsi.c)",
    ),
    (
        "rport-2:0-3: blocked FC remote port time out: removing target and saving binding\n"
        "sd 2:0:1:0: rejecting I/O to offline device\n"
        "Buffer I/O error on dev sdc, logical block 0, async page read",
        "storage",
        "an FC remote port lost (scsi_transport_fc.c)",
    ),
    ("sd 0:0:0:0: rejecting I/O to offline device", "storage", "the line alone"),
    # -- storage: Ceph's health checks (`ceph_health_degraded`; docs.ceph.com
    # rados/operations/health-checks, the monitor's failure report)
    (_thirtysixth("4e063f343b81"), "storage", "thirty-sixth 4e063f343b81 (SLOW_OPS)"),
    (_thirtysixth("126a1d2c68a0"), "storage", "thirty-sixth 126a1d2c68a0 (health JSON)"),
    (_thirtysixth("0433a527d332"), "storage", "thirty-sixth 0433a527d332 (slow ops, mon down)"),
    (_thirtysixth("45d87dd4f648"), "storage", "thirty-sixth 45d87dd4f648 (osd failed)"),
    (
        "[WRN] SLOW_OPS: 5 slow ops, oldest one blocked for 34 sec, daemons [osd.1] have slow ops.",
        "storage",
        "ceph health detail's SLOW_OPS",
    ),
    (
        "HEALTH_WARN 1 osds down; Reduced data availability: 4 pgs inactive",
        "storage",
        "ceph health",
    ),
    ("    osd.3 (root=default,host=node2) is down", "storage", "ceph health detail's OSD_DOWN"),
    ("HEALTH_WARN 1/3 mons down, quorum a,b", "storage", "MON_DOWN"),
    # -- unknown: the same checks cleared (`ceph_health_cleared`)
    (_thirtysixth("c4ad4cd9513c"), "unknown", "thirty-sixth c4ad4cd9513c (OSD down, cleared)"),
    # -- io_expansion_board: a POWER host bridge fenced or its link given up
    # (`powernv_phb_fenced`; eeh-powernv.c, skiboot hw/phb3.c and phb4.c)
    (_thirtysixth("78313f8720b5"), "io_expansion_board", "thirty-sixth 78313f8720b5 (OPAL)"),
    (_thirtysixth("36faf83e1d91"), "io_expansion_board", "thirty-sixth 36faf83e1d91 (EEH)"),
    (_thirtysixth("552832710da9"), "io_expansion_board", "thirty-sixth 552832710da9 (link)"),
    (
        "EEH: dead PHB#3 detected, location: U78D2.001.WZS00C4-P1-C7",
        "io_expansion_board",
        "eeh-powernv.c's dead PHB",
    ),
    (
        "[  125.017324915,3] PHB#0030[0:3]: Electrical link detected but won't train",
        "io_expansion_board",
        "phb4.c's link retries given up",
    ),
    (
        "[   62.432101223,3] PHB#0005[0:5]: Presence detected but no electrical link",
        "io_expansion_board",
        "phb4.c, no electrical link",
    ),
    # -- cpu: mcelog's decode of an uncorrected status (`mcelog_status_uncorrected`; Intel SDM
    # vol. 3B 16.3.2.2, VAL and UC)
    (_thirtysixth("5fda9715f076"), "cpu", "thirty-sixth 5fda9715f076 (mcelog k8 decode)"),
    ("STATUS b200000000070005 MCGSTATUS 5", "cpu", "an uncorrected, context-corrupt status"),
    ("STATUS be00000000800400 MCGSTATUS 5", "cpu", "an uncorrected status with ADDRV/MISCV"),
    # -- system_memory: OpenBIC's DIMM PMIC error (`openbic_dimm_pmic_error`)
    (_thirtysixth("0fa7ea5ab18f"), "system_memory", "thirty-sixth 0fa7ea5ab18f (SWAout UV)"),
    (excerpt("thirtyfourth", "3a11bdee80fb"), "system_memory", "thirty-fourth 3a11bdee80fb"),
    (
        "4    slot4    2023-05-22 23:29:51    ipmid            SEL Entry: FRU: 4, Record: Standard "
        "(0x02), Time: 2023-05-22 23:29:51, Sensor: PMIC_ERR (0xB4), Event Data: (030D00) DIMM B2 "
        "Vout 1v8 PG Assertion",
        "system_memory",
        "a power-good fault of another DIMM",
    ),
    # -- software_bug: the kernel's hw csum failure (`netdev_rx_csum_fault`; net/core/dev.c)
    (_thirtysixth("e9882e04e2f1"), "software_bug", "thirty-sixth e9882e04e2f1 (NULL net_device)"),
    ("[ 4219.301112] eth0: hw csum failure", "software_bug", "older kernels' pr_err"),
    ("kernel: ens3f0np0: hw csum failure", "software_bug", "netdev_err with a device name"),
    # -- user_code_error: srun's step refused (`slurm_step_refused`; Slurm's error strings)
    (_thirtysixth("30acfaca831b"), "user_code_error", "thirty-sixth 30acfaca831b (node config)"),
    (
        "srun: error: Unable to create step for job 1234: More processors requested than permitted",
        "user_code_error",
        "ESLURM_TOO_MANY_REQUESTED_CPUS",
    ),
    (
        "srun: error: Unable to create step for job 98765: Requested node configuration is not "
        "available",
        "user_code_error",
        "ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE for another job",
    ),
    # -- nic: the adapter not completing its reset (`nic_reset_failed`; i40e_common.c,
    # i40e_main.c, amzn-drivers ena_netdev.c)
    (_thirtysixth("ef9112545e18"), "nic", "thirty-sixth ef9112545e18 (i40e PF reset)"),
    (_thirtysixth("8653aeedebc2"), "nic", "thirty-sixth 8653aeedebc2 (ENA lost completions)"),
    ("i40e 0000:3b:00.1: Initial pf_reset failed: -15", "nic", "i40e_main.c's current spelling"),
    (
        "ena 0000:00:06.0 eth1: The number of lost tx completions is above the threshold "
        "(129 > 128). Reset the device",
        "nic",
        "ENA on another interface",
    ),
    # -- software_bug: UCX/SPDK's mlx5 CQE decode of a local error (`mlx5_cqe_local_error`;
    # UCX src/uct/ib/mlx5/ib_mlx5_log.c)
    (
        _thirtysixth("5311cccda163"),
        "software_bug",
        "thirty-sixth 5311cccda163 (Local QP operation)",
    ),
    (
        "[1712345678.123456] [node01:4242 :0]    ib_mlx5_log.c:177  UCX  ERROR Error on QP 0x1a2b "
        "wqe[0]: Local protection (synd 0x4 vend 0x56 hw_synd 0/0)",
        "software_bug",
        "UCX, local protection",
    ),
    (
        "mlx5.c: 456:mlx5_cqe_err: *ERROR*: Error on QP 0x99 wqe[12]: Local length (synd 0x1 "
        "vend 0x0 hw_synd 0/0)",
        "software_bug",
        "SPDK's mlx5 driver, local length",
    ),
    # -- network_switch_cable: the IB fabric tools (`ib_fabric_query_errors`; libibmad
    # query_smp.c, infiniband-diags ibqueryerrors.c)
    (_thirtysixth("41f02d2cd2a6"), "network_switch_cable", "thirty-sixth 41f02d2cd2a6"),
    (
        "src/query_smp.c:228; umad (DR path slid 0; dlid 0; 0,1,3,7 Attr 0x15:1) bad status 110; "
        "Connection timed out",
        "network_switch_cable",
        "another directed route and attribute",
    ),
    (
        '   Errors for 0x0002c90300a1b2c3 "node17 HCA-1"',
        "network_switch_cable",
        "ibqueryerrors on a host adapter's port",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    ("Node ip-10-0-0-1 status is now: NodeNotReady", "software_bug", "NodeNotReady, no reason"),
    ("Kubelet stopped posting node status.", "software_bug", "the node silent"),
    (
        'I0131 15:43:35.414429    3072 kubelet.go:1953] SyncLoop (PLEG): "web_default(70a6b852)",'
        ' event: &pleg.PodLifecycleEvent{ID:"70a6b852", Type:"ContainerStarted"}',
        "software_bug",
        "a PLEG event, the generator working",
    ),
    (
        "org.freedesktop.DBus.Error.NoReply: Did not receive a reply.",
        "dependency",
        "a service that did not answer",
    ),
    (_thirtysixth("944ed3b1d8e7"), "power_supply", "a PSU monitor's D-Bus call, no PSU failing"),
    (
        "ps1 INPUT fault cleared: STATUS_WORD = 0x0000, STATUS_MFR_SPECIFIC = 0x00, "
        "STATUS_INPUT = 0x00",
        "power_supply",
        "the input fault cleared",
    ),
    (
        "ps1 VIN_UV fault cleared: STATUS_WORD = 0x0000, STATUS_MFR_SPECIFIC = 0x00, "
        "STATUS_INPUT = 0x00",
        "power_supply",
        "VIN_UV cleared",
    ),
    ("ps0 STATUS_WORD = 0x0000", "power_supply", "a status word with no fault"),
    (
        "sd 0:0:0:0: [sda] Medium access timeout failure. Offlining disk!\n"
        "sd 0:0:0:0: rejecting I/O to offline device",
        "storage",
        "a local disk offlined by its error handler stays the disk's",
    ),
    (
        "sd 2:0:0:0: [sdb] tag#0 Sense Key : Medium Error [current]\n"
        "sd 2:0:0:0: [sdb] tag#0 Add. Sense: Unrecovered read error\n"
        "sd 2:0:0:0: rejecting I/O to offline device",
        "storage",
        "a medium error beside it",
    ),
    (
        "Health check cleared: SLOW_OPS (was: 2 slow ops, oldest one blocked for 33 sec, daemons "
        "[osd.0] have slow ops.)",
        "storage",
        "slow ops cleared",
    ),
    ("Health check cleared: OSD_DOWN (was: 1 osds down)", "storage", "OSD_DOWN cleared"),
    ("cluster [INF] Cluster is now healthy", "storage", "healthy again"),
    (
        "Health check update: 0 slow ops, oldest one blocked for 41 sec, daemons [osd.12] have "
        "slow ops. (SLOW_OPS)",
        "storage",
        "zero slow ops",
    ),
    ("EEH: Frozen PHB#0-PE#fe detected", "io_expansion_board", "one PE frozen, recoverable"),
    ("EEH: PHB#0 informative error detected, location: N/A", "io_expansion_board", "informative"),
    ("[   5.1,7] PHB#0001[0:1]: LINK: Link is stable", "io_expansion_board", "a stable link"),
    ("STATUS 8c00004000010090 MCGSTATUS 0", "cpu", "mcelog's corrected status"),
    ("STATUS 0000000000000000 MCGSTATUS 0", "cpu", "an empty status"),
    (
        "Sensor: PMIC_ERR (0xB4), Event Data: (050600) DIMM A7 SWAout UV Deassertion",
        "system_memory",
        "the PMIC error deasserted",
    ),
    # the kernel's memory report's swap line (mm/swap_state.c show_swap_cache_info): a node
    # without swap, as GPU nodes often are, prints "Free swap  = 0kB" in every report (sysrq-m,
    # an allocation warning), so alone it is no evidence of memory running out, and a row taking
    # it would page someone (the thirty-sixth's 62ecbdbac09e*, one such line, left unknown)
    (_thirtysixth("62ecbdbac09e"), "out_of_memory", "thirty-sixth 62ecbdbac09e: the line alone"),
    ("[ 6842.186548] Free swap  = 0kB", "out_of_memory", "dmesg's form, swapless node"),
    ("Free swap  = 4194300kB", "out_of_memory", "swap left"),
    ("Total swap = 0kB", "out_of_memory", "no swap configured"),
    (
        "Fix spurious 'hw csum failure' messages with GRO on tunnels",
        "software_bug",
        "the message in prose",
    ),
    (
        "srun: error: Unable to create step for job 1234: Requested nodes are busy",
        "user_code_error",
        "busy nodes: a retry",
    ),
    (
        "ena 0000:00:05.0 eth0: Found a Tx that wasn't completed on time, qid 2, index 37.",
        "nic",
        "one late completion",
    ),
    (
        "Error on QP 0x1a2b wqe[5]: Transport retry count exceeded (synd 0x15 vend 0x81 "
        "hw_synd 0/0)",
        "software_bug",
        "the transport's retries, the fabric",
    ),
    ("QP 0x1a2b wqe[3] is flushed", "software_bug", "a flushed request"),
    (
        "## Summary: 24 nodes checked, 0 bad nodes found",
        "network_switch_cable",
        "ibqueryerrors' clean summary",
    ),
]

test_row = row_test(THIRTYSIXTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(THIRTYSIXTH + NOT)


def test_the_wrong_exclusions_are_gone(tmp_path: Path) -> None:
    """The thirty-sixth's wrong exclude_node the rows took away restart now; the fourth,
    18aa9e0c5d49 (an igb Tx unit hang its label blames on a netmap-patched driver, which the
    lines do not show), reads as the same lines labelled nic elsewhere (its cf9cac8c5962)."""
    for rid in ("3ef33824fe67", "944ed3b1d8e7", "b1ef0e93a617"):
        v = rows_alone(tmp_path, _thirtysixth(rid))
        assert v.action == "restart", (rid, v.verdict)


def test_a_psu_failing_still_excludes(tmp_path: Path) -> None:
    """`power_fault_words` still reads a PSU failing; only "PSU" inside a program's name
    (phosphor-psu-monitor) stopped counting."""
    v = rows_alone(tmp_path, "PSU2 failed: no AC input")
    assert (v.category, v.action) == ("power_supply", "exclude_node"), v.verdict


def test_a_single_disk_io_error_without_the_offline_line_stays_local(tmp_path: Path) -> None:
    """Without "rejecting I/O to offline device" a single disk's filesystem I/O errors stay
    `ssd` (the rows32 rule: one disk is the disk's own)."""
    v = rows_alone(
        tmp_path,
        "Buffer I/O error on dev sdaj1, logical block 83658496, async page read\n"
        "Buffer I/O error on dev sdaj1, logical block 83658497, async page read",
    )
    assert v.category == "ssd", v.verdict
