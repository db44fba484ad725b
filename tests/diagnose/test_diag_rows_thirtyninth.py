"""Signature rows for the classes the thirty-ninth collection showed missing (accelerators other
than NVIDIA's and parallel filesystems; tests/corpus/real/README.md, thirtyninth.jsonl, "After its
rows", branch issue-27rows39). Each row is tested on the thirty-ninth's excerpts and on other
wordings of its class, from the documentation or source cited beside each, with the near misses
it must not take. None of these rows excludes a node."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _thirtyninth(rid: str) -> str:
    return excerpt("thirtyninth", rid)


THIRTYNINTH = [
    # (log text, category, why)
    # -- storage: HDF5 unable to lock its file on a filesystem without locks
    # (`hdf5_lock_unsupported`; HDF5's H5FDsec2.c H5FD_sec2_lock, HSYS_GOTO_ERROR's format)
    (_thirtyninth("d8fc7820c774"), "storage", "thirty-ninth d8fc7820c774 (h5py, ENOLCK)"),
    (_thirtyninth("fc91a97af496"), "storage", "thirty-ninth fc91a97af496 (errno 524)"),
    (excerpt("twentythird", "c8a1b0700b1b"), "storage", "twenty-third c8a1b0700b1b (ENOLCK)"),
    (
        "  #003: H5FDsec2.c line 1002 in H5FD__sec2_lock(): unable to lock file, errno = 38, "
        "error message = 'Function not implemented'",
        "storage",
        "HDF5's error stack, ENOSYS (a filesystem with no flock)",
    ),
    (
        "OSError: Unable to open file (unable to lock file, errno = 95, error message = "
        "'Operation not supported')",
        "storage",
        "h5py, EOPNOTSUPP",
    ),
    # -- storage: an NFS silly-renamed file that cannot be removed (`nfs_silly_rename_busy`;
    # fs/nfs/dir.c nfs_sillyrename; git clean's and coreutils rm's wording)
    (_thirtyninth("203e3468ff5a"), "storage", "thirty-ninth 203e3468ff5a (git clean)"),
    (
        "rm: cannot remove 'build/.nfs000000000a1b2c3d00000042': Device or resource busy",
        "storage",
        "coreutils rm",
    ),
    # -- out_of_memory: HIP out of memory at a device allocation (`rocm_device_alloc_oom`;
    # TensorFlow's rocm_driver.cc GpuDriver::DeviceAllocate)
    (_thirtyninth("fe5a8a755cd4"), "out_of_memory", "thirty-ninth fe5a8a755cd4 (hipError_t(1002))"),
    (
        "2021-03-02 10:11:12.123456: E tensorflow/stream_executor/rocm/rocm_driver.cc:615] failed "
        "to allocate 15.98G (17163091968 bytes) from device: HIP_ERROR_OutOfMemory",
        "out_of_memory",
        "the newer status name, a 16 GB card",
    ),
    (
        "E tensorflow/compiler/xla/stream_executor/rocm/rocm_driver.cc:606] failed to allocate "
        "512.00MiB (536870912 bytes) from device: hipError_t(1002)",
        "out_of_memory",
        "the IEC unit TensorFlow prints since 2.x",
    ),
    # -- out_of_memory: the Neuron runtime's device-memory allocator (`neuron_device_alloc_failed`;
    # the Neuron runtime troubleshooting guide's out-of-memory case, TDRV's log lines)
    (_thirtyninth("62b7c1d2c8ae"), "out_of_memory", "thirty-ninth 62b7c1d2c8ae (Trainium)"),
    (
        "2023-Jun-01 10:00:00.000000 1234:1234 ERROR  TDRV:dmem_alloc_internal Failed to alloc "
        "DEVICE memory: 2147483648",
        "out_of_memory",
        "a 2 GiB request",
    ),
    (
        "2023-Jun-01 10:00:00.000001 1234:1234 ERROR  TDRV:log_dev_mem Failed to allocate "
        "2.000GB (usage: shared scratchpad) on ND 3:NC 1, current utilization:",
        "out_of_memory",
        "another usage and core",
    ),
    # -- dependency: an accelerator another process holds (`accelerator_held_elsewhere`)
    (_thirtyninth("d988cf3b753c"), "dependency", "thirty-ninth d988cf3b753c (libtpu)"),
    (_thirtyninth("6b3c779a6c8a"), "dependency", "thirty-ninth 6b3c779a6c8a (Edge TPU)"),
    (_thirtyninth("9600b823be93"), "dependency", "thirty-ninth 9600b823be93 (PopTorch)"),
    (
        "2021-Aug-27 23:22:12.0323 28078:28078 ERROR   NRT:nrt_allocate_neuron_cores               "
        "NeuronCore(s) not available - Requested:nc1-nc1 Available:0",
        "dependency",
        "the Neuron runtime troubleshooting guide",
    ),
    (
        "[ 1201.5] apex 0000:01:00.0: Process 3001 is opening a node held by 2990.",
        "dependency",
        "gasket_core.c gasket_open's dev_err, other pids",
    ),
    (
        "RuntimeError: Unable to initialize backend 'tpu': ABORTED: The TPU is already in use by "
        "process with pid 1234. Not attempting to load libtpu.so in this process.",
        "dependency",
        "libtpu, another pid",
    ),
    (_thirtyninth("7e118e88e5a5"), "dependency", "thirty-ninth 7e118e88e5a5 (torch-neuronx)"),
    (
        '  File "/opt/venv/lib/python3.10/site-packages/torch_neuronx/xla_impl/data_parallel.py", '
        "line 120, in _get_all_neuroncore_indices\nRuntimeError: Neuron runtime cannot be "
        "initialized; cannot determine the number of available NeuronCores",
        "dependency",
        "torch-neuronx's device count from DataParallel (its _get_all_neuroncore_indices)",
    ),
    # -- dependency: the ROCm runtime's HSA_STATUS_ERROR_OUT_OF_RESOURCES (`hsa_out_of_resources`)
    (_thirtyninth("2699433f1cdf"), "dependency", "thirty-ninth 2699433f1cdf (rocminfo)"),
    (
        excerpt("thirtysixth", "9f3c662cf5cc"),
        "dependency",
        "thirty-sixth 9f3c662cf5cc (TheRock CI)",
    ),
    (
        "hsa_init() failed: HSA_STATUS_ERROR_OUT_OF_RESOURCES",
        "dependency",
        "an HSA caller printing hsa_init's status",
    ),
    # -- software_bug: Level Zero / unified runtime device lost (`level_zero_device_lost`)
    (_thirtyninth("91fcbe5542bd"), "software_bug", "thirty-ninth 91fcbe5542bd (torch.xpu)"),
    (_thirtyninth("385f6c7fc6fe"), "software_bug", "thirty-ninth 385f6c7fc6fe (IPEX)"),
    (
        "RuntimeError: level_zero backend failed with error: 20 (UR_RESULT_ERROR_DEVICE_LOST)",
        "software_bug",
        "the unified runtime's error, no traceback",
    ),
    (
        "terminate called after throwing an instance of 'sycl::_V1::exception'\n"
        "  what():  Native API failed. Native API returns: -2 (PI_ERROR_DEVICE_NOT_AVAILABLE) "
        "ZE_RESULT_ERROR_DEVICE_LOST",
        "software_bug",
        "Level Zero's own status name",
    ),
    # -- dependency: a parallel filesystem's client module not loaded
    # (`parallel_fs_client_module_missing`; lustre/utils/mount_lustre.c, util-linux mount)
    (_thirtyninth("c6dc2d1bc5a1"), "dependency", "thirty-ninth c6dc2d1bc5a1 (mount.lustre)"),
    (
        "mount.lustre: mount fs-0123@tcp:/fsx at /fsx failed: No such device\n"
        "Are the lustre modules loaded?\n"
        " Check /etc/modprobe.conf and /proc/filesystems",
        "dependency",
        "newer mount_lustre.c's wording (FSx for Lustre)",
    ),
    (
        "mount: /mnt/beegfs: unknown filesystem type 'beegfs'.",
        "dependency",
        "util-linux mount, BeeGFS client module missing",
    ),
    # -- dependency: DKMS skipping a module for want of kernel headers (`dkms_kernel_headers_missing`)
    (_thirtyninth("c6bc33d5cedf"), "dependency", "thirty-ninth c6bc33d5cedf (aws-neuronx-dkms)"),
    (
        "Module build for kernel 6.8.0-31-generic was skipped since the kernel headers for this "
        "kernel do not seem to be installed.",
        "dependency",
        "dkms 3.x, one line",
    ),
    (
        "Error! Your kernel headers for kernel 5.15.0-1019-aws cannot be found at "
        "/lib/modules/5.15.0-1019-aws/build or /lib/modules/5.15.0-1019-aws/source.",
        "dependency",
        "dkms 2.x",
    ),
    # -- dependency: the TPU runtime not reading the VM's metadata (`tpu_metadata_unavailable`)
    (_thirtyninth("3450e0676a1a"), "dependency", "thirty-ninth 3450e0676a1a (JAX)"),
    (
        "WARNING: could not determine TPU accelerator type. Set env var TPU_ACCELERATOR_TYPE to "
        "set manually. TPU runtime may not be properly initialized.",
        "dependency",
        "the warning alone",
    ),
    (
        "E0101 00:00:00.000 libtpu: Failed to get TPU metadata (tpu-env) from instance metadata "
        "for variable CHIPS_PER_HOST_BOUNDS: INTERNAL: Couldn't connect to server",
        "dependency",
        "libtpu's metadata read",
    ),
    # -- dependency: the host compiler handed an offload-arch flag (`gpu_offload_flag_host_compiler`)
    (_thirtyninth("ed5837f60be9"), "dependency", "thirty-ninth ed5837f60be9 (llama-cpp-python)"),
    (
        "g++: error: unrecognized command-line option '--offload-arch=gfx1100'",
        "dependency",
        "g++, ASCII quotes",
    ),
    (
        "c++: error: unrecognized command line option '--amdgpu-target=gfx906'",
        "dependency",
        "older gcc's wording, hipcc's older flag",
    ),
    # -- dependency: no Intel XPU visible (`xpu_no_device`; torch's c10/xpu device_count_ensure_
    # non_zero TORCH_CHECK)
    ("RuntimeError: No XPU devices are available.", "dependency", "torch.xpu's check"),
    # -- nccl_watchdog_timeout: HCCL's task timing out while running (`hccl_task_exec_timeout`;
    # the HCCL user guide, fault locating and quick demarcation)
    (_thirtyninth("1108625e59f3"), "nccl_watchdog_timeout", "thirty-ninth 1108625e59f3 (HCCL)"),
    (
        "[ERROR] HCCL(2111667,all_reduce_test):2025-10-24-11:18:29.597.044 "
        "[task_exception_handler.cc:908] [2111667][TaskExecStage][Timeout][Host]Task run failed, "
        "base information is streamID:[2], taskID[21], tag[AllReduce_127.10.0.1%enp_60000_0_1], "
        "AlgType(level 0-1-2):[fullmesh-ring-NHR].",
        "nccl_watchdog_timeout",
        "the English HCCL guide's example",
    ),
    # -- hang: JAX's TPU backend start stalled (`tpu_backend_init_stalled`; jax/_src/xla_bridge.py)
    (_thirtyninth("74712dcd1bd1"), "hang", "thirty-ninth 74712dcd1bd1 (v4-32)"),
    (
        "UserWarning: TPU backend initialization is taking more than 60.0 seconds. Did you run "
        "your code on all TPU hosts? See https://jax.readthedocs.io/en/latest/multi_process.html",
        "hang",
        "the warning on its own line",
    ),
    # -- software_bug: the kernel's own BUG()/BUG_ON() (`kernel_bug_assertion`; lib/bug.c
    # report_bug, x86's ud2 Oops, arm64's "Oops - BUG")
    (_thirtyninth("59843a89c0e0"), "software_bug", "thirty-ninth 59843a89c0e0 (BeeGFS client)"),
    (
        "[  457.763336] kernel BUG at include/linux/mm.h:1444!\n"
        "[  457.763336] Internal error: Oops - BUG: 0 [#1] PREEMPT ARM",
        "software_bug",
        "arm's BUG Oops (an LKML report)",
    ),
    (
        "kernel BUG at fs/btrfs/ctree.h:3664!\n"
        "Internal error: Oops - BUG: 00000000f2000800 [#1] PREEMPT SMP",
        "software_bug",
        "arm64's BUG Oops (a syzbot report)",
    ),
    (
        "[ 8817.291520] invalid opcode: 0000 [#1] SMP PTI",
        "software_bug",
        "x86's Oops line in older kernels, alone",
    ),
    # -- software_bug: the Neuron compiler's internal error (`neuron_compiler_internal_error`)
    (_thirtyninth("b0dbf17d5290"), "software_bug", "thirty-ninth b0dbf17d5290 (neuronx-cc)"),
    (
        "ERROR 103915 [neuronx-cc]: An Internal Compiler Error has occurred",
        "software_bug",
        "the tool's name alone, as the Neuron docs' FAQ quotes neuronx-cc's errors",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    (excerpt("twentythird", "28ef84d90840"), "storage", "twenty-third 28ef84d90840 (EAGAIN)"),
    (
        "OSError: Unable to open file (unable to lock file, errno = 11, error message = 'Resource "
        "temporarily unavailable')",
        "storage",
        "HDF5's lock held by another handle",
    ),
    ("HDF5_USE_FILE_LOCKING=FALSE avoids 'unable to lock file' on NFS", "storage", "advice"),
    (
        "rm: cannot remove 'build/out.o': Device or resource busy",
        "storage",
        "a busy file that is not an NFS silly-rename",
    ),
    (_thirtyninth("d3991d780f71"), "out_of_memory", "thirty-ninth d3991d780f71 (127.99TiB)"),
    (
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1189] Created TensorFlow device "
        "(/job:localhost/replica:0/task:0/device:GPU:0 with 7524 MB memory)",
        "out_of_memory",
        "TensorFlow creating the device",
    ),
    (
        "2023-Jun-01 10:00:00 1234:1234 INFO  TDRV:log_dev_mem  current utilization: * total: "
        "15.855GB",
        "out_of_memory",
        "the Neuron allocator's utilisation report",
    ),
    ("NeuronCore(s) available: 2", "dependency", "a count of available cores"),
    (
        "apex 0000:01:00.0: Apex performance not throttled due to temperature",
        "dependency",
        "apex info",
    ),
    (
        "HSA_STATUS_SUCCESS, HSA_STATUS_ERROR_OUT_OF_RESOURCES and HSA_STATUS_ERROR_EXCEPTION are "
        "status codes",
        "dependency",
        "the status name in a list",
    ),
    ("DEVICE_LOST handling is documented in the Level Zero spec", "software_bug", "prose"),
    ("lustre: module loaded, Lustre: Lustre: Build Version: 2.15.4", "dependency", "module loaded"),
    (
        "Module build for kernel 6.8.0-31-generic was successful.",
        "dependency",
        "a module built",
    ),
    ("TPU accelerator type: v4-32", "dependency", "the type read"),
    (
        "g++: error: unrecognized command-line option '-mno-avx512'",
        "dependency",
        "another unrecognised flag",
    ),
    (
        "[INFO] HCCL(17528,python3):2026-03-18-10:33:52.113.403 [op_base.cc:1292] "
        "Entry-HcclCommInitRootInfoInner:ranks[4], rank[2]",
        "nccl_watchdog_timeout",
        "HCCL's communicator creation",
    ),
    ("TPU backend initialization took 12.3 seconds", "hang", "a start that finished"),
    (
        "traps: python3[4242] trap invalid opcode ip:7f12a3b4c5d6 sp:7ffd1234 error:0 in "
        "libtorch_cpu.so[7f12a0000000+1a000000]",
        "software_bug",
        "a user process's invalid opcode (a CPU without the instructions)",
    ),
    (
        "BUG: kernel NULL pointer dereference, address: 0000000000000008",
        "software_bug",
        "a NULL-pointer Oops, not this row's (the collections label it both ways)",
    ),
    (
        "Please report: the kernel BUG at line 12 is fixed upstream",
        "software_bug",
        "'kernel BUG' in prose, no file",
    ),
    (
        "gcc: internal compiler error: Killed (program cc1plus)",
        "software_bug",
        "gcc killed for memory, not the Neuron compiler",
    ),
]

test_row = row_test(THIRTYNINTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(THIRTYNINTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The excerpts the rows now read get their labels' actions: the device out of memory stops
    and pages, the others restart; none excludes a node."""
    for rid, action in (
        ("62b7c1d2c8ae", "stop_and_page"),
        ("fe5a8a755cd4", "stop_and_page"),
        ("d8fc7820c774", "restart"),
        ("d988cf3b753c", "restart"),
        ("91fcbe5542bd", "restart"),
        ("1108625e59f3", "restart"),
        ("74712dcd1bd1", "restart"),
    ):
        v = rows_alone(tmp_path, _thirtyninth(rid))
        assert v.action == action, (rid, v.verdict)


def test_the_intel_extension_warning_alone_is_read(tmp_path: Path) -> None:
    """IPEX's "XPU Device count is zero!" comes as a UserWarning, a line the process went on
    after (triage's survived discount): the abort after it (`sigabrt`) still names the end, as
    for the thirty-ninth's 16a7a20c2d19; the row reads the warning where nothing else does."""
    v = rows_alone(
        tmp_path,
        "lazy_init.py:80: UserWarning: XPU Device count is zero! (Triggered internally at "
        "/build/intel-pytorch-extension/csrc/gpu/runtime/Device.cpp:127.)",
    )
    assert v.category == "dependency", v.verdict
