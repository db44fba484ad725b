"""Signature rows for the classes the fiftieth collection showed missing
(tests/corpus/real/README.md, fiftieth.jsonl, "After its rows", branch issue-27rows50). Each row
is tested on the fiftieth's excerpts and on other wordings of its class, from the documentation
or source cited beside each, with the near misses it must not take. Rows widened in place for
it: `job_memory_limit` (CANN's EL0004 and "driver error:out of memory", "rtMalloc execute
failed", MindSpore's Ascend memory manager and actors, srun's line without node and task),
`cuda_oom` (CNTK's and ONNX Runtime's "CUDA failure 2: out of memory"), `nan_loss`
(SwissArmyTransformer's step skipped for a nan or inf loss), `transport_errno` (Open MPI's UCX
components failing with EIO); new: `vgpu_limit_oom` (HAMi-core's device-memory limit),
`mpi_ib_partition_setup` (HP/Platform MPI refusing the InfiniBand partition key or ports)."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fiftieth(rid: str) -> str:
    return excerpt("fiftieth", rid)


FIFTIETH = [
    # (log text, category, why)
    # -- out_of_memory: an Ascend NPU's runtime refusing a device (or pinned host) allocation
    # (`job_memory_limit`, widened; CANN's error-code reference for EL0004, the runtime's error
    # map RT_ERROR_DRV_OUT_MEMORY -> "driver error:out of memory", MindSpore
    # ccsrc/runtime/device/ascend/ascend_memory_manager.cc and its graph-scheduler actors)
    (_fiftieth("0b163ae0baa6"), "out_of_memory", "fiftieth 0b163ae0baa6 (EL0004, FftsPlus)"),
    (_fiftieth("1c2147937168"), "out_of_memory", "fiftieth 1c2147937168 (EL0004, rtMalloc)"),
    (_fiftieth("57af26a7c8e6"), "out_of_memory", "fiftieth 57af26a7c8e6 (MindSpore malloc)"),
    (excerpt("twentysecond", "2bdafc4dc6b3"), "out_of_memory", "twenty-second 2bdafc4dc6b3"),
    (
        "EL0004: [PID: 2817] 2024-05-10-11:02:33.120.335 Failed to allocate memory.",
        "out_of_memory",
        "CANN's EL0004 with a PID",
    ),
    (
        "        rtMalloc execute failed, reason=[driver error:out of memory][FUNC:FuncErrorReason]"
        "[FILE:error_message_manage.cc][LINE:50]",
        "out_of_memory",
        "the runtime's traceback line alone",
    ),
    (
        "[ERROR] RUNTIME(3717568,python):2026-04-23-23:34:33.485.417 [npu_driver.cc:6926]3746335 "
        "MallocPhysical:[drv api]halMemCreate failed drvRetCode=6, size=20971520(bytes), flags=0, "
        "ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016",
        "out_of_memory",
        "the driver's halMemCreate in the runtime's plog",
    ),
    (
        "rtsMallocHost execution failed, reason=driver error:out of memory",
        "out_of_memory",
        "pinned host memory, the newer runtime's wording",
    ),
    (
        "[EXCEPTION] DEVICE(1234,ffff8c,python):2022-03-01-10:00:00.000.000 [mindspore/ccsrc/"
        "runtime/device/ascend/ascend_memory_manager.cc:58] MallocDeviceMemory] Device 0 is "
        "occupied, malloc device memory failed, size[32212254720], ret[207001]",
        "out_of_memory",
        "MindSpore's occupied-card wording",
    ),
    (
        "RuntimeError: Device(id:0) memory isn't enough and alloc failed, kernel name: "
        "Default/network-WithLossCell/_backbone-Net/Conv2D-op1, alloc size: 1073741824B.",
        "out_of_memory",
        "MindSpore's actors",
    ),
    # -- out_of_memory: srun's task line with the node and task left out (`job_memory_limit`,
    # widened; Slurm's srun "srun: error: <node>: task N: Out Of Memory")
    (_fiftieth("2243ef66b91f"), "out_of_memory", "fiftieth 2243ef66b91f (srun, bare)"),
    (
        "srun: error: udc-ba26-19: task 0: Out Of Memory",
        "out_of_memory",
        "srun's full wording",
    ),
    # -- out_of_memory: CUDA's error 2 in the CudaCall form (`cuda_oom`, widened; CNTK
    # Source/Math/CommonMatrix.h, onnxruntime core/providers/cuda/cuda_call.cc)
    (_fiftieth("5dea0fec3a26"), "out_of_memory", "fiftieth 5dea0fec3a26 (CNTK)"),
    (
        "CUDA failure 2: out of memory ; GPU=1 ; hostname=worker-3 ; expr=cudaMalloc((void**) "
        "&m_pArray, sizeof(ElemType) * numElements)",
        "out_of_memory",
        "CNTK's matrix allocation",
    ),
    (
        "2021-03-02 10:00:00.000000000 [E:onnxruntime:, cuda_call.cc:119 CudaCall] CUDA failure "
        "2: out of memory ; GPU=0 ; hostname=box ; expr=cudaMalloc((void**)&p, size);",
        "out_of_memory",
        "ONNX Runtime's CUDA provider",
    ),
    # -- out_of_memory: HAMi-core refusing an allocation past the vGPU's limit
    # (`vgpu_limit_oom`; Project-HAMi/HAMi-core src/allocator/allocator.c oom_check)
    (_fiftieth("bb1b12c4c533"), "out_of_memory", "fiftieth bb1b12c4c533 (HAMi-core)"),
    (
        "[HAMI-core ERROR (pid:1 thread=139884 allocator.c:60)]: Device 1 OOM 16106127360 / "
        "15032385536",
        "out_of_memory",
        "a later HAMi-core's line number, device 1",
    ),
    (
        "HAMI-core ERROR (pid:30 thread=140382094939712 allocator.c:53)]: Device 0 OOM 3171158016 "
        "/ 3145728000",
        "out_of_memory",
        "as quoted without its opening bracket",
    ),
    # -- numerical_nan: a trainer skipping its step for a nan or inf loss (`nan_loss`, widened;
    # SwissArmyTransformer sat/training/deepspeed_training.py, CogView's pretrain_gpt2.py, its
    # fine-tuning trainers)
    (_fiftieth("d20166bfda60"), "numerical_nan", "fiftieth d20166bfda60 (SAT)"),
    (
        "Skipping backward and optimizer step for nan or inf in forwarding!",
        "numerical_nan",
        "CogView's wording",
    ),
    (
        "Skipping backward and optimizer step for nan or inf in forwarding loss at rank 3!",
        "numerical_nan",
        "the fine-tuning trainers' wording",
    ),
    # -- software_bug: Open MPI's UCX components failing with EIO, not a filesystem
    # (`transport_errno`, widened; ompi/mca/pml/ucx/pml_ucx.c, oshmem/mca/spml/ucx/spml_ucx.c)
    (_fiftieth("e32e2cbdd5ca"), "software_bug", "fiftieth e32e2cbdd5ca (pml_ucx)"),
    (
        "[node01:12345] pml_ucx.c:419 Error: ucp_ep_create(proc=3) failed: Input/output error",
        "software_bug",
        "the PML's endpoint, alone",
    ),
    (
        "[node01:12345] spml_ucx.c:733 Error: ucp_ep_create(proc=7/16) failed: Input/output error",
        "software_bug",
        "OpenSHMEM's UCX SPML",
    ),
    # -- dependency: HP/Platform MPI's MPI_Init refusing the InfiniBand partition key or ports
    # (`mpi_ib_partition_setup`; HP-MPI User's Guide 11th edition "MPI_IB_PKEY", HP-MPI 2.2.7
    # for Linux Release Note, ADF's install notes)
    (_fiftieth("7d5e904625c4"), "dependency", "fiftieth 7d5e904625c4 (Abaqus, pkey)"),
    (
        "会报错：multiple full-membership pkey found in partition key table",
        "dependency",
        "ADF's notes quoting it bare",
    ),
    (
        "pp.x: Rank 0:1: MPI_Init: The IB ports choosen for IB connection setup do not have the "
        "same subnet_prefix.",
        "dependency",
        "ports on different subnets (the release note)",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    (
        _fiftieth("bdbe317847b0"),
        "out_of_memory",
        "HAMi's underflowed usage counter (labelled software_bug)",
    ),
    (
        "[HAMI-core WARN (pid:7 thread=1398 allocator.c:64)]: Device 0 approaching OOM 3171158016 "
        "/ 3145728000, requesting resize",
        "out_of_memory",
        "a fork's resize request, no refusal",
    ),
    (
        "[HAMI-core Debug(12:1398:allocator.c:48)]: Device 0 current memory 1048576 / 3145728000",
        "out_of_memory",
        "HAMi-core's debug accounting",
    ),
    (
        "desc=[driver error:invalid malloc type]",
        "out_of_memory",
        "another driver error of the runtime's map",
    ),
    (
        'If "Malloc device memory failed" appears, check whether other processes hold the card.',
        "out_of_memory",
        "a guide naming the message",
    ),
    (
        "srun: error: Unable to create step for job 29986033: Memory required by task is not "
        "available",
        "out_of_memory",
        "a step the scheduler could not place",
    ),
    (
        "srun: error: Orion-18-69: task 289: Bus error",
        "out_of_memory",
        "another task end srun reports",
    ),
    (
        "2020-09-25 21:36:09.156043014 [E:onnxruntime:test, cuda_call.cc:119 CudaCall] CUDA "
        "failure 700: an illegal memory access was encountered ; GPU=0 ; hostname=h ; "
        "expr=cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost);",
        "out_of_memory",
        "CudaCall with another error (the twenty-eighth's 9737ca2536bf)",
    ),
    (
        "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 131072.0",
        "numerical_nan",
        "a loss scaler's overflow, no nan loss (the twenty-sixth's 471f4c9433a3)",
    ),
    (
        "OSError: [Errno 5] Input/output error: '/lustre/data/shard-001.tar'",
        "software_bug",
        "a filesystem's EIO stays storage",
    ),
    (
        "pp.x: Rank 0:1: MPI_Init: You can get port GID using 'ibv_devinfo -v'",
        "dependency",
        "HP-MPI's hint line alone",
    ),
    (
        "If multiple pkeys are found, all such pkeys are printed and an error message is issued.",
        "dependency",
        "the guide's sentence",
    ),
]

test_row = row_test(FIFTIETH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FIFTIETH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The fiftieth's excerpts the rows now read get their labels' actions (none excludes a
    node)."""
    for rid, category, action in (
        ("0b163ae0baa6", "out_of_memory", "stop_and_page"),
        ("1c2147937168", "out_of_memory", "stop_and_page"),
        ("57af26a7c8e6", "out_of_memory", "stop_and_page"),
        ("2243ef66b91f", "out_of_memory", "stop_and_page"),
        ("5dea0fec3a26", "out_of_memory", "stop_and_page"),
        ("bb1b12c4c533", "out_of_memory", "stop_and_page"),
        ("d20166bfda60", "numerical_nan", "restart"),
        ("e32e2cbdd5ca", "software_bug", "restart"),
        ("7d5e904625c4", "dependency", "restart"),
    ):
        v = rows_alone(tmp_path, _fiftieth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)
