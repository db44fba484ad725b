"""Signature rows for the classes the fifty-first collection showed missing
(tests/corpus/real/README.md, fiftyfirst.jsonl, "After its rows", branch issue-27rows51). Each row
is tested on the fifty-first's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take. Rows widened
in place for it: `net_link_events` (an IB port stuck in PORT_INIT or "Initializing"),
`nic_failure` (mlx5's health poll and report without the mlx5_core prefix on
the line), `nic_tx_hang` (the 2.6 kernels' "NETDEV WATCHDOG: eth0: transmit timed out"),
`mlx5_cqe_local_error` (newer UCX's "Remote access on mlx5_0:1/IB (synd 0x13 ...)", illumos'
"CQE remote access error"), `fabric_named_provider_missing` (fi_info's "fi_getinfo: -61 (No
data available)"); new: `rdma_qp_connect_setup` (an RDMA queue pair that cannot reach RTR/RTS
at set-up: the peer unreachable), `kernel_module_symbol_mismatch` (a kernel module built against
other symbols), `nvlink_error_counters_zero` (a healthy `nvidia-smi nvlink -e` reading)."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fiftyfirst(rid: str) -> str:
    return excerpt("fiftyfirst", rid)


FIFTYFIRST = [
    # (log text, category, why)
    # -- dependency: an RDMA queue pair that cannot be brought to RTR/RTS at connection set-up,
    # the peer's address unreachable (`rdma_qp_connect_setup`; NVIDIA/nccl src/misc/ibvwrap.cc
    # wrap_ibv_modify_qp, linux-rdma/perftest src/perftest_resources.c ctx_connect and its
    # benchmarks' " Unable to Connect the HCA's through the link", Mooncake's
    # rdma_endpoint.cpp)
    (_fiftyfirst("1e4b8b9bd16d"), "dependency", "fiftyfirst 1e4b8b9bd16d (NCCL, 110 at RTR)"),
    (_fiftyfirst("53eeb004214b"), "dependency", "fiftyfirst 53eeb004214b (NCCL, unreachable)"),
    (_fiftyfirst("009a6725ebdc"), "dependency", "fiftyfirst 009a6725ebdc (UCCL, errno 110)"),
    (_fiftyfirst("16efd7c38514"), "dependency", "fiftyfirst 16efd7c38514 (Mooncake handshake)"),
    (
        "node-7:1220:1388 [3] NCCL WARN Call to ibv_modify_qp failed with 113 No route to host, "
        "on dev mlx5_3:1, curr state INIT, next state RTR, local GID index 3, local GID "
        "::ffff:10.1.3.7, remote GID ::ffff:10.2.3.9",
        "dependency",
        "NCCL's newer WARN with EHOSTUNREACH",
    ),
    (
        "gpu12:4410:4502 [1] misc/ibvwrap.cc:206 NCCL WARN Call to ibv_modify_qp failed with "
        "error Connection timed out errno 110",
        "dependency",
        "NCCL's older WARN with ETIMEDOUT",
    ),
    (
        "Failed to modify QP to RTS\n Unable to Connect the HCA's through the link",
        "dependency",
        "perftest at RTS",
    ),
    (
        "Failed to modify QP 2291 to RTR",
        "dependency",
        "perftest's RTR line alone",
    ),
    # -- dependency: a kernel module loaded against other symbols than those it was built for
    # (`kernel_module_symbol_mismatch`; Linux kernel/module/version.c check_version,
    # kernel/module/main.c resolve_symbol_wait)
    (_fiftyfirst("5869a3b54f68"), "dependency", "fiftyfirst 5869a3b54f68 (nvidia_peermem)"),
    (
        "[   12.664017] nvidia: disagrees about version of symbol module_layout",
        "dependency",
        "NVIDIA's driver after a kernel update",
    ),
    (
        "Mar  2 10:14:07 gpu03 kernel: nv_peer_mem: Unknown symbol ib_register_peer_memory_client "
        "(err 0)",
        "dependency",
        "nv_peer_mem against an inbox ib_core, in syslog",
    ),
    # -- dependency: libfabric has no provider matching (`fabric_named_provider_missing`,
    # widened; fi_info's report, fabtests' FT_PRINTERR)
    (_fiftyfirst("adc1843027a2"), "dependency", "fiftyfirst adc1843027a2 (fi_info -p efa)"),
    (
        "fi_getinfo: -61 (No data available)",
        "dependency",
        "fi_info's line alone",
    ),
    (
        "fi_getinfo(): common/shared.c:1010, ret=-61 (No data available)",
        "dependency",
        "fabtests' FT_PRINTERR (the row's earlier wording)",
    ),
    # -- software_bug: an RDMA completion with a remote-access (or local) error as UCX's
    # newer log and illumos' ConnectX drivers word it (`mlx5_cqe_local_error`, widened; UCX
    # src/uct/ib/mlx5/ib_mlx5_log.c, illumos usr/src/uts/common/sys/ib/adapters/hermon/
    # hermon_fm.h)
    (_fiftyfirst("7151bc0f9f6c"), "software_bug", "fiftyfirst 7151bc0f9f6c (UCX remote access)"),
    (_fiftyfirst("dbebd75c4f99"), "software_bug", "fiftyfirst dbebd75c4f99 (mcxnex CQE)"),
    (
        excerpt("thirtyseventh", "e696791f223a"),
        "software_bug",
        "thirty-seventh e696791f223a (UCX remote access under Open MPI)",
    ),
    (
        "[host:1234:0:1234] ib_mlx5_log.c:143  Local protection on mlx5_2:1/RoCE (synd 0x4 "
        "vend 0x56 hw_synd 0/0)",
        "software_bug",
        "UCX's local protection over RoCE",
    ),
    (
        "WARNING: hermon0: Device Error: CQE remote invalid request error",
        "software_bug",
        "hermon's remote invalid request",
    ),
    # -- nic: a transmit watchdog in the older kernels' wording (`nic_tx_hang`, widened; Linux
    # 2.6 net/sched/sch_generic.c dev_watchdog)
    (_fiftyfirst("e5245caccee2"), "nic", "fiftyfirst e5245caccee2 (eth0)"),
    (_fiftyfirst("25cb77eac50f"), "nic", "fiftyfirst 25cb77eac50f (ib1)"),
    (
        "Jun 11 03:22:41 node17 kernel: NETDEV WATCHDOG: eth1: transmit timed out",
        "nic",
        "in syslog",
    ),
    # -- nic: mlx5's health poll without the device prefix on its line (`nic_failure`,
    # widened; Linux drivers/net/ethernet/mellanox/mlx5/core/health.c)
    (_fiftyfirst("1b3af65e482d"), "nic", "fiftyfirst 1b3af65e482d (lines wrapped)"),
    (excerpt("fifth", "6c1fa721fb2b"), "nic", "fifth 6c1fa721fb2b (the full line)"),
    (
        "): Health issue observed, firmware internal error, severity(2) CRITICAL:",
        "nic",
        "print_health_info's line without its prefix",
    ),
    # -- network_switch_cable: an IB port the subnet manager never activated, physical link up
    # and no LID (`net_link_events`, widened; rdma-core libibverbs/examples/devinfo.c
    # port_state_str, infiniband-diags ibstat.c)
    (_fiftyfirst("292efdd8a89e"), "network_switch_cable", "fiftyfirst 292efdd8a89e (PORT_INIT)"),
    (
        "\tport:\t1\n\t\t\tstate:\t\t\tPORT_INIT (2)\n\t\t\tmax_mtu:\t\t4096 (5)",
        "network_switch_cable",
        "ibv_devinfo with tabs",
    ),
    (
        "\tPort 1:\n\t\tState: Initializing\n\t\tPhysical state: LinkUp\n\t\tRate: 200",
        "network_switch_cable",
        "ibstat's Initializing with the link up",
    ),
    # -- unknown: a healthy NVLink error-counter reading (`nvlink_error_counters_zero`;
    # nvidia-smi nvlink -e, stas00/ml-engineering's example, the older drivers' split CRC)
    (_fiftyfirst("8ea6ca84a787"), "unknown", "fiftyfirst 8ea6ca84a787 (GB300 at zero)"),
    (
        "GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-aaaa1111)\n"
        "         Link 0: Replay Errors: 0\n"
        "         Link 0: Recovery Errors: 0\n"
        "         Link 0: CRC Flit Errors: 0\n"
        "         Link 0: CRC Data Errors: 0",
        "unknown",
        "the older drivers' split CRC counters",
    ),
]

# Near misses: the rows must not read these as the category given.
NOT = [
    (
        "node-7:1220:1388 [3] NCCL INFO Call to ibv_modify_qp failed with 110 Connection timed "
        "out, on dev mlx5_3:1, curr state INIT, next state RTR, retrying 1/5 after 100 msec of "
        "sleep",
        "dependency",
        "NCCL's INFO retry (not yet a failure)",
    ),
    (
        excerpt("eighteenth", "da0e0da7c9bb"),
        "dependency",
        "ibv_modify_qp with EINVAL stays software_bug (the eighteenth's da0e0da7c9bb)",
    ),
    (
        excerpt("fifteenth", "740d88cd6703"),
        "dependency",
        "ibv_modify_qp with ENODEV stays software_bug (the fifteenth's 740d88cd6703)",
    ),
    (
        'To fix "Failed to modify QP to RTR", check the GID index.',
        "nic",
        "advice quoting the error names no NIC",
    ),
    (
        "insmod: ERROR: could not insert module foo.ko: Invalid module format",
        "nic",
        "a loader error names no NIC",
    ),
    (
        "error: Unknown symbol 'foo' in expression",
        "dependency",
        "a parser's unknown symbol, no loader's (err N)",
    ),
    (
        "[xm066:1:1] ib_mlx5_log.c:171  Transport retry count exceeded on mlx5_0:1/IB (synd 0x15 "
        "vend 0x81 hw_synd 0/0)",
        "software_bug",
        "a retry count exceeded is the link's, not the request's",
    ),
    (
        "WARNING: hermon0: Device Error: CQE transport retry counter exceeded",
        "software_bug",
        "hermon's retry counter",
    ),
    (
        "libfabric:1234:core:core:fi_getinfo_():1123<info> Found provider with the highest "
        "priority efa, must_use_util_prov = 0",
        "dependency",
        "libfabric's informational provider choice",
    ),
    (
        "NETDEV WATCHDOG is the kernel's transmit timer; it fired once on eth0 last year.",
        "nic",
        "prose about the watchdog",
    ),
    (
        "If dmesg says \"device's health compromised\", check the Arm side's ICM allocation.",
        "nic",
        "advice quoting the health words without the poll's miss count",
    ),
    (
        "\t\t\tstate:\t\t\tPORT_ACTIVE (4)",
        "network_switch_cable",
        "an active port",
    ),
    (
        "Service state: Initializing the cache (3 of 12 shards loaded)",
        "network_switch_cable",
        "another tool's initializing state",
    ),
    (
        "         Link 1: CRC Errors: 5847",
        "unknown",
        "a counter above zero is not read as healthy (no verdict; unknown only by default)",
    ),
]

test_row = row_test(FIFTYFIRST)


test_near_miss = near_miss_test(NOT[:-1])


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FIFTYFIRST + NOT)


def test_a_nonzero_nvlink_counter_matches_no_row(tmp_path: Path) -> None:
    """`nvlink_error_counters_zero` reads only counters at zero: a counter above zero gets no
    row (the verdict is the rows' default, with no evidence line)."""
    v = rows_alone(tmp_path, "         Link 1: CRC Errors: 5847")
    assert v.category == "unknown" and not v.culprits, v.verdict
    v = rows_alone(tmp_path, "         Link 1: CRC Errors: 0")
    assert v.category == "unknown" and v.culprits, v.verdict


def test_a_fault_beside_zero_counters_decides(tmp_path: Path) -> None:
    """A zero NVLink counter reading does not hide a real fault in the same log."""
    text = (
        "\t Link 0: Replay Errors: 0\n"
        "[ 1356.296930] mlx5_core 0000:5e:00.0: device's health compromised - reached miss count"
    )
    assert rows_alone(tmp_path, text).category == "nic"


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The fifty-first's excerpts the rows now read get their labels' actions; the node is
    excluded only for the NIC's own transmit hang and health failure."""
    for rid, category, action in (
        ("1e4b8b9bd16d", "dependency", "restart"),
        ("53eeb004214b", "dependency", "restart"),
        ("009a6725ebdc", "dependency", "restart"),
        ("16efd7c38514", "dependency", "restart"),
        ("5869a3b54f68", "dependency", "restart"),
        ("adc1843027a2", "dependency", "restart"),
        ("7151bc0f9f6c", "software_bug", "restart"),
        ("dbebd75c4f99", "software_bug", "restart"),
        ("e5245caccee2", "nic", "exclude_node"),
        ("1b3af65e482d", "nic", "exclude_node"),
        ("8ea6ca84a787", "unknown", "restart"),
    ):
        v = rows_alone(tmp_path, _fiftyfirst(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)


def test_perftest_set_up_failure_is_read_by_the_set_up_rule(tmp_path: Path) -> None:
    """The fifty-first's 36c01c47c94d (perftest's QPs not reaching RTR) is labelled
    `software_bug` from the thread (perftest never set a GRH); the excerpt shows only the
    set-up failure, which the rows read `dependency` (README, "After its rows")."""
    v = rows_alone(tmp_path, _fiftyfirst("36c01c47c94d"))
    assert (v.category, v.action) == ("dependency", "restart"), v.verdict
