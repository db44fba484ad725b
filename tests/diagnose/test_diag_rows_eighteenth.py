"""Signature rows for the classes the eighteenth collection showed missing
(tests/corpus/real/README.md, eighteenth.jsonl, "After its rows", branch issue-27rows18). Each
row is tested on the eighteenth's excerpts and on other wordings of its class, with the near
misses it must not take."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone

from nonstop.diagnose import advice, triage


def _eighteenth(rid: str) -> str:
    return excerpt("eighteenth", rid)


EIGHTEENTH = [
    # (log text, category, why)
    # -- smartctl's attribute table: sectors pending or offline-uncorrectable
    (_eighteenth("129ef2b7de35"), "ssd", "eighteenth 129ef2b7de35 (val=/raw= table)"),
    (
        "197 Current_Pending_Sector  0x0012   100   100   000    Old_age   Always       -       8",
        "ssd",
        "smartctl -A's raw column",
    ),
    (
        "198 Offline_Uncorrectable   0x0010   100   100   000    Old_age   Offline      -       16",
        "ssd",
        "offline uncorrectable",
    ),
    # -- NCCL's shared-memory segment out of space, quoted without the path
    (_eighteenth("8b995988cf48"), "out_of_memory", "eighteenth 8b995988cf48 (shm segment)"),
    (
        "Error while creating shared memory segment nccl-abc (size 9637888): No space left on "
        "device",
        "out_of_memory",
        "creating ... No space left",
    ),
    # -- Horovod's stalled rank in a title's words
    (_eighteenth("6ff741d63e53"), "hang", "eighteenth 6ff741d63e53 (hang with stalled rank)"),
    ("Training hangs on stalled ranks after epoch 2 with Horovod", "hang", "hangs on stalled"),
    # -- a c10d store's get timing out at NCCL setup (the store rule: dependency)
    (_eighteenth("ab084d2e0fdb"), "dependency", "eighteenth ab084d2e0fdb (Timeout waiting)"),
    (
        excerpt("seventeenth", "ad6cf020c12e"),
        "dependency",
        "seventeenth ad6cf020c12e (Socket Timeout)",
    ),
    # -- a machine scheduled for a reboot or stop by its provider
    (_eighteenth("94caf8a10562"), "planned_stop", "eighteenth 94caf8a10562 (scheduled reboot)"),
    (
        "Your instance i-0abc is scheduled for a system reboot on 2024-03-02 04:00 UTC.",
        "planned_stop",
        "a system reboot",
    ),
    ("The node is scheduled to be rebooted at 02:00 for a kernel update.", "planned_stop", "to be"),
    # -- an NFS server or mount told hung or unreachable
    (_eighteenth("ed9074ad8c1a"), "storage", "eighteenth ed9074ad8c1a (unreachable nfs server)"),
    (_eighteenth("eedab7a599e6"), "storage", "eighteenth eedab7a599e6 (nfs mount hangs)"),
    ("All jobs froze because the NFS server went down overnight.", "storage", "went down"),
    ("the nfs mount hung and every dataloader worker blocked on read()", "storage", "hung"),
    # -- out of memory told in words
    (_eighteenth("7e0b5b0bbeba"), "out_of_memory", "eighteenth 7e0b5b0bbeba (goes OOM)"),
    (excerpt("fourteenth", "eb36a87f4e2e"), "out_of_memory", "fourteenth eb36a87f4e2e (ran out)"),
    ("rank 3 went OOM during the eval loop", "out_of_memory", "went OOM"),
    ("the node runs out of host memory after 4 hours", "out_of_memory", "runs out of host memory"),
    # -- a library built against one version, run against another
    (_eighteenth("d8fadb1e6cad"), "dependency", "eighteenth d8fadb1e6cad (libfabric)"),
    (
        "apex was built against CUDA 11.8 but is running with CUDA 12.1, so the kernels fail",
        "dependency",
        "built against ... but running with",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    (
        "197 Current_Pending_Sector  0x0012   100   100   000    Old_age   Always       -       0",
        "ssd",
        "no pending sector",
    ),
    ("Current_Pending_Sector   val=100 worst=100 thresh=000  raw=0", "ssd", "raw=0"),
    ("the stall inspector found no stalled ranks in 60 s", "hang", "no stalled ranks"),
    (
        excerpt("fourth", "ab58b99d5a8c"),
        "dependency",
        "fourth ab58b99d5a8c (a store's peer reset: unknown by the peer rule)",
    ),
    (
        "Is the node scheduled for a reboot tonight? It is not scheduled for a reboot.",
        "planned_stop",
        "not",
    ),
    ("The review is scheduled for a meeting next week.", "planned_stop", "no reboot"),
    ("If the NFS server is unreachable, the job waits for it.", "storage", "supposed"),
    ("The NFS mount no longer hangs since the upgrade.", "storage", "gone"),
    ("There was no unreachable nfs server in the logs.", "storage", "none"),
    ("With gradient checkpointing it no longer goes OOM.", "out_of_memory", "no longer"),
    ("The 7B model trains without running out of memory on one GPU.", "out_of_memory", "without"),
    ("It doesn't go OOM any more at batch size 8.", "out_of_memory", "negated"),
    (
        "torch was built against CUDA 12.1 and run against CUDA 12.1 without trouble",
        "dependency",
        "the same version, no but",
    ),
]

test_row = row_test(EIGHTEENTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(EIGHTEENTH + NOT)


# A chassis temperature sensor a person states broken (advice, `nonstop triage` only)
STATED = [
    (_eighteenth("7af3c63f6433"), "server_chassis"),  # "temperature sensors has broken down"
    ("The inlet temperature sensor on node7 is broken.", "server_chassis"),
    ("The chassis thermal sensor on gpu-3 failed.", "server_chassis"),
]
NOT_STATED = [
    "The GPU temperature sensor is broken.",  # a GPU's sensor is the GPU's, not the chassis's
    "If the temperature sensor has broken down, the BMC shuts the server down.",
    "Is the temperature sensor broken?",
    "The temperature sensor reading is broken in the dashboard.",
    "the training broke down after step 100",
]


@pytest.mark.parametrize(("text", "category"), STATED)
def test_a_sensor_stated_broken_is_read_as_advice(text: str, category: str) -> None:
    c = advice.conclusion(text)
    assert c is not None and c.category == category, c


@pytest.mark.parametrize("text", NOT_STATED)
def test_a_sensor_not_stated_broken_is_no_advice(text: str) -> None:
    assert advice.conclusion(text) is None


def test_a_sensor_stated_broken_is_advice_in_triage_only(tmp_path: Path) -> None:
    """Read by `nonstop triage` as advice; the rows alone never exclude a node on the words."""
    report = tmp_path / "report.txt"
    report.write_text(_eighteenth("7af3c63f6433") + "\n")
    v = triage.triage_file(report, descriptions=True)
    assert (v.category, v.action) == ("server_chassis", "exclude_node"), v.verdict
    assert v.confidence == advice.ADVICE_CONFIDENCE
    v = rows_alone(tmp_path, _eighteenth("7af3c63f6433"))
    assert v.action != "exclude_node", v.verdict
