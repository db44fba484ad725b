"""Signature rows for the classes the thirty-fourth collection showed missing
(tests/corpus/real/README.md, thirtyfourth.jsonl, "After its rows", branch issue-27rows34). Each
row is tested on the thirty-fourth's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take; and the
reading of a machine-check bank whose status holds no valid error (signatures._MCE_NO_ERROR),
which took away the thirty-fourth's wrong exclude_node e0ab62b33df0."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _thirtyfourth(rid: str) -> str:
    return excerpt("thirtyfourth", rid)


THIRTYFOURTH = [
    # (log text, category, why)
    # -- cpu: RCU stall reports in the older kernels' wording (`cpu_lockup`; rcutree.c's
    # print_cpu_stall printing rsp->name, "rcu_sched_state", "rcu_bh_state", "rcu_preempt_state")
    (_thirtyfourth("23f53de946d5"), "cpu", "thirty-fourth 23f53de946d5 (ZFS server's stalls)"),
    (
        "[2803865.768008] INFO: rcu_sched_state detected stall on CPU 0 (t=7805190 jiffies)",
        "cpu",
        "an EC2 instance's console",
    ),
    (
        "INFO: rcu_preempt_state detected stalls on CPUs/tasks: { 4 5 6} (detected by 1, "
        "t=2504 jiffies)",
        "cpu",
        "the preemptible flavour, several CPUs",
    ),
    ("INFO: rcu_bh_state detected stall on CPU 3 (t=60000 jiffies)", "cpu", "the bh flavour"),
    # -- server_chassis: OpenBMC's fan monitor failing a fan (`openbmc_fan_nonfunctional`;
    # phosphor-fan-presence monitor/fan.cpp)
    (_thirtyfourth("9b6fb9779adf"), "server_chassis", "thirty-fourth 9b6fb9779adf (Witherspoon)"),
    (
        "May 02 08:11:02 bmc phosphor-fan-monitor[733]: Setting a fan to nonfunctional "
        "FAN=/system/chassis/motherboard/fan2 TACH_SENSOR=fan2_0",
        "server_chassis",
        "with the journal's fields",
    ),
    # -- ssd: md's faulty mark on an array member (`md_member_faulty`; mdadm's Detail.c member
    # table, the kernel's /proc/mdstat "(F)")
    (_thirtyfourth("d44525f31cc0"), "ssd", "thirty-fourth d44525f31cc0 (mdadm --detail)"),
    (
        "       5       8       48        -      faulty spare   /dev/sdd",
        "ssd",
        "older mdadm's faulty spare",
    ),
    (
        "md0 : active raid5 sdb[0] sde[4](S) sdd[5](F) sdc[1]",
        "ssd",
        "/proc/mdstat's (F)",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    # a machine-check bank whose status has VAL clear holds no error (Intel SDM vol. 3B 16.3.2.2)
    (_thirtyfourth("e0ab62b33df0"), "cpu", "thirty-fourth e0ab62b33df0 (status all zeros)"),
    (
        "mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 5: 0000000000000000",
        "cpu",
        "a zero status on another bank",
    ),
    (
        "mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 4: 7e00000000000000",
        "cpu",
        "other bits set but not VAL",
    ),
    ("rcu_sched_state is a struct in kernel/rcutree.c", "cpu", "the struct's name in prose"),
    (
        "Apr 20 17:35:02 witherspoon phosphor-fan-monitor[1106]: Setting a fan to functional",
        "server_chassis",
        "the fan back to functional",
    ),
    ("       1       8       19        1      active sync   /dev/sdb3", "ssd", "an active member"),
    ("       4       8       64        -      spare   /dev/sde", "ssd", "a spare"),
    ("       -       0        0        0      removed", "ssd", "a removed slot"),
    ("md0 : active raid1 sdb1[1] sda1[0]", "ssd", "a healthy mdstat line"),
    ("md0 : active raid1 sdb1[1] sda1[0](S)", "ssd", "a spare in mdstat"),
]

test_row = row_test(THIRTYFOURTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(THIRTYFOURTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The excerpts the rows now read get their labels' actions: the CPUs' stalls, the
    failed fan and md's faulty member exclude the node; the empty machine-check bank restarts."""
    for rid, action in (
        ("23f53de946d5", "exclude_node"),
        ("9b6fb9779adf", "exclude_node"),
        ("d44525f31cc0", "exclude_node"),
        ("e0ab62b33df0", "restart"),
    ):
        v = rows_alone(tmp_path, _thirtyfourth(rid))
        assert v.action == action, (rid, v.verdict)


def test_runc_s_oom_killed_container_init_is_out_of_memory(tmp_path: Path) -> None:
    """Retraining the tables with the thirty-fourth moved a guess: the thirty-first's
    9943b200fbbe (runc's "container init was OOM-killed (memory limit too low?)", as the kubelet
    prints it) had been right by the fallback only. `oom_killed_status` now reads runc's wording
    (libcontainer/process_linux.go), also as Docker prints it; not a process that was not."""
    for text in (
        excerpt("thirtyfirst", "9943b200fbbe"),
        "docker: Error response from daemon: failed to create shim task: OCI runtime create "
        "failed: runc create failed: unable to start container process: container init was "
        "OOM-killed (memory limit too low?): unknown.",
    ):
        v = rows_alone(tmp_path, text)
        assert (v.category, v.action) == ("out_of_memory", "stop_and_page"), v.verdict
    v = rows_alone(tmp_path, "the job finished; no process was OOM killer's victim today\n")
    assert v.category != "out_of_memory", v.verdict


def test_a_machine_check_with_an_error_is_still_excluded(tmp_path: Path) -> None:
    """A bank whose status has VAL and UC set (an uncorrected error) still excludes the node; only
    the empty bank (VAL clear) stopped doing so."""
    v = rows_alone(
        tmp_path,
        "mce: [Hardware Error]: Machine check events logged\n"
        "mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 9: be00000000800400\n",
    )
    assert (v.category, v.action) == ("cpu", "exclude_node"), v.verdict
