"""Signature rows for the classes the sixteenth collection showed missing
(tests/corpus/real/README.md, sixteenth.jsonl, "After its rows", branch issue-27rows16). Each row
is tested on the sixteenth's excerpts and on other wordings of its class, with the near misses it
must not take; the failures a description tells in so many words (prose.TOLD: a damaged power
supply, a thermal protection shutdown, a GPU a node lost) are tested here too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.prefilter import near_miss_test, prefilter_test, row_test, rows_alone

from nonstop.diagnose import prose, triage

_CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "real" / "sixteenth.jsonl"


def _sixteenth(rid: str) -> str:
    with open(_CORPUS) as f:
        for line in f:
            if line.strip() and json.loads(line)["id"] == rid:
                return str(json.loads(line)["excerpt"])
    raise KeyError(rid)


SIXTEENTH = [
    # (log text, category, why)
    # -- GPU memory exhausted as the frameworks that call cudaMalloc themselves say it
    (_sixteenth("86a4a0ff1dce"), "out_of_memory", "sixteenth 86a4a0ff1dce (mxnet#5340)"),
    (_sixteenth("8618ea765a96"), "out_of_memory", "sixteenth 8618ea765a96 (insightface#257)"),
    (
        "mxnet.base.MXNetError: [09:12:03] src/storage/pooled_storage_manager.h:157: "
        "cudaMalloc retry failed: out of memory",
        "out_of_memory",
        "MXNet 1.x retry",
    ),
    (
        "F0301 10:00:00.000000  4242 syncedmem.cpp:56] Check failed: error == cudaSuccess "
        "(2 vs. 0)  out of memory",
        "out_of_memory",
        "Caffe",
    ),
    (
        "  Out of memory error on GPU 1. Cannot allocate 1.500244GB memory on GPU 1, 1.2GB "
        "memory has been allocated and available memory is only 300.0MB.",
        "out_of_memory",
        "Paddle",
    ),
    # -- out of memory said in Chinese (host or GPU memory)
    (_sixteenth("f7990272e2ab"), "out_of_memory", "sixteenth f7990272e2ab (Paddle#20784)"),
    ("训练到第3个epoch时显存不足，程序退出", "out_of_memory", "显存不足"),
    ("数据集太大，加载时内存溢出了", "out_of_memory", "内存溢出"),
    ("batch size 调到 64 就爆显存", "out_of_memory", "爆显存"),
    # -- the driver refusing the GPU installed: the driver's choice, not the GPU
    (
        _sixteenth("df0fc79b12a1"),
        "dependency",
        "sixteenth df0fc79b12a1 (open-gpu-kernel-modules#1027)",
    ),
    (
        "NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:1c82) installed in this system is not "
        "supported by the NVIDIA 550.54.14 driver release.\n"
        "NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:1017)",
        "dependency",
        "too old for the release, then RmInitAdapter",
    ),
    (
        "NVRM: The NVIDIA GeForce GT 710 GPU installed in this system is supported through the "
        "NVIDIA 470.xx Legacy drivers.",
        "dependency",
        "a legacy GPU",
    ),
    (
        "NVRM: The NVIDIA GPU 0000:3b:00.0 (PCI ID: 10de:1db4) installed in this system is not "
        "supported by open nvidia.ko because it does not include the required GPU",
        "dependency",
        "the open module on a pre-GSP GPU",
    ),
    (
        "[    5.5598] NVRM: ... requires use of the NVIDIA open kernel modules.",
        "dependency",
        "elided",
    ),
    # -- a DIMM past the BMC's own threshold of corrected errors (the vendor's replace signal)
    (_sixteenth("fee2c5ccbea6"), "system_memory", "sixteenth fee2c5ccbea6 (ITIL-Storage#21)"),
    (
        "Corrected Memory Error threshold exceeded (Processor 2, Memory Module 7)",
        "system_memory",
        "HPE IML",
    ),
    (
        "Memory Logging Limit Reached for DIMM 5 on Subsystem System Memory",
        "system_memory",
        "Lenovo IMM",
    ),
    # -- a hang told in words: stuck or frozen at some step, a program hanging in a call
    (_sixteenth("ab37dd6aa832"), "hang", "sixteenth ab37dd6aa832 (pai#2959)"),
    (_sixteenth("ab76e3e13bf8"), "hang", "sixteenth ab76e3e13bf8 (fairseq#810)"),
    (_sixteenth("fac2582a432e"), "hang", "sixteenth fac2582a432e (Open-Sora#637)"),
    (_sixteenth("6c22b0b70fb3"), "hang", "sixteenth 6c22b0b70fb3 (UD farber)"),
    ("The job keeps getting stuck at the same iteration every time.", "hang", "keeps getting"),
    ("My program hangs in dist.barrier() on the second node.", "hang", "hangs in"),
    ("Training seems to freeze after a few epochs with no error.", "hang", "seems to freeze"),
    ("It often gets stuck at step 2000 and never recovers.", "hang", "gets stuck at step"),
    # -- loss spikes seen, in the plural
    (_sixteenth("9301deebc938"), "loss_spike", "sixteenth 9301deebc938 (spd#87)"),
    ("We observed frequent loss spikes after raising the learning rate.", "loss_spike", "words"),
    ("I'm getting loss spikes every few thousand steps with bf16.", "loss_spike", "words"),
    # -- a pre-emption or a spot interruption told in words
    (_sixteenth("c3f091a7f1ba"), "planned_stop", "sixteenth c3f091a7f1ba (sagemaker#1040)"),
    (_sixteenth("5ed7fbaa5766"), "planned_stop", "sixteenth 5ed7fbaa5766 (EveryVoice#183)"),
    (_sixteenth("812be254a73f"), "planned_stop", "sixteenth 812be254a73f (EGG#192)"),
    ("Our spot VMs were interrupted twice during the night.", "planned_stop", "spot words"),
    (
        "The node received a preemption from the scheduler and the run was requeued.",
        "planned_stop",
        "received a preemption",
    ),
    (
        "Pods being preempted by higher-priority workloads lose their progress.",
        "planned_stop",
        "being preempted",
    ),
    # -- an object store's writer failing on its local staging file (TensorFlow's GCS and S3)
    (_sixteenth("5b8551525f53"), "storage", "sixteenth 5b8551525f53 (tensorflow#37132)"),
    (
        "tensorflow.python.framework.errors_impl.InternalError: Could not append to the "
        "internal temporary file.",
        "storage",
        "the Python error",
    ),
    ("INTERNAL: Could not write to the internal temporary file.", "storage", "on sync"),
    # -- a GPU node whose GPUs are no generic resource at all (Slurm)
    (_sixteenth("048242e1ff39"), "dependency", "sixteenth 048242e1ff39 (soperator#1521)"),
    ("   Gres=(null)", "dependency", "scontrol show node"),
    ("GRES is (null) on all the GPU nodes after the upgrade.", "dependency", "words"),
]

NOT = [
    # a cudaMalloc that failed for another reason
    ("cudaMalloc failed: invalid argument", "out_of_memory", "not memory"),
    # memory named in Chinese, not exhausted: its use, enough of it, a leak
    ("显存占用只有1G左右，但好像没有在训练", "out_of_memory", "use (the fourteenth)"),
    ("看了下CPU内存也是足够的", "out_of_memory", "enough"),
    ("内存泄漏导致速度越来越慢", "out_of_memory", "a leak"),
    # the driver loading, and a GPU it does support
    ("NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.14", "dependency", "load"),
    # corrected memory errors without a vendor threshold, and a DIMM blamed in words
    ("Correctable ECC @ DIMMA1(CPU1) - Asserted", "system_memory", "one corrected"),
    (_sixteenth("19b12d83b294"), "system_memory", "an operator's words (left alone)"),
    # I/O errors on a device-mapper volume: it may be a remote one (the third's rows: storage;
    # e2f4f63e4d5e, labelled ssd, left alone)
    (_sixteenth("e2f4f63e4d5e"), "ssd", "sixteenth e2f4f63e4d5e, dm-1 (left alone)"),
    # stuck or frozen that is no hang
    ("The loss gets stuck at 6.9 for many epochs.", "hang", "a loss plateau"),
    ("The accuracy is stuck at the same epoch value.", "hang", "accuracy"),
    ("We freeze the backbone after 2 epochs.", "hang", "frozen layers"),
    # loss spikes that were not seen
    ("No loss spikes were seen with the smaller learning rate.", "loss_spike", "none"),
    ("How do we avoid loss spikes in long runs?", "loss_spike", "a question"),
    # pre-emption and spot words that are no stop
    ("The job gets preemption priority 3 in this partition.", "planned_stop", "a priority"),
    ("Spot instances can be interrupted at any time, so save often.", "planned_stop", "advice"),
    ("I can't spot the interruption handler bug.", "planned_stop", "spot the verb"),
    ("Jobs were preempted (node failure) and requeued.", "planned_stop", "node failure"),
    # a temporary file that is fine
    ("Created the internal temporary file /tmp/tf_upload_1.", "storage", "created"),
    # generic resources that are configured, and a (null) of another kind
    ("   Gres=gpu:a100:8(S:0-1)", "dependency", "configured"),
    ("oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/", "dependency", "oom-kill"),
]

# Failures a description tells in so many words (prose.TOLD): weak evidence, restart
TOLD = [
    (_sixteenth("d0c0ac4fb275"), "power_supply"),  # "power supply was damaged"
    (
        "The PSU was fried by a lightning strike, and since then we get reboots under load.",
        "power_supply",
    ),
    (_sixteenth("5695c093cc4f"), "server_chassis"),  # "thermal protection shutdown events"
    (
        "Since the heatwave our server logs a thermal trip shutdown every afternoon, it seems.",
        "server_chassis",
    ),
    (_sixteenth("a24e7f8afa6e"), "faulty_gpu"),  # "came up short a GPU"
    ("After the firmware update we noticed node7 came back one GPU short.", "faulty_gpu"),
    ("gpu-3-2 lost a GPU during the weekend and we had to reseat it.", "faulty_gpu"),
]
NOT_TOLD = [
    "We run it on a machine without a GPU, and it was slow but fine.",
    "We lost a GPU hour to the restart, which is fine by me.",
    "The fans are quiet and the PSU is brand new, but it still reboots.",
]


test_row = row_test(SIXTEENTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(SIXTEENTH + NOT)


def test_the_driver_refusing_a_gpu_never_excludes_a_node(tmp_path: Path) -> None:
    """df0fc79b12a1 was the sixteenth's one wrong exclude_node at first sight: the RmInitAdapter
    failure that follows the driver's refusal read as a faulty GPU. Alone, it still does."""
    v = rows_alone(tmp_path, _sixteenth("df0fc79b12a1"))
    assert (v.category, v.action) == ("dependency", "restart"), v.verdict
    v = rows_alone(tmp_path, "NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x25:0x65:1401)")
    assert (v.category, v.action) == ("faulty_gpu", "exclude_node"), v.verdict


@pytest.mark.parametrize(("text", "category"), TOLD)
def test_a_failure_told_in_words_is_told(text: str, category: str) -> None:
    assert prose.is_description(text)
    assert prose.told(text) == category


@pytest.mark.parametrize("text", NOT_TOLD)
def test_words_that_tell_no_failure_are_not_told(text: str) -> None:
    assert prose.told(text) is None


def test_the_told_gpu_is_advice_in_triage_only(tmp_path: Path) -> None:
    """a24e7f8afa6e, "gpu-1-8 came up short a GPU": a node that lost a part, as the fifteenth's "has
    lost a GPU", is an operator's conclusion (nonstop.diagnose.advice, issue-27words; this test
    said restart before): `nonstop triage FILE` tells it as advice, exclude_node at the advice's
    low confidence, on the host the operator names; a run's rank log never excludes on words."""
    report = tmp_path / "report.txt"
    report.write_text(_sixteenth("a24e7f8afa6e") + "\n")
    v = triage.triage_file(report, descriptions=True)
    assert (v.category, v.action, v.guessed) == ("faulty_gpu", "exclude_node", True)
    assert v.details["guess"]["from"] == "operator" and v.hosts == ["gpu-1-8"]
    assert triage.triage_rank(report, rank=0, host="n1").action == "restart"
