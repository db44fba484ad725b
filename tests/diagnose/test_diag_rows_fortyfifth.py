"""Signature rows for the classes the forty-fifth collection showed missing
(tests/corpus/real/README.md, fortyfifth.jsonl, "After its rows", branch issue-27rows45): training
on accelerators other than NVIDIA's. Each row is tested on the forty-fifth's excerpts and on other
wordings of its class, from the documentation or source cited beside each, with the near misses it
must not take. Rows changed in place for it: `preemption_words` and `cloud_preemption` (a peer's
possible fates listed, a preemption notice that could not be fetched: no notice),
`jax_peer_task_died` (the preemption sync manager's failed fetch), `accelerator_held_elsewhere` (a
TPU device node refused or busy), `level_zero_oom` (SYCL's and Unified Runtime's out of
resources), `cuda_library` (hipBLAS's statuses); new: `amdgpu_ring_mes_timeout`,
`amdgpu_smu_not_up`, `ascend_aicore_exception`, `amd_mce_fatal_decoded`,
`npu_device_log_memory_ue`, `accelerator_gone_after_reset`."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fortyfifth(rid: str) -> str:
    return excerpt("fortyfifth", rid)


FORTYFIFTH = [
    # (log text, category, why)
    # -- software_bug: an amdgpu ring timeout or an MES that stops answering
    # (`amdgpu_ring_mes_timeout`; drivers/gpu/drm/amd/amdgpu/amdgpu_job.c amdgpu_job_timedout,
    # mes_v11_0.c, amdkfd kfd_device_queue_manager.c)
    (_fortyfifth("faa35308c8e5"), "software_bug", "forty-fifth faa35308c8e5 (ring gfx timeout)"),
    (_fortyfifth("cdbdf4185a2d"), "software_bug", "forty-fifth cdbdf4185a2d (job timedout)"),
    (_fortyfifth("9dd76e9ee045"), "software_bug", "forty-fifth 9dd76e9ee045 (MES msg=3)"),
    (excerpt("nineteenth", "bf25668f0282"), "software_bug", "nineteenth bf25668f0282"),
    (excerpt("sixteenth", "ae9010f827bc"), "software_bug", "sixteenth ae9010f827bc (REMOVE_QUEUE)"),
    (excerpt("twentyfirst", "e876b27a5f4d"), "software_bug", "twenty-first e876b27a5f4d (comp)"),
    (
        "kernel: [drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_low timeout, "
        "signaled seq=3002, emitted seq=3004",
        "software_bug",
        "an older kernel's ring name (kernel bugzilla, amdgpu_job.c)",
    ),
    (
        "[ 308.334535] [drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring sdma0 timeout, "
        "signaled seq=1255, emitted seq=1257",
        "software_bug",
        "an SDMA ring",
    ),
    (
        "[34932.604795] amdgpu: failed to add hardware queue to MES, doorbell=0x1000",
        "software_bug",
        "kfd_device_queue_manager.c's add_queue_mes",
    ),
    (
        "amdgpu 0000:03:00.0: MES failed to respond to msg=RESET",
        "software_bug",
        "newer mes_v11_0.c, the message named",
    ),
    # a reset that then fails is still the device's (`amd_gpu_reset_hung`, the eighth's rule)
    (excerpt("eighth", "c2b9359a4293"), "faulty_gpu", "eighth c2b9359a4293 (kiq test -110)"),
    # -- software_bug: the SMU not starting (`amdgpu_smu_not_up`; amdgpu_smu.c, smu_v13_0.c)
    (_fortyfifth("9bf2662f8db4"), "software_bug", "forty-fifth 9bf2662f8db4 (SMU resume)"),
    (
        "[ 1075.408646] amdgpu 0000:c8:00.0: amdgpu: SMC engine is not correctly up!",
        "software_bug",
        "smu_hw_init's wording alone",
    ),
    (
        "[    4.120113] amdgpu 0000:03:00.0: SMU is not ready yet!",
        "software_bug",
        "the same message before its rename (amdgpu_smu.c)",
    ),
    (
        "[drm:amdgpu_device_ip_resume_phase2 [amdgpu]] *ERROR* resume of IP block <smu> failed -5",
        "software_bug",
        "amdgpu_device.c's resume of the SMU block",
    ),
    # -- software_bug: an Ascend AI Core exception or timeout (`ascend_aicore_exception`; CANN
    # troubleshooting, msaicerr's aicore_error_parser.py, TSCH ai_core_dispatcher.c)
    (_fortyfifth("979094e5e58e"), "software_bug", "forty-fifth 979094e5e58e (abnormal)"),
    (_fortyfifth("87930370e3d8"), "software_bug", "forty-fifth 87930370e3d8 (TSCH timeout)"),
    (_fortyfifth("6dc105139a30"), "software_bug", "forty-fifth 6dc105139a30 (error exception)"),
    (excerpt("thirtyninth", "0c43a872268e"), "software_bug", "thirty-ninth 0c43a872268e"),
    (
        "EZ9999[PID: 466547] 2026-09-27-10:10:56.953.202 (EZ9999):  The error from "
        "device(chipId:0, dieId:0), serial number is 1206, there is an aivec error exception, "
        "core id is 0, error code = 171",
        "software_bug",
        "the vector core's wording (CANN troubleshooting)",
    ),
    (
        "[ERROR] RUNTIME: there is an exception of aicore error, core id is 3",
        "software_bug",
        "msaicerr's other order of the words",
    ),
    # -- cpu: the AMD decoder's fatal machine check (`amd_mce_fatal_decoded`;
    # drivers/edac/mce_amd.c decode_error_status, amd_decode_mce)
    (_fortyfifth("a03a820b128c"), "cpu", "forty-fifth a03a820b128c (sync flood, MC5 UE PCC)"),
    ("[Hardware Error]: System Fatal error.", "cpu", "decode_error_status for UC and PCC"),
    (
        "mce: [Hardware Error]: CPU:0 (17:31:0) MC27_STATUS[-|UE|MiscV|AddrV|PCC|-|SyndV|UECC|-|"
        "Poison|-]: 0xbc00000000000000",
        "cpu",
        "another bank, the status flags as amd_decode_mce prints them",
    ),
    # -- gpu_hbm3_memory: an uncorrected memory error in an Ascend NPU's own log
    # (`npu_device_log_memory_ue`; the kernel's cper.c error_type strings)
    (_fortyfifth("2fabd5b4bab9"), "gpu_hbm3_memory", "forty-fifth 2fabd5b4bab9 (kbox multi-bit)"),
    (
        "/var/log/npu/hisi_logs/device-0/20240101000000-1/bbox/kbox.txt:88[12.5] {3}[Hardware "
        "Error]: error_type: 5, multi-symbol chipkill ECC",
        "gpu_hbm3_memory",
        "cper.c's chipkill wording, the colon form",
    ),
    (
        "/hisi_logs/device-7/20240501101010-2/bbox/kbox.txt:10[99.1] {2}[Hardware Error]  "
        "error_type: 14, scrub uncorrected error",
        "gpu_hbm3_memory",
        "a patrol scrub's uncorrected error",
    ),
    # the same record on a host stays the host's memory (`host_memory_ue`)
    (excerpt("fourteenth", "dd06d1938952"), "system_memory", "fourteenth dd06d1938952 (host)"),
    # -- faulty_gpu: an accelerator that does not come back from a reset
    # (`accelerator_gone_after_reset`; tt-umd device/warm_reset.cpp, luwen wh_ubb.rs)
    (_fortyfifth("8bcbefd0c4a9"), "faulty_gpu", "forty-fifth 8bcbefd0c4a9 (did not reappear)"),
    (_fortyfifth("935915d887b9"), "faulty_gpu", "forty-fifth 935915d887b9 (driver not loaded)"),
    (
        "2025-06-01 10:00:00.000 | warning  |             UMD | Failed to find all 32 PCIe "
        "devices, found: 31 (warm_reset.cpp:201)",
        "faulty_gpu",
        "an older tt-umd's Galaxy reset",
    ),
    (
        "2025-06-01 10:00:00.000 | warning  |             UMD | Reset failed for PCI id 2 - ARC "
        "core init failed (warm_reset.cpp:97)",
        "faulty_gpu",
        "an older tt-umd's Wormhole reset, the ARC core never up",
    ),
    # -- unknown: no preemption announced (`preemption_words`, `cloud_preemption`,
    # `jax_peer_task_died`; xla/pjrt/distributed/client.h, tsl preemption_sync_manager.cc)
    (_fortyfifth("f2c9a6168c50"), "unknown", "forty-fifth f2c9a6168c50 (preempted/died/...)"),
    (_fortyfifth("f50405aefeb2"), "unknown", "forty-fifth f50405aefeb2 (failed to retrieve)"),
    (
        "E0101 00:00:00.000000 1 preemption_sync_manager.cc:160] Failed to retrieve preemption "
        "notice from coordination service: CANCELLED: Cancelled",
        "unknown",
        "the older LOG(ERROR) of the same",
    ),
    (
        "I0101 00:00:00.000000 1 preemption_sync_manager.cc:150] Cancelled call to retrieve "
        "preemption notice. This is expected upon program shutdown.",
        "unknown",
        "the fetch cancelled at shutdown",
    ),
    # real notices stay planned stops
    (excerpt("thirtysecond", "8ac4535a0792"), "planned_stop", "thirty-second 8ac4535a0792"),
    ("the TPU worker was preempted", "planned_stop", "a worker preempted"),
    (
        "W0101 preemption_notifier.cc:88] Preemption notice received: death time 2024-01-31",
        "planned_stop",
        "a notice received",
    ),
    # -- dependency: a TPU device node refused or busy (`accelerator_held_elsewhere`)
    (_fortyfifth("5c5cccc71d2a"), "dependency", "forty-fifth 5c5cccc71d2a (PERMISSION_DENIED)"),
    (
        "PERMISSION_DENIED: open(/dev/accel0): Operation not permitted: ",
        "dependency",
        "a TPU training repo's troubleshooting note (lsof -w /dev/accel0, kill the holder)",
    ),
    (
        "RuntimeError: TPU initialization failed: open(/dev/vfio/0): Device or resource busy; "
        "Couldn't open iommu group /dev/vfio/0",
        "dependency",
        "v5e's vfio device held by another process",
    ),
    # -- out_of_memory: SYCL's and UR's out of resources (`level_zero_oom`)
    (_fortyfifth("120a77e640a9"), "out_of_memory", "forty-fifth 120a77e640a9 (UR)"),
    (
        "RuntimeError: Native API failed. Native API returns: -5 (PI_ERROR_OUT_OF_RESOURCES) "
        "-5 (PI_ERROR_OUT_OF_RESOURCES)",
        "out_of_memory",
        "Intel Extension for PyTorch's known issue: out of GPU memory",
    ),
    # -- software_bug: hipBLAS's statuses as cuBLAS's (`cuda_library`; hipblas.h)
    (_fortyfifth("1ad501657708"), "software_bug", "forty-fifth 1ad501657708 (hipBLAS Error)"),
    (
        "RuntimeError: HIPBLAS_STATUS_INTERNAL_ERROR when calling `hipblasGemmEx(handle, opa, "
        "opb, m, n, k)`",
        "software_bug",
        "a hipBLAS status named",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    (
        "amdgpu 0000:03:00.0: amdgpu: ring gfx_0.0.0 uses VM inv eng 0 on hub 0",
        "software_bug",
        "amdgpu's boot line naming a ring",
    ),
    ("[drm] ring test on sdma0 succeeded", "software_bug", "a ring test that passed"),
    ("amdgpu 0000:03:00.0: amdgpu: SMU is resuming...", "software_bug", "the SMU resuming"),
    (
        "amdgpu 0000:03:00.0: amdgpu: SMU is initialized successfully!",
        "software_bug",
        "the SMU up",
    ),
    ("EZ9999: Inner Error!", "software_bug", "CANN's generic inner error alone"),
    (
        "[Hardware Error]: Uncorrected, software restartable error.",
        "cpu",
        "an uncorrected but recoverable status (poison)",
    ),
    ("[Hardware Error]: Deferred error, no action required.", "cpu", "a deferred error"),
    (excerpt("twentythird", "1cf61fbf1c76"), "cpu", "twenty-third 1cf61fbf1c76 (CE statuses)"),
    (
        "/hisi_logs/device-0/20240101000000-1/bbox/kbox.txt:5[1.0] {1}[Hardware Error]: "
        "error_type: 2, single-bit ECC",
        "gpu_hbm3_memory",
        "a corrected error in the device log",
    ),
    (
        "kernel: {7}[Hardware Error]:   error_type: 3, multi-bit ECC",
        "gpu_hbm3_memory",
        "the record on a host, not in an NPU's log",
    ),
    (
        _fortyfifth("698dc671ba17"),
        "faulty_gpu",
        "forty-fifth 698dc671ba17 (config-space reset, labelled both ways: left alone)",
    ),
    (
        "Waiting for up to 2 seconds for asic to come back after reset",
        "faulty_gpu",
        "the reset waiting",
    ),
    ("Found all 32 PCIe devices", "faulty_gpu", "every device back"),
    (
        "Waiting for preemption notice from the metadata server",
        "planned_stop",
        "a watcher waiting for a notice",
    ),
    (
        "UNAVAILABLE: Either the leader task was preempted/died/restarted unexpectedly or this "
        "task is experiencing network issues.",
        "planned_stop",
        "a peer's possible fates listed",
    ),
    ("clEnqueueNDRangeKernel(): CL_OUT_OF_RESOURCES", "out_of_memory", "OpenCL's, not taken"),
    (
        "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the "
        "necessary resources.",
        "out_of_memory",
        "ROCm's HSA status stays the host's set-up",
    ),
    (
        "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such "
        "file or directory",
        "software_bug",
        "rocBLAS missing its kernels (an installation)",
    ),
]

test_row = row_test(FORTYFIFTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FORTYFIFTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The forty-fifth's excerpts the rows now read get their labels' actions: the hardware
    faults on other vendors' parts exclude the node, the driver and runtime faults restart."""
    for rid, category, action in (
        ("a03a820b128c", "cpu", "exclude_node"),
        ("2fabd5b4bab9", "gpu_hbm3_memory", "exclude_node"),
        ("8bcbefd0c4a9", "faulty_gpu", "exclude_node"),
        ("935915d887b9", "faulty_gpu", "exclude_node"),
        ("9dd76e9ee045", "software_bug", "restart"),
        ("cdbdf4185a2d", "software_bug", "restart"),
        ("120a77e640a9", "out_of_memory", "stop_and_page"),
        ("f2c9a6168c50", "unknown", "restart"),
        ("f50405aefeb2", "unknown", "restart"),
    ):
        v = rows_alone(tmp_path, _fortyfifth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)


def test_a_failed_notice_fetch_is_read_not_guessed(tmp_path: Path) -> None:
    """The preemption sync manager's failed fetch had been read as a planned stop; now a row
    reads it as a peer's failure, so `nonstop triage` answers unknown from the line, no guess."""
    from nonstop.diagnose import triage_file

    log = tmp_path / "rank.log"
    log.write_text(_fortyfifth("f50405aefeb2") + "\n")
    v = triage_file(log, descriptions=True)
    assert (v.category, v.guessed) == ("unknown", False), v.verdict
    assert any("[jax_peer_task_died]" in e for e in v.evidence), v.evidence
