"""Signature rows for the classes the fiftyninth collection showed missing
(tests/corpus/real/README.md, fiftyninth.jsonl, "After its rows", branch issue-27rows59): the
system software of large GPU servers (vGPU licensing, GPU resets and MIG changes refused, driver
installs, package managers, stress and copy tests, DCGM's NvSwitch module, cloud capacity). Each
row is tested on the fiftyninth's excerpts and on other wordings of its class, from the source or
documentation cited beside each, with the near misses it must not take. Rows widened in place for
it: `driver_mismatch` (the NVSwitch and NVLink drivers' user/kernel version mismatch),
`cloud_quota_exhausted` (SageMaker's, EC2's and Azure's capacity refusals); new:
`vgpu_unlicensed`, `gpu_reset_in_use`, `nvidia_module_in_use`, `package_unmet_dependencies`,
`gpu_burn_load_module`, `gpu_copy_pattern_mismatch`, `dcgm_nvswitch_undefined_state`."""

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


def _fiftyninth(rid: str) -> str:
    return excerpt("fiftyninth", rid)


FIFTYNINTH = [
    # (log text, category, why)
    # -- dependency: the NVSwitch/NVLink drivers refusing a client of another release
    # (`driver_mismatch`, widened; open-gpu-kernel-modules src/common/nvlink nvlink core
    # nvlink_lib_ctrl_check_version, the nvswitch driver's ioctl version check)
    (_fiftyninth("eb09aedca783"), "dependency", "fiftyninth eb09aedca783 (nvswitch)"),
    (
        "[   12.345678] nvidia-nvswitch: Version mismatch, kernel version 535.104.05 user version "
        "535.54.03",
        "dependency",
        "nvswitch in dmesg, another release",
    ),
    (
        "nvlink_lib_ctrl_check_version: version mismatch, kernel version 550.54.15 user version "
        "550.90.07",
        "dependency",
        "the NVLink core's",
    ),
    # -- dependency: vGPU licensing (`vgpu_unlicensed`; NVIDIA Virtual GPU Client Licensing
    # User Guide: nvidia-smi -q, nvidia-gridd's log messages)
    (_fiftyninth("cebc9472f89e"), "dependency", "fiftyninth cebc9472f89e (nvidia-smi -q)"),
    (_fiftyninth("0991956492e2"), "dependency", "fiftyninth 0991956492e2 (gridd register)"),
    (_fiftyninth("9c5349d19a62"), "dependency", "fiftyninth 9c5349d19a62 (gridd not configured)"),
    (
        "    License Status                    : Unlicensed (Restricted)",
        "dependency",
        "a GRID vWS block",
    ),
    (
        "Mar 11 09:12:01 gpu-vm nvidia-gridd[1203]: Failed to acquire license from "
        "10.31.20.45 (Info: NVIDIA Virtual Compute Server - Error: Unable to connect to license "
        "server)",
        "dependency",
        "gridd with a pid, the server unreachable",
    ),
    (
        "nvidia-gridd: Valid GRID license not found. GPU features and performance will be "
        "restricted. To enable full functionality please configure licensing details.",
        "dependency",
        "no licence found",
    ),
    # -- dependency: a GPU reset or MIG change refused, another client holding the GPU
    # (`gpu_reset_in_use`; NVIDIA MIG User Guide, nvidia-smi -r, mig-parted)
    (_fiftyninth("8605e161bca8"), "dependency", "fiftyninth 8605e161bca8 (MIG disable)"),
    (excerpt("fiftythird", "01736dfe8b20"), "dependency", "fiftythird 01736dfe8b20 (mig-parted)"),
    (
        "Warning: MIG mode is in pending enable state for GPU 00000000:07:00.0:In use by another "
        "client",
        "dependency",
        "MIG enable",
    ),
    (
        "Unable to reset this GPU because it's being used by some other process (e.g. CUDA "
        "application, graphics application like X server, monitoring application like other "
        "instance of nvidia-smi). Please first kill all processes using this GPU and all compute "
        "applications running in the system.",
        "dependency",
        "nvidia-smi -r's older wording",
    ),
    (
        "GPU 00000000:3B:00.0 is currently in use by another process.",
        "dependency",
        "nvidia-smi -r, another GPU",
    ),
    # -- dependency: NVIDIA's kernel modules in use at a driver change (`nvidia_module_in_use`;
    # gpu-driver-container nvidia-driver, kmod rmmod/modprobe, nvidia-installer)
    (_fiftyninth("297691de1506"), "dependency", "fiftyninth 297691de1506 (driver container)"),
    (_fiftyninth("1b2f5691b068"), "dependency", "fiftyninth 1b2f5691b068 (rmmod)"),
    ("modprobe: FATAL: Module nvidia is in use.", "dependency", "modprobe -r"),
    (
        "ERROR: An NVIDIA kernel module 'nvidia-drm' appears to already be loaded in your "
        "kernel.  This may be because it is in use (for example, by an X server, a CUDA program, "
        "or the NVIDIA Persistence Daemon), but this may also happen if your kernel was "
        "configured without support for module unloading.",
        "dependency",
        "nvidia-installer",
    ),
    ("rmmod: ERROR: Module nv_peer_mem is in use", "dependency", "nv_peer_mem"),
    # -- dependency: the package manager's unmet dependencies (`package_unmet_dependencies`;
    # apt-private ShowBroken and its errors, dnf/libsolv problems)
    (_fiftyninth("16441158269a"), "dependency", "fiftyninth 16441158269a (apt, quoted)"),
    (
        "E: Unmet dependencies. Try 'apt --fix-broken install' with no packages (or specify a "
        "solution).",
        "dependency",
        "apt's fix-broken advice",
    ),
    (
        "E: Unable to correct problems, you have held broken packages.",
        "dependency",
        "apt's held packages",
    ),
    (
        "  - package nvidia-driver-3:550.54.15-1.el9.x86_64 requires nvidia-kmod-common = "
        "3:550.54.15, but none of the providers can be installed",
        "dependency",
        "dnf's problem",
    ),
    # -- dependency: gpu-burn unable to load its kernel (`gpu_burn_load_module`; wilicc/gpu-burn
    # gpu_burn-drv.cpp checkError)
    (_fiftyninth("32a3bb328327"), "dependency", "fiftyninth 32a3bb328327 (K80)"),
    (
        'Couldn\'t init a GPU test: Error in "load module": CUDA_ERROR_FILE_NOT_FOUND',
        "dependency",
        "compare.ptx not found",
    ),
    (
        'Couldn\'t init a GPU test: Error in "load module": a PTX JIT compilation failed',
        "dependency",
        "cuGetErrorString's words",
    ),
    # -- silent_data_corruption: a copy test reading back wrong data (`gpu_copy_pattern_mismatch`;
    # NVIDIA/nvbandwidth memcpy.cpp, NVIDIA/cuda-samples simpleP2P.cu)
    (_fiftyninth("af40705402d3"), "silent_data_corruption", "fiftyninth af40705402d3"),
    (
        " Invalid value when checking the pattern at <0x7f3a00200000>",
        "silent_data_corruption",
        "nvbandwidth's older wording",
    ),
    (
        "Verification error @ element 1: val = 0.000000, ref = 4.000000",
        "silent_data_corruption",
        "simpleP2P",
    ),
    (
        "Verification error @ element 0: val = nan, ref = 0.000000",
        "silent_data_corruption",
        "simpleP2P, NaN read back",
    ),
    # -- software_bug: DCGM's NvSwitch module in an undefined state
    # (`dcgm_nvswitch_undefined_state`; NVIDIA/DCGM modules/nvswitch)
    (_fiftyninth("f445e82296a1"), "software_bug", "fiftyninth f445e82296a1 (DCGM 2.2)"),
    (
        "2025-01-10 08:00:00.000 WARN  [1234:1240] ReadNvSwitchStatusAllSwitches() returned: "
        "[Object is in an undefined state]. [/workspaces/dcgm/modules/nvswitch/"
        "DcgmModuleNvSwitch.cpp:301] [DcgmNs::DcgmModuleNvSwitch::RescanDevicesState]",
        "software_bug",
        "DCGM 3.x's wording",
    ),
    (
        "WARNING [NvSwitch] ReadLinkStatesAllSwitches() returned Object is in an undefined state",
        "software_bug",
        "the link-state read",
    ),
    # -- dependency: a cloud's capacity (`cloud_quota_exhausted`, widened; SageMaker, the EC2
    # API's error codes, Azure's allocation failures)
    (_fiftyninth("e5ca3ec1c1dd"), "dependency", "fiftyninth e5ca3ec1c1dd (SageMaker)"),
    (
        "An error occurred (InsufficientInstanceCapacity) when calling the RunInstances "
        "operation: We currently do not have sufficient p4d.24xlarge capacity in the "
        "Availability Zone you requested (us-east-1a).",
        "dependency",
        "EC2's message",
    ),
    (
        "Allocation failed. We do not have sufficient capacity for the requested VM size in this "
        "region. Read more about improving likelihood of allocation success at "
        "http://aka.ms/allocation-guidance",
        "dependency",
        "Azure's AllocationFailed",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    ("nvidia-nvswitch: Probing device 0000:05:00.0", "dependency", "the driver's probe"),
    (
        "    License Status                    : Licensed (Expiry: 2026-12-31 23:59:59 GMT)",
        "dependency",
        "licensed",
    ),
    (
        "    License Status                    : Unlicensed (Unrestricted)",
        "dependency",
        "the grace period",
    ),
    (
        "nvidia-gridd: License acquired successfully. (Info: NVIDIA Virtual Compute Server; "
        "Expiry: 2026-12-31 23:59:59 GMT)",
        "dependency",
        "a licence acquired",
    ),
    (
        "Warning: MIG mode is in pending enable state for GPU 00000000:07:00.0:Not Supported",
        "dependency",
        "a pending change, no client",
    ),
    ("GPU 00000000:C1:00.0 was successfully reset.", "dependency", "the reset done"),
    ("rmmod: ERROR: Module mlx5_ib is in use by: ib_ipoib", "dependency", "another vendor's"),
    ("The following NEW packages will be installed:", "dependency", "apt's plan"),
    ("0 upgraded, 1 newly installed, 0 to remove and 3 not upgraded.", "dependency", "apt done"),
    (
        _fiftyninth("35277ba0edc1"),
        "dependency",
        "fiftyninth 35277ba0edc1 (gpu-burn's bare unknown error)",
    ),
    (
        "Running device_to_device_memcpy_read_ce.",
        "silent_data_corruption",
        "nvbandwidth's test name",
    ),
    (
        "Copy data back to host from GPU0 and verify results...",
        "silent_data_corruption",
        "simpleP2P's step",
    ),
    (
        _fiftyninth("7e8c4141e5ac"),
        "software_bug",
        "fiftyninth 7e8c4141e5ac (not attached: set-up)",
    ),
    (
        "ReadNvSwitchStatusAllSwitches() returned Host engine is not loaded",
        "software_bug",
        "another status",
    ),
    ("Check that you have sufficient capacity before launching", "dependency", "advice"),
]

test_row = row_test(FIFTYNINTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FIFTYNINTH + NOT)


def test_the_licence_outranks_the_busy_gpu_it_causes(tmp_path: Path) -> None:
    """Where a vGPU node's log says it is unlicensed, CUDA's "busy or unavailable" (the
    fourteenth's and fiftyninth's A10 pools) is read as the licence, not a faulty GPU; the bare
    busy line alone still reads `faulty_gpu` (the held-out c869d3101ed2, the labels split: README,
    fiftyninth "After its rows")."""
    busy = _fiftyninth("0164891c5ba7")
    log = tmp_path / "rank.log"
    log.write_text(_fiftyninth("cebc9472f89e") + "\n" + busy + "\n")
    assert_both_ways(log, "dependency", "restart")
    assert rows_alone(tmp_path, busy).category == "faulty_gpu"


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The fiftyninth's excerpts the rows now read get their labels' actions (one excludes a
    node: the copy test's wrong data, by the corrupted peer-copy rule)."""
    for rid, category, action in (
        ("eb09aedca783", "dependency", "restart"),
        ("cebc9472f89e", "dependency", "restart"),
        ("0991956492e2", "dependency", "restart"),
        ("9c5349d19a62", "dependency", "restart"),
        ("8605e161bca8", "dependency", "restart"),
        ("297691de1506", "dependency", "restart"),
        ("1b2f5691b068", "dependency", "restart"),
        ("16441158269a", "dependency", "restart"),
        ("32a3bb328327", "dependency", "restart"),
        ("af40705402d3", "silent_data_corruption", "exclude_node"),
        ("f445e82296a1", "software_bug", "restart"),
        ("e5ca3ec1c1dd", "dependency", "restart"),
    ):
        v = rows_alone(tmp_path, _fiftyninth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)
