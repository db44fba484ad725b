"""Signature rows for the classes the forty-second collection showed missing
(tests/corpus/real/README.md, fortysecond.jsonl, "After its rows", branch issue-27rows42). Each
row is tested on the forty-second's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take; and triage's
reading of CUDA's busy-or-unavailable beside a kernel fault (triage._busy_beside_kernel_fault),
which took away the forty-second's wrong exclude_node 24bd33886111."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fortysecond(rid: str) -> str:
    return excerpt("fortysecond", rid)


FORTYSECOND = [
    # (log text, category, why)
    # -- faulty_gpu: the driver's NV_ERR_RESET_REQUIRED (`nvrm_reset_required_status`;
    # open-gpu-kernel-modules' nvstatuscodes.h, "Reset required", and its nvAssertOkFailedNoLog /
    # nvCheckOkFailedNoLog prints "%s [%s] (0x%08X) returned from %s @ %s:%d")
    (_fortysecond("f389fe436852"), "faulty_gpu", "forty-second f389fe436852 (GB200 node)"),
    (
        "[Sun Jan 11 09:52:01 2026] NVRM: nvAssertOkFailedNoLog: Assertion failed: Reset required "
        "[NV_ERR_RESET_REQUIRED] (0x00000062) returned from status @ kernel_channel.c:2874",
        "faulty_gpu",
        "the assertion with dmesg -T's stamp, another source line",
    ),
    (
        "NVRM: nvCheckOkFailedNoLog: Check failed: Reset required [NV_ERR_RESET_REQUIRED] "
        "(0x00000062) returned from pRmApi->AllocWithSecInfo(...) @ rs_server.c:259",
        "faulty_gpu",
        "the check macro's wording",
    ),
    # -- nccl_watchdog_timeout: Python's faulthandler abort report no longer outranks the reason
    # printed before it (`python_abort_report`; CPython Modules/faulthandler.c)
    (_fortysecond("dbdfcbf25353"), "nccl_watchdog_timeout", "forty-second dbdfcbf25353 (FSDP)"),
    (
        "[rank0]:[E ProcessGroupNCCL.cpp:577] [Rank 0] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000)"
        " ran for 600093 milliseconds before timing out.\n"
        "Fatal Python error: Aborted\n\n"
        "Thread 0x00007f5b3cdfe640 (most recent call first):\n"
        '  File "/usr/lib/python3.10/threading.py", line 324 in wait',
        "nccl_watchdog_timeout",
        "a newer PyTorch's watchdog, faulthandler's thread dump after",
    ),
    ("Fatal Python error: Aborted", "software_bug", "the abort report alone: still a crash"),
    # -- software_bug: CPython's refcount fatal errors (`python_refcount_fatal`; Objects/object.c
    # none_dealloc, Objects/boolobject.c bool_dealloc through _Py_FatalRefcountError in 3.12,
    # Py_FatalError("deallocating None") before 3.9; _Py_NegativeRefcount)
    (_fortysecond("2552afa0c067"), "software_bug", "forty-second 2552afa0c067 (ms-swift)"),
    (
        "Fatal Python error: none_dealloc: deallocating None: bug likely caused by a refcount "
        "error in a C extension\nPython runtime state: initialized",
        "software_bug",
        "3.12's full wording",
    ),
    ("Fatal Python error: deallocating None", "software_bug", "before 3.9"),
    (
        "Fatal Python error: bool_dealloc: deallocating True or False: bug likely caused by a "
        "refcount error in a C extension",
        "software_bug",
        "the bool singletons",
    ),
    (
        "Objects/object.c:403: _Py_NegativeRefcount: Assertion failed: object has negative ref "
        "count",
        "software_bug",
        "a debug build's negative count",
    ),
    # -- unknown: CUDA's bare unknown error (`cuda_unknown_error`; cudaErrorUnknown, "unknown
    # error", the CUDA runtime API's error types)
    (_fortysecond("415dc08e518c"), "unknown", "forty-second 415dc08e518c (creating a model)"),
    (excerpt("twentyfirst", "6e806de7db53"), "unknown", "twenty-first 6e806de7db53"),
    (
        "RuntimeError: CUDA error: unknown error\nCUDA kernel errors might be asynchronously "
        "reported at some other API call, so the stacktrace below might be incorrect.",
        "unknown",
        "PyTorch's RuntimeError with its caveat",
    ),
    # -- dependency: the node cannot name the job's uid/gid (`user_name_unresolved`; coreutils
    # id.c, whoami.c, groups.c "cannot find name for user ID %s"; CPython Modules/pwdmodule.c
    # "getpwuid(): uid not found: %d")
    (_fortysecond("6166b25c67f3"), "dependency", "forty-second 6166b25c67f3 (srun on a node)"),
    ("whoami: cannot find name for user ID 1000190000", "dependency", "whoami, OpenShift uid"),
    ("groups: cannot find name for group ID 1000", "dependency", "groups in a container"),
    (
        '  File "/usr/lib/python3.10/getpass.py", line 169, in getuser\n'
        "    return pwd.getpwuid(os.getuid())[0]\n"
        "KeyError: 'getpwuid(): uid not found: 1000'",
        "dependency",
        "getpass.getuser() under an unknown uid",
    ),
    # -- power_supply: OpenBMC's logged PSU faults (`openbmc_psu_fault_logged`;
    # phosphor-dbus-interfaces Power/Fault.errors.yaml, phosphor-power's psu-monitor and
    # power-supply errors)
    (_fortysecond("65f8384fb5f1"), "power_supply", "forty-second 65f8384fb5f1 (Witherspoon)"),
    (
        '"Message": "xyz.openbmc_project.Power.PowerSupply.Error.IoutOCFault",',
        "power_supply",
        "the newer PowerSupply error names (output overcurrent)",
    ),
    (
        "phosphor-log-manager[322]: Created PEL 0x50000002 (BMC ID 3) with SRC 110015F1 "
        "message xyz.openbmc_project.Power.PowerSupply.Error.Missing",
        "power_supply",
        "a supply gone, in the log manager's words",
    ),
    (
        '"Message": "org.open_power.Witherspoon.Fault.Error.PowerSupplyOutputOvercurrent",',
        "power_supply",
        "the Witherspoon names before the xyz ones",
    ),
    # -- user_code_error: the accelerator used before forking (`accelerator_init_before_fork`;
    # megengine/distributed/launcher.py, torch/xpu/__init__.py _lazy_init)
    (_fortysecond("d7ab2e7f7894"), "user_code_error", "forty-second d7ab2e7f7894 (MegEngine)"),
    (
        "RuntimeError: Cannot re-initialize XPU in forked subprocess. To use XPU with "
        "multiprocessing, you must use the 'spawn' start method",
        "user_code_error",
        "PyTorch's XPU",
    ),
    (
        "RuntimeError: Cannot re-initialize NPU in forked subprocess. To use NPU with "
        "multiprocessing, you must use the 'spawn' start method",
        "user_code_error",
        "torch_npu's",
    ),
    # -- server_chassis: OpenPOWER firmware guarding a failed part (`openpower_hardware_guarded`;
    # hostboot's hwasCallout.H GARD types, its errl callout text; openpower-pel's peltool JSON)
    (_fortysecond("611ed2b60671"), "server_chassis", "forty-second 611ed2b60671 (X-bus)"),
    (
        "  Callout type             : Hardware Callout\n"
        "  Target                   : Physical:/Sys0/Node0/Proc1\n"
        "  Deconfig State           : DELAYED_DECONFIG\n"
        "  GARD Error Type          : GARD_Fatal\n",
        "server_chassis",
        "a processor guarded fatal",
    ),
    (
        '        "Deconfigured": false,\n        "EntityPath": [],\n'
        '        "GuardType": "GARD_Unrecoverable",\n        "Guarded": true,',
        "server_chassis",
        "a PEL callout as peltool prints it",
    ),
    # -- software_bug: the kernel's WARN()/WARN_ON() anywhere (`kernel_warning_any`; lib/bug.c
    # report_bug, kernel/panic.c __warn; older kernels' "WARNING: at FILE:LINE FUNC()")
    (_fortysecond("0eaa7314c96f"), "software_bug", "forty-second 0eaa7314c96f (ioremap on RAM)"),
    (
        "[ 1723.104471] ------------[ cut here ]------------\n"
        "[ 1723.104475] WARNING: CPU: 5 PID: 2231 at kernel/workqueue.c:1449 "
        "__queue_work+0x3c0/0x460",
        "software_bug",
        "a workqueue warning",
    ),
    (
        "kernel: WARNING: at fs/xfs/xfs_aops.c:1041 xfs_vm_writepage+0x5ab/0x5c0 [xfs]()",
        "software_bug",
        "2.6/3.x kernels' wording, in a module",
    ),
    # -- unknown: ipmi-sensors' healthy states (`ipmi_sensor_state_ok`; FreeIPMI ipmi-sensors(8))
    (_fortysecond("95be44922999"), "unknown", "forty-second 95be44922999 (PSU sensors healthy)"),
    (
        "12  | PS1 Status       | Power Supply      | N/A        | N/A   | 'Presence detected'\n"
        "13  | PS2 Status       | Power Supply      | N/A        | N/A   | 'Presence detected'",
        "unknown",
        "two supplies present",
    ),
    (
        "45 | CPU1 Status      | Processor         | N/A        | N/A   | 'OK'",
        "unknown",
        "a processor sensor OK",
    ),
    # -- unknown: the Kubeflow training operator's bare exit events (`kubeflow_pod_exit_code`;
    # training-operator pkg/controller.v1/common/pod.go)
    (_fortysecond("5c9891b563c1"), "unknown", "forty-second 5c9891b563c1 (PyTorchJob)"),
    (
        "Pod: kubeflow.mnist-tfjob-worker-1 exited with code 2",
        "unknown",
        "a TFJob worker, another code",
    ),
    (
        "Error pod dist-mnist-worker-0 container tensorflow exitCode: 137 terminated message: ",
        "unknown",
        "a killed container, no reason named",
    ),
    # -- unknown: a TensorFlow status CHECK failing on a cancellation (`tf_status_check_cancelled`;
    # TF_CHECK_OK's "(OK vs. ...)" and XRT's "(... vs. OK)")
    (_fortysecond("dfe4bcce4602"), "unknown", "forty-second dfe4bcce4602 (XRT TearDown)"),
    (
        "F0915 10:02:11.123456 1234 xrt_util.cc:61] Check failed: ::tensorflow::Status::OK() == "
        "(status) (OK vs. Cancelled: Operation was cancelled)",
        "unknown",
        "TF_CHECK_OK's order",
    ),
    (
        "Check failed: session->Run(feed, fetch, &out) == ::tensorflow::Status::OK() "
        "(CANCELLED: RPC cancelled vs. OK)",
        "unknown",
        "absl's upper-case code",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    (
        "NV_ERR_RESET_REQUIRED is 0x62 in nvstatuscodes.h",
        "faulty_gpu",
        "the status name in prose",
    ),
    (
        "    GPU Reset Status\n        Reset Required                    : No\n"
        "        Drain and Reset Recommended       : No",
        "faulty_gpu",
        "nvidia-smi -q's healthy reset status",
    ),
    (
        "Fatal Python error: Aborted",
        "unknown",
        "an abort is still a crash, not nothing",
    ),
    (
        "gc: deallocating None-valued cache entries",
        "software_bug",
        "deallocating in an application's own log",
    ),
    ("CUDA error: out of memory", "unknown", "a named CUDA error is not the bare unknown one"),
    (
        "NCCL WARN Cuda failure 999 'unknown error'",
        "unknown",
        "NCCL's wording, left to the NCCL rows",
    ),
    ("id: 'bob': no such user", "dependency", "a user name mistyped, not an unresolvable uid"),
    ("  GARD Error Type          : GARD_NULL", "server_chassis", "no guard"),
    (
        "WARNING: CPU: 12 PID: 0 at net/sched/sch_generic.c:447 dev_watchdog+0x24c/0x250",
        "software_bug",
        "NETDEV WATCHDOG's own warning: a device's transmit timeout",
    ),
    (
        "WARNING: CPU: 0 PID: 0 at /build/linux-SKpZC9/linux-3.19.0/kernel/watchdog.c:290 "
        "watchdog_overflow_callback+0x9a/0xc0()",
        "software_bug",
        "the lockup detector's warning",
    ),
    (
        "WARNING: at least one GPU is in persistence mode off",
        "software_bug",
        "a tool's own WARNING line",
    ),
    (
        "12  | PS1 Status       | Power Supply      | N/A        | N/A   | 'Presence detected' "
        "'Power Supply Failure detected'",
        "unknown",
        "a failure event after the healthy one in the same cell",
    ),
    (
        "Pod: kubeflow.pytorch-simple-worker-0 exited with code 0",
        "out_of_memory",
        "an exit code is no memory fault",
    ),
    (
        "Check failed: s.ok() (INTERNAL: Failed to launch kernel vs. OK)",
        "unknown",
        "a CHECK on an internal error is no cancellation",
    ),
    ('        "GuardType": "GARD_Predictive",', "server_chassis", "a predicted failure"),
    ("  GARD Error Type          : GARD_User_Manual", "server_chassis", "a person's guard"),
    (
        '"Message": "xyz.openbmc_project.Power.PowerSupply.Error.NotSupported",',
        "power_supply",
        "a configuration the BMC does not support",
    ),
    (
        "/xyz/openbmc_project/inventory/system/chassis/motherboard/powersupply0 "
        "xyz.openbmc_project.Inventory.Item.PowerSupply",
        "power_supply",
        "the inventory's supply object",
    ),
    (
        "multiprocessing.set_start_method('spawn') avoids re-initializing CUDA in a forked "
        "subprocess",
        "user_code_error",
        "the advice in prose",
    ),
]

test_row = row_test(FORTYSECOND)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FORTYSECOND + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The excerpts the rows now read get their labels' actions: the reset-required GPU, the
    BMC's supply fault and the firmware's guarded part exclude the node; the others restart or
    page."""
    for rid, action in (
        ("f389fe436852", "exclude_node"),
        ("65f8384fb5f1", "exclude_node"),
        ("611ed2b60671", "exclude_node"),
        ("d7ab2e7f7894", "stop_and_page"),
        ("6166b25c67f3", "restart"),
        ("415dc08e518c", "restart"),
        ("2552afa0c067", "restart"),
        ("dbdfcbf25353", "restart"),
    ):
        v = rows_alone(tmp_path, _fortysecond(rid))
        assert v.action == action, (rid, v.verdict)


def test_busy_beside_a_kernel_fault_is_the_kernel_fault(tmp_path: Path) -> None:
    """CUDA's busy-or-unavailable (cudaErrorDevicesUnavailable: an exclusive compute mode or
    work holding the device, the CUDA runtime API says) beside a kernel fault of the same log
    is read as the kernel fault (software_bug, restart), not a faulty GPU to exclude: the
    forty-second's 24bd33886111 (SGLang, unspecified launch failure after)."""
    for text in (
        _fortysecond("24bd33886111"),
        "RuntimeError: CUDA error: an illegal memory access was encountered\n"
        "terminate called after throwing an instance of 'c10::Error'\n"
        "  what():  CUDA error: CUDA-capable device(s) is/are busy or unavailable",
        "RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n"
        "Exception raised from c10_cuda_check_implementation: CUDA error: unspecified launch "
        "failure",
    ):
        v = rows_alone(tmp_path, text)
        assert (v.category, v.action) == ("software_bug", "restart"), v.verdict


def test_busy_alone_or_with_the_driver_s_reset_still_excludes(tmp_path: Path) -> None:
    """The bare busy-or-unavailable (the held-out set's c869d3101ed2) and with the driver's
    reset-required status (the third's 5c967aae158a) still read faulty_gpu and exclude."""
    for text in (
        excerpt("heldout", "c869d3101ed2"),
        excerpt("third", "5c967aae158a"),
        "( cudaErrorDevicesUnavailable): CUDA-capable device(s) is/are busy or unavailable",
    ):
        v = rows_alone(tmp_path, text)
        assert (v.category, v.action) == ("faulty_gpu", "exclude_node"), v.verdict


def test_healthy_sensors_and_bare_pod_exits_are_read_not_guessed(tmp_path: Path) -> None:
    """ipmi-sensors' healthy states and the training operator's bare exit events had no row: the
    rows alone said unknown for want of any, and the fallback guessed (`power_supply` for the
    forty-second's 95be44922999, `planned_stop` for 5c9891b563c1). Now a row reads them, so
    `nonstop triage` answers unknown from the line, with no guess."""
    from nonstop.diagnose import triage_file

    for text, row in (
        (_fortysecond("95be44922999"), "ipmi_sensor_state_ok"),
        (
            "45 | CPU1 Status      | Processor         | N/A        | N/A   | 'OK'",
            "ipmi_sensor_state_ok",
        ),
        (_fortysecond("5c9891b563c1"), "kubeflow_pod_exit_code"),
        ("Pod: kubeflow.mnist-tfjob-worker-1 exited with code 2", "kubeflow_pod_exit_code"),
    ):
        log = tmp_path / "rank.log"
        log.write_text(text + "\n")
        v = triage_file(log, descriptions=True)
        assert (v.category, v.guessed) == ("unknown", False), v.verdict
        assert any(f"[{row}]" in e for e in v.evidence), v.evidence


def test_busy_and_a_kernel_fault_in_other_files_are_not_joined(tmp_path: Path) -> None:
    """The kernel fault must be the same node's: the host its lines name, else the same file. A
    rank's busy GPU in one log and another rank's kernel fault in another stay what each is."""
    from nonstop.diagnose import triage

    busy, fault = tmp_path / "rank0.log", tmp_path / "rank1.log"
    busy.write_text("RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n")
    fault.write_text("RuntimeError: CUDA error: unspecified launch failure\n")
    v = triage.decide(triage.scan(busy).hits + triage.scan(fault).hits)
    assert (v.category, v.action) == ("faulty_gpu", "exclude_node"), v.verdict
    fault.write_text(busy.read_text() + fault.read_text())
    v = triage.decide(triage.scan(fault).hits)
    assert (v.category, v.action) == ("software_bug", "restart"), v.verdict
