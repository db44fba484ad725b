"""The emitters' checklist (issue 27, item 3): every class of message that the common stacks
print when a training job fails, instantiated with realistic values, and the category triage must
give it from the rows alone. The templates come from the emitters' own source and documentation,
cited on each line: the CUDA runtime's and driver API's error strings (cudaGetErrorString,
cuGetErrorName), HIP's (hipGetErrorString), PyTorch (c10d, elastic, the caching allocator, the
DataLoader, autograd's anomaly mode, the serializer), NCCL's WARN lines and status strings,
DeepSpeed, Megatron-LM, Lightning, Ray, the HF hub, safetensors, JAX, Slurm, Kubernetes, PBS, LSF
and the Linux kernel.

Where an emitter's class was missing, a row was added or widened (signatures.py, "the emitters'
own messages"); `ROWS` tests each of those on its emitter's wording and on wordings posted in
public issue threads (cited), and `NOT` holds the near misses they must not take. Where the
table already reads a class by a settled label rule (tests/corpus/real/README.md: a bare SIGABRT
is `unknown`, a busy or unavailable device is `faulty_gpu` as the held-out set labels it, a CUDA
call failing inside NCCL is `software_bug` whatever its error, an uncorrected non-fatal PCIe
error is `unknown`), the checklist follows the table.

    python -m pytest -q -n 0 tests/diagnose/test_diag_rows_emitters.py
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.prefilter import assert_prefilter_hides_nothing, rows_alone

CUDA_RT = "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html"
CUDA_DRV = "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html"
HIP = "https://github.com/ROCm/clr/blob/develop/hipamd/src/hip_error.cpp"
TORCH = "https://github.com/pytorch/pytorch/blob/main/"
NCCL = "https://github.com/NVIDIA/nccl/blob/master/"
SLURM = "https://github.com/SchedMD/slurm/blob/master/"
K8S = "https://github.com/kubernetes/kubernetes/blob/master/"
LINUX = "https://github.com/torvalds/linux/blob/master/"

# (log text, category, the emitter's source): one template per class of message
EMITTED = [
    (
        "RuntimeError: CUDA error: uncorrectable ECC error encountered",
        "gpu_hbm3_memory",
        CUDA_RT + " cudaErrorECCUncorrectable",
    ),
    (
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: CUDA error: : CUDA_ERROR_ECC_UNCORRECTABLE: uncorrectable ECC error encountered",
        "gpu_hbm3_memory",
        CUDA_DRV,
    ),
    (
        "Cuda failure 214 'uncorrectable ECC error encountered'",
        "gpu_hbm3_memory",
        NCCL + "src/include/checks.h",
    ),
    ("RuntimeError: HIP error: hipErrorECCNotCorrectable", "gpu_hbm3_memory", HIP),
    (
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "software_bug",
        CUDA_RT + " cudaErrorIllegalAddress",
    ),
    (
        "triton.runtime.errors: Triton Error [CUDA]: an illegal memory access was encountered",
        "software_bug",
        CUDA_DRV,
    ),
    (
        "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered",
        "software_bug",
        CUDA_DRV,
    ),
    (
        "RuntimeError: CUDA error: unspecified launch failure",
        "software_bug",
        CUDA_RT + " cudaErrorLaunchFailure",
    ),
    ("CUDA_ERROR_LAUNCH_FAILED: unspecified launch failure", "software_bug", CUDA_DRV),
    (
        "RuntimeError: CUDA error: misaligned address",
        "software_bug",
        CUDA_RT + " cudaErrorMisalignedAddress",
    ),
    ("CUDA_ERROR_MISALIGNED_ADDRESS: misaligned address", "software_bug", CUDA_DRV),
    (
        "RuntimeError: CUDA error: hardware stack error",
        "software_bug",
        CUDA_RT + " cudaErrorHardwareStackError",
    ),
    ("CUDA_ERROR_HARDWARE_STACK_ERROR: hardware stack error", "software_bug", CUDA_DRV),
    (
        "RuntimeError: CUDA error: an illegal instruction was encountered",
        "software_bug",
        CUDA_RT + " cudaErrorIllegalInstruction",
    ),
    (
        "CUDA_ERROR_ILLEGAL_INSTRUCTION: an illegal instruction was encountered",
        "software_bug",
        CUDA_DRV,
    ),
    (
        "RuntimeError: CUDA error: invalid program counter",
        "software_bug",
        CUDA_RT + " cudaErrorInvalidPc",
    ),
    (
        "RuntimeError: CUDA error: the launch timed out and was terminated",
        "software_bug",
        CUDA_RT + " cudaErrorLaunchTimeout",
    ),
    (
        "RuntimeError: CUDA error: no CUDA-capable device is detected",
        "dependency",
        CUDA_RT + " cudaErrorNoDevice",
    ),
    ("CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected", "dependency", CUDA_DRV),
    (
        "RuntimeError: The NVIDIA driver on your system is too old (found version 11040).",
        "dependency",
        TORCH + "aten/src/ATen/cuda/detail/CUDAHooks.cpp",
    ),
    (
        "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version",
        "dependency",
        CUDA_RT + " cudaErrorInsufficientDriver",
    ),
    (
        "UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized",
        "dependency",
        TORCH + "c10/cuda/CUDAFunctions.cpp",
    ),
    ("CUDA_ERROR_SYSTEM_NOT_READY: system not yet initialized", "dependency", CUDA_DRV),
    (
        "RuntimeError: CUDA error: system has unsupported display driver / cuda driver combination",
        "dependency",
        CUDA_RT + " cudaErrorSystemDriverMismatch",
    ),
    (
        "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: system has unsupported display driver / cuda driver combination",
        "dependency",
        CUDA_DRV,
    ),
    (
        "RuntimeError: CUDA error: forward compatibility was attempted on non supported HW",
        "dependency",
        CUDA_RT + " cudaErrorCompatNotSupportedOnDevice",
    ),
    (
        "RuntimeError: CUDA error: uncorrectable NVLink error detected during the execution",
        "faulty_gpu",
        CUDA_RT + " cudaErrorNvlinkUncorrectable",
    ),
    (
        "CUDA_ERROR_NVLINK_UNCORRECTABLE: uncorrectable NVLink error detected during the execution",
        "faulty_gpu",
        CUDA_DRV,
    ),
    (
        "RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable",
        "faulty_gpu",
        CUDA_RT + " cudaErrorDevicesUnavailable",
    ),
    (
        "CUDA_ERROR_DEVICE_UNAVAILABLE: CUDA-capable device(s) is/are busy or unavailable",
        "faulty_gpu",
        CUDA_DRV,
    ),
    (
        "RuntimeError: CUDA error: device-side assert triggered",
        "user_code_error",
        CUDA_RT + " cudaErrorAssert",
    ),
    (
        "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        "dependency",
        CUDA_RT + " cudaErrorNoKernelImageForDevice",
    ),
    (
        "RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain.",
        "dependency",
        CUDA_RT + " cudaErrorUnsupportedPtxVersion",
    ),
    (
        "RuntimeError: CUDA error: MPS client failed to connect to the MPS control daemon or the MPS server",
        "dependency",
        CUDA_RT + " cudaErrorMpsConnectionFailed",
    ),
    (
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process has 78.08 GiB memory in use.",
        "out_of_memory",
        TORCH + "c10/cuda/CUDACachingAllocator.cpp",
    ),
    (
        "RuntimeError: CUDA error: out of memory",
        "out_of_memory",
        CUDA_RT + " cudaErrorMemoryAllocation",
    ),
    ("CUDA_ERROR_OUT_OF_MEMORY: out of memory", "out_of_memory", CUDA_DRV),
    ("RuntimeError: HIP error: an illegal memory access was encountered", "software_bug", HIP),
    ("hipErrorIllegalAddress", "software_bug", HIP),
    ("RuntimeError: HIP error: unspecified launch failure", "software_bug", HIP),
    ("RuntimeError: HIP error: no ROCm-capable device is detected", "dependency", HIP),
    ("RuntimeError: HIP error: hipErrorNoDevice", "dependency", HIP),
    ("RuntimeError: HIP error: invalid device function", "dependency", HIP),
    ("RuntimeError: HIP error: hipErrorInsufficientDriver", "dependency", HIP),
    (
        "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 191.98 GiB of which 0 bytes is free.",
        "out_of_memory",
        TORCH + "c10/cuda/CUDACachingAllocator.cpp",
    ),
    ("RuntimeError: HIP error: hipErrorOutOfMemory", "out_of_memory", HIP),
    (
        "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`",
        "software_bug",
        TORCH + "aten/src/ATen/cuda/CUDABlas.cpp",
    ),
    (
        "RuntimeError: CUDA error: CUBLAS_STATUS_INTERNAL_ERROR when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`",
        "software_bug",
        TORCH + "aten/src/ATen/cuda/CUDABlas.cpp",
    ),
    (
        "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`",
        "out_of_memory",
        TORCH + "aten/src/ATen/cuda/CublasHandlePool.cpp",
    ),
    (
        "RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR",
        "software_bug",
        TORCH + "aten/src/ATen/cudnn/Exceptions.h",
    ),
    (
        "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED",
        "software_bug",
        TORCH + "aten/src/ATen/cudnn/Exceptions.h",
    ),
    (
        "RuntimeError: cuDNN error: CUDNN_STATUS_MAPPING_ERROR",
        "software_bug",
        TORCH + "aten/src/ATen/cudnn/Exceptions.h",
    ),
    (
        "RuntimeError: cuDNN error: CUDNN_STATUS_ALLOC_FAILED",
        "out_of_memory",
        TORCH + "aten/src/ATen/cudnn/Exceptions.h",
    ),
    (
        "torch._C._LinAlgError: cusolver error: CUSOLVER_STATUS_INTERNAL_ERROR, when calling `cusolverDnCreate(handle)`",
        "software_bug",
        TORCH + "aten/src/ATen/cuda/Exceptions.h",
    ),
    (
        "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR",
        "software_bug",
        TORCH + "aten/src/ATen/native/cuda/CuFFTUtils.h",
    ),
    (
        "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 9, 2) but found runtime version (8, 5, 0).",
        "dependency",
        TORCH + "torch/backends/cudnn/__init__.py",
    ),
    (
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\nncclUnhandledCudaError: Call to CUDA function failed.\nLast error:\nCuda failure 'an illegal memory access was encountered'",
        "software_bug",
        NCCL + "src/init.cc ncclGetErrorString",
    ),
    (
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\nncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
        "software_bug",
        NCCL + "src/init.cc ncclGetErrorString",
    ),
    (
        "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, internal error, NCCL version 2.14.3\nncclInternalError: Internal check failed.",
        "software_bug",
        NCCL + "src/init.cc ncclGetErrorString",
    ),
    (
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.19.3\nncclInvalidUsage: This usually reflects invalid usage of NCCL library.",
        "user_code_error",
        NCCL + "src/init.cc ncclGetErrorString",
    ),
    (
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, remote process exited or there was a network error, NCCL version 2.21.5\nncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
        "network_switch_cable",
        NCCL + "src/init.cc ncclGetErrorString",
    ),
    (
        "node1:1234:1290 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.1.1.2<51234> with status=12 opcode=0 len=0 vendor err 129 (Send) localGid ::ffff:10.1.1.1 remoteGids::ffff:10.1.1.2 hca mlx5_0",
        "network_switch_cable",
        NCCL + "src/transport/net_ib.cc",
    ),
    (
        "node1:1234:1290 [0] NCCL INFO include/net.h:35 -> 2\nnode1:1234:1290 [0] transport/net_ib.cc:1036 NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129",
        "network_switch_cable",
        NCCL + "src/transport/net_ib.cc (2.4-2.7)",
    ),
    (
        "node1:1234:1290 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.1.1.2<51234> with status=13 opcode=0 len=0 vendor err 135 (Send) localGid fe80::1 remoteGids fe80::2",
        "network_switch_cable",
        NCCL + "src/transport/net_ib.cc status 13 RNR retry exceeded",
    ),
    (
        "node1:1234:1290 [3] NCCL WARN NET/IB : mlx5_1:1 Got async event : port error",
        "network_switch_cable",
        NCCL + "src/transport/net_ib.cc ncclIbAsyncThreadMain",
    ),
    (
        "node1:1234:1290 [3] NCCL WARN NET/IB : mlx5_1:1 Got async event : local catastrophic error",
        "nic",
        NCCL + "src/transport/net_ib.cc ncclIbAsyncThreadMain",
    ),
    (
        "node1:1234:1290 [0] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_create_qp failed with error Cannot allocate memory",
        "dependency",
        NCCL + "src/misc/ibvwrap.cc",
    ),
    (
        "node1:1234:1290 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.1.1.2<36591> failed : Software caused connection abort",
        "dependency",
        NCCL + "src/misc/socket.cc",
    ),
    (
        "node1:1234:1290 [0] misc/socket.cc:538 NCCL WARN Net : Connect to 10.1.1.2<36591> failed : Connection refused",
        "dependency",
        NCCL + "src/misc/socket.cc",
    ),
    (
        "node1:1234:1290 [0] NCCL WARN Bootstrap : no socket interface found",
        "dependency",
        NCCL + "src/bootstrap.cc",
    ),
    (
        "node1:1234:1290 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer node2<43210>",
        "unknown",
        NCCL + "src/misc/socket.cc",
    ),
    (
        "node1:1234:1290 [0] misc/socket.cc:430 NCCL WARN Call to recv from 10.1.1.2<52341> failed : Connection reset by peer",
        "unknown",
        NCCL + "src/misc/socket.cc",
    ),
    (
        "node1:1234:1290 [1] include/shm.h:28 NCCL WARN Error: failed to extend /dev/shm/nccl-lBv1ZQ to 9637892 bytes",
        "out_of_memory",
        NCCL + "src/misc/shmutils.cc",
    ),
    (
        "node1:1234:1290 [0] NCCL WARN Cuda failure 'out of memory'",
        "out_of_memory",
        NCCL + "src/include/checks.h",
    ),
    (
        "node1:1234:1290 [0] NCCL WARN Cuda failure 2 'out of memory'",
        "out_of_memory",
        NCCL + "src/include/checks.h (2.19+)",
    ),
    (
        "node1:1234:1290 [0] enqueue.cc:1534 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'",
        "software_bug",
        NCCL + "src/include/checks.h",
    ),
    (
        "node1:1234:1290 [0] NCCL WARN Cuda failure 'uncorrectable NVLink error detected during the execution'",
        "faulty_gpu",
        NCCL + "src/include/checks.h",
    ),
    (
        "[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4512, OpType=ALLREDUCE, NumelIn=262144000, NumelOut=262144000, Timeout(ms)=600000) ran for 600081 milliseconds before timing out.",
        "nccl_watchdog_timeout",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp",
    ),
    (
        "[rank0]:[E1204 03:12:44.123456 1234 ProcessGroupNCCL.cpp:616] [Rank 0] Exception (either an error or timeout) detected by watchdog at work: 4512, last enqueued NCCL work: 4513, last completed NCCL work: 4511.",
        "nccl_watchdog_timeout",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp",
    ),
    (
        "[rank0]:[E ProcessGroupNCCL.cpp:1537] [PG 0 Rank 0] Timeout at NCCL work: 4512, last enqueued NCCL work: 4512, last completed NCCL work: 4511.",
        "nccl_watchdog_timeout",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp",
    ),
    (
        "[rank0]:[E ProcessGroupNCCL.cpp:577] [Rank 0] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
        "nccl_watchdog_timeout",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp",
    ),
    (
        "[rank1]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 1] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=1",
        "hang",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp",
    ),
    (
        "[rank2]:[F1204 ProcessGroupNCCL.cpp:1168] [PG ID 0 PG GUID 0(default_pg) Rank 2] [PG ID 0 PG GUID 0(default_pg) Rank 2] Terminating the process after attempting to dump debug info, due to ProcessGroupNCCL watchdog hang.",
        "hang",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp",
    ),
    (
        "[rank5]:[E ProcessGroupNCCL.cpp:1414] [PG 0 Rank 5] Received a dump signal due to a collective timeout from rank 2 and we will try our best to dump the debug info. Last enqueued NCCL work: 8812, last completed NCCL work: 8811.",
        "nccl_watchdog_timeout",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp",
    ),
    (
        "torch.distributed.DistStoreError: Socket Timeout",
        "dependency",
        TORCH + "torch/csrc/distributed/c10d/TCPStore.cpp",
    ),
    (
        "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 7/8 clients joined.",
        "dependency",
        TORCH + "torch/distributed/distributed_c10d.py",
    ),
    (
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use",
        "dependency",
        TORCH + "torch/csrc/distributed/c10d/socket.cpp",
    ),
    (
        "torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to connect to (node0, 29500).",
        "dependency",
        TORCH + "torch/csrc/distributed/c10d/socket.cpp",
    ),
    (
        "[W socket.cpp:663] [c10d] The client socket has failed to connect to [node0]:29500 (errno: 111 - Connection refused).",
        "dependency",
        TORCH + "torch/csrc/distributed/c10d/socket.cpp",
    ),
    (
        "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.1.1.2]:24211",
        "unknown",
        "https://github.com/pytorch/gloo/blob/main/gloo/transport/tcp/pair.cc",
    ),
    (
        "RuntimeError: [/opt/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for recv operation to complete",
        "nccl_watchdog_timeout",
        "https://github.com/pytorch/gloo/blob/main/gloo/transport/tcp/unbound_buffer.cc",
    ),
    (
        "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer [10.1.1.2]:3290\nRuntimeError: Rank 1 successfully reached monitoredBarrier, but received errors while waiting for send/recv from rank 0.",
        "unknown",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupGloo.cpp",
    ),
    (
        "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError",
        "dependency",
        TORCH + "torch/distributed/elastic/rendezvous/api.py",
    ),
    (
        "torch.distributed.elastic.rendezvous.api.RendezvousClosedError",
        "unknown",
        TORCH + "torch/distributed/elastic/rendezvous/api.py",
    ),
    (
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n============================================================\ntrain.py FAILED\n------------------------------------------------------------\nFailures:\n  <NO_OTHER_FAILURES>\n------------------------------------------------------------\nRoot Cause (first observed failure):\n[0]:\n  time      : 2024-05-01_12:00:00\n  host      : node1\n  rank      : 0 (local_rank: 0)\n  exitcode  : -9 (pid: 1234)\n  error_file: <N/A>\n  traceback : Signal 9 (SIGKILL) received by PID 1234",
        "unknown",
        TORCH + "torch/distributed/elastic/multiprocessing/errors/__init__.py",
    ),
    (
        "  exitcode  : -11 (pid: 1234)\n  error_file: <N/A>\n  traceback : Signal 11 (SIGSEGV) received by PID 1234",
        "software_bug",
        TORCH + "torch/distributed/elastic/multiprocessing/errors/__init__.py",
    ),
    (
        "  exitcode  : -7 (pid: 1234)\n  error_file: <N/A>\n  traceback : Signal 7 (SIGBUS) received by PID 1234",
        "unknown",  # a bare bus error names no cause (the forty-fourth's rows)
        TORCH + "torch/distributed/elastic/multiprocessing/errors/__init__.py",
    ),
    (
        "  exitcode  : -6 (pid: 1234)\n  error_file: <N/A>\n  traceback : Signal 6 (SIGABRT) received by PID 1234",
        "unknown",
        TORCH + "torch/distributed/elastic/multiprocessing/errors/__init__.py",
    ),
    (
        "RuntimeError: DataLoader worker (pid 12345) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.",
        "out_of_memory",
        TORCH + "torch/utils/data/_utils/signal_handling.py",
    ),
    (
        "RuntimeError: DataLoader worker (pid 12345) is killed by signal: Segmentation fault.",
        "software_bug",
        TORCH + "torch/csrc/DataLoader.cpp",
    ),
    (
        "RuntimeError: DataLoader worker (pid(s) 12345, 12346) exited unexpectedly",
        "unknown",
        TORCH + "torch/utils/data/dataloader.py",
    ),
    (
        "RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output.",
        "numerical_nan",
        TORCH + "torch/csrc/autograd/engine.cpp",
    ),
    (
        "RuntimeError: Function 'MulBackward0' returned nan values in its 1th output.",
        "numerical_nan",
        TORCH + "torch/csrc/autograd/engine.cpp",
    ),
    (
        "RuntimeError: The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`",
        "numerical_nan",
        TORCH + "torch/nn/utils/clip_grad.py",
    ),
    (
        "RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory",
        "storage",
        TORCH + "caffe2/serialize/inline_container.cc",
    ),
    (
        "RuntimeError: PytorchStreamReader failed reading file data/0: invalid header or archive is corrupted",
        "storage",
        TORCH + "caffe2/serialize/inline_container.cc",
    ),
    (
        "RuntimeError: unexpected EOF, expected 4513 more bytes. The file might be corrupted.",
        "storage",
        TORCH + "torch/csrc/serialization.cpp",
    ),
    (
        'RuntimeError: Error(s) in loading state_dict for GPT:\n\tMissing key(s) in state_dict: "transformer.h.0.attn.bias".',
        "user_code_error",
        TORCH + "torch/nn/modules/module.py",
    ),
    (
        "\tsize mismatch for lm_head.weight: copying a param with shape torch.Size([50304, 768]) from checkpoint, the shape in current model is torch.Size([50257, 768]).",
        "user_code_error",
        TORCH + "torch/nn/modules/module.py",
    ),
    (
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: Triton Error [CUDA]: invalid argument",
        "software_bug",
        TORCH + "torch/_dynamo/exc.py",
    ),
    (
        "torch._inductor.exc.InductorError: LoweringException: AssertionError: ",
        "software_bug",
        TORCH + "torch/_inductor/exc.py",
    ),
    (
        "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.",
        "numerical_nan",
        "https://github.com/deepspeedai/DeepSpeed/blob/master/deepspeed/runtime/fp16/loss_scaler.py",
    ),
    (
        "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1",
        "numerical_nan",
        "https://github.com/deepspeedai/DeepSpeed/blob/master/deepspeed/runtime/fp16/loss_scaler.py",
    ),
    (
        "AssertionError: Rank 3: found NaN in local grad norm in backward pass before data-parallel communication collective. Device: 3, node: node1",
        "numerical_nan",
        "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/core/distributed/param_and_grad_buffer.py",
    ),
    (
        "RuntimeError: Rank 0, node node1, device 0, iteration 1200: Unexpected result nan (message='found NaN in local forward loss calculation')",
        "numerical_nan",
        "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/core/rerun_state_machine.py",
    ),
    (
        "Rank 0, node node1, device 0, iteration 1200: Unexpected result 84.5 (message='Spiky loss')",
        "loss_spike",
        "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/training/training.py",
    ),
    (
        "ValueError: The loss returned in `training_step` is nan.",
        "numerical_nan",
        "https://github.com/Lightning-AI/pytorch-lightning/blob/master/src/lightning/pytorch/loops/optimization/automatic.py",
    ),
    (
        "Monitored metric val_loss = nan is not finite. Previous best value was 0.421. Signaling Trainer to stop.",
        "numerical_nan",
        "https://github.com/Lightning-AI/pytorch-lightning/blob/master/src/lightning/pytorch/callbacks/early_stopping.py",
    ),
    (
        "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\nMemory on the node (IP: 10.0.0.5, ID: 4f1c) where the task (actor ID: 9a2b, name=RayTrainWorker.__init__) was running was 58.98GB / 61.85GB (0.953612), which exceeds the memory usage threshold of 0.95.",
        "out_of_memory",
        "https://github.com/ray-project/ray/blob/master/src/ray/raylet/node_manager.cc",
    ),
    (
        "ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.",
        "unknown",
        "https://github.com/ray-project/ray/blob/master/python/ray/exceptions.py",
    ),
    (
        "The node with node id: 4f1c8e and address: 10.0.0.6 and node name: 10.0.0.6 has been marked dead because the detector has missed too many heartbeats from it. This can happen when a \t(1) raylet crashes unexpectedly (OOM, preempted node, etc.)",
        "host_maintenance",
        "https://github.com/ray-project/ray/blob/master/src/ray/gcs/gcs_server/gcs_health_check_manager.cc",
    ),
    (
        "slurmstepd: error: *** JOB 123456 ON node017 CANCELLED AT 2024-05-01T12:00:00 DUE TO TIME LIMIT ***",
        "unknown",
        SLURM + "src/slurmd/slurmstepd/req.c",
    ),
    (
        "slurmstepd: error: *** STEP 123456.0 ON node017 CANCELLED AT 2024-05-01T12:00:00 DUE TO PREEMPTION ***",
        "planned_stop",
        SLURM + "src/slurmd/slurmstepd/req.c",
    ),
    (
        "slurmstepd: error: *** JOB 123456 ON node017 CANCELLED AT 2024-05-01T12:00:00 DUE TO NODE FAILURE ***",
        "host_maintenance",
        SLURM + "src/slurmd/slurmstepd/req.c",
    ),
    (
        "slurmstepd: error: *** STEP 123456.0 ON node017 CANCELLED AT 2024-05-01T12:00:00 DUE to SIGNAL Terminated ***",
        "unknown",
        SLURM + "src/slurmd/slurmstepd/req.c",
    ),
    (
        "slurmstepd: error: Detected 1 oom_kill event in StepId=123456.batch. Some of the step tasks have been OOM Killed.",
        "out_of_memory",
        SLURM + "src/plugins/cgroup/v2/cgroup_v2.c",
    ),
    ("srun: error: node017: task 0: Out Of Memory", "out_of_memory", SLURM + "src/srun/srun_job.c"),
    (
        "slurmstepd: error: Exceeded job memory limit at some point.",
        "out_of_memory",
        SLURM + "src/plugins/task/cgroup/task_cgroup_memory.c",
    ),
    (
        "slurmstepd: error: Job 123456 exceeded memory limit (35840000 > 33554432), being killed",
        "out_of_memory",
        SLURM + "src/slurmd/slurmstepd/slurmstepd_job.c",
    ),
    ("srun: error: Node failure on node017", "host_maintenance", SLURM + "src/srun/srun_job.c"),
    (
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        "unknown",
        SLURM + "src/srun/srun.c",
    ),
    (
        "    State:          Terminated\n      Reason:       OOMKilled\n      Exit Code:    137",
        "out_of_memory",
        K8S + "pkg/kubelet/kuberuntime/kuberuntime_container.go",
    ),
    (
        "Status:         Failed\nReason:         Evicted\nMessage:        The node was low on resource: memory. Threshold quantity: 100Mi, available: 91040Ki. Container trainer was using 60Gi, request is 32Gi, has larger consumption of memory.",
        "out_of_memory",
        K8S + "pkg/kubelet/eviction/helpers.go",
    ),
    (
        "Status:         Failed\nReason:         Evicted\nMessage:        The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 9Gi. Container trainer was using 120Gi, request is 0, has larger consumption of ephemeral-storage.",
        "storage",
        K8S + "pkg/kubelet/eviction/helpers.go",
    ),
    (
        "  Warning  NodeNotReady  3m   node-controller  Node is not ready",
        "host_maintenance",
        K8S + "pkg/controller/nodelifecycle/node_lifecycle_controller.go",
    ),
    (
        "  Normal   Preempted  2m  default-scheduler  Preempted by pod 2f1e9c3a-77b1-4c1b-9d7e-0b3a6e1f2c4d on node gke-train-pool-1-abcd",
        "planned_stop",
        K8S + "pkg/scheduler/framework/preemption/preemption.go",
    ),
    (
        "  Warning  BackoffLimitExceeded  job-controller  Job has reached the specified backoff limit",
        "unknown",
        K8S + "pkg/controller/job/job_controller.go",
    ),
    (
        "  Warning  DeadlineExceeded  job-controller  Job was active longer than specified deadline",
        "unknown",
        K8S + "pkg/controller/job/job_controller.go",
    ),
    (
        "=>> PBS: job killed: walltime 86432 exceeded limit 86400",
        "unknown",
        "https://github.com/openpbs/openpbs/blob/master/src/resmom/mom_main.c",
    ),
    (
        "=>> PBS: job killed: mem 68719476736b exceeded limit 64424509440b",
        "out_of_memory",
        "https://github.com/openpbs/openpbs/blob/master/src/resmom/linux/mom_mach.c",
    ),
    (
        "TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.",
        "out_of_memory",
        "https://www.ibm.com/docs/en/spectrum-lsf/10.1.0?topic=codes-termination-reasons",
    ),
    (
        "TERM_RUNLIMIT: job killed after reaching LSF run time limit.",
        "unknown",
        "https://www.ibm.com/docs/en/spectrum-lsf/10.1.0?topic=codes-termination-reasons",
    ),
    (
        "TERM_PREEMPT: job killed after preemption.",
        "planned_stop",
        "https://www.ibm.com/docs/en/spectrum-lsf/10.1.0?topic=codes-termination-reasons",
    ),
    (
        "TERM_OWNER: job killed by owner.",
        "unknown",
        "https://www.ibm.com/docs/en/spectrum-lsf/10.1.0?topic=codes-termination-reasons",
    ),
    (
        "mce: [Hardware Error]: CPU 3: Machine Check Exception: 5 Bank 4: b200000000070005",
        "cpu",
        LINUX + "arch/x86/kernel/cpu/mce/core.c",
    ),
    (
        "Kernel panic - not syncing: Fatal machine check",
        "cpu",
        LINUX + "arch/x86/kernel/cpu/mce/core.c",
    ),
    (
        "EDAC MC0: 1 UE memory read error on CPU_SrcID#0_MC#0_Chan#1_DIMM#0 (channel:1 slot:0 page:0x12345 offset:0x0 grain:32)",
        "system_memory",
        LINUX + "drivers/edac/edac_mc.c",
    ),
    (
        "EDAC MC1: 1 CE memory read error on CPU_SrcID#1_Ha#0_Chan#2_DIMM#0 (channel:2 slot:0 page:0x5a31 offset:0x0 grain:32 syndrome:0x0)",
        "system_memory",
        LINUX + "drivers/edac/edac_mc.c",
    ),
    ("nvme nvme0: I/O 123 QID 4 timeout, aborting", "ssd", LINUX + "drivers/nvme/host/pci.c"),
    (
        "nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff",
        "ssd",
        LINUX + "drivers/nvme/host/pci.c",
    ),
    (
        "blk_update_request: I/O error, dev nvme0n1, sector 123456 op 0x1:(WRITE) flags 0x800 phys_seg 1 prio class 0",
        "ssd",
        LINUX + "block/blk-core.c",
    ),
    (
        "I/O error, dev sdb, sector 2048 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2",
        "ssd",
        LINUX + "block/blk-core.c",
    ),
    (
        "print_req_error: critical medium error, dev sdb, sector 2048",
        "ssd",
        LINUX + "block/blk-core.c",
    ),
    (
        "EXT4-fs error (device nvme0n1p1): ext4_find_entry:1455: inode #2: comm python: reading directory lblock 0",
        "ssd",
        LINUX + "fs/ext4/super.c",
    ),
    (
        'XFS (nvme0n1): metadata I/O error in "xfs_imap_to_bp+0x5c/0xa0" at daddr 0x1234 len 32 error 5',
        "ssd",
        LINUX + "fs/xfs/xfs_buf.c",
    ),
    (
        "XFS (md0): Corruption of in-memory data (0x8) detected at xfs_trans_cancel+0x12a/0x150 (fs/xfs/xfs_trans.c:1066).  Shutting down filesystem.",
        "ssd",
        LINUX + "fs/xfs/xfs_fsops.c",
    ),
    (
        "bond0: (slave eth0): link status definitely down, disabling slave",
        "network_switch_cable",
        LINUX + "drivers/net/bonding/bond_main.c",
    ),
    (
        "bond0: now running without any active interface!",
        "network_switch_cable",
        LINUX + "drivers/net/bonding/bond_main.c",
    ),
    (
        "infiniband mlx5_0: mlx5_handle_error_cqe:332:(pid 0): WC error: 12, Message: transport retry counter exceeded",
        "network_switch_cable",
        LINUX + "drivers/infiniband/hw/mlx5/cq.c",
    ),
    (
        "mlx5_core 0000:0c:00.0: mlx5_health_check:872:(pid 0): device's health compromised - reached miss count",
        "nic",
        LINUX + "drivers/net/ethernet/mellanox/mlx5/core/health.c",
    ),
    (
        "INFO: task python:12345 blocked for more than 120 seconds.",
        "storage",
        LINUX + "kernel/hung_task.c",
    ),
    (
        "watchdog: BUG: soft lockup - CPU#12 stuck for 22s! [python:12345]",
        "cpu",
        LINUX + "kernel/watchdog.c",
    ),
    (
        "Out of memory: Killed process 12345 (python) total-vm:98765432kB, anon-rss:87654321kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:171234kB oom_score_adj:0",
        "out_of_memory",
        LINUX + "mm/oom_kill.c",
    ),
    (
        "Memory cgroup out of memory: Killed process 12345 (python) total-vm:98765432kB, anon-rss:87654321kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:171234kB oom_score_adj:0",
        "out_of_memory",
        LINUX + "mm/oom_kill.c",
    ),
    ("nfs: server nfs01 not responding, still trying", "storage", LINUX + "net/sunrpc/clnt.c"),
    ("nfs: server nfs01 not responding, timed out", "storage", LINUX + "net/sunrpc/clnt.c"),
    (
        "LustreError: 11-0: scratch-OST0003-osc-ffff8d2a: operation ost_write to node 10.0.0.3@o2ib failed: rc = -107",
        "storage",
        "https://github.com/lustre/lustre-release/blob/master/lustre/ptlrpc/client.c",
    ),
    (
        "Lustre: scratch-OST0003-osc-ffff8d2a: Connection to scratch-OST0003 (at 10.0.0.3@o2ib) was lost; in progress operations using this service will wait for recovery to complete",
        "storage",
        "https://github.com/lustre/lustre-release/blob/master/lustre/ptlrpc/import.c",
    ),
    (
        "pcieport 0000:00:01.0: AER: Uncorrected (Fatal) error received: 0000:01:00.0",
        "io_expansion_board",
        LINUX + "drivers/pci/pcie/aer.c",
    ),
    (
        "thermal thermal_zone0: critical temperature reached (105 C), shutting down",
        "server_chassis",
        LINUX + "drivers/thermal/thermal_core.c",
    ),
    (
        "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.",
        "faulty_gpu",
        "https://docs.nvidia.com/deploy/xid-errors/",
    ),
    (
        "NVRM: Xid (PCI:0000:3b:00): 48, pid=1234, name=python, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 0, subpartition 0.",
        "gpu_hbm3_memory",
        "https://docs.nvidia.com/deploy/xid-errors/",
    ),
    (
        "[1699999999.123456] [node1:1234:0] ib_mlx5_log.c:177 UCX ERROR Transport retry count exceeded on mlx5_0:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)",
        "network_switch_cable",
        "https://github.com/openucx/ucx/blob/master/src/uct/ib/mlx5/ib_mlx5_log.c",
    ),
    (
        "RuntimeError: ibv_poll_cq: transport retry counter exceeded (IBV_WC_RETRY_EXC_ERR)",
        "network_switch_cable",
        "https://github.com/linux-rdma/rdma-core/blob/master/libibverbs/enum_strs.c",
    ),
    (
        "LustreError: 167-0: scratch-MDT0000-mdc-ffff8d2a: This client was evicted by scratch-MDT0000; in progress operations using this service will fail.",
        "storage",
        "https://github.com/lustre/lustre-release/blob/master/lustre/ptlrpc/import.c",
    ),
    (
        "Buffer I/O error on dev nvme0n1p1, logical block 0, async page read",
        "ssd",
        LINUX + "fs/buffer.c",
    ),
    (
        "torch.distributed.DistStoreError: wait timeout after 300000ms, keys: /default_pg//0//cuda//0",
        "dependency",
        TORCH + "torch/csrc/distributed/c10d/TCPStore.cpp",
    ),
    (
        "torch.distributed.DistBackendError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout",
        "dependency",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp",
    ),
    (
        "RuntimeError: NCCL communicator was aborted on rank 3. Original reason for failure was: [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=77, OpType=BROADCAST, Timeout(ms)=1800000) ran for 1800305 milliseconds before timing out.",
        "nccl_watchdog_timeout",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp",
    ),
    (
        "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system error, NCCL version 2.7.8",
        "software_bug",
        TORCH + "torch/lib/c10d/NCCLUtils.hpp (1.7)",
    ),
    (
        "torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. 3/3 attempts left; will restart worker group",
        "unknown",
        TORCH + "torch/distributed/elastic/agent/server/api.py",
    ),
    (
        "RuntimeError: Error building extension 'fused_adam'",
        "dependency",
        "https://github.com/deepspeedai/DeepSpeed/blob/master/op_builder/builder.py",
    ),
    (
        "OSError: [Errno 122] Disk quota exceeded: '/checkpoints/step_1000'",
        "storage",
        "https://github.com/python/cpython/blob/main/Lib/shutil.py",
    ),
    (
        "OSError: [Errno 5] Input/output error: '/mnt/shared/ckpt/latest'",
        "storage",
        "https://github.com/python/cpython/blob/main/Modules/posixmodule.c",
    ),
    (
        "OSError: [Errno 116] Stale file handle",
        "storage",
        "https://github.com/python/cpython/blob/main/Modules/posixmodule.c",
    ),
    (
        "OSError: [Errno 28] No space left on device",
        "storage",
        "https://github.com/python/cpython/blob/main/Modules/posixmodule.c",
    ),
    (
        "requests.exceptions.ConnectionError: (MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /gpt2/resolve/main/config.json\"))",
        "dependency",
        "https://github.com/huggingface/huggingface_hub/blob/main/src/huggingface_hub/file_download.py",
    ),
    (
        "node1:1234:1290 [0] init.cc:1172 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000",
        "user_code_error",
        NCCL + "src/init.cc",
    ),
    (
        "node1:1234:1290 [0] NCCL WARN Cuda failure 'invalid device ordinal'",
        "software_bug",
        NCCL + "src/include/checks.h",
    ),
    (
        "RuntimeError: CUDA error: invalid device ordinal",
        "dependency",
        CUDA_RT + " cudaErrorInvalidDevice",
    ),
    (
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
        "user_code_error",
        TORCH + "aten/src/ATen/native/TensorCompare.cpp",
    ),
    (
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 and 256x10)",
        "user_code_error",
        TORCH + "aten/src/ATen/native/LinearAlgebra.cpp",
    ),
    (
        "RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one. This error indicates that your module has parameters that were not used in producing loss.",
        "user_code_error",
        TORCH + "torch/csrc/distributed/c10d/reducer.cpp",
    ),
    (
        "RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.cuda.FloatTensor [1024]] is at version 3; expected version 2 instead.",
        "user_code_error",
        TORCH + "torch/csrc/autograd/saved_variable.cpp",
    ),
    (
        "RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed).",
        "user_code_error",
        TORCH + "torch/csrc/autograd/saved_variable.cpp",
    ),
    (
        "RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=12, OpType=ALLREDUCE, TensorShape=[1024], TensorDtypes=Float), but Rank 1 is running collective: CollectiveFingerPrint(SequenceNumber=12, OpType=BROADCAST).",
        "user_code_error",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupWrapper.cpp",
    ),
    (
        "ValueError: Default process group has not been initialized, please make sure to call init_process_group.",
        "user_code_error",
        TORCH + "torch/distributed/distributed_c10d.py",
    ),
    (
        "RuntimeError: [enforce fail at alloc_cpu.cpp:83] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 8589934592 bytes. Error code 12 (Cannot allocate memory)",
        "out_of_memory",
        TORCH + "c10/core/impl/alloc_cpu.cpp",
    ),
    (
        "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).",
        "out_of_memory",
        TORCH + "torch/csrc/DataLoader.cpp",
    ),
    (
        "RuntimeError: DataLoader worker (pid 4321) is killed by signal: Killed.",
        "unknown",
        TORCH + "torch/csrc/DataLoader.cpp",
    ),
    (
        "safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer",
        "storage",
        "https://github.com/huggingface/safetensors/blob/main/bindings/python/src/lib.rs",
    ),
    (
        "OSError: Can't load tokenizer for 'gpt2'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name.",
        "dependency",
        "https://github.com/huggingface/transformers/blob/main/src/transformers/tokenization_utils_base.py",
    ),
    (
        "huggingface_hub.errors.HfHubHTTPError: 429 Client Error: Too Many Requests for url: https://huggingface.co/api/models/gpt2",
        "dependency",
        "https://github.com/huggingface/huggingface_hub/blob/main/src/huggingface_hub/utils/_http.py",
    ),
    (
        "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. (read timeout=10)",
        "dependency",
        "https://github.com/huggingface/huggingface_hub/blob/main/src/huggingface_hub/file_download.py",
    ),
    (
        "wandb.errors.CommError: failed to upload file: <Response [503]>",
        "dependency",
        "https://github.com/wandb/wandb/blob/main/wandb/errors/errors.py",
    ),
    (
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 1073741824 bytes.",
        "out_of_memory",
        "https://github.com/openxla/xla/blob/main/xla/stream_executor/gpu/gpu_executor.cc",
    ),
    (
        "slurmstepd: error: *** JOB 123456 ON node017 CANCELLED AT 2024-05-01T12:00:00 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***",
        "host_maintenance",
        SLURM + "src/slurmd/slurmstepd/req.c",
    ),
    (
        "slurmstepd: error: Munge decode failed: Expired credential",
        "dependency",
        SLURM + "src/plugins/cred/munge/cred_munge.c",
    ),
    (
        '  Warning  Failed     12s   kubelet  Failed to pull image "nvcr.io/nvidia/pytorch:24.01-py3": rpc error: code = Unknown desc = failed to pull and unpack image',
        "dependency",
        K8S + "pkg/kubelet/images/image_manager.go",
    ),
    (
        "  Warning  Failed     12s   kubelet  Error: ImagePullBackOff",
        "dependency",
        K8S + "pkg/kubelet/images/types.go",
    ),
    (
        '  Warning  FailedMount  2m  kubelet  MountVolume.SetUp failed for volume "data" : mount failed: exit status 32',
        "storage",
        K8S + "pkg/volume/util/operationexecutor/operation_generator.go",
    ),
    (
        "  Normal   NodeNotReady  5m  node-controller  Node node-3 status is now: NodeNotReady",
        "host_maintenance",
        K8S + "pkg/controller/nodelifecycle/node_lifecycle_controller.go",
    ),
    (
        "Pod ephemeral local storage usage exceeds the total limit of containers 100Gi.",
        "storage",
        K8S + "pkg/kubelet/eviction/helpers.go",
    ),
    (
        "Message:        The node had condition: [DiskPressure].",
        "storage",
        K8S + "pkg/kubelet/eviction/eviction_manager.go",
    ),
    (
        "=>> PBS: job killed: node 1 (node002) requested job terminate, 'EOF' (code 1099) - received SISTER_EOF attempting to communicate with sister MOM's",
        "host_maintenance",
        "https://github.com/openpbs/openpbs/blob/master/src/resmom/mom_comm.c",
    ),
    (
        "mlx5_core 0000:41:00.0 enp65s0f0np0: Link down",
        "network_switch_cable",
        LINUX + "drivers/net/ethernet/mellanox/mlx5/core/en_main.c",
    ),
    (
        "NETDEV WATCHDOG: eth0 (mlx5_core): transmit queue 3 timed out",
        "nic",
        LINUX + "net/sched/sch_generic.c",
    ),
    (
        "ixgbe 0000:01:00.0 eth0: Detected Tx Unit Hang",
        "nic",
        LINUX + "drivers/net/ethernet/intel/ixgbe/ixgbe_main.c",
    ),
    (
        "nvme nvme1: Removing after probe failure status: -19",
        "ssd",
        LINUX + "drivers/nvme/host/pci.c",
    ),
    (
        "sd 0:0:0:0: [sda] tag#12 FAILED Result: hostbyte=DID_TIME_OUT driverbyte=DRIVER_OK cmd_age=31s",
        "ssd",
        LINUX + "drivers/scsi/scsi_logging.c",
    ),
    ("ata1.00: failed command: READ FPDMA QUEUED", "ssd", LINUX + "drivers/ata/libata-eh.c"),
    (
        "Lustre: 1234:0:(client.c:2295:ptlrpc_expire_one_request()) @@@ Request sent has timed out for slow reply: [sent 1700000000/real 1700000000]  req@ffff8d2a x1780/t0(0) o4->scratch-OST0003-osc@10.0.0.3@o2ib:6/4",
        "storage",
        "https://github.com/lustre/lustre-release/blob/master/lustre/ptlrpc/client.c",
    ),
    (
        "INFO: task jbd2/nvme0n1p1-8:1234 blocked for more than 120 seconds.",
        "storage",
        LINUX + "kernel/hung_task.c",
    ),
    ("watchdog: Watchdog detected hard LOCKUP on cpu 7", "cpu", LINUX + "kernel/watchdog_perf.c"),
    ("rcu: INFO: rcu_sched self-detected stall on CPU", "cpu", LINUX + "kernel/rcu/tree_stall.h"),
    (
        "CPU12: Package temperature above threshold, cpu clock throttled (total events = 4521)",
        "unknown",
        LINUX + "drivers/thermal/intel/therm_throt.c",
    ),
    (
        "NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.",
        "faulty_gpu",
        "https://github.com/NVIDIA/open-gpu-kernel-modules/blob/main/src/nvidia/src/kernel/gpu/gpu.c",
    ),
    (
        "NVRM: Xid (PCI:0000:3b:00): 119, pid=1234, name=python, Timeout after 6s of waiting for RPC response from GPU0 GSP! Expected function 76 (GSP_RM_CONTROL) (0x2080014b 0x5).",
        "gpu_system_processor",
        "https://docs.nvidia.com/deploy/xid-errors/",
    ),
    (
        "NVRM: Xid (PCI:0000:3b:00): 94, pid=1234, name=python, Contained: SM (0x1). RST: No, D-RST: No",
        "gpu_sram_memory",
        "https://docs.nvidia.com/deploy/xid-errors/",
    ),
    (
        "NVRM: Xid (PCI:0000:3b:00): 31, pid=1234, name=python, Ch 00000008, intr 10000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_0 faulted @ 0x7f12_34560000. Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_READ",
        "software_bug",
        "https://docs.nvidia.com/deploy/xid-errors/",
    ),
    (
        "Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error",
        "faulty_gpu",
        "https://docs.nvidia.com/deploy/nvidia-smi/index.html",
    ),
    (
        "amdgpu 0000:c1:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:24 vmid:1 pasid:32769, for process python pid 1234 thread python pid 1234)",
        "software_bug",
        LINUX + "drivers/gpu/drm/amd/amdgpu/gmc_v9_0.c",
    ),
    (
        "node2:25146:25854 [0] ib_plugin.c:1105 NCCL WARN NET/IB : Got completion from peer 10.0.35.1<49189> with error 4, opcode 5327, len 5327, vendor err 81 (Send)",
        "software_bug",
        NCCL + "src/transport/net_ib.cc (IBV_WC_LOC_PROT_ERR)",
    ),
    (
        "node1:1234:1290 [0] include/socket.h:409 NCCL WARN Net : Connection closed by remote peer 10.0.0.2<39548>",
        "unknown",
        NCCL + "src/include/socket.h",
    ),
    (
        "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.",
        "dependency",
        TORCH + "torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py",
    ),
    (
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\nncclUnhandledCudaError: Call to CUDA function failed.\nLast error:\nCuda failure 'out of memory'",
        "out_of_memory",
        NCCL + "src/init.cc",
    ),
    (
        "mlx5_core 0000:0c:00.0: poll_health:739:(pid 0): Fatal error 1 detected",
        "nic",
        LINUX + "drivers/net/ethernet/mellanox/mlx5/core/health.c",
    ),
    (
        "bnxt_en 0000:3b:00.0 eth0: TX timeout detected, starting reset task!",
        "nic",
        LINUX + "drivers/net/ethernet/broadcom/bnxt/bnxt.c",
    ),
    (
        "EDAC MC0: 1 CE memory scrubbing error on CPU_SrcID#0_MC#0_Chan#0_DIMM#0 (channel:0 slot:0 page:0x0 offset:0x0 grain:32 syndrome:0x0)",
        "system_memory",
        LINUX + "drivers/edac/edac_mc.c",
    ),
    (
        "mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 5: be00000000800400",
        "cpu",
        LINUX + "arch/x86/kernel/cpu/mce/core.c",
    ),
    (
        "pcieport 0000:00:03.0: AER: Multiple Uncorrected (Non-Fatal) error received: 0000:00:03.0",
        "unknown",
        LINUX + "drivers/pci/pcie/aer.c",
    ),
    (
        "pcieport 0000:80:01.1: AER: Corrected error received: 0000:81:00.0",
        "unknown",
        LINUX + "drivers/pci/pcie/aer.c",
    ),
    ("nvme nvme0: I/O 0 QID 0 timeout, reset controller", "ssd", LINUX + "drivers/nvme/host/pci.c"),
    (
        "blk_update_request: critical target error, dev sdb, sector 123456 op 0x1:(WRITE) flags 0x0 phys_seg 1 prio class 0",
        "ssd",
        LINUX + "block/blk-core.c",
    ),
    (
        "XFS (nvme0n1): Filesystem has been shut down due to log error (0x2).",
        "ssd",
        LINUX + "fs/xfs/xfs_fsops.c",
    ),
    (
        "JBD2: I/O error when updating journal superblock for nvme0n1p1-8.",
        "ssd",
        LINUX + "fs/jbd2/journal.c",
    ),
    (
        "libceph: mon0 (1)10.0.0.1:6789 session lost, hunting for new mon",
        "storage",
        LINUX + "net/ceph/mon_client.c",
    ),
    (
        "NFS: state manager: check lease failed on NFSv4 server nfs01 with error 13",
        "storage",
        LINUX + "fs/nfs/nfs4state.c",
    ),
    (
        "INFO: task kworker/u64:3:1234 blocked for more than 122 seconds.",
        "storage",
        LINUX + "kernel/hung_task.c",
    ),
    ("srun: error: node017: tasks 0-7: Killed", "unknown", SLURM + "src/srun/srun_job.c"),
    (
        "slurmstepd: error: execve(): python: No such file or directory",
        "dependency",
        SLURM + "src/slurmd/slurmstepd/exec_wait.c",
    ),
    (
        "ValueError: Asking to pad but the tokenizer does not have a padding token. Please select a token to use as `pad_token` `(tokenizer.pad_token = tokenizer.eos_token e.g.)`",
        "user_code_error",
        "https://github.com/huggingface/transformers/blob/main/src/transformers/tokenization_utils_base.py",
    ),
    (
        "lightning_fabric.utilities.exceptions.MisconfigurationException: No supported gpu backend found!",
        "dependency",
        "https://github.com/Lightning-AI/pytorch-lightning/blob/master/src/lightning/fabric/accelerators/cuda.py",
    ),
    (
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n\tclass_name: RayTrainWorker\n\tThe actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file.",
        "unknown",
        "https://github.com/ray-project/ray/blob/master/src/ray/core_worker/core_worker.cc",
    ),
    (
        "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.",
        "out_of_memory",
        "https://github.com/ray-project/ray/blob/master/src/ray/raylet/node_manager.cc",
    ),
    (
        "RuntimeError: CUDA error: device-side assert triggered\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        "user_code_error",
        TORCH + "c10/cuda/CUDAException.cpp",
    ),
    (
        '../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [0,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.',
        "user_code_error",
        TORCH + "aten/src/ATen/native/cuda/IndexKernel.cu",
    ),
    (
        "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1207, unhandled cuda error, NCCL version 2.10.3\nncclUnhandledCudaError: Call to CUDA function failed.",
        "software_bug",
        NCCL + "src/init.cc",
    ),
    (
        "torch.distributed.DistBackendError: NCCL communicator was aborted on rank 1.",
        "unknown",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp",
    ),
    (
        "Instance terminated by Compute Engine: hostError",
        "host_maintenance",
        "https://cloud.google.com/compute/docs/instances/host-maintenance-overview",
    ),
    # -- few-line logs: a cause with the symptoms and wrappers printed around it, to pin the
    # specificity order of the rows above (the source says which emitters)
    (
        "[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4512, OpType=ALLREDUCE, NumelIn=262144000, NumelOut=262144000, Timeout(ms)=600000) ran for 600081 milliseconds before timing out.\nNVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.",
        "faulty_gpu",
        "few lines: a root cause under its symptom (ProcessGroupNCCL.cpp, Xid catalog)",
    ),
    (
        "RuntimeError: CUDA error: uncorrectable ECC error encountered\nterminate called after throwing an instance of 'c10::Error'\n  what():  CUDA error: an illegal memory access was encountered",
        "gpu_hbm3_memory",
        "few lines: ECC outranks the illegal access it causes",
    ),
    (
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\ntorch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n  exitcode  : 1 (pid: 1234)",
        "out_of_memory",
        "few lines: the worker's OOM under torchrun's summary",
    ),
    (
        'Traceback (most recent call last):\n  File "train.py", line 88, in <module>\n    state = torch.load(path)\nRuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory',
        "storage",
        "few lines: a truncated checkpoint under its traceback",
    ),
    (
        "RuntimeError: Triton Error [CUDA]: misaligned address\n[rank0]:[E ProcessGroupNCCL.cpp:577] [Rank 0] Some NCCL operations have failed or timed out.",
        "software_bug",
        "few lines: a kernel fault outranks the collective it stalls",
    ),
    (
        "[rank5]:[E723 01:58:45.667329643 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 5] Received a dump signal due to a collective timeout from  rank 2 and we will try our best to dump the debug info.\n[F930 ProcessGroupNCCL.cpp:1309] [PG ID 0 PG GUID 0(default_pg) Rank 5] Terminating the process after attempting to dump debug info, due to ProcessGroupNCCL watchdog hang.",
        "nccl_watchdog_timeout",
        "few lines: the stuck watchdog after a timeout is its consequence",
    ),
    (
        "node1:1234:1290 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.1.1.2<51234> with status=12 opcode=0 len=0 vendor err 129 (Send)\ntorch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, remote process exited or there was a network error, NCCL version 2.21.5\nncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
        "network_switch_cable",
        "few lines: IB retry exceeded under NCCL's remote error",
    ),
    (
        "slurmstepd: error: Detected 1 oom_kill event in StepId=123456.batch. Some of the step tasks have been OOM Killed.\nsrun: error: node017: task 0: Out Of Memory\nslurmstepd: error: *** STEP 123456.0 ON node017 CANCELLED AT 2024-05-01T12:00:00 ***",
        "out_of_memory",
        "few lines: Slurm's OOM then its cancel",
    ),
    (
        "RuntimeError: HIP error: hipErrorNoDevice\nHIP kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be incorrect.\nFor debugging consider passing HIP_LAUNCH_BLOCKING=1.",
        "dependency",
        "few lines: pytorch/pytorch#70036's whole message",
    ),
    (
        "RuntimeError: Rank 3, node node7, device 3, iteration 5120: Unexpected result 12.81 (message='Spiky loss')\ntorch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
        "loss_spike",
        "few lines: Megatron's spiky loss under torchrun's summary",
    ),
    (
        "XFS (nvme0n1): log I/O error -5\nXFS (nvme0n1): Filesystem has been shut down due to log error (0x2).\nXFS (nvme0n1): Please unmount the filesystem and rectify the problem(s).",
        "ssd",
        "few lines: XFS's shutdown on a local NVMe",
    ),
    (
        "  State:          Terminated\n    Reason:       OOMKilled\n    Exit Code:    137\n  Warning  BackOff  kubelet  Back-off restarting failed container",
        "out_of_memory",
        "few lines: the kubelet's OOMKilled then its back-off",
    ),
]

# The rows added or widened for the classes the checklist found missing: (log text, category,
# source), the emitter's wording and the same class as posted in public threads
ROWS = [
    # -- gpu_kernel_fault_names: the runtime's, the driver API's and HIP's names for a kernel fault
    (
        "CUDA_ERROR_LAUNCH_FAILED: unspecified launch failure",
        "software_bug",
        CUDA_DRV,
    ),
    (
        "ERROR: LoadError: CUDA error: unspecified launch failure (code 719, ERROR_LAUNCH_FAILED)",
        "software_bug",
        "https://github.com/JuliaGPU/CUDAdrv.jl/issues/210",
    ),
    (
        "RuntimeError: Triton Error [CUDA]: misaligned address",
        "software_bug",
        "https://github.com/pytorch/pytorch/issues/96628",
    ),
    (
        "RuntimeError: CUDA error: hardware stack error",
        "software_bug",
        CUDA_RT + " cudaErrorHardwareStackError",
    ),
    (
        "RuntimeError: HIP error: hipErrorIllegalAddress",
        "software_bug",
        HIP,
    ),
    # -- gpu_runtime_absent: no device, no driver, fabric manager or MPS daemon not up
    (
        "RuntimeError: HIP error: hipErrorNoDevice",
        "dependency",
        "https://github.com/pytorch/pytorch/issues/70036",
    ),
    (
        "RuntimeError: cuda runtime error (100) : hipErrorNoDevice at ../aten/src/THH/THHGeneral.cpp:47",
        "dependency",
        "https://github.com/ROCm/legacy-rocm-build/issues/1159",
    ),
    (
        "  what():  hipGetDeviceProperties failed with error: no ROCm-capable device is detected",
        "dependency",
        "https://github.com/ROCm/TransformerEngine/issues/293",
    ),
    (
        "RuntimeError: CUDA error: MPS client failed to connect to the MPS control daemon or the "
        "MPS server",
        "dependency",
        CUDA_RT + " cudaErrorMpsConnectionFailed",
    ),
    # -- checkpoint_archive_corrupt: torch.load on a truncated or corrupt file
    (
        "RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central "
        "directory",
        "storage",
        "https://github.com/JizhiziLi/P3M/issues/13",
    ),
    (
        "RuntimeError: unexpected EOF, expected 1056959984 more bytes. The file might be corrupted.",
        "storage",
        "https://github.com/brianhie/efficient-evolution/issues/26",
    ),
    (
        "RuntimeError: PytorchStreamReader failed reading file data/0: invalid header or archive "
        "is corrupted",
        "storage",
        TORCH + "caffe2/serialize/inline_container.cc",
    ),
    # -- widened: ecc_uncorrectable (HIP's and the driver API's names)
    ("RuntimeError: HIP error: hipErrorECCNotCorrectable", "gpu_hbm3_memory", HIP),
    (
        "INTERNAL: CUDA error: Failed to synchronize: CUDA_ERROR_ECC_UNCORRECTABLE",
        "gpu_hbm3_memory",
        CUDA_DRV,
    ),
    # -- widened: cuda_oom (every CUDA library's allocation status, the driver API's name)
    (
        "RuntimeError: cuDNN error: CUDNN_STATUS_ALLOC_FAILED",
        "out_of_memory",
        "https://github.com/pytorch/pytorch/issues/20123",
    ),
    (
        "cuDNN failure 2: CUDNN_STATUS_ALLOC_FAILED ; GPU=0 ; hostname=PTNUWCL5099642 ; "
        "expr=finder(calgo, algoPerf)",
        "out_of_memory",
        "https://github.com/microsoft/CNTK/issues/220",
    ),
    ("CUDA_ERROR_OUT_OF_MEMORY: out of memory", "out_of_memory", CUDA_DRV),
    # -- widened: job_memory_limit (Slurm's words for a task the cgroup killed)
    (
        "srun: error: Orion-01-01: task 4: Out Of Memory",
        "out_of_memory",
        "https://github.com/hafs-community/HAFS/issues/101",
    ),
    (
        "slurmstepd-falkor7: error: Step 1141810.0 exceeded memory limit (52917772 > 20971520), "
        "being killed",
        "out_of_memory",
        "https://github.com/openbabel/openbabel/issues/2658",
    ),
    # -- widened: nccl_bootstrap_connect (NCCL >= 2.12's socket.cc wording)
    (
        "node1:1234:1290 [0] misc/socket.cc:538 NCCL WARN Net : Connect to 10.1.1.2<36591> "
        "failed : Connection refused",
        "dependency",
        NCCL + "src/misc/socket.cc",
    ),
    (
        "gpu-st-p4d-24xlarge-1:4321:4400 [0] misc/socket.cc:538 NCCL WARN Net : Connect to "
        "172.31.10.5<34567> failed : No route to host",
        "dependency",
        NCCL + "src/misc/socket.cc (errno EHOSTUNREACH)",
    ),
    # -- widened: nccl_watchdog (ProcessGroupNCCL's other wordings of a collective timeout)
    (
        "dinov2-giant-nodes.cn-d004 [stderr] [rank12]:[E909 09:55:29.313379098 "
        "ProcessGroupNCCL.cpp:1664] [PG 0 (default_pg) Rank 12] Exception (either an error or "
        "timeout) detected by watchdog at work: 2070, last enqueued NCCL work: 2070, last "
        "completed NCCL work: 2069.",
        "nccl_watchdog_timeout",
        "https://github.com/mila-iqia/milabench/pull/269",
    ),
    (
        "[rank5]:[E723 01:58:45.667329643 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID "
        "0(default_pg) Rank 5] Received a dump signal due to a collective timeout from  rank 2 "
        "and we will try our best to dump the debug info. Last enqueued NCCL work: 136, last "
        "completed NCCL work: 136.",
        "nccl_watchdog_timeout",
        "https://github.com/lsdefine/simple_GRPO/issues/46",
    ),
    (
        "[rank0]:[E327 17:04:16.182548526 ProcessGroupNCCL.cpp:1346] [PG 0 Rank 0] Received a "
        "timeout signal from this local rank and will start to dump the debug info. Last "
        "enqueued NCCL work: 2, last completed NCCL work: 1.",
        "nccl_watchdog_timeout",
        "https://github.com/pytorch/pytorch/pull/122850",
    ),
    # -- widened: nccl_watchdog_stuck (the heartbeat monitor killing the process)
    (
        "[F930 15:23:07.686401350 ProcessGroupNCCL.cpp:1309] [PG ID 6 PG GUID  Rank 0] [PG ID 6 "
        "PG GUID  Rank 0] Terminating the process after attempting to dump debug info, due to "
        "ProcessGroupNCCL watchdog hang.",
        "hang",
        "https://github.com/NVIDIA/Fuser/issues/3055",
    ),
    (
        "[rank1]: Terminating the process after attempting to dump debug info, due to "
        "ProcessGroupNCCL watchdog hang.",
        "hang",
        TORCH + "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp",
    ),
    # -- widened: loss_spike_words (Megatron-LM's rerun state machine)
    (
        "RuntimeError: Rank 3, node node7, device 3, iteration 5120: Unexpected result 12.81 "
        "(message='Spiky loss')",
        "loss_spike",
        "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/core/rerun_state_machine.py",
    ),
    (
        "Rank 0, node node1, device 0, iteration 880: Unexpected result 4.2e+03 "
        "(message='Spiky grad norm')",
        "loss_spike",
        "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/core/rerun_state_machine.py",
    ),
    # -- widened: local_fs_error (a local md RAID, fs/buffer.c's line for an NVMe namespace)
    (
        "XFS (md0): Corruption of in-memory data (0x8) detected at xfs_trans_cancel+0x12a/0x150 "
        "(fs/xfs/xfs_trans.c:1066).  Shutting down filesystem.",
        "ssd",
        LINUX + "fs/xfs/xfs_fsops.c",
    ),
    (
        "Buffer I/O error on dev nvme0n1p1, logical block 0, async page read",
        "ssd",
        LINUX + "fs/buffer.c",
    ),
    # -- widened in a second pass of the checklist: checkpoint_archive_corrupt (safetensors),
    # scsi_target_gone, slurm_launch_credential (munge), scheduler_node_failure (PBS/Torque's
    # sister MOM lost), node_disk_pressure (the kubelet's local-storage evictions)
    (
        "safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer",
        "storage",
        "https://github.com/Gourieff/ComfyUI-ReActor/issues/80",
    ),
    (
        "Error while deserializing header: MetadataIncompleteBuffer",
        "storage",
        "https://github.com/QwenLM/Qwen/issues/462",
    ),
    (
        "sd 0:0:0:0: [sda] tag#12 FAILED Result: hostbyte=DID_TIME_OUT driverbyte=DRIVER_OK "
        "cmd_age=31s",
        "ssd",
        LINUX + "drivers/scsi/scsi_logging.c",
    ),
    (
        "sd 2:0:0:0: [sdc] tag#7 FAILED Result: hostbyte=DID_NO_CONNECT driverbyte=DRIVER_OK "
        "cmd_age=0s",
        "ssd",
        LINUX + "drivers/scsi/scsi_logging.c",
    ),
    (
        "[2021-09-22T14:11:30.278] error: Munge decode failed: Expired credential",
        "dependency",
        "https://github.com/stackhpc/ansible-slurm-appliance/issues/114",
    ),
    (
        "May 24 07:06:46 login slurmctld[15918]: error: Munge decode failed: Invalid credential",
        "dependency",
        "https://github.com/clustervision/trinity/issues/759",
    ),
    (
        "=>> PBS: job killed: node 18 (n314) requested job terminate, 'EOF' (code 1099) - "
        "received SISTER_EOF attempting to communicate with sister MOM's",
        "host_maintenance",
        "https://github.com/openpbs/openpbs/blob/master/src/resmom/mom_comm.c",
    ),
    (
        "=>> PBS: job killed: node 3 (n043) requested job terminate, 'EOF' (code 1099) - "
        "internal or network failure attempting to communicate with sister MOM's",
        "host_maintenance",
        "https://github.com/adaptivecomputing/torque/blob/master/src/resmom/mom_comm.c",
    ),
    (
        'Message:          Container consumerui exceeded its local ephemeral storage limit "20Mi".',
        "storage",
        "https://github.com/cloud-ark/kubeplus/issues/1389",
    ),
    (
        "  Warning  Evicted              60s                kubelet            Pod ephemeral "
        "local storage usage exceeds the total limit of containers 100Gi.",
        "storage",
        "https://github.com/substratusai/runbooks/issues/246",
    ),
    # -- widened in a third pass: job_memory_limit (NCCL's CUDA out of memory as torch quotes
    # it), local_fs_error (XFS shut down by a log error, jbd2 failing to write its journal),
    # gpu_stack_env (Lightning finding no GPU backend)
    (
        "[rank7]: Cuda failure 2 'out of memory'",
        "out_of_memory",
        TORCH + "torch/csrc/distributed/c10d/NCCLUtils.hpp (ncclUnhandledCudaError's Last error)",
    ),
    (
        "Last error:\nCuda failure 'out of memory'",
        "out_of_memory",
        NCCL + "src/include/checks.h",
    ),
    (
        "109.200.197.196: kern:   alert: [2024-05-13T15:13:11.99477118Z]: XFS (sdb6): Filesystem "
        "has been shut down due to log error (0x2).",
        "ssd",
        "https://github.com/siderolabs/talos/pull/8733",
    ),
    (
        "JBD2: I/O error when updating journal superblock for nvme0n1p1-8.",
        "ssd",
        LINUX + "fs/jbd2/journal.c",
    ),
    (
        "JBD2: Error -5 detected when updating journal superblock for nvme1n1-8.",
        "ssd",
        LINUX + "fs/jbd2/journal.c",
    ),
    (
        "lightning.fabric.utilities.exceptions.MisconfigurationException: No supported gpu "
        "backend found!",
        "dependency",
        "https://github.com/Lightning-AI/pytorch-lightning/issues/20626",
    ),
    (
        "Error in call to target 'pytorch_lightning.trainer.trainer.Trainer':\n"
        "MisconfigurationException('No supported gpu backend found!')",
        "dependency",
        "https://github.com/microsoft/mattergen/issues/217",
    ),
]

# Lines near the new and widened rows that must keep another reading: (log text, category it
# must not be, why)
NOT = [
    (
        "  check_for_spiky_loss ............................ True",
        "loss_spike",
        "Megatron-LM's argument dump, megatron/training/arguments.py",
    ),
    (
        "Failed to parse PDF. The file might be corrupted or in an unsupported format.",
        "storage",
        "not torch.load's truncated-read message",
    ),
    (
        "RuntimeError: PytorchStreamReader failed locating file data.pkl: file not found",
        "storage",
        "a file of another format, not a truncated one (inline_container.cc)",
    ),
    (
        "srun: error: node017: task 0: Exited with exit code 1",
        "out_of_memory",
        "Slurm's plain exit, src/srun/srun_job.c",
    ),
    (
        "Buffer I/O error on dev rbd0, logical block 0, async page read",
        "ssd",
        "a network block device is no local disk",
    ),
    (
        "sd 0:0:0:0: [sda] tag#3 FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_OK cmd_age=0s",
        "ssd",
        "the command completed at the host: no disk fault on this line alone",
    ),
    (
        "JBD2: Error -5 detected when updating journal superblock for rbd0-8.",
        "ssd",
        "a network block device's journal is no local disk",
    ),
]


@pytest.mark.parametrize(
    ("text", "category", "source"),
    [pytest.param(*c, id=f"{i}-{c[1]}") for i, c in enumerate(EMITTED + ROWS)],
)
def test_emitted(tmp_path: Path, text: str, category: str, source: str) -> None:
    v = rows_alone(tmp_path, text)  # the rows alone: the table is what is tested
    assert v.category == category, (source, v.verdict)


@pytest.mark.parametrize(
    ("text", "category", "why"), [pytest.param(*c, id=f"{i}-not-{c[1]}") for i, c in enumerate(NOT)]
)
def test_near_miss(tmp_path: Path, text: str, category: str, why: str) -> None:
    v = rows_alone(tmp_path, text)
    assert v.category != category, (why, v.verdict)


def test_the_prefilter_hides_no_row_from_these_lines(tmp_path: Path) -> None:
    """Every row whose full regex matches a line above is found through the needles."""
    assert_prefilter_hides_nothing(tmp_path, EMITTED + ROWS + NOT)
