"""An operator's stated hardware conclusion (nonstop.diagnose.advice): told by `nonstop triage` as
its category with its action, exclude_node for a part of the node, as advice read from words;
never in a run's rank logs (triage_rank), never over a row, never from a question, a
hypothetical, a negation, a part replaced by another model or in software, or a change that did
not fix it. The wordings are written for the class, not copied from the corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonstop.diagnose import advice, triage
from nonstop.diagnose.cli import triage_main

CONCLUDED = [
    # a verb on a named part, the part after it
    ("We swapped the PSU in gpu-rack2-07 on Tuesday.", "power_supply"),
    ("Replaced the fan on node12 this morning.", "server_chassis"),
    ("Ops replaced both DIMMs on c4-11 after the ECC alert.", "system_memory"),
    ("I RMA'd the card, the new one arrives Friday.", "faulty_gpu"),
    ("reseated the HCA on ib-leaf-n031 and the port trains at HDR again", "nic"),
    ("We replaced the failing NVMe drive in storage07.", "ssd"),
    ("swapped out the motherboard on hpc-22, it boots now", "server_chassis"),
    ("Datacenter team replaced the CPU in slot 1 of node-b.", "cpu"),
    ("replaced the optical cable between the leaf and n17", "network_switch_cable"),
    ("Replacing the riser card in r740-3 tomorrow.", "io_expansion_board"),
    ("opened an RMA for the GPU in slot 5 of dgx-02", "faulty_gpu"),
    # ... the part before it, in the passive
    ("The PSU on gpu07 was replaced after it tripped the breaker twice.", "power_supply"),
    ("The DIMM in slot A3 keeps logging errors, RMA'd.", "system_memory"),
    ("fan 4 on node-c needs replacing", "server_chassis"),
    ("We upgraded the power supply to 1600 W and the reboots stopped.", "power_supply"),
    # a verb on the node, with a part the text calls broken
    ("Please drain gpu-3-14, one of its GPUs is not working.", "faulty_gpu"),
    ("cn042 has a dead NIC, taking it out of the pool until the spare comes.", "nic"),
    ("The SSD in node33 is throwing errors.\nCan someone drain the node?", "ssd"),
    ("cordon worker-9, its GPU fell off the bus twice today", "faulty_gpu"),
    ("Removed gpu-7 from the pool: one GPU keeps dropping off the bus.", "faulty_gpu"),
    ("node12 was taken offline, its PSU is dead.", "power_supply"),
    # a repair said with a word of the gap, and an RMA in the passive
    ("We installed a replacement PSU in node7 yesterday.", "power_supply"),
    ("We pulled the failing DIMM from slot B1 of c3.", "system_memory"),
    ("GPU 2 of dgx-5 went back for RMA.", "faulty_gpu"),
]

NOT_CONCLUDED = [
    # asked, supposed, hedged
    "Should I replace my GPU or is this a driver problem?",
    "Do we need to swap the PSU, or could it be the BIOS?",
    "If the fan fails again we will replace it.",
    "Maybe we need to reseat the DIMMs on that node.",
    "I think I have to replace the power supply.",
    "How do I replace a DIMM in an R750?",
    "Thinking about replacing the NIC on node3 but not sure yet.",
    # denied
    "We did not replace any hardware, the job still fails the same way.",
    "No need to drain the node, the GPU is fine.",
    # another model, or in software
    "We replaced the V100s with A100s last month and now NCCL hangs.",
    "I replaced my RTX 3080 GPU with a 4090 and training got faster.",
    "Replace the GPU with the CPU in the config and it runs.",
    "We swapped the GPU driver to 550 and the error is gone.",
    "replace the fan curve in the BIOS to make it quieter",
    "Swapping the disk cache to tmpfs fixed the slow loader.",
    "drain the queue before the maintenance window please",
    "we fixed it in software by replacing the allocator",
    "swap space ran out on the login node",
    "Drain the node for the kernel upgrade tomorrow.",  # no part said broken
    "A drained node is resumed by hand, and a faulty GPU is what gets a node excluded.",  # a state
    "We installed a new GPU and now training crashes.",  # a new build, not a repair
    "I pulled the latest code and the GPU is fine.",
    "Took the GPU offline for the driver update.",
    # the change did not fix it
    "We swapped the PSU but it still crashes under load.",
    "Replaced the GPU. Same error after the reboot.",
    "We reseated all the DIMMs and the machine froze again an hour later.",
]


def _file(tmp_path: Path, text: str, name: str = "report.txt") -> Path:
    p = tmp_path / name
    p.write_text(text + "\n")
    return p


@pytest.mark.parametrize(("text", "category"), CONCLUDED)
def test_an_operators_conclusion_is_read(text: str, category: str) -> None:
    got = advice.conclusion(text)
    assert got is not None and got.category == category, got


@pytest.mark.parametrize("text", NOT_CONCLUDED)
def test_words_that_conclude_nothing_are_not_read(text: str) -> None:
    assert advice.conclusion(text) is None


def test_triage_tells_it_as_advice_that_excludes_the_node(tmp_path: Path, capsys) -> None:
    report = _file(tmp_path, "Please drain gpu-3-14, one of its GPUs is not working.")
    assert triage.triage_file(report).category == "unknown"  # rows and fallback: nothing
    v = triage.triage_file(report, descriptions=True)
    assert (v.category, v.action, v.guessed) == ("faulty_gpu", "exclude_node", True)
    assert v.confidence == advice.ADVICE_CONFIDENCE <= 0.3
    assert v.verdict.startswith("Advice from an operator's words: Faulty GPU")
    assert "not the machine's own evidence" in v.verdict
    assert v.details["guess"]["from"] == "operator"
    assert triage.file_json(v)["guessed_from"] == "operator"
    assert triage_main([str(report)]) == 0
    out = capsys.readouterr().out
    assert "faulty_gpu -> exclude_node (advice from an operator's words, confidence 0.3)" in out
    assert "[operator_conclusion] Please drain gpu-3-14" in out
    assert triage_main([str(report), str(report), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["overall"]["action"] == "exclude_node"
    assert got["overall"]["details"]["guess"]["from"] == "operator"


def test_a_cable_keeps_its_categorys_action(tmp_path: Path) -> None:
    """A network cable's category restarts (the fabric reroutes): advice names it, no more."""
    v = triage.triage_file(
        _file(tmp_path, "We replaced the network cable to n17, it was flapping all night."),
        descriptions=True,
    )
    assert (v.category, v.action) == ("network_switch_cable", "restart")


def test_a_short_operator_note_that_is_no_description_is_read(tmp_path: Path) -> None:
    """Too few prose words to be a description (prose.is_description), but a sentence: read."""
    from nonstop.diagnose import prose

    text = "Replace failing PSU in rack4-n2. Spare is on the shelf."
    assert not prose.is_description(text)
    v = triage.triage_file(_file(tmp_path, text), descriptions=True)
    assert (v.category, v.action) == ("power_supply", "exclude_node")


def test_a_log_line_is_never_read_as_an_operators_sentence(tmp_path: Path) -> None:
    """Only lines that do not look like a log line are read: a program's message about a
    replacement is no operator's conclusion."""
    log = _file(
        tmp_path,
        "2024-05-02 10:11:12 INFO replaced the GPU allocator block 3, swapped the PSU stats\n"
        "scheduler[311]: node12: drained, GPU health check failed",
    )
    assert advice.conclusion(log.read_text()) is None


def test_a_row_decides_over_advice(tmp_path: Path) -> None:
    log = _file(
        tmp_path,
        "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n"
        "We replaced the fan on this node last week.",
    )
    v = triage.triage_file(log, descriptions=True)
    assert not v.guessed and v.category == "faulty_gpu"


def test_a_long_log_is_never_read_for_advice(tmp_path: Path) -> None:
    text = "step done\n" * 40 + "We replaced the GPU on node12 and it crashed.\n"
    v = triage.triage_file(_file(tmp_path, text), descriptions=True)
    assert v.details.get("guess", {}).get("from") != "operator"


def test_a_runs_rank_log_never_excludes_a_node_on_words(tmp_path: Path) -> None:
    """triage_rank (the supervisor's policy, the ledger, `nonstop diagnose` of a run) never
    reads an operator's words: a rank log that says so is no machine's evidence."""
    log = tmp_path / "run" / "logs" / "attempt-0" / "rank-0.log"
    log.parent.mkdir(parents=True)
    for text in [t for t, _ in CONCLUDED]:
        log.write_text(text + "\n")
        v = triage.triage_rank(log, rank=0, host="node-a")
        assert v.action != "exclude_node" and v.details.get("guess", {}).get("from") != "operator"
        rows = triage.triage_file(log)  # nor does triage of a file unless a user handed it
        assert rows.action != "exclude_node"
