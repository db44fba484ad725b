"""Signature rows for the classes the fifteenth collection showed missing
(tests/corpus/real/README.md, fifteenth.jsonl, "After its rows", branch issue-27rows15). Each row
is tested on the fifteenth's excerpts and on other wordings of its class, with the near misses it
must not take; a power supply blamed in a description is read by prose.TOLD, tested here too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.prefilter import near_miss_test, prefilter_test, row_test

from nonstop.diagnose import prose, triage

_CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "real" / "fifteenth.jsonl"


def _fifteenth(rid: str) -> str:
    with open(_CORPUS) as f:
        for line in f:
            if line.strip() and json.loads(line)["id"] == rid:
                return str(json.loads(line)["excerpt"])
    raise KeyError(rid)


FIFTEENTH = [
    # (log text, category, why)
    # -- no GPU device as nvidia-smi and the Kubernetes device plugin say it (the driver)
    (_fifteenth("521e1106e6b6"), "dependency", "fifteenth 521e1106e6b6 (k8s-device-plugin#414)"),
    (_fifteenth("7fab68401079"), "dependency", "fifteenth 7fab68401079 (nvidia-docker#933)"),
    ("$ nvidia-smi\nNo devices were found", "dependency", "nvidia-smi"),
    (
        "I0301 10:00:01.000000 1 main.go:256] No devices found. Waiting indefinitely.",
        "dependency",
        "plugin",
    ),
    # -- a pre-emption, a low-priority termination or a cloud's maintenance reboot told in words
    (_fifteenth("e5dc3bac9442"), "planned_stop", "fifteenth e5dc3bac9442 (lightning#4265)"),
    (_fifteenth("58ea47a76cd1"), "planned_stop", "fifteenth 58ea47a76cd1 (cloud-pipeline#397)"),
    (_fifteenth("9f4d2b2185ec"), "planned_stop", "fifteenth 9f4d2b2185ec (skypilot#1739)"),
    ("Two of our spot VMs got preempted overnight and the run stopped.", "planned_stop", "words"),
    (
        "The jobs were pre-empted by higher-priority work on the shared queue.",
        "planned_stop",
        "words",
    ),
    ("The low priority nodes were evicted by Azure Batch at 03:10.", "planned_stop", "words"),
    ("Our GCE nodes were rebooted by Google Cloud last night.", "planned_stop", "words"),
    (
        "The instance was rebooted for scheduled maintenance by the provider.",
        "planned_stop",
        "words",
    ),
    # -- a hang told in words
    (_fifteenth("974ea542c740"), "hang", "fifteenth 974ea542c740 (fairseq#3083)"),
    (_fifteenth("cd6191cb71cb"), "hang", "fifteenth cd6191cb71cb (detectron2#767)"),
    ("The distributed job keeps hanging at the first epoch on 4 nodes.", "hang", "words"),
    ("Training hanging forever after the first checkpoint save.", "hang", "words"),
    ("After the warmup it just hangs there with 100% GPU utilisation.", "hang", "words"),
    # -- a jump in the loss told in words
    (_fifteenth("eda3f0dea69d"), "loss_spike", "fifteenth eda3f0dea69d (DPR#205)"),
    (_fifteenth("670bfeb178e1"), "loss_spike", "fifteenth 670bfeb178e1 (nepa#7)"),
    ("There is a sudden jump in the validation loss at step 40k.", "loss_spike", "words"),
    ("We see a big jump in val loss after resuming from the checkpoint.", "loss_spike", "words"),
    # -- an Inf loss or NaN gradients told in words
    (_fifteenth("e7a5bc462d26"), "numerical_nan", "fifteenth e7a5bc462d26 (keras#16552)"),
    ("Got inf loss after a few hundred steps with fp16.", "numerical_nan", "words"),
    ("NaN gradients appear in the attention layer after epoch 3.", "numerical_nan", "words"),
    # -- SIGILL as mpirun and the shells word it (a build for another CPU)
    (_fifteenth("1e0bba6f49b9"), "dependency", "fifteenth 1e0bba6f49b9 (horovod#926)"),
    (
        "mpirun noticed that process rank 3 with PID 4121 on node gpu01 exited on signal 4 "
        "(Illegal instruction).",
        "dependency",
        "mpirun",
    ),
    ("$ python -c 'import tensorflow'\nIllegal instruction", "dependency", "bash"),
    ("Illegal instruction: 4", "dependency", "macOS"),
    # -- gloo cannot connect its full mesh when the process group is created (network setup)
    (_fifteenth("ec1294e77b48"), "dependency", "fifteenth ec1294e77b48 (Megatron-LM#877)"),
    (_fifteenth("f0d14d546c86"), "dependency", "fifteenth f0d14d546c86 (caffe2#360)"),
    (
        "RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/"
        "pair.cc:144] no error",
        "dependency",
        "torch 2.x",
    ),
    (
        "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:799] Connect "
        "timeout [10.0.0.2]:45031",
        "dependency",
        "torch 1.x",
    ),
    # -- the c10d stores' older "Wait timeout"
    (_fifteenth("dc5323cf8734"), "dependency", "fifteenth dc5323cf8734 (gloo#148)"),
    (
        '  File "/usr/lib/python3/dist-packages/torch/distributed/rendezvous.py", line 88\n'
        "RuntimeError: Wait timeout",
        "dependency",
        "a traceback's last line",
    ),
    # -- the Hugging Face Hub's timeouts told in words
    (_fifteenth("b9214cb161b0"), "dependency", "fifteenth b9214cb161b0 (SfMNeXt-Impl#24)"),
    ("Loading the tokenizer fails: HuggingFace Hub timed out after 10 s.", "dependency", "words"),
    ("下载权重时 Hugging Face Hub 连接超时", "dependency", "in Chinese, spaced"),
    # -- a TPU core halted on an on-device check (the runtime's or compiler's fault)
    (_fifteenth("02c2e2e8aaef"), "software_bug", "fifteenth 02c2e2e8aaef (pytorch/xla#7138)"),
    (_fifteenth("df6fea613f2c"), "software_bug", "fifteenth df6fea613f2c (jax#19118)"),
    (
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Core halted unexpectedly: INTERNAL: "
        "Accelerator device halted prematurely, perhaps due to an on-device check-failure.",
        "software_bug",
        "jaxlib",
    ),
    (
        "E0301 10:00:00.000000 1234 real_program_continuator.cc:1331] 0x0x0_TC1: *** Halt is "
        "unexpected, all pending programs will fail.",
        "software_bug",
        "another core",
    ),
]

NOT = [
    # devices not found that are no GPU
    ("No devices found in /dev/disk/by-id", "dependency", "a disk listing"),
    ("No device was found at that address.", "dependency", "singular"),
    # a pre-emption word or a reboot that is no planned stop
    ("Nodes were preempted (node failure) by the scheduler.", "planned_stop", "node failure"),
    ("The node was rebooted by the admin after the crash.", "planned_stop", "an admin"),
    ("The low priority queue is full, so the job waits.", "planned_stop", "a queue"),
    # hanging that is no hang
    ("Use a hanging indent in the config file.", "hang", "an indent"),
    ("Leave the worker hanging around until the next job starts.", "hang", "idle"),
    # jumps that are not in the loss
    ("We got a huge jump in throughput after enabling flash attention.", "loss_spike", "speed"),
    ("There is a sudden jump in accuracy at epoch 10.", "loss_spike", "accuracy"),
    # inf and nan that are no non-finite loss or gradient
    ("An inf loss scale is reset to 65536 by the scaler.", "numerical_nan", "a loss scale"),
    ("The informative gradients help the probe.", "numerical_nan", "inform"),
    # illegal instructions that are no CPU mismatch
    ("RuntimeError: CUDA error: an illegal instruction was encountered", "dependency", "a kernel"),
    ("mpirun noticed that process rank 0 exited on signal 9 (Killed).", "dependency", "SIGKILL"),
    # gloo losing a peer mid-run (a symptom), not the mesh at start-up
    (
        "[../third_party/gloo/gloo/transport/tcp/pair.cc:575] Connection closed by peer [10.1.1.1]:1234",
        "dependency",
        "peer closed",
    ),
    ("RuntimeError: Wait timeout exceeded for lock file /tmp/x.lock", "dependency", "a lock"),
    # the hub named without a timeout
    ("Push the checkpoint to the Hugging Face Hub when training ends.", "dependency", "upload"),
    # a halt that is no fault
    ("The TPU halted as expected after the last step.", "software_bug", "planned halt"),
]

# A power supply blamed in a description: prose.TOLD, weak evidence (restart, never exclude_node)
PSU_TOLD = [
    _fifteenth("be988d17f393"),
    "Turned out the PSU was too weak for two 3090s, the box kept rebooting.",
    "The random reboots during training were due to a failing power supply.",
]
PSU_NOT_TOLD = [
    _fifteenth("ccb5348fa992"),  # a PSU left unplugged during setup: labelled unknown
    "We checked the power supply and it is fine, the reboots go on.",
    "The PSU is a 1600 W unit and the GPUs draw 700 W under load.",
]


test_row = row_test(FIFTEENTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FIFTEENTH + NOT)


@pytest.mark.parametrize("text", PSU_TOLD)
def test_a_power_supply_blamed_in_words_is_told(text: str) -> None:
    assert prose.told(text) == "power_supply"


@pytest.mark.parametrize("text", PSU_NOT_TOLD)
def test_a_power_supply_merely_named_is_not_told(text: str) -> None:
    assert prose.told(text) is None


def test_the_told_power_supply_restarts(tmp_path: Path) -> None:
    """be988d17f393 as `nonstop triage FILE` reads it: the category, but a restart, since a
    reporter's words are weak evidence and a wrong exclude_node costs a node."""
    report = tmp_path / "report.txt"
    report.write_text(_fifteenth("be988d17f393") + "\n")
    v = triage.triage_file(report)
    assert (v.category, v.action) == ("power_supply", "restart")
