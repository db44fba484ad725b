"""Signature rows for the classes the fiftysixth collection showed missing
(tests/corpus/real/README.md, fiftysixth.jsonl, "After its rows", branch issue-27rows56). Each
row is tested on the fiftysixth's excerpts and on other wordings of its class, from the source
or documentation cited beside each, with the near misses it must not take. Rows widened in place
for it: `driver_mismatch` (the kernel stack refusing the GPU as too old or too new: Transformer
Engine's FP8, vLLM, Inductor's Triton check, NVRTC's -arch, "invalid device function" and
"device kernel image is invalid" in any wording), `env_install` (xFormers, DeepSpeed, apex and
bitsandbytes built for another torch/CUDA, an extension's operator not registered, no C/C++
compiler for Inductor or Triton), `cuda_library` (Paddle's cuBLAS/cuSOLVER status wordings;
cuSOLVER above its NaN hint), `gpu_library_internal` (CUDA graph capture in other wordings);
new: `ptxas_resource_exceeded`, `inductor_no_valid_config`, `cudnn_plan_failed_warning`."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fiftysixth(rid: str) -> str:
    return excerpt("fiftysixth", rid)


FIFTYSIXTH = [
    # (log text, category, why)
    # -- dependency: the kernel stack refusing the GPU as too old or too new (`driver_mismatch`,
    # widened; transformer_engine/pytorch/fp8.py check_fp8_support, check_mxfp8_support and
    # check_recipe_support, vLLM's worker, torch/_inductor/scheduler.py, NVRTC)
    (_fiftysixth("74bcf85446d4"), "dependency", "fiftysixth 74bcf85446d4 (TE FP8 on 8.6)"),
    (_fiftysixth("e446b66ba381"), "dependency", "fiftysixth e446b66ba381 (TE MXFP8 on 12.0)"),
    (_fiftysixth("63e15775c4ed"), "dependency", "fiftysixth 63e15775c4ed (vLLM on 6.0)"),
    (_fiftysixth("7c97b1111d52"), "dependency", "fiftysixth 7c97b1111d52 (Triton too old)"),
    (_fiftysixth("d05d465a6de8"), "dependency", "fiftysixth d05d465a6de8 (NVRTC -arch)"),
    (_fiftysixth("e0630d6de96f"), "dependency", "fiftysixth e0630d6de96f (NVRTC, pytest)"),
    (_fiftysixth("21aa97c5595e"), "dependency", "fiftysixth 21aa97c5595e (invalid device fn)"),
    (_fiftysixth("f7e4c46c2aff"), "dependency", "fiftysixth f7e4c46c2aff (kernel image)"),
    (
        "AssertionError: Device compute capability 10.0 or higher required for MXFP8 execution.",
        "dependency",
        "TE's check_mxfp8_support",
    ),
    (
        "AssertionError: Device compute capability 8.9 or higher required for FP8 execution.",
        "dependency",
        "TE's check_fp8_support, the assert alone",
    ),
    (
        "RuntimeError: GPUs with compute capability below 7.0 are not supported.",
        "dependency",
        "vLLM's check, alone",
    ),
    (
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: "
        "Found Tesla P100-PCIE-16GB which is too old to be supported by the triton GPU compiler, "
        "which is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, "
        "but your device is of CUDA capability 6.0",
        "dependency",
        "Inductor's Triton check, another GPU",
    ),
    (
        "RuntimeError: CUDA error: device kernel image is invalid\nCUDA kernel errors might be "
        "asynchronously reported at some other API call",
        "dependency",
        "the runtime's cudaErrorInvalidKernelImage",
    ),
    (
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to load in-memory CUBIN: "
        "CUDA_ERROR_INVALID_IMAGE: device kernel image is invalid",
        "dependency",
        "the driver's CUDA_ERROR_INVALID_IMAGE, under XLA",
    ),
    (
        "nccl-test:2583202:2583202 [2] enqueue.cc:215 NCCL WARN Cuda failure 'invalid device "
        "function'",
        "dependency",
        "NCCL's wording (the fiftythird's 9d9631717b46)",
    ),
    (
        "nvrtc: error: invalid value for --gpu-architecture (-arch)\n\nnvrtc compilation failed:",
        "dependency",
        "NVRTC from the jiterator",
    ),
    (
        "nvcc fatal   : Unsupported gpu architecture 'compute_89'",
        "dependency",
        "nvcc's wording (`env_install` already)",
    ),
    # -- dependency: an extension built for another torch or CUDA, no compiler for a JIT build
    # (`env_install`, widened; xformers/_cpp_lib.py, xformers fmha dispatch, DeepSpeed
    # op_builder, apex setup.py, bitsandbytes cuda_setup/main.py, torch/_inductor/exc.py,
    # triton/runtime/build.py, torch/_ops.py)
    (_fiftysixth("1eddd5d0a7f3"), "dependency", "fiftysixth 1eddd5d0a7f3 (xFormers built for)"),
    (_fiftysixth("54c44ab36816"), "dependency", "fiftysixth 54c44ab36816 (xFormers no CUDA)"),
    (_fiftysixth("f504e46bdddb"), "dependency", "fiftysixth f504e46bdddb (DeepSpeed ops)"),
    (_fiftysixth("eafd09994a66"), "dependency", "fiftysixth eafd09994a66 (apex CUDA)"),
    (_fiftysixth("a56c18377d4c"), "dependency", "fiftysixth a56c18377d4c (bitsandbytes)"),
    (_fiftysixth("7a050a77aa1c"), "dependency", "fiftysixth 7a050a77aa1c (no C++ compiler)"),
    (_fiftysixth("f610ffa8d504"), "dependency", "fiftysixth f610ffa8d504 (no xformers op)"),
    (
        "RuntimeError: CUDA version mismatch! DeepSpeed ops were compiled and installed with a "
        "different version than what is being used at runtime. Please re-install DeepSpeed or "
        "switch torch versions. Install CUDA version=11.8, Runtime CUDA version=12.1",
        "dependency",
        "DeepSpeed's CUDA wording",
    ),
    (
        "torch._inductor.exc.InvalidCxxCompiler: No working C++ compiler found in "
        "torch._inductor.config.cpp.cxx: (None, 'g++')",
        "dependency",
        "Inductor's dotted exception (above `gpu_library_internal`)",
    ),
    (
        "RuntimeError: Failed to find C compiler. Please specify via CC environment variable.",
        "dependency",
        "Triton's runtime build",
    ),
    (
        "RuntimeError: No such operator torchvision::nms",
        "dependency",
        "torchvision built for another torch",
    ),
    (
        "CUDA SETUP: Required library version not found: libbitsandbytes_cuda121.so. Maybe you "
        "need to compile it from source?",
        "dependency",
        "bitsandbytes, another CUDA",
    ),
    # -- software_bug: the kernel libraries' own status codes (`cuda_library`, widened;
    # Paddle phi/core/enforce.h, fluid's cublas strings, torch's cusolver checks)
    (_fiftysixth("bd73a70712a9"), "software_bug", "fiftysixth bd73a70712a9 (CUBLAS error(15))"),
    (_fiftysixth("cec5fcc362a8"), "software_bug", "fiftysixth cec5fcc362a8 (CUBLAS: execution)"),
    (_fiftysixth("53828bb33a3c"), "software_bug", "fiftysixth 53828bb33a3c (cuSOLVER, NaN hint)"),
    (
        "OSError: (External) CUSOLVER error(7). [Hint: Please search for the error code(7) on "
        "website (https://docs.nvidia.com/cuda/cusolver/index.html#cuSolverSPstatust)]",
        "software_bug",
        "Paddle's cuSOLVER wording",
    ),
    (
        "paddle.fluid.core.EnforceNotMet: CUBLAS: internal error,  at [paddle/fluid/operators/"
        "math/blas_impl.cu.h:34]",
        "software_bug",
        "fluid's internal error",
    ),
    # -- software_bug: CUDA graph capture broken inside a library (`gpu_library_internal`,
    # widened; Warp's native errors, XLA's command buffers, TensorRT's runtime)
    (_fiftysixth("a59a35d48906"), "software_bug", "fiftysixth a59a35d48906 (Warp under XLA)"),
    (_fiftysixth("cfc1bd1ec651"), "software_bug", "fiftysixth cfc1bd1ec651 (TensorRT)"),
    (
        "E0627 14:26:46.636043  681062 pjrt_stream_executor_client.cc:2916] Execution of replica "
        "0 failed: INTERNAL: CUDA error: Failed to end stream capture: "
        "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED: operation failed due to a previous error",
        "software_bug",
        "XLA's line alone",
    ),
    (
        "Warp CUDA error 900: operation not permitted when stream is capturing (in function "
        "wp_cuda_graph_end_capture, warp/native/warp.cu:3120)",
        "software_bug",
        "Warp, another function",
    ),
    # -- software_bug: ptxas refusing a kernel over a per-kernel resource
    # (`ptxas_resource_exceeded`; picongpu issues 4694 and 4479, bmerry/clogs issue 19,
    # apache/tvm pull 17267, Triton's PTX codegen)
    (_fiftysixth("737b48e29109"), "software_bug", "fiftysixth 737b48e29109 (llama.cpp)"),
    (_fiftysixth("928c7a105382"), "software_bug", "fiftysixth 928c7a105382 (registers)"),
    (
        "    ptxas error   : Entry function 'scanExclusive' uses too much shared data (0x4010 "
        "bytes + 0x10 bytes system, 0x4000 max)",
        "software_bug",
        "clogs' OpenCL build log",
    ),
    (
        "ptxas error   : Entry function 'tvmgen_default_fused_nn_conv2d_add_kernel' uses too "
        "much shared data (0x2ab44 bytes, 0x29000 max)",
        "software_bug",
        "TVM's generated kernel",
    ),
    (
        "ptxas error   : Entry function '_Z6kernelPf' uses too much local data (0x12000 bytes, "
        "0x10000 max)",
        "software_bug",
        "local memory",
    ),
    # -- software_bug: Inductor's autotuning with no kernel left (`inductor_no_valid_config`;
    # torch/_inductor/runtime/triton_heuristics.py, torch/_inductor/select_algorithm.py,
    # torch/_inductor/exc.py)
    (_fiftysixth("598533a9dfd9"), "software_bug", "fiftysixth 598533a9dfd9 (no triton configs)"),
    (
        "torch._inductor.runtime.triton_heuristics.NoTritonConfigsError: No valid triton "
        "configs. OutOfResources: out of resource: shared memory, Required: 131072, Hardware "
        "limit: 101376.",
        "software_bug",
        "the heuristics' error",
    ),
    (
        "NoValidChoicesError: No choices to select, please consider adding ATEN into "
        "max_autotune_gemm_backends config (defined in torch/_inductor/config.py) to allow at "
        "least one choice.",
        "software_bug",
        "select_algorithm's error, undotted",
    ),
    # -- unknown: PyTorch's cuDNN plan warning, the next plan tried (`cudnn_plan_failed_warning`;
    # aten/src/ATen/native/cudnn/Conv_v8.cpp TORCH_WARN through Python's warnings)
    (_fiftysixth("a778b70f4d3b"), "unknown", "fiftysixth a778b70f4d3b (a plan's warning)"),
    (
        "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/conv.py:456: UserWarning: Plan "
        "failed with a cudnnException: CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR: cudnnFinalize "
        "Descriptor Failed cudnn_status: CUDNN_STATUS_BAD_PARAM (Triggered internally at "
        "../aten/src/ATen/native/cudnn/Conv_v8.cpp:919.)",
        "unknown",
        "the operation graph, another status",
    ),
    (
        "/x/conv.py:306: UserWarning: Plan failed with a cudnnException: "
        "CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: cudnnFinalize Descriptor Failed cudnn_status: "
        "CUDNN_STATUS_NOT_SUPPORTED\nRuntimeError: CUDA error: an illegal memory access was "
        "encountered",
        "software_bug",
        "the warning does not hide a failure after it",
    ),
    (
        "/x/conv.py:306: UserWarning: Plan failed with a cudnnException: "
        "CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: cudnnFinalize Descriptor Failed cudnn_status: "
        "CUDNN_STATUS_NOT_SUPPORTED\ntorch.OutOfMemoryError: CUDA out of memory. Tried to "
        "allocate 2.00 GiB",
        "out_of_memory",
        "nor an OOM after it",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    (_fiftysixth("04235b3e9d48"), "dependency", "Dynamo's WARNING, falls back to eager"),
    (
        _fiftysixth("4fe3621384fb"),
        "dependency",
        "a node telling the user to pick another model (labelled user_code_error)",
    ),
    (
        _fiftysixth("d49c1cdbb056"),
        "dependency",
        "vLLM's bf16 refusal telling the user to set dtype (labelled user_code_error)",
    ),
    (
        "Transformer Engine: FP8 execution requires compute capability 8.9; using BF16 instead",
        "dependency",
        "no refusal in the shape the rows read",
    ),
    (
        "INFO: Using device with compute capability 8.0 for FP8 execution: disabled",
        "dependency",
        "an informational line",
    ),
    (
        "  --gpu-architecture <arch>   Specify the name of the class of GPU architectures",
        "dependency",
        "nvcc's help text",
    ),
    (
        "WARNING[XFORMERS]: Need to compile C++ extensions to use all xFormers features.",
        "dependency",
        "xFormers' hint, no mismatch shown",
    ),
    (
        "torch._C._LinAlgError: linalg.eigh: The algorithm failed to converge because the input "
        "matrix is ill-conditioned or has too many repeated eigenvalues (error code: 12).",
        "software_bug",
        "a LinAlgError with no library status",
    ),
    (
        "OSError: (External) CUBLAS error(3). [Hint: CUBLAS_STATUS_ALLOC_FAILED]",
        "software_bug",
        "cuBLAS out of memory, not a library failure",
    ),
    (
        "ptxas info    : Used 96 registers, 64000 bytes smem, 600 bytes cmem[0]",
        "software_bug",
        "ptxas' info line",
    ),
    (
        "ptxas fatal   : Memory allocation failure",
        "software_bug",
        "ptxas out of host memory (the twenty-seventh's 8dbc602ccdb1, dependency)",
    ),
    (
        "AUTOTUNE mm(1024x1024, 1024x1024)\n  triton_mm_4 0.0123 ms 100.0% num_stages=3",
        "software_bug",
        "an autotune table",
    ),
    (
        "V0823 15:19:59.148000 369131 torch/_inductor/cudagraph_trees.py:2099] [__cudagraphs] "
        "Running warmup of function 0",
        "software_bug",
        "a cudagraph log",
    ),
    (
        "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you "
        "passed in a non-contiguous input.",
        "unknown",
        "cuDNN's error raised is no plan's warning",
    ),
]

test_row = row_test(FIFTYSIXTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FIFTYSIXTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The fiftysixth's excerpts the rows now read get their labels' actions (none excludes a
    node)."""
    for rid, category, action in (
        ("74bcf85446d4", "dependency", "restart"),
        ("e446b66ba381", "dependency", "restart"),
        ("54c44ab36816", "dependency", "restart"),
        ("7c97b1111d52", "dependency", "restart"),
        ("21aa97c5595e", "dependency", "restart"),
        ("53828bb33a3c", "software_bug", "restart"),
        ("bd73a70712a9", "software_bug", "restart"),
        ("737b48e29109", "software_bug", "restart"),
        ("598533a9dfd9", "software_bug", "restart"),
        ("a59a35d48906", "software_bug", "restart"),
    ):
        v = rows_alone(tmp_path, _fiftysixth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)


def test_the_dynamo_warning_is_no_verdict_of_the_rows(tmp_path: Path) -> None:
    """Dynamo logging Triton's too-old refusal as a WARNING (04235b3e9d48, labelled unknown: it
    falls back to eager) gets no row's verdict."""
    v = rows_alone(tmp_path, _fiftysixth("04235b3e9d48"))
    assert v.category == "unknown", v.verdict
