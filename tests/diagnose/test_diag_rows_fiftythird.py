"""Signature rows for the classes the fiftythird collection showed missing
(tests/corpus/real/README.md, fiftythird.jsonl, "After its rows", branch issue-27rows53). Each
row is tested on the fiftythird's excerpts and on other wordings of its class, from the source
or documentation cited beside each, with the near misses it must not take. Rows widened in place
for it: `env_install` (the scheduler's "Insufficient" for other vendors' GPU resources, the
container runtime without the NVIDIA runtime, an NVIDIA container started without the driver);
narrowed: `undefined_symbol` (not NCCL's INFO that no net plugin was found); new:
`verbs_provider_abi_mismatch`, `gpu_driver_container_kernel_prep`, `tf_kernel_launch_oom`,
`k8s_device_allocate_failed`, `dcgm_xid_metric_zero`."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import (
    excerpt,
    near_miss_test,
    prefilter_test,
    row_test,
    rows_alone,
    rows_found,
)


def _fiftythird(rid: str) -> str:
    return excerpt("fiftythird", rid)


FIFTYTHIRD = [
    # (log text, category, why)
    # -- dependency: libibverbs' provider not supporting the kernel's ABI
    # (`verbs_provider_abi_mismatch`; rdma-core libibverbs/init.c)
    (_fiftythird("7c41a84331b7"), "dependency", "fiftythird 7c41a84331b7 (bnxt_re ABI)"),
    (
        "libibverbs: Warning: Driver mlx5 does not support the kernel ABI of 7 (supports 1 to 1) "
        "for device /sys/class/infiniband/mlx5_0",
        "dependency",
        "the same warning for mlx5",
    ),
    (
        "libibverbs: Warning: Driver efa does not support the kernel ABI of 2 (supports 1 to 1) "
        "for device /sys/class/infiniband/rdmap0s6",
        "dependency",
        "the same warning for efa",
    ),
    (
        "libibverbs: Fatal: kernel ABI version 6 doesn't match library version 5.",
        "dependency",
        "the older library's wording",
    ),
    # -- out_of_memory: TensorFlow's kernel launch out of memory (`tf_kernel_launch_oom`;
    # tensorflow/core/kernels random_op_gpu.h and the GPU functors' TF_CHECK_OK)
    (_fiftythird("bfbedd095844"), "out_of_memory", "fiftythird bfbedd095844 (TFJob, 2 GB)"),
    (
        "F tensorflow/core/kernels/random_op_gpu.h:232] Non-OK-status: CudaLaunchKernel("
        "FillPhiloxRandomKernelLaunch<Distribution>, num_blocks, block_size, 0, d.stream(), gen, "
        "data, size, dist) status: Internal: out of memory",
        "out_of_memory",
        "TF 1.x's CudaLaunchKernel",
    ),
    (
        "F0000 00:00:1700000000.000000 1234 segment_reduction_ops_gpu.cu.h:99] Non-OK-status: "
        "GpuLaunchKernel(SortedSegmentReductionCustomKernel, config.block_count) status: "
        "INTERNAL: out of memory",
        "out_of_memory",
        "TF 2.x's upper-case status",
    ),
    # -- software_bug: the kubelet failing to allocate the device the scheduler placed
    # (`k8s_device_allocate_failed`; kubernetes pkg/kubelet/lifecycle/predicate.go and
    # pkg/kubelet/cm/devicemanager/manager.go)
    (_fiftythird("58f318cd8be4"), "software_bug", "fiftythird 58f318cd8be4 (stale allocation)"),
    (_fiftythird("5d75e6ba37b3"), "software_bug", "fiftythird 5d75e6ba37b3 (HAMi, Chinese)"),
    (_fiftythird("aa0e1ac69c71"), "software_bug", "fiftythird aa0e1ac69c71 (plugin EOF)"),
    (_fiftythird("5ab4aa9cc7eb"), "software_bug", "fiftythird 5ab4aa9cc7eb (no gpu id)"),
    (
        "Warning  UnexpectedAdmissionError  3s  kubelet  Allocate failed due to requested number "
        "of devices unavailable for amd.com/gpu. Requested: 2, Available: 1, which is unexpected",
        "software_bug",
        "the device manager's wording for AMD's resource",
    ),
    (
        "Allocate failed due to rpc error: code = Unavailable desc = connection error: desc = "
        '"transport: Error while dialing dial unix /var/lib/kubelet/device-plugins/nvidia-gpu.sock: '
        'connect: connection refused", which is unexpected',
        "software_bug",
        "a device plugin restarting under the kubelet",
    ),
    # -- unknown: dcgm-exporter's Xid gauge at 0 (`dcgm_xid_metric_zero`; dcgm-exporter
    # etc/default-counters.csv)
    (_fiftythird("514d8af02bad"), "unknown", "fiftythird 514d8af02bad (A30 MIG, 0)"),
    (
        'DCGM_FI_DEV_XID_ERRORS{gpu="1",UUID="GPU-0b1c",device="nvidia1",modelName="NVIDIA '
        'H100 80GB HBM3",Hostname="node-7"} 0',
        "unknown",
        "a whole GPU's sample",
    ),
    (
        'DCGM_FI_DEV_XID_ERRORS{gpu="0",UUID="GPU-1",device="nvidia0"} 0 1700000000000',
        "unknown",
        "a sample with a timestamp",
    ),
    # -- dependency: the GPU operator's driver container without the kernel's packages
    # (`gpu_driver_container_kernel_prep`; NVIDIA gpu-driver-container's nvidia-driver scripts)
    (_fiftythird("9b0871bea0b9"), "dependency", "fiftythird 9b0871bea0b9 (kernel version)"),
    (
        "Could not locate Linux kernel version string",
        "dependency",
        "the prerequisites' version string",
    ),
    (
        "FATAL: failed to install elfutils packages. RHEL entitlement may be improperly deployed.",
        "dependency",
        "the RHEL driver container's packages",
    ),
    (
        "FATAL: failed to update the dnf metadata cache after multiple attempts with releasevers "
        "9.4, 9",
        "dependency",
        "the RHEL driver container's repositories",
    ),
    # -- `undefined_symbol` still takes a library that cannot be opened outside NCCL's plugin
    # search (narrowed for the fiftythird's ff0dff26ee0f)
    (
        "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory",
        "dependency",
        "a library the program needs",
    ),
    (
        "node1:305:305 [0] NCCL WARN NET/Plugin : Plugin load returned 2 : libnccl-net.so: "
        "cannot open shared object file: No such file or directory",
        "dependency",
        "at WARN with no fallback named (not the INFO form)",
    ),
    # -- dependency: `env_install` widened (Kubernetes' scheduler, containerd, Docker, NGC images)
    (_fiftythird("7acf8a5de716"), "dependency", "fiftythird 7acf8a5de716 (aliyun gpu-mem)"),
    (_fiftythird("46e0fcb041dc"), "dependency", "fiftythird 46e0fcb041dc (containerd)"),
    (_fiftythird("ae28e6eab450"), "dependency", "fiftythird ae28e6eab450 (NGC, no driver)"),
    (
        "Warning  FailedScheduling  12s  default-scheduler  0/3 nodes are available: "
        "3 Insufficient amd.com/gpu.",
        "dependency",
        "AMD's device plugin resource",
    ),
    (
        "0/1 nodes are available: 1 Insufficient gpu.intel.com/i915.",
        "dependency",
        "Intel's device plugin resource",
    ),
    (
        "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox "
        'runtime: no runtime for "nvidia-cdi" is configured',
        "dependency",
        "containerd's CRI, the CDI runtime class",
    ),
    (
        "docker: Error response from daemon: unknown or invalid runtime name: nvidia.",
        "dependency",
        "Docker's wording",
    ),
    (
        "WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.\n"
        "   Use the NVIDIA Container Toolkit to start this container with GPU support; see",
        "dependency",
        "a newer NGC entrypoint",
    ),
]

NOT = [
    # (text, category it must not get, why)
    (
        _fiftythird("ff0dff26ee0f"),
        "dependency",
        "fiftythird ff0dff26ee0f: NCCL INFO, no net plugin, internal one used",
    ),
    (
        "node:87930:87930 [0] NCCL INFO NET/Plugin : dlerror=libnccl-net.so: cannot open shared "
        "object file: No such file or directory No plugin found (libnccl-net.so), using internal "
        "implementation",
        "dependency",
        "NCCL 2.7-2.11's INFO wording (NCCL src/net.cc; guides call it harmless)",
    ),
    (
        "Resolving Linux kernel version...",
        "dependency",
        "the driver container's progress line",
    ),
    (
        "libibverbs: Warning: couldn't open config directory '/etc/libibverbs.d'.",
        "nic",
        "libibverbs' config warning",
    ),
    (
        "ibv_devinfo: No IB devices found",
        "dependency",
        "no adapter at all stays ib_no_device's (nic), not the ABI row",
    ),
    (
        "# kernel ABI version 6 is supported by the driver",
        "dependency",
        "the words in prose",
    ),
    (
        "Non-OK-status: GpuLaunchKernel(SwapDimension1And2InTensor3UsingTiles, ...) status: "
        "Internal: invalid configuration argument",
        "out_of_memory",
        "a launch failing for another reason",
    ),
    (
        "Allocate failed due to no healthy devices present; cannot allocate unhealthy devices "
        "amd.com/gpu, which is unexpected",
        "software_bug",
        "a device marked unhealthy is not the plugin's bookkeeping",
    ),
    (
        "Pod Allocate failed due to pod 1234 container init unable to find GPU device allocation "
        "by scheduler, which is unexpected",
        "software_bug",
        "the scheduler's set-up (labelled dependency)",
    ),
    (
        "Requested: 1 nvidia.com/gpu; the node has enough (not Insufficient)",
        "dependency",
        "the resource named without the scheduler's refusal",
    ),
    (
        'runtimes: {"nvidia": {"path": "nvidia-container-runtime"}}',
        "dependency",
        "a configured runtime",
    ),
]


test_row = row_test(FIFTYTHIRD)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FIFTYTHIRD + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The fiftythird's excerpts the rows now read get their labels' actions; the wrong
    exclude_node (7c41a84331b7) is gone."""
    for rid, category, action in (
        ("7c41a84331b7", "dependency", "restart"),
        ("bfbedd095844", "out_of_memory", "stop_and_page"),
        ("58f318cd8be4", "software_bug", "restart"),
        ("5d75e6ba37b3", "software_bug", "restart"),
        ("aa0e1ac69c71", "software_bug", "restart"),
        ("5ab4aa9cc7eb", "software_bug", "restart"),
        ("514d8af02bad", "unknown", "restart"),
        ("7acf8a5de716", "dependency", "restart"),
        ("46e0fcb041dc", "dependency", "restart"),
        ("ae28e6eab450", "dependency", "restart"),
        ("9b0871bea0b9", "dependency", "restart"),
        ("ff0dff26ee0f", "unknown", "restart"),
    ):
        v = rows_alone(tmp_path, _fiftythird(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)


def test_a_zero_xid_metric_keeps_the_fallback_from_guessing(tmp_path: Path) -> None:
    """dcgm-exporter's Xid gauge at 0 gets `unknown` with the fallback too: a row matched, so
    no guess is made."""
    from nonstop.diagnose import triage_file

    log = tmp_path / "514d8af02bad.log"
    log.write_text(_fiftythird("514d8af02bad") + "\n")
    v = triage_file(log, fallback=True)
    assert (v.category, v.action) == ("unknown", "restart"), v.verdict


def test_a_non_zero_xid_metric_is_not_read_as_healthy(tmp_path: Path) -> None:
    """The zero-Xid row takes only a sample at 0: an Xid 79 or 45 value is left to other rows."""
    for text in (
        'DCGM_FI_DEV_XID_ERRORS{gpu="0",UUID="GPU-1",device="nvidia0"} 79',
        'DCGM_FI_DEV_XID_ERRORS{gpu="0",err_code="45"} 45 1700000000000',
        'DCGM_FI_DEV_XID_ERRORS{gpu="0"} 0.5',
    ):
        log = tmp_path / "m.log"
        log.write_text(text + "\n")
        found, direct = rows_found(log)
        assert "dcgm_xid_metric_zero" not in {row for _, row in found | direct}, text
