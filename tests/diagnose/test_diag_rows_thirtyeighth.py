"""Signature rows for the classes the thirty-eighth collection showed missing
(tests/corpus/real/README.md, thirtyeighth.jsonl, "After its rows", branch issue-27rows38). Each
row is tested on the thirty-eighth's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take; and the
reading of nvidia-smi's unnumbered "Detected Critical Xid Error" (no longer `faulty_gpu`), which
took away the thirty-eighth's wrong exclude_node dedd1aa75299."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _thirtyeighth(rid: str) -> str:
    return excerpt("thirtyeighth", rid)


THIRTYEIGHTH = [
    # (log text, category, why)
    # -- unknown: nvidia-smi's critical-Xid notice without the Xid's number
    # (`nvml_critical_xid_unnumbered`; NVML's nvmlEventTypeXidCriticalError fires for application
    # Xids too: k8s-device-plugin's health check skips 13, 31, 43, 45, 68 as application errors)
    (_thirtyeighth("dedd1aa75299"), "unknown", "thirty-eighth dedd1aa75299 (Megatron on GKE)"),
    (
        "nvidia-smi: GPU 00000000:41:00.0: Detected Critical Xid Error",
        "unknown",
        "as a DCGM-era health script quotes nvidia-smi",
    ),
    (
        "GPU 00000000:3B:00.0: Detected Critical Xid Error\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "software_bug",
        "after a kernel's illegal memory access: the CUDA error, not the notice, decides",
    ),
    # -- dependency: libfabric offers no provider the program asked for
    # (`fabric_named_provider_missing`; ps-lite's fabric van, fabtests' FT_PRINTERR of
    # fi_getinfo's -FI_ENODATA)
    (_thirtyeighth("19f9a6c6ed79"), "dependency", "thirty-eighth 19f9a6c6ed79 (ps-lite, EFA)"),
    (
        "fi_getinfo(): util/info.c:330, ret=-61 (No data available)",
        "dependency",
        "fi_info -p efa on a host without the EFA provider",
    ),
    (
        "fi_getinfo(): common/shared.c:1192, ret=-61 (No data available)",
        "dependency",
        "a fabtests program asking for a provider the host lacks",
    ),
    (
        "[10:02:11] src/./fabric_rma_van.h:659: couldn't get verbs as provider",
        "dependency",
        "the same check for another provider",
    ),
    # -- dependency: CUDA error 304, an OS call CUDA needs refused (`cuda_os_call_unsupported`;
    # the CUDA runtime's cudaErrorOperatingSystem, the driver's CUDA_ERROR_OPERATING_SYSTEM)
    (_thirtyeighth("9217e83375d4"), "dependency", "thirty-eighth 9217e83375d4 (NCCL, OpenRLHF)"),
    (
        "UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you "
        "run some cuda functions before calling NumCudaDevices() that might have already set an "
        "error? Error 304: OS call failed or operation not supported on this OS (Triggered "
        "internally at /pytorch/c10/cuda/CUDAFunctions.cpp:119.)",
        "dependency",
        "torch's CUDA initialization warning",
    ),
    (
        "CUDA: Check failed: e == cudaSuccess (304 vs. 0) : OS call failed or operation not "
        "supported on this OS",
        "dependency",
        "MXNet's CUDA check (was read software_bug by the Check failed wording)",
    ),
    (
        "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorOperatingSystem: OS call "
        "failed or operation not supported on this OS",
        "dependency",
        "cupy's runtime error",
    ),
    # -- storage: a TFRecord whose record fails its length or checksum (`tfrecord_record_corrupt`;
    # tensorflow/core/lib/io/record_reader.cc errors::DataLoss("corrupted record at ", offset),
    # "truncated record at ")
    (_thirtyeighth("1eb54b8abb5e"), "storage", "thirty-eighth 1eb54b8abb5e (Determined, TF)"),
    (
        "tensorflow.python.framework.errors_impl.DataLossError: truncated record at 17302044 "
        "[Op:IteratorGetNext]",
        "storage",
        "a short file, the eager iterator",
    ),
    (
        "W tensorflow/core/framework/op_kernel.cc:1651] OP_REQUIRES failed at iterator_ops.cc:"
        "941 : Data loss: corrupted record at 4096",
        "storage",
        "the C++ status in TF 1.x/2.x logs",
    ),
    (
        "2024-03-01 12:00:00.123: W tensorflow/core/kernels/data/iterator_ops.cc:1000] "
        "DATA_LOSS: corrupted record at 123",
        "storage",
        "the newer status code's wording",
    ),
    # -- dependency: the kubelet refusing a GPU pod, the node advertising no GPUs
    # (`k8s_gpu_resource_unadvertised`; kubelet lifecycle/predicate.go, reason "OutOf" + resource)
    (_thirtyeighth("7ca0afc237e0"), "dependency", "thirty-eighth 7ca0afc237e0 (kubectl get pods)"),
    (
        "  Warning  OutOfnvidia.com/gpu  12s   kubelet  Node didn't have enough resource: "
        "nvidia.com/gpu, requested: 1, used: 0, capacity: 0",
        "dependency",
        "kubectl describe pod's event",
    ),
    (
        "Status:  Failed\nReason:  OutOfamd.com/gpu\nMessage: Pod Node didn't have enough "
        "resource: amd.com/gpu, requested: 1, used: 0, capacity: 0",
        "dependency",
        "the pod's status, AMD's device plugin",
    ),
    # -- planned_stop: Lightning's SLURM auto-requeue (`lightning_slurm_requeue`;
    # lightning/pytorch/trainer/connectors/signal_connector.py)
    (_thirtyeighth("725b308dd7d0"), "planned_stop", "thirty-eighth 725b308dd7d0 (glued to a bar)"),
    (
        "INFO: [rank: 0] Handling auto-requeue signal: 10\nINFO: requeing job 4242...\n"
        "INFO: Requeued SLURM job: 4242",
        "planned_stop",
        "the handler's lines, SIGUSR1",
    ),
    (
        "Handling auto-requeue signal",
        "planned_stop",
        "the older handler's wording, no signal number",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    ("NVRM: GPU at PCI:0000:04:00: GPU-1234 Xid counts are zero", "faulty_gpu", "no Xid at all"),
    (
        "GPU 00000000:04:00.0: Detected Critical Xid Error",
        "faulty_gpu",
        "the notice alone (an application Xid raises it too)",
    ),
    (
        "NET/OFI Selected Provider is efa (found 4 nics)",
        "dependency",
        "aws-ofi-nccl choosing the provider",
    ),
    ("fi_getinfo(): util/info.c:330, ret=0 (Success)", "dependency", "fi_getinfo succeeding"),
    (
        "tensorflow.python.framework.errors_impl.DataLossError: Checksum does not match: stored "
        "1214729159 vs. calculated on the restored bytes 4049068945",
        "storage",
        "a checkpoint's own checksum, not a data record",
    ),
    (
        "W tensorflow/core/data/...: Skipping corrupted record; ignore_errors is set",
        "storage",
        "a reader told to skip bad records",
    ),
    ("  nvidia.com/gpu:     8", "dependency", "kubectl describe node's capacity line"),
    (
        "INFO: SLURM auto-requeueing enabled. Setting signal handlers.",
        "planned_stop",
        "the handler being set up, no signal yet",
    ),
    ("cudaErrorOperatingSystemNotes: see the CUDA docs", "dependency", "a longer identifier"),
]

test_row = row_test(THIRTYEIGHTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(THIRTYEIGHTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The excerpts the rows now read get their labels' actions: all restart, and the critical
    Xid notice without a number (dedd1aa75299, the first sight's wrong exclusion) no longer
    excludes the node."""
    for rid in ("dedd1aa75299", "19f9a6c6ed79", "9217e83375d4", "1eb54b8abb5e", "7ca0afc237e0"):
        v = rows_alone(tmp_path, _thirtyeighth(rid))
        assert v.action == "restart", (rid, v.verdict)
    v = rows_alone(tmp_path, _thirtyeighth("725b308dd7d0"))
    assert (v.category, v.action) == ("planned_stop", "restart"), v.verdict


def test_a_numbered_hardware_xid_beside_the_notice_still_excludes(tmp_path: Path) -> None:
    """Where the kernel's numbered Xid is in the log (79: the GPU fell off the bus), it decides,
    and the node is still excluded; only the bare notice stopped doing so."""
    v = rows_alone(
        tmp_path,
        "GPU 00000000:04:00.0: Detected Critical Xid Error\n"
        "NVRM: Xid (PCI:0000:04:00): 79, pid=1234, name=python, GPU has fallen off the bus.\n",
    )
    assert v.action == "exclude_node", v.verdict


def test_the_thirtyeighth_after_its_rows(tmp_path: Path) -> None:
    """The thirty-eighth by the rows alone after its rows (tests/corpus/real/README.md, "After its
    rows"): its wrong exclusion dedd1aa75299 may not come back."""
    from benchmarks import bench_triage_accuracy as bench

    t38 = bench.evaluate("thirtyeighth", fallback=False)
    assert not t38["wrong_exclude_node"], t38["wrong_exclude_node"]
    assert t38["category_accuracy"] >= 0.6375, t38["misses"]
    assert t38["action_accuracy"] >= 0.9625, t38["misses"]
