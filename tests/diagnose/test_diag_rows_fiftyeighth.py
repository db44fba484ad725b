"""Signature rows for the classes the fiftyeighth collection showed missing
(tests/corpus/real/README.md, fiftyeighth.jsonl, "After its rows", branch issue-27rows58): other
frameworks' words (TensorFlow, JAX/XLA, PaddlePaddle, MindSpore, MXNet/ps-lite, Deeplearning4j,
Horovod, MuJoCo) for classes the table knew in PyTorch's. Each row is tested on the fiftyeighth's
excerpts and on other wordings of its class, from the source or documentation cited beside each,
with the near misses it must not take. Rows widened in place for it: `cuda_oom`
(Deeplearning4j's and MindSpore's device allocators), `pinned_host_oom` (Deeplearning4j's host
allocation), `cuda_library` (TensorFlow's "cuDNN launch failure"), `env_install` (TensorFlow's
and XLA's cuDNN runtime/compile mismatch); new: `tf_bfc_not_a_failure`, `paddle_nan_inf_check`,
`mujoco_bad_ctrl`, `blas_illegal_argument`, `pslite_van_setup`, `tf_restore_not_a_prefix`,
`nccl_invalid_data_type`."""

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

from nonstop.diagnose import triage


def _fiftyeighth(rid: str) -> str:
    return excerpt("fiftyeighth", rid)


_BFC = (
    "2021-03-02 10:11:12.123456: W tensorflow/core/common_runtime/bfc_allocator.cc:{line}] "
    "Allocator (GPU_0_bfc) ran out of memory trying to allocate {size}{tail}"
)

FIFTYEIGHTH = [
    # (log text, category, why)
    # -- out_of_memory: other frameworks' device allocators (`cuda_oom`, widened;
    # nd4j-cuda org/nd4j/jita/memory/CudaMemoryManager.java, MindSpore's gpu cuda_driver.cc and
    # runtime/pynative run_op_helper.cc)
    (_fiftyeighth("a2c373487b09"), "out_of_memory", "fiftyeighth a2c373487b09 (Deeplearning4j)"),
    (_fiftyeighth("2df9cfe7dd5a"), "out_of_memory", "fiftyeighth 2df9cfe7dd5a (MindSpore)"),
    (_fiftyeighth("5eb1755a6932"), "out_of_memory", "fiftyeighth 5eb1755a6932 (kernel output)"),
    (
        "java.lang.RuntimeException: Failed to allocate 4194304 bytes from DEVICE [1] memory",
        "out_of_memory",
        "nd4j, another device",
    ),
    (
        "[ERROR] DEVICE(31337,7f3a2b1c0740,python):2022-03-01-10:00:00.000.000 "
        "[mindspore/ccsrc/runtime/device/gpu/cuda_driver.cc:51] AllocDeviceMem] cudaMalloc "
        "failed, ret[2], out of memory",
        "out_of_memory",
        "MindSpore's cudaMalloc",
    ),
    (
        "RuntimeError: Malloc for kernel output failed, Memory isn't enough, node:Default/"
        "network-WithLossCell/_backbone-ResNet/conv1-Conv2d/Conv2D-op12",
        "out_of_memory",
        "MindSpore's kernel output, another node",
    ),
    # -- out_of_memory: Deeplearning4j's pinned host allocation (`pinned_host_oom`, widened)
    (
        "java.lang.RuntimeException: Failed to allocate 1073741824 bytes from HOST memory",
        "out_of_memory",
        "nd4j, MemoryKind.HOST",
    ),
    # -- software_bug: TensorFlow's cuDNN launch failure (`cuda_library`, widened;
    # tensorflow/core/kernels conv_ops_3d.cc, conv_ops_fused, fused_batch_norm_op.cc)
    (_fiftyeighth("cb33ae4eef5c"), "software_bug", "fiftyeighth cb33ae4eef5c (conv)"),
    (
        "tensorflow.python.framework.errors_impl.InternalError: cuDNN launch failure : input "
        "shape ([810171,1,1,64])",
        "software_bug",
        "FusedBatchNorm's wording",
    ),
    (
        "InternalError: cuDNN launch failure : input shape([1,64,16,16,16]) filter "
        "shape([3,3,3,64,64]) [Op:Conv3D]",
        "software_bug",
        "Conv3D, eager",
    ),
    # -- dependency: the cuDNN runtime against the build (`env_install`, widened;
    # tensorflow/stream_executor/cuda/cuda_dnn.cc, xla/stream_executor/cuda/cuda_dnn.cc)
    (_fiftyeighth("10655cac2e55"), "dependency", "fiftyeighth 10655cac2e55 (TF 1.0 wording)"),
    (_fiftyeighth("6e2c3cfbd6c4"), "dependency", "fiftyeighth 6e2c3cfbd6c4 (TF 2.x wording)"),
    (
        "E0508 03:34:06.237713 14701 cuda_dnn.cc:522] Loaded runtime CuDNN library: 9.0.0 but "
        "source was compiled with: 9.1.1. CuDNN library needs to have matching major version and "
        "equal or higher minor version.",
        "dependency",
        "jaxlib's",
    ),
    (
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 7.0.5 "
        "but source was compiled with: 7.1.4.  CuDNN library major and minor version needs to "
        "match or have higher minor version in case of CuDNN 7.0 or later version.",
        "dependency",
        "TF 1.x's later wording",
    ),
    # -- numerical_nan: PaddlePaddle's NaN/Inf check (`paddle_nan_inf_check`;
    # paddle/fluid/framework/details/nan_inf_utils_detail.cu/.cc, test_nan_inf.py)
    (_fiftyeighth("834f16223098"), "numerical_nan", "fiftyeighth 834f16223098 (divide)"),
    (
        "Error: ../paddle/fluid/framework/details/nan_inf_utils_detail.cu:104 Assertion `false` "
        "failed. ===ERROR: in [op=matmul_v2] [tensor=linear_3.tmp_0] find nan or inf===",
        "numerical_nan",
        "another op and tensor",
    ),
    ("===ERROR: in fc_0.tmp_1 find nan or inf===", "numerical_nan", "the older debug_info form"),
    ("In block 3, there has 0,12,1024 nan,inf,num", "numerical_nan", "an Inf only"),
    (
        "There are `nan` or `inf` in tensor: fc_0.w_0_grad",
        "numerical_nan",
        "the CPU check",
    ),
    # -- numerical_nan: MuJoCo given a non-finite control (`mujoco_bad_ctrl`; mujoco
    # src/engine/engine_util_errmem.c mju_warningText, dm_control PhysicsError)
    (_fiftyeighth("4d073673f733"), "numerical_nan", "fiftyeighth 4d073673f733 (Brax rollout)"),
    (
        "Nan, Inf or huge value in CTRL at ACTUATOR 7. The simulation is unstable. Time = 0.0020.",
        "numerical_nan",
        "another actuator, no prefix",
    ),
    (
        "dm_control.rl.control.PhysicsError: Physics state is invalid. Warning(s) raised: "
        "mjWARN_BADCTRL",
        "numerical_nan",
        "dm_control's",
    ),
    # -- software_bug: a BLAS refusing its caller's argument (`blas_illegal_argument`; cuBLAS and
    # OpenBLAS interface/xerbla.c, Intel MKL's xerbla)
    (_fiftyeighth("0bf9216c90ad"), "software_bug", "fiftyeighth 0bf9216c90ad (GEMM_EX)"),
    (
        " ** On entry to SGEMM  parameter number 8 had an illegal value",
        "software_bug",
        "cublasSgemm's",
    ),
    (
        "Intel MKL ERROR: Parameter 6 was incorrect on entry to DGEMM .",
        "software_bug",
        "MKL's",
    ),
    (
        "Intel oneMKL ERROR: Parameter 4 was incorrect on entry to SGESDD.",
        "software_bug",
        "oneMKL's",
    ),
    # -- dependency: ps-lite's node set-up (`pslite_van_setup`; dmlc/ps-lite src/van.cc Van::Start)
    (_fiftyeighth("40d405811529"), "dependency", "fiftyeighth 40d405811529 (bind failed)"),
    (_fiftyeighth("6a65252fe0ee"), "dependency", "fiftyeighth 6a65252fe0ee (no ip)"),
    (
        "mxnet.base.MXNetError: [08:21:51] src/van.cc:82: Check failed: !interface.empty() "
        "failed to get the interface",
        "dependency",
        "no interface",
    ),
    ("[14:01:04] src/van.cc:86: Check failed: port failed to get a port", "dependency", "no port"),
    # -- user_code_error: a restore given a checkpoint's file, not its prefix
    # (`tf_restore_not_a_prefix`; tensorflow/core/util/tensor_slice_reader.cc, table.cc)
    (_fiftyeighth("b4e8909f46bc"), "user_code_error", "fiftyeighth b4e8909f46bc (checkpoint)"),
    (_fiftyeighth("aa9357276ef1"), "user_code_error", "fiftyeighth aa9357276ef1 (.data shard)"),
    (
        "tensorflow.python.framework.errors_impl.DataLossError: Unable to open table file "
        "./model/model.ckpt.meta: Data loss: not an sstable (bad magic number): perhaps your file "
        "is in a different file format and you need to use a different restore operator?",
        "user_code_error",
        "the .meta graph",
    ),
    (
        "Unable to open table file checkpoint: DATA_LOSS: not an sstable (bad magic number)",
        "user_code_error",
        "TF 2.x status, a relative path",
    ),
    # -- software_bug: NCCL refusing a data type (`nccl_invalid_data_type`; Horovod's NCCL_CHECK,
    # Paddle's build_nccl_error_msg, NCCL 1.x ncclInvalidType)
    (_fiftyeighth("d7cb1f6ba1e9"), "software_bug", "fiftyeighth d7cb1f6ba1e9 (Horovod)"),
    (excerpt("fiftieth", "a9d7c206d7ff"), "software_bug", "fiftieth a9d7c206d7ff (Paddle)"),
    (
        "horovod.common.exceptions.HorovodInternalError: ncclAllGather failed: invalid data type",
        "software_bug",
        "Horovod, another collective",
    ),
    ("NCCL error: ncclInvalidType", "software_bug", "the enum's name"),
    # -- unknown, not out_of_memory: the BFC allocator's "not a failure" (`tf_bfc_not_a_failure`);
    # where the driver's out of memory follows, it still decides
    (_fiftyeighth("a1c0b5056e03"), "out_of_memory", "fiftyeighth a1c0b5056e03 (the driver's)"),
]

NOT = [
    # (log text, category it must not get, why)
    (
        "[ERROR] DEVICE [mindspore/ccsrc/runtime/device/gpu/cuda_driver.cc:245] SetDevice] "
        "SetDevice for id:7 failed, ret[101], invalid device ordinal.",
        "out_of_memory",
        "MindSpore, another error code",
    ),
    (
        "[ERROR] DEVICE cudaMemcpy failed, ret[700], an illegal memory access was encountered",
        "out_of_memory",
        "MindSpore, an illegal access",
    ),
    ("Allocated 637074016 bytes from DEVICE [0] memory", "out_of_memory", "no failure"),
    (
        "If you see a cuDNN launch failure, set TF_FORCE_GPU_ALLOW_GROWTH=true",
        "software_bug",
        "advice, no input shape",
    ),
    (
        "2022-05-06 17:39:13.615836: I tensorflow/stream_executor/cuda/cuda_dnn.cc:368] Loaded "
        "cuDNN version 8100",
        "dependency",
        "TF's start-up line",
    ),
    ("In block 0, there has 0,0,4096 nan,inf,num", "numerical_nan", "no nan, no inf counted"),
    ("export FLAGS_check_nan_inf=1", "numerical_nan", "the flag set"),
    (
        "WARNING: Nan, Inf or huge value in QACC at DOF 13. The simulation is unstable. "
        "Time = 0.2520.",
        "numerical_nan",
        "the simulator's own state",
    ),
    (
        "dm_control.rl.control.PhysicsError: Physics state is invalid. Warning(s) raised: "
        "mjWARN_BADQACC",
        "numerical_nan",
        "dm_control, the state",
    ),
    (
        "*          < 0:  if INFO = -i, the i-th argument had an illegal value.",
        "software_bug",
        "LAPACK's documentation",
    ),
    (
        "[02:33:37] src/van.cc:290: Bind to role=scheduler, id=1, ip=172.31.35.130, port=9093, "
        "is_recovery=0",
        "dependency",
        "the bind succeeded",
    ),
    (
        "src/van.cc:470: Check failed: obj timeout (5 sec) to wait App 0 customer 0 ready",
        "dependency",
        "another ps-lite CHECK",
    ),
    (
        "tensorflow.python.framework.errors.DataLossError: Unable to open table file "
        "/pfs/train/ptb.ckpt: Invalid argument: /pfs/train/ptb.ckpt: perhaps your file is in a "
        "different file format and you need to use a different restore operator?",
        "user_code_error",
        "a prefix (the forty-eighth's, storage)",
    ),
    (
        "DataLossError: Unable to open table file gs://bucket/run/model.ckpt-1000: Data loss: "
        "not an sstable (bad magic number)",
        "user_code_error",
        "a prefix with a bad magic number",
    ),
    ("ValueError: invalid data type 'float128'", "software_bug", "no NCCL"),
    (_fiftyeighth("9db10169f15d"), "out_of_memory", "fiftyeighth 9db10169f15d (not a failure)"),
    (
        _BFC.format(
            line=239,
            size="16.00MiB with freed_by_count=0.",
            tail=" The caller indicates that this is not a failure, but this may mean that there "
            "could be performance gains if more memory were available.",
        ),
        "out_of_memory",
        "TF 2.x's wording",
    ),
]

# the allocator's own failure (no "not a failure") stays out of memory
FIFTYEIGHTH.append(
    (
        _BFC.format(line=275, size="456.29MiB.", tail="  Current allocation summary follows."),
        "out_of_memory",
        "a BFC miss that is a failure",
    )
)

test_row = row_test(FIFTYEIGHTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FIFTYEIGHTH + NOT)


def test_the_allocators_not_a_failure_is_read_as_informational(tmp_path: Path) -> None:
    """The BFC allocator's warning that it calls no failure is matched by its row (unknown),
    so that neither `oom_words` nor the fallback reads it as out of memory; TF 1.x, TF 2.x and
    XLA's repetition of it."""
    for text in (
        _fiftyeighth("9db10169f15d"),
        _BFC.format(
            line=219,
            size="2.02GiB.",
            tail=" The caller indicates that this is not a failure, but may mean that there could "
            "be performance gains if more memory were available.",
        ),
        "E tensorflow/compiler/xla/xla_client/xla_util.cc:88]   Allocator (GPU_0_bfc) ran out of "
        "memory trying to allocate 16.00MiB with freed_by_count=0. The caller indicates that this "
        "is not a failure, but may mean that there could be performance gains if more memory were "
        "available.",
    ):
        log = tmp_path / "rank.log"
        log.write_text(text + "\n")
        assert {h.signature for h in triage.scan(log).hits} >= {"tf_bfc_not_a_failure"}, text
        assert_both_ways(log, "unknown", "restart")


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The fiftyeighth's excerpts the rows now read get their labels' actions (none excludes a
    node)."""
    for rid, category, action in (
        ("a2c373487b09", "out_of_memory", "stop_and_page"),
        ("2df9cfe7dd5a", "out_of_memory", "stop_and_page"),
        ("5eb1755a6932", "out_of_memory", "stop_and_page"),
        ("cb33ae4eef5c", "software_bug", "restart"),
        ("10655cac2e55", "dependency", "restart"),
        ("6e2c3cfbd6c4", "dependency", "restart"),
        ("834f16223098", "numerical_nan", "restart"),
        ("4d073673f733", "numerical_nan", "restart"),
        ("0bf9216c90ad", "software_bug", "restart"),
        ("40d405811529", "dependency", "restart"),
        ("6a65252fe0ee", "dependency", "restart"),
        ("b4e8909f46bc", "user_code_error", "stop_and_page"),
        ("aa9357276ef1", "user_code_error", "stop_and_page"),
        ("d7cb1f6ba1e9", "software_bug", "restart"),
        ("9db10169f15d", "unknown", "restart"),
    ):
        v = rows_alone(tmp_path, _fiftyeighth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)
