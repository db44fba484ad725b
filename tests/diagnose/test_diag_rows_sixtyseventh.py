"""Signature rows for the classes the sixtyseventh collection showed missing
(tests/corpus/real/README.md, sixtyseventh.jsonl, "After its rows", branch issue-27rows67): how
cluster operators see GPU nodes (node health checks, switch ports and optics). Each row is tested
on the sixtyseventh's excerpts and on other wordings of its class, from the source or
documentation cited beside each, with the near misses it must not take. Narrowed in place for it:
`node_health_check_failed` (not NHC failing on itself: its watchdog, its timeout, a signal);
widened in place: `eth_link_down` (SNMP's ifOperStatus down, an optic's RX_LOS), `bmc_psu_words`
(a supply's input lost or faulted: Dell CMC, OpenBMC's input fault); new:
`nhc_check_cannot_run` (a health check whose command, tool or variable is missing, or a suite
refusing the VM size)."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import (
    assert_both_ways,
    excerpt,
    near_miss_test,
    prefilter_test,
    row_test,
    rows_alone,
)


def _sixtyseventh(rid: str) -> str:
    return excerpt("sixtyseventh", rid)


SIXTYSEVENTH = [
    # (log text, category, why)
    # -- unknown: LBNL NHC failing on itself, no fault of the node (`node_health_check_failed`
    # narrowed; mej/nhc's nhc script: nhcmain_watchdog_timer's die 142, the ALRM/TERM traps)
    (_sixtyseventh("776dd6ca012b"), "unknown", "sixtyseventh 776dd6ca012b (NHC's watchdog)"),
    (excerpt("fortythird", "bff24264d3e3"), "unknown", "fortythird bff24264d3e3 (syslog's form)"),
    (
        'ERROR:  nhc:  Health check failed:  Script timed out while executing "check_fs_mount_rw '
        '-f /scratch".',
        "unknown",
        "the ALRM trap, a check named",
    ),
    ("ERROR:  nhc:  Health check failed:  Terminated by signal SIGTERM.", "unknown", "TERM trap"),
    (
        "/usr/libexec/nhc/node-mark-offline:  Marking  node7 offline:  NHC: Script timed out.",
        "unknown",
        "node-mark-offline passing the timeout on",
    ),
    # ... while a check's own verdict on the node still takes it out (as before)
    (
        "ERROR:  nhc:  Health check failed:  check_fs_mount:  /scratch not mounted",
        "host_maintenance",
        "a check's verdict, as before",
    ),
    (
        "/usr/libexec/nhc/node-mark-offline:  Marking  node7 offline:  NHC: check_hw_eth:  No "
        "Ethernet device eth0 found",
        "host_maintenance",
        "node-mark-offline with a check's verdict, as before",
    ),
    (excerpt("fortythird", "3bdded106d78"), "host_maintenance", "fortythird 3bdded106d78 (Xid 63)"),
    (excerpt("tenth", "49fe9890d057"), "host_maintenance", "tenth 49fe9890d057 (slurmctld)"),
    # -- dependency: a health check that cannot run for want of its tooling
    # (`nhc_check_cannot_run`; mej/nhc nhcmain_run_checks "Check $CHECK returned $RET" and
    # scripts/lbnl_nv.nhc; Azure/azurehpc-health-checks customTests/azure_nccl_allreduce.nhc,
    # azure_common.nhc, azure_gpu_bandwidth.nhc, run-health-checks.sh)
    (_sixtyseventh("e875bb42f4cc"), "dependency", "sixtyseventh e875bb42f4cc (HPCX_DIR unset)"),
    (_sixtyseventh("7659cfd559a2"), "dependency", "sixtyseventh 7659cfd559a2 (CycleCloud, 127)"),
    (_sixtyseventh("75ce887ba0dc"), "dependency", "sixtyseventh 75ce887ba0dc (SKU refused)"),
    (
        "ERROR:  nhc:  Health check failed:  Check check_nvsmi_healthmon returned 127",
        "dependency",
        "NHC's own die() line, 127",
    ),
    (
        "/usr/libexec/nhc/node-mark-offline:  Marking  gpu12 offline:  NHC: Check "
        "/opt/site/bin/gpu_burn_check -t 30 returned 126",
        "dependency",
        "an external command, not executable (126), through node-mark-offline",
    ),
    (
        "ERROR:  nhc:  Health check failed:  check_nv_healthmon:  nvidia-healthmon not found or "
        "not runnable.",
        "dependency",
        "lbnl_nv.nhc's own 127 case",
    ),
    (
        "ERROR:  nhc:  Health check failed:  check_nccl_allreduce: mpirun not found. Ensure HPCX "
        "is installed and sourced correctly.",
        "dependency",
        "Azure's mpirun check",
    ),
    (
        "ERROR:  nhc:  Health check failed:  check_all_reduce_dependencies: all reduce executable "
        "path: /opt/nccl-tests/build/all_reduce_perf not found. Ensure nccl/rccl-tests is "
        "installed and built in. FaultCode: NHCNA",
        "dependency",
        "Azure's nccl-tests check",
    ),
    (
        "ERROR:  nhc:  Health check failed:  check_gpu_bw: rocm_bandwidth_test not found. Ensure "
        "ROCm is installed and sourced correctly. Check/rerun azurehpc-health-checks installation. "
        "FaultCode: NHCNA",
        "dependency",
        "Azure's ROCm bandwidth check",
    ),
    (
        "ERROR:  nhc:  Health check failed:  check_nccl_allreduce: Missing one or more "
        "dependencies. FaultCode: NHCNA",
        "dependency",
        "Azure's later dependency check",
    ),
    (
        "ERROR:  nhc:  Health check failed:  check_hw_topology: SKU nd96amsr_a100_v4 is not "
        "supported for this test. FauleCode: NHCNA",
        "dependency",
        "Azure's topology check refusing the SKU",
    ),
    # -- power_supply: a supply's input lost or faulted in other BMCs' words (`bmc_psu_words`,
    # widened; Dell CMC user's guide "SEL Events for Power Supply Changes", the description of
    # openbmc/phosphor-power's PowerSupplyInputFault error)
    (_sixtyseventh("14ad5e881677"), "power_supply", "sixtyseventh 14ad5e881677 (SEL, A/C lost)"),
    (
        "Power Supply | The input power for power supply 2 has been lost.",
        "power_supply",
        "Dell CMC's SEL",
    ),
    (
        '"Message": "org.open_power.Witherspoon.Fault.Error.PowerSupplyInputFault",',
        "power_supply",
        "OpenBMC's error log entry (openbmc_psu_fault_logged's, as before)",
    ),
    (
        "Description: The power supply has indicated an input or under voltage condition.",
        "power_supply",
        "the error's description",
    ),
    # -- network_switch_cable: a switch port or an optic telling the link down (`eth_link_down`,
    # widened; RFC 2863 IF-MIB ifOperStatus as net-snmp prints it; ONLP's SFP status flags;
    # ethtool -m's SFF-8636 lane status)
    (_sixtyseventh("1026f953dcfa"), "network_switch_cable", "sixtyseventh 1026f953dcfa (SNMP)"),
    (_sixtyseventh("8fc87ef5a7ba"), "network_switch_cable", "sixtyseventh 8fc87ef5a7ba (RX_LOS)"),
    (
        "2024-03-02 10:11:12 switch01 [UDP: [10.0.0.5]:161->[10.0.0.1]:162]: "
        "SNMPv2-MIB::snmpTrapOID.0 = OID: IF-MIB::linkDown IF-MIB::ifIndex.17 = INTEGER: 17 "
        "IF-MIB::ifAdminStatus.17 = INTEGER: up(1) IF-MIB::ifOperStatus.17 = INTEGER: down(2)",
        "network_switch_cable",
        "snmptrapd's linkDown trap",
    ),
    (
        "IF-MIB::ifOperStatus.1000001 = INTEGER: lowerLayerDown(7)",
        "network_switch_cable",
        "a port-channel over a down member",
    ),
    (
        "Port 49: Present, Status = 0x00000006 [ TX_FAULT RX_LOS ]",
        "network_switch_cable",
        "ONLP with two flags",
    ),
    (
        "        Rx loss of signal                         : [ Yes, No, No, No ]",
        "network_switch_cable",
        "ethtool -m, one lane dark",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    (
        "Power Supply | The input power for power supply 2 has been restored.",
        "power_supply",
        "CMC: input restored",
    ),
    ("Power Supply | Power supply 2 is present.", "power_supply", "CMC: a supply inserted"),
    (
        "  87 | 03/02/2024 | 10:11:12 | Power Supply #0x51 | Presence detected | Asserted",
        "power_supply",
        "ipmitool: a supply present",
    ),
    ("#define PMB_VIN_UV_FAULT_LIMIT              0x59", "power_supply", "a PMBus register name"),
    (
        "NHC watchdog timer 16264 (30 secs) has expired.  Signaling NHC:  kill -s ALRM -- -16263",
        "host_maintenance",
        "the watchdog's own notice",
    ),
    (
        "ERROR:  nhc:  Health check failed:  Check check_xid_errors returned 1",
        "dependency",
        "a check's own verdict (1), not 127",
    ),
    (
        "ERROR:  nhc:  Health check failed:  check_hw_ib:  Device mlx5_0 not found",
        "dependency",
        "a device not found, no installer's hint",
    ),
    ("ERROR:  nhc:  Health check failed:  Check check_foo returned 1270", "dependency", "1270"),
    (
        "bash: line 1: CUDA_HOME is not set. Ensure the variable points at CUDA.",
        "dependency",
        "another hint, no 'is installed'",
    ),
    (
        "SUCCESS:  nhc:  Health check passed:  check_ib_bw_gdr: IB write bandwidth test "
        "IB_WRITE_BW passed for IB=mlx5_ib3, IB BW=399.71 Gbps",
        "host_maintenance",
        "a passing check",
    ),
    ("IF-MIB::ifOperStatus.4 = INTEGER: up(1)", "network_switch_cable", "a port up"),
    (
        "IF-MIB::ifAdminStatus.4 = INTEGER: down(2)",
        "network_switch_cable",
        "admin down: on purpose",
    ),
    ("Port 08: Present, Status = 0x00000000 [ ]", "network_switch_cable", "no flag"),
    (
        "        Rx loss of signal                         : None",
        "network_switch_cable",
        "ethtool -m, all lanes lit",
    ),
    (
        "rx_los: Enable the RX_LOS pin. Disable to allow stick to be accessible without the fiber.",
        "network_switch_cable",
        "a setting's description",
    ),
]

test_row = row_test(SIXTYSEVENTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(SIXTYSEVENTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The sixtyseventh's excerpts the rows now read get their labels' actions, rows alone and as
    shipped: the two NHC excerpts that excluded a node no longer do; the one that does is a
    supply's input fault on a BMC's SEL, labelled so (the fifth collection's PSU rule)."""
    for rid, category, action in (
        ("776dd6ca012b", "unknown", "restart"),
        ("e875bb42f4cc", "dependency", "restart"),
        ("7659cfd559a2", "dependency", "restart"),
        ("75ce887ba0dc", "dependency", "restart"),
        ("1026f953dcfa", "network_switch_cable", "restart"),
        ("8fc87ef5a7ba", "network_switch_cable", "restart"),
        ("14ad5e881677", "power_supply", "exclude_node"),
    ):
        v = rows_alone(tmp_path, _sixtyseventh(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)
        assert_both_ways(tmp_path / "rank.log", category, action)
