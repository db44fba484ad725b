"""Signature rows for the classes the twelfth collection showed missing (tests/corpus/real/README.md,
twelfth.jsonl, "After its rows", branch issue-27r12). Each row is tested on the twelfth's excerpt
and on other wordings of its class from other public sources (cited), never on invented lines,
with the near misses it must not take."""

from __future__ import annotations

import json
from pathlib import Path

from support.prefilter import near_miss_test, prefilter_test, row_test

_CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "real" / "twelfth.jsonl"


def _twelfth(rid: str) -> str:
    with open(_CORPUS) as f:
        for line in f:
            if line.strip() and json.loads(line)["id"] == rid:
                return str(json.loads(line)["excerpt"])
    raise KeyError(rid)


TWELFTH = [
    # (log text, category, why)
    # -- Horovod's stall inspector, its "Stalled ops:" list kept without the warning's start
    (_twelfth("bfaa84cb3c0c"), "hang", "twelfth bfaa84cb3c0c (horovod/horovod#100)"),
    (
        "Stalled ops: HorovodBroadcast_InceptionV3_Logits_Conv2d_1c_1x1_weights_0 "
        "[ready ranks: 5, 6, 3, 1, 4, 0]。",
        "hang",
        "https://github.com/horovod/horovod/issues/530",
    ),
    (
        "[1,0]<stderr>:Stalled ops:HorovodBroadcast_dense_1_bias_0 [missing ranks: 1]",
        "hang",
        "https://github.com/horovod/horovod/issues/1012",
    ),
    # -- DeepSpeed refusing a ZeRO checkpoint saved at another data-parallel size
    (_twelfth("9f765e366f0b"), "user_code_error", "twelfth 9f765e366f0b (Megatron-DeepSpeed#439)"),
    (
        "deepspeed.runtime.zero.utils.ZeRORuntimeException: The checkpoint being loaded used a DP "
        "world size of 4 but the current world size is 6. Automatic adjustment of ZeRO's "
        "optimizer state partitioning with a new world size is not currently supported.",
        "user_code_error",
        "https://github.com/deepspeedai/DeepSpeed/issues/2898",
    ),
    (
        "deepspeed.runtime.zero.utils.ZeRORuntimeException: The checkpoint being loaded used a DP "
        "world size of 256 but the current world size is 2. Automatic adjustment of ZeRO's "
        "optimizer state partitioning with a new world size is not currently supported.",
        "user_code_error",
        "https://github.com/THUDM/GLM/issues/136",
    ),
    (
        "when dp_world_size is 0, zero_sd_list will return empty list [], then the judgment is "
        "wrong.",
        "unknown",
        "near miss: the checkpoint's DP size in prose, https://github.com/deepspeedai/DeepSpeed/pull/4258",
    ),
    # -- the AWS Neuron collectives' bootstrap timing out at init
    (
        _twelfth("12c7cd7a38bc"),
        "dependency",
        "twelfth 12c7cd7a38bc (aws-neuron/aws-neuron-sdk#713)",
    ),
    (
        "2024-May-21 16:16:20.0229 58091:59050 [-1] bootstrap.cc:95 CCOM WARN Timeout waiting for "
        "incoming connection (waited 120 sec), [CommInitRankDev/-4]",
        "dependency",
        "https://github.com/aws-neuron/aws-neuron-sdk/issues/851",
    ),
    (
        "2024-May-21 16:16:20.0121 58091:58701 [0] include/socket.h:541 CCOM WARN Timeout waiting "
        "for RX (waited 120 sec) - retrying, [bootstrapInit, rank: 0/8/-1]",
        "dependency",
        "https://github.com/aws-neuron/aws-neuron-sdk/issues/851",
    ),
    # -- Azure ML's low-priority nodes preempted
    (
        _twelfth("5f792670370e"),
        "planned_stop",
        "twelfth 5f792670370e (MicrosoftDocs/azure-docs#66288)",
    ),
    (
        "The error message is UserError: AzureMLCompute job failed. PreemptionError: Nodes of this "
        "job got pre-empted. Check if the run has failed or restarted. Reason: Received "
        "pre-emption warning signal.",
        "planned_stop",
        "https://github.com/microsoft/MLOpsPython/issues/346",
    ),
    (
        "Whether Tasks in this job can be preempted by other high priority jobs",
        "unknown",
        "near miss: a setting's description, https://github.com/Azure/azure-rest-api-specs/pull/16960",
    ),
    # -- device memory exhausted under Level Zero (Intel XPU, SYCL)
    (_twelfth("ab09f31c7216"), "out_of_memory", "twelfth ab09f31c7216 (physical-ai-studio#440)"),
    (
        "RuntimeError: level_zero backend failed with error: 39 "
        "(UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)",
        "out_of_memory",
        "https://github.com/intel/torch-xpu-ops/issues/5432",
    ),
    (
        "CHIP error [TID 152291] [1693481190.609691528] : hipErrorTbd "
        "(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY ) in "
        "/home/pjaaskel/src/chip-spv/src/backend/Level0/CHIPBackendLevel0.cc:1374:enqueueBarrierImpl",
        "out_of_memory",
        "https://github.com/CHIP-SPV/chipStar/issues/612",
    ),
    # -- fp16 loss scale at 0, below 1, or DeepSpeed's at its floor of 1 and staying there
    (_twelfth("888f5a0c8efc"), "numerical_nan", "twelfth 888f5a0c8efc (whai362/PVT#94)"),
    (_twelfth("8b937a2cab89"), "numerical_nan", "twelfth 8b937a2cab89 (Chinese-LLaMA-Alpaca-2#97)"),
    (
        "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 0.5",
        "numerical_nan",
        "https://github.com/NVIDIA/apex/issues/834",
    ),
    (
        "[deepscale] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1",
        "numerical_nan",
        "https://github.com/deepspeedai/DeepSpeed/pull/1593",
    ),
    (
        "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 1.0",
        "unknown",
        "near miss: a scale of 1 on the way down, https://github.com/NVIDIA/apex/issues/834",
    ),
    (
        "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0",
        "unknown",
        "near miss: loss scaling at work, https://github.com/LEEYOONHYUNG/BVAE-TTS/issues/3",
    ),
    (
        "[2023-06-07 22:20:23,340] [INFO] [loss_scaler.py:181:update_scale] [deepspeed] OVERFLOW! "
        "Rank 0 Skipping step. Attempted loss scale: 16, reducing to 8",
        "unknown",
        "near miss: https://github.com/ymcui/Chinese-LLaMA-Alpaca/issues/534",
    ),
    (
        "[2023-04-28 06:51:29,903] [INFO] [loss_scaler.py:188:update_scale] [deepspeed] OVERFLOW! "
        "Rank 0 Skipping step. Attempted loss scale: 65536, but hysteresis is 2. Reducing "
        "hysteresis to 1",
        "unknown",
        "near miss: https://github.com/deepspeedai/DeepSpeed/issues/931",
    ),
]

# Lines near the new rows that must keep another reading: (log text, category it must not be, why)
NOT = [
    (
        "This was caused by an exception on one of the ranks or an attempt to allreduce, "
        "allgather or broadcast a tensor after one of the ranks finished execution.",
        "hang",
        "https://github.com/horovod/horovod/issues/534",
    ),
    (
        "RuntimeError: level_zero backend failed with error: 20 (UR_RESULT_ERROR_DEVICE_LOST)",
        "out_of_memory",
        "https://github.com/pytorch/pytorch/issues/190972",
    ),
    # "... error: 40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)" from the same thread was a near miss
    # here; the forty-fifth collection labels it out_of_memory (its 120a77e640a9) and
    # `level_zero_oom` reads it so since (tests/diagnose/test_diag_rows_fortyfifth.py)
]


test_row = row_test(TWELFTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(TWELFTH + NOT)
