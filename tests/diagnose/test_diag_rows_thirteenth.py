"""Signature rows for the classes the thirteenth collection showed missing
(tests/corpus/real/README.md, thirteenth.jsonl, "After its rows", branch issue-27r13). Each row is
tested on the thirteenth's excerpt and on other wordings of its class from other public sources
(cited), with the near misses it must not take."""

from __future__ import annotations

import json
from pathlib import Path

from support.prefilter import near_miss_test, prefilter_test, row_test

_CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "real" / "thirteenth.jsonl"


def _thirteenth(rid: str) -> str:
    with open(_CORPUS) as f:
        for line in f:
            if line.strip() and json.loads(line)["id"] == rid:
                return str(json.loads(line)["excerpt"])
    raise KeyError(rid)


THIRTEENTH = [
    # (log text, category, why)
    # -- XLA (or another wrapper) cannot load libnccl
    (_thirteenth("bcf95660d3e2"), "dependency", "thirteenth bcf95660d3e2 (LargeWorldModel/LWM#44)"),
    (
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to execute XLA Runtime executable: "
        "run time error: custom call 'xla.gpu.all_reduce' failed:\n"
        "external/xla/xla/service/gpu/nccl_utils.cc:133: NCCL operation ncclGetUniqueId(&id) "
        "failed: Unable to load NCCL library. Multi-GPU collectives will not work.;\n"
        "current tracing scope: all-reduce-start; current profiling annotation:",
        "dependency",
        "https://github.com/jax-ml/jax/issues/18391",
    ),
    # -- the JAX coordination service cannot register every task at start
    (_thirteenth("c8f2c8d3620f"), "dependency", "thirteenth c8f2c8d3620f (google/paxml#77)"),
    (
        "Stopping coordination service as cluster registration failed. This may be due to 1) some "
        "tasks crashed earlier before connecting, 2) some tasks were never scheduled, or 3) "
        "scheduling delays. Consider setting a longer initialization timeout if such delays are "
        "expected, the timeout is currently set to: 1h.\n\n"
        "Original error: DEADLINE_EXCEEDED: Barrier timed out. Id: "
        "[Init]Wait_for_all_tasks_to_register::0. This usually happens because a task triggered "
        "the barrier too early or too slowly. Please look at the task logs (both timed out and "
        "first task) to debug further.",
        "dependency",
        "https://github.com/AI-Hypercomputer/gpu-recipes/issues/2",
    ),
    # ... while a task lost mid-run (its heartbeat) keeps its own reading
    (
        _thirteenth("5cfc9855c60e"),
        "host_maintenance",
        "thirteenth 5cfc9855c60e (a heartbeat timeout)",
    ),
    # -- HCCL's collective timeouts (Ascend NPUs)
    (
        _thirteenth("14d35b10a398"),
        "nccl_watchdog_timeout",
        "thirteenth 14d35b10a398 (vllm-project/vllm-ascend#486)",
    ),
    (
        _thirteenth("ee9ed9bea448"),
        "nccl_watchdog_timeout",
        "thirteenth ee9ed9bea448 (InternLM/lmdeploy#3354)",
    ),
    (
        "worker-1: EI9999: 2024-07-03-11:28:40.419.527  The error from device(chipId:0, dieId:0), "
        "serial number is 1, hccl fftsplus task timeout occurred during task execution, "
        "stream_id:4, sq_id:4, task_id:5, stuck notify num:7, timeout:1836.",
        "nccl_watchdog_timeout",
        "the twelfth's e3afc86f7130, https://github.com/Ascend/pytorch/issues/43",
    ),
    # -- NCCL's own words for an internal error (nccl_internal, widened)
    (
        _thirteenth("e2334b87d710"),
        "software_bug",
        "thirteenth e2334b87d710 (ROCm/rccl-tests#50)",
    ),
    (
        "Test NCCL failure common.cu:958 'internal error - please report this issue to the NCCL "
        "developers / '",
        "software_bug",
        "https://github.com/NVIDIA/nccl-tests/issues/166",
    ),
    (
        "INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:305: NCCL operation "
        "ncclCommInitRank(&comm, nranks, id, rank) failed: internal error - please report this "
        "issue to the NCCL developers. Last NCCL warning(error) log entry (may be unrelated) "
        "'Attribute busid of node nic not found'.",
        # dependency since the sixtysecond's rows: NCCL's topology warning named as the cause,
        # as every corpus label of those words (the twenty-third's 0b92b3ab6d10, the
        # fifty-eighth's b188f2ae1600, the sixtysecond's 105b2655681a)
        "dependency",
        "https://github.com/LargeWorldModel/LWM/issues/42",
    ),
    # -- pinned (page-locked) host memory exhausted
    (_thirteenth("98a80dd0701a"), "out_of_memory", "thirteenth 98a80dd0701a (mindspore#172)"),
    (
        "cudaHostAlloc failed.\ncudaHostAlloc Cannot allocate 32 bytes in CUDAPinnedPlace",
        "out_of_memory",
        "https://github.com/PaddlePaddle/PaddleDetection/issues/4878",
    ),
    # -- PBS's and Torque's memory-limit aborts (job_memory_limit, widened)
    (_thirteenth("7027c380bcec"), "out_of_memory", "thirteenth 7027c380bcec (nf-core/sarek#541)"),
    (
        "PBS Job Id: 3132467.mskcc-fe1.local\nJob Name:   STDIN\nExec host:  gpu-1-4/0\n"
        "job deleted\nJob deleted at request of root@mskcc-fe1.local\n"
        "job 3132467 exceeded MEM usage hard limit (2528 > 1126)",
        "out_of_memory",
        "https://github.com/cBio/cbio-cluster/issues/251",
    ),
    # -- Slurm refuses the submission as requested
    (
        _thirteenth("fc173ef87bae"),
        "user_code_error",
        "thirteenth fc173ef87bae (NVIDIA-NeMo/RL#3052)",
    ),
    (
        "sbatch: error: Batch job submission failed: Invalid qos specification",
        "user_code_error",
        "https://github.com/aidenlab/juicer/issues/143",
    ),
    (
        "sbatch: error: Batch job submission failed: Invalid account or account/partition "
        "combination specified",
        "user_code_error",
        "https://github.com/elasticluster/elasticluster/issues/553",
    ),
    (
        'Observed Behavior: "sbatch: error: Batch job submission failed: Requested node '
        'configuration is not available"',
        "user_code_error",
        "https://github.com/ArjunaCluster/ArjunaUsers/issues/112",
    ),
    # -- oneCCL cannot start its worker threads
    (_thirteenth("d76a857bb70a"), "dependency", "thirteenth d76a857bb70a (intel/torch-ccl#54)"),
    (
        "RuntimeError: oneCCL: exec.cpp:122 start_workers: EXCEPTION: failed to start worker # 0",
        "dependency",
        "https://github.com/vllm-project/vllm/issues/10109",
    ),
    # -- W&B's file stream fails
    (_thirteenth("f8787eecf3f7"), "dependency", "thirteenth f8787eecf3f7 (wandb/wandb#2100)"),
    (
        "07:50:48,303 root INFO [epoch=0402|iter=0501] train_loss=0.04047        | s/it=0.11040\n"
        "wandb: ERROR Dropped streaming file chunk (see wandb/debug-internal.log)",
        "dependency",
        "https://github.com/wandb/wandb/issues/4163",
    ),
]

# Lines near the new rows that must keep another reading: (log text, category it must not be, why)
NOT = [
    (
        "2018-04-19 09:42:36.892837: W ./tensorflow/core/common_runtime/gpu/pool_allocator.h:195] "
        "could not allocate pinned host memory of size: 2304\n"
        "2018-04-19 09:42:36.892859: E tensorflow/stream_executor/cuda/cuda_driver.cc:967] failed "
        "to alloc 2304 bytes on host: CUDA_ERROR_UNKNOWN",
        "out_of_memory",
        "https://github.com/rishizek/tensorflow-deeplab-v3-plus/issues/8",
    ),
    (
        "job 3264830 exceeded MEM usage soft limit",
        "out_of_memory",
        "a warning: https://github.com/cBio/cbio-cluster/issues/257",
    ),
    (
        "Error: Fatal error occurred: 101. Command 'sbatch' produced exit code 1. Output: 'sbatch: "
        "error: Batch job submission failed: Job violates accounting/QOS policy (job submit "
        "limit, user's size and/or time limits)'",
        "user_code_error",
        "a quota reached: https://github.com/mlr-org/batchtools/issues/199",
    ),
    (
        "srun: error: Unable to allocate resources: Socket timed out on send/recv operation",
        "user_code_error",
        "a busy controller: https://github.com/AMDResearch/hpcfund/issues/83",
    ),
]


test_row = row_test(THIRTEENTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(THIRTEENTH + NOT)
