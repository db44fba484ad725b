"""Failures told in words (issue 27, branch issue-27words): a part a person states failed (bad,
damaged, lost, not detected, dead or off the bus in a verb of its own), names as the cause, or
changed with the failure gone since, is an operator's conclusion (nonstop.diagnose.advice: advice
in `nonstop triage` only, never on the automated path); the host the person names with it is
the verdict's host; a hang told in other grammar is the `hang_words` row's. Each reading is tested
on wordings written for the class, not copied from the corpus, and on near misses: questions,
suppositions, negations, software parts, a part fixed since."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nonstop.diagnose import advice, signatures, triage

STATED = [
    # a part stated failed, after its subject
    ("One of the GPUs died during the night.", "faulty_gpu"),
    ("the HCA on node 5 is dead", "nic"),
    ("node 7's PSU failed this morning", "power_supply"),
    ("The DIMM in slot B2 was bad.", "system_memory"),
    ("Both power supplies were damaged by the surge.", "power_supply"),
    ("The system fan is gone, it makes no sound at all.", "server_chassis"),
    ("After the reboot one GPU is not detected any more.", "faulty_gpu"),
    ("Two SSDs are no longer visible to the controller.", "ssd"),
    ("our NIC randomly drops off the bus under load", "nic"),
    ("one GPU fell off the bus again on gpu-4-2", "faulty_gpu"),
    ("Every few hours one more GPU disappears from nvidia-smi.", "faulty_gpu"),
    ("The PSU turned out to be undersized for four cards.", "power_supply"),
    ("the power-supply of that box was burnt", "power_supply"),
    # hit, found or named as a dead part; a node come up short a part
    ("The nightly job hit a dead-GPU node again.", "faulty_gpu"),
    ("We found a faulty DIMM in c12 during the memtest.", "system_memory"),
    ("After the firmware update r4n7 came up short a GPU.", "faulty_gpu"),
    # the cause named as a bad part
    ("The reboots were caused by a failing PSU.", "power_supply"),
    ("Root cause is a defective NIC on that host.", "nic"),
    ("The crashes turned out to be a bad DIMM.", "system_memory"),
    # a part changed, the failure gone since
    ("I changed the power supply and the random reboots stopped.", "power_supply"),
    ("Swapped the fan. No more thermal shutdowns since.", "server_chassis"),
    ("We replaced the NVMe drive and haven't seen an I/O error since.", "ssd"),
    ("I swapped the DIMM and the random reboots went away.", "system_memory"),
    ("Changed the PSU from 750 W to 1000 W, no more crashes.", "power_supply"),
]

NOT_STATED = [
    # questions, suppositions, hedges
    "Is the GPU dead?",
    "Could the PSU be damaged?",
    "If the GPU is dead, drain the node.",
    "If one of the GPUs dies, the job restarts.",
    "I think the fan died.",
    "Maybe the reboots are caused by a failing PSU.",
    "Should I change the power supply, the crashes stopped after a reboot?",
    # negations, a part fixed since
    "The GPU is not dead, it was the driver.",
    "The DIMM was not bad after all.",
    "The GPU was lost after the reboot but it works now.",
    "One GPU disappeared from nvidia-smi, after a reboot it reappeared.",
    "The GPU vanishes from nvidia-smi, then comes back after a second reboot.",
    # software parts, a part that is no subject, an operation's failure
    "The GPU driver is broken after the update.",
    "the disk image is damaged",
    "the link to the GPU docs is dead",
    "The GPU failed to allocate 2 GiB.",
    "The GPU memory is missing from the report.",
    "the model checkpoint is lost",
    # a part gone in a sentence about software (an install's problem), a modal hedge, a
    # failover, a part good or bad at something, a drive that is no disk
    "My GPU is not detected by PyTorch after the update.",
    "The GPU is not detected in the docker container.",
    "This may be caused by a bad DIMM.",
    "It could be a bad GPU.",
    "The NIC failed over to the second port.",
    "the GPU is bad at fp64",
    "The shared drive is gone.",
    "I'm training with a bad GPU setup.",
    "The GPU allocation is broken in the scheduler.",
    # a failure named as a kind, no part stated failed
    "The health check covers an Xid, an ECC error or a GPU falling off the bus.",
    "The error is caused by a bad GPU index in the config.",
    "a weak GPU is slow for this model",
    # a change that fixed nothing, another device, no part
    "I replaced the PSU but it still crashes.",
    "I changed the GPU to the CPU and the error disappeared.",
    "I changed the batch size and the problem disappeared.",
    "We upgraded the GPUs and the throughput doubled.",
    "After I upgraded the GPU, the OOM errors went away.",
    "I changed the GPU to an A100 and the errors disappeared.",
    "I changed the GPU and training is faster, no more crashes.",
]


@pytest.mark.parametrize(("text", "category"), STATED)
def test_a_part_stated_failed_is_read(text: str, category: str) -> None:
    c = advice.conclusion(text)
    assert c is not None and c.category == category, (text, c)


@pytest.mark.parametrize("text", NOT_STATED)
def test_words_that_state_no_failed_part_are_not_read(text: str) -> None:
    assert advice.conclusion(text) is None


HOSTS = [
    ("please drain node12, one GPU is not working", "node12"),
    ("machine 47 has a bad GPU", "machine 47"),
    ("the HCA on gpu-node-03 is dead", "gpu-node-03"),
    ("We swapped the PSU in rack2-n07 on Tuesday.", "rack2-n07"),
    ("node3 is fine, but the GPU on node5 is dead", "node5"),
    ("The recent reboot of gpu-1-8 came up short a GPU.", "gpu-1-8"),
    ("sierra1133 lost a GPU overnight", "sierra1133"),
]

NO_HOST = [
    # no host, or one named outside the conclusion's clause, or no host at all but a model,
    # an index or a version
    "One of the GPUs died during the night.",
    "node3 was rebooted yesterday, but one of the GPUs died",
    "GPU3 is not detected",
    "the A100-SXM4-80GB card is dead",
    "the RTX3090 is dead after the update to CUDA 12",
]


@pytest.mark.parametrize(("text", "host"), HOSTS)
def test_the_host_named_with_the_conclusion_is_its_host(text: str, host: str) -> None:
    c = advice.conclusion(text)
    assert c is not None and c.host == host, (text, c)


@pytest.mark.parametrize("text", NO_HOST)
def test_no_host_is_named_where_the_clause_names_none(text: str) -> None:
    c = advice.conclusion(text)
    assert c is None or c.host is None, (text, c)


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "report.txt"
    path.write_text(text + "\n")
    return path


def test_triage_names_the_persons_host_in_the_verdict(tmp_path: Path) -> None:
    v = triage.triage_file(
        _file(tmp_path, "Please drain node12, one GPU is not working."), descriptions=True
    )
    assert (v.category, v.action) == ("faulty_gpu", "exclude_node")
    assert v.hosts == ["node12"]
    assert v.details["advice"]["host"] == "node12"
    assert v.verdict.startswith("Advice from an operator's words: Faulty GPU on node12 (")
    assert v.to_dict()["hosts"] == ["node12"]


def test_triage_keeps_the_given_host_when_the_person_names_none(tmp_path: Path) -> None:
    v = triage.triage_file(
        _file(tmp_path, "One of the GPUs died during the night."), host="n1", descriptions=True
    )
    assert v.action == "exclude_node" and v.hosts == ["n1"]
    assert v.details["advice"]["host"] is None and " on " not in v.verdict.split("(")[0]


def test_the_automated_path_never_excludes_a_node_on_these_words(tmp_path: Path) -> None:
    """triage_rank (the supervisor's policy, the ledger, `nonstop diagnose` of a run) and
    triage of a file no user handed over never read a person's words as advice: only a row
    may exclude there (`power_fault_words` reads "PSU failed" as a BMC prints it)."""
    log = tmp_path / "run" / "logs" / "attempt-0" / "rank-0.log"
    log.parent.mkdir(parents=True)
    for text in [t for t, _ in STATED] + [t for t, _ in HOSTS]:
        log.write_text(text + "\n")
        rows = triage.triage_file(log, fallback=False)
        v = triage.triage_rank(log, rank=0, host="node-a")
        assert v.details.get("guess", {}).get("from") != "operator", text
        assert v.action != "exclude_node" or (not v.guessed and rows.action == "exclude_node")
        got = triage.triage_file(log)
        assert got.action != "exclude_node" or (not got.guessed and rows.action == "exclude_node")
    rowless = [
        t
        for t, _ in STATED
        if triage.triage_file(_file(tmp_path, t), fallback=False).action != "exclude_node"
    ]
    assert len(rowless) >= len(STATED) - 2  # the words themselves, not rows, are what is tested


HANG = re.compile(signatures.BY_ID["hang_words"].pattern)

HUNG = [
    "the program would be hung up at random epochs",
    "the process is hung up.",
    "our training may stuck and never recover after a checkpoint",
    "when training stucks, GPU use is 100%",
    "the job always hang when the eval starts",
    "the script sometimes hang at the allreduce",
    "it got stuck after a few hundred iterations",
    "training got stuck after several thousand steps",
]

NOT_HUNG = [
    "if training stucks, restart it",
    "the loss stucks at 2.3",
    "training stucks with a loss of 2.3",
    "I will hang the picture",
    "you just hang out here",
    "the phone was hung up",
]


@pytest.mark.parametrize("text", HUNG)
def test_a_hang_told_in_other_grammar_is_read(text: str) -> None:
    assert HANG.search(text), text


@pytest.mark.parametrize("text", NOT_HUNG)
def test_words_that_tell_no_hang_are_not_read(text: str) -> None:
    assert not HANG.search(text), text


def test_the_prefilter_passes_the_new_hang_wordings(tmp_path: Path) -> None:
    """The rows run behind a literal prefilter (signatures.NEEDLES): each wording reaches the
    row through `nonstop triage` of a file."""
    for text in HUNG:
        v = triage.triage_file(_file(tmp_path, text), fallback=False)
        assert v.category == "hang", text


RAY_NODE_LOST = [
    "ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.\n"
    "The actor is dead because its node has died. Node Id: 8d0c2f",
    "Worker exit type: SYSTEM_ERROR Worker exit detail: Owner's node has crashed.",
]

RAY_NOT_NODE_LOST = [
    "The actor is dead because its owner has died. Owner Id: 01000000ffff",
    "The actor died because of an error raised in its creation task",
]


@pytest.mark.parametrize("text", RAY_NODE_LOST)
def test_rays_dead_node_is_a_lost_node(tmp_path: Path, text: str) -> None:
    v = triage.triage_file(_file(tmp_path, text), fallback=False)
    assert (v.category, v.action) == ("host_maintenance", "exclude_node"), v.verdict


@pytest.mark.parametrize("text", RAY_NOT_NODE_LOST)
def test_rays_dead_owner_or_actor_is_no_lost_node(tmp_path: Path, text: str) -> None:
    assert triage.triage_file(_file(tmp_path, text), fallback=False).category != "host_maintenance"
