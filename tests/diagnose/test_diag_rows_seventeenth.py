"""Signature rows for the classes the seventeenth collection showed missing
(tests/corpus/real/README.md, seventeenth.jsonl, "After its rows", branch issue-27rows17). Each
row is tested on the seventeenth's excerpts and on other wordings of its class, with the near
misses it must not take; a part a person states broken (nonstop.diagnose.advice, advice in
`nonstop triage` only) and a GPU told lost (prose.TOLD) are tested here too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.prefilter import near_miss_test, prefilter_test, row_test, rows_alone

from nonstop.diagnose import advice, prose, triage

_CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "real" / "seventeenth.jsonl"


def _seventeenth(rid: str) -> str:
    with open(_CORPUS) as f:
        for line in f:
            if line.strip() and json.loads(line)["id"] == rid:
                return str(json.loads(line)["excerpt"])
    raise KeyError(rid)


SEVENTEENTH = [
    # (log text, category, why)
    # -- a hang told in words: the verb after its subject, stuck during training, in Chinese
    (_seventeenth("bba8fb575f4f"), "hang", "seventeenth bba8fb575f4f (training hangs using)"),
    (_seventeenth("3d5ee45c63ef"), "hang", "seventeenth 3d5ee45c63ef (script hangs with)"),
    (_seventeenth("2d1cc5e80cac"), "hang", "seventeenth 2d1cc5e80cac (it randomly hangs,)"),
    (_seventeenth("9be1e041a147"), "hang", "seventeenth 9be1e041a147 (but hangs when)"),
    (_seventeenth("ad8a8d3ca2bb"), "hang", "seventeenth ad8a8d3ca2bb (process hangs for)"),
    (_seventeenth("39ed2ed8c60c"), "hang", "seventeenth 39ed2ed8c60c (stuck during the training)"),
    (_seventeenth("32fa3689a4d2"), "hang", "seventeenth 32fa3689a4d2 (训练过程中卡死)"),
    ("With FSDP on 16 nodes the job hangs after the first eval.", "hang", "job hangs after"),
    ("My training just hangs.", "hang", "a sentence's end"),
    ("The program sometimes hangs when I set num_workers > 0", "hang", "sometimes hangs when"),
    ("it trains fine on one node but hangs at the first allreduce on two", "hang", "but hangs at"),
    ("The workers keep getting stuck in the middle of training.", "hang", "stuck in the middle"),
    ("多机训练时卡住，没有任何报错", "hang", "训练时卡住"),
    # -- a loss or a grad norm said to be nan
    (_seventeenth("75ca6a8bc0e8"), "numerical_nan", "seventeenth 75ca6a8bc0e8 (training_loss is)"),
    (_seventeenth("06c1483cc8ec"), "numerical_nan", "seventeenth 06c1483cc8ec (ESPnet grad norm)"),
    ("eval_loss was nan after epoch 3", "numerical_nan", "eval_loss was nan"),
    (
        "step 1200: the gradient norm became inf, skipping",
        "numerical_nan",
        "gradient norm became inf",
    ),
    # -- a native library's own assertion
    (_seventeenth("c597247e22aa"), "software_bug", "seventeenth c597247e22aa (PSM3)"),
    (_seventeenth("a26d5efd7631"), "software_bug", "seventeenth a26d5efd7631 (UCX)"),
    (
        "python: ../nptl/pthread_mutex_lock.c:81: __pthread_mutex_lock: Assertion "
        "`mutex->__data.__owner == 0' failed.",
        "software_bug",
        "glibc's mutex assert",
    ),
    # -- a node's cooling in HPE's and OpenBMC's records
    (
        _seventeenth("196a8d57dcb7"),
        "server_chassis",
        "seventeenth 196a8d57dcb7 (HPE thermal alert)",
    ),
    (
        "Message     : Node 1: SBB Canister 1 CPU1 at CRITICAL level (101 C).",
        "server_chassis",
        "CRITICAL",
    ),
    (_seventeenth("3186beabb323"), "server_chassis", "seventeenth 3186beabb323 (OpenBMC fans)"),
    # -- a SATA link corrupting its frames
    (_seventeenth("51aa3965bc24"), "ssd", "seventeenth 51aa3965bc24 (SError 10B8B)"),
    ("ata4: SError: { PHYRdyChg Dispar CommWake }", "ssd", "disparity error"),
    # -- a VM stopped for the provider's host maintenance
    (
        _seventeenth("b1d83f8665b7"),
        "planned_stop",
        "seventeenth b1d83f8665b7 (GCE host maintenance)",
    ),
    (
        "Our instances were terminated during host maintenance last night.",
        "planned_stop",
        "terminated",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    ("Training hangs are rare with NCCL 2.18, in our experience.", "hang", "the noun"),
    ("If training hangs, set NCCL_DEBUG=INFO and look at the last collective.", "hang", "supposed"),
    ("Since 2.1 the training no longer hangs at the barrier.", "hang", "gone"),
    ("The coat hangs on the hook by the door.", "hang", "no training"),
    ("my loss gets stuck during training at 0.69", "hang", "a loss stuck"),
    ("训练loss卡住不降了", "hang", "a loss stuck, in Chinese"),
    (
        _seventeenth("520dffc142fb"),
        "hang",
        "seventeenth 520dffc142fb (a library's incompatibility)",
    ),
    ("training_loss is not nan any more after the fix", "numerical_nan", "not nan"),
    ("We skip the step if the grad norm is nan.", "numerical_nan", "supposed"),
    (
        "../aten/src/ATen/native/cuda/Loss.cu:242: nll_loss_forward_reduce_cuda_kernel_2d: block: "
        "[0,0,0], thread: [0,0,0] Assertion `t >= 0 && t < n_classes` failed.",
        "software_bug",
        "CUDA's device-side assert is the script's index",
    ),
    ("Type        : Node Power Status Alert", "server_chassis", "another alert"),
    (
        "Fan speed is at the ALERT level threshold configured by the user",
        "server_chassis",
        "no record",
    ),
    ("ata1: SError: { PHYRdyChg CommWake }", "ssd", "a link coming up"),
    (_seventeenth("33eac41310d1"), "planned_stop", "seventeenth 33eac41310d1 (taken down)"),
    ("the host maintenance window is documented on the wiki", "planned_stop", "no stop"),
]

# A part a person states broken, lost or asks a replacement for (advice, triage only)
STATED = [
    (_seventeenth("e7be9ab53f5f"), "nic"),  # "InfiniBand card of some nodes are broken"
    (_seventeenth("8f611a2cf300"), "nic"),  # "lost the network daughter card", "a replacement"
    ("The PSU in rack 4 node 2 is dead.", "power_supply"),
    ("machine 12 has a faulty DIMM", "system_memory"),
    ("The fan on gpu-7 has failed.", "server_chassis"),
    ("The 10G card on the head node failed again. Ordered a replacement.", "nic"),
]
NOT_STATED = [
    "Is the GPU broken, or is it the driver?",
    "If the PSU is dead the node will not boot at all.",
    "I think the SSD is broken.",
    "The link to the GPU docs is broken.",
    "The GPU driver is broken on 550.",
    "The fan was broken, but it works now after a reseat.",
    "We lost a GPU hour to the restart.",
    "The NIC is not broken, it is the switch.",
    "the disk image is broken, rebuild it",
    "Waiting for a replacement laptop from IT.",
]

# a GPU told lost (prose.TOLD): weak evidence, restart
TOLD = [
    (_seventeenth("f9b03ed443a6"), "faulty_gpu"),  # "one GPU is loss after reboot"
    (
        "After the power cut we noticed one GPU was missing on node4 and it is still gone.",
        "faulty_gpu",
    ),
]


test_row = row_test(SEVENTEENTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(SEVENTEENTH + NOT)


@pytest.mark.parametrize(("text", "category"), STATED)
def test_a_part_stated_broken_is_read_as_advice(text: str, category: str) -> None:
    c = advice.conclusion(text)
    assert c is not None and c.category == category, c


@pytest.mark.parametrize("text", NOT_STATED)
def test_a_part_not_stated_broken_is_no_advice(text: str) -> None:
    assert advice.conclusion(text) is None


def test_a_part_stated_broken_is_advice_in_triage_only(tmp_path: Path) -> None:
    """Read by `nonstop triage` as advice (exclude_node at the advice's low confidence); the rows
    alone, as a run's rank logs are read, never exclude a node on the words."""
    report = tmp_path / "report.txt"
    report.write_text(_seventeenth("e7be9ab53f5f") + "\n")
    v = triage.triage_file(report, descriptions=True)
    assert (v.category, v.action) == ("nic", "exclude_node"), v.verdict
    assert v.confidence == advice.ADVICE_CONFIDENCE
    v = rows_alone(tmp_path, _seventeenth("e7be9ab53f5f"))
    assert v.action != "exclude_node", v.verdict


@pytest.mark.parametrize(("text", "category"), TOLD)
def test_a_gpu_told_lost_is_told(text: str, category: str) -> None:
    assert prose.is_description(text)
    assert prose.told(text) == category
