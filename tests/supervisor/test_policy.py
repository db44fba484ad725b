"""The supervisor's decisions (nonstop.supervisor.policy) on a table of cases: real log files,
no processes (the end-to-end tests only confirm the wiring)."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonstop.supervisor.policy import FailureInfo, Policy, classify

TRACEBACK = """Traceback (most recent call last):
  File "train.py", line 3, in <module>
    import missing_helper
ModuleNotFoundError: No module named 'missing_helper'
"""
RUNTIME = """Traceback (most recent call last):
  File "train.py", line 40, in <module>
    loss = step(batch)
RuntimeError: shapes cannot be multiplied (4x3 and 5x6)
"""
PEER = "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [127.0.0.1]:1234\n"


def log(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def info(
    path: Path,
    *,
    rank: int = 0,
    attempt: int = 0,
    exit_code: int = 1,
    step: int = -1,
    progressed: bool | None = True,
) -> FailureInfo:
    return FailureInfo(
        rank=rank,
        host="node-a",
        exit_code=exit_code,
        log_path=path,
        step=step,
        attempt=attempt,
        progressed=progressed,
    )


@pytest.mark.parametrize(
    ("text", "exit_code", "category", "root_cause"),
    [
        (RUNTIME, 1, "user_code_error", True),
        ("Fatal Python error: Segmentation fault\n", -11, "software_bug", True),
        (PEER, 1, "unknown", False),  # a survivor echoing its dead peer: secondary
        ("", -9, "unknown", True),  # a bare SIGKILL: the OOM killer or an operator
    ],
)
def test_classify_table(tmp_path, text, exit_code, category, root_cause):
    d = classify(info(log(tmp_path, "rank-0.log", text), exit_code=exit_code))
    assert (d.category, d.root_cause) == (category, root_cause), d


def test_every_rank_raising_the_same_error_counts_once_per_attempt(tmp_path):
    """Two ranks raise the same exception: one attempt, one retry (it used to count 2 and
    page at once on attempt 0 although a restart was taken)."""
    p = Policy()
    path = log(tmp_path, "rank.log", RUNTIME)
    first = [p.decide(info(path, rank=r, attempt=0, step=40)) for r in (0, 1)]
    assert [d.action for d in first] == ["restart", "restart"], [d.reason for d in first]
    second = p.decide(info(path, rank=0, attempt=1, step=40))
    assert second.action == "stop_and_page"
    assert "in 2 attempts" in second.reason, second.reason


def test_an_exception_before_any_progress_is_not_retried(tmp_path):
    """A script that raises at import: the retry would import the same code."""
    d = Policy().decide(info(log(tmp_path, "rank.log", TRACEBACK), progressed=False))
    assert d.action == "stop_and_page" and "before the job made any progress" in d.reason


def test_the_same_bug_memory_survives_a_supervisor_restart(tmp_path):
    memory = tmp_path / "control" / "policy.json"
    path = log(tmp_path, "rank.log", RUNTIME)
    assert Policy(path=memory).decide(info(path, attempt=0, step=40)).action == "restart"
    again = Policy(path=memory)  # a new `nonstop run` resuming the directory
    assert again.decide(info(path, attempt=1, step=40)).action == "stop_and_page"
    memory.write_text("[garbage")
    assert Policy(path=memory).seen == {}  # a garbage memory is an empty one


def test_a_hang_is_a_hang_not_an_nccl_watchdog_timeout(tmp_path):
    d = Policy().decide(
        FailureInfo(rank=1, host="node-a", hang_reason="stopped answering", attempt=0)
    )
    assert d.category == "hang" and d.action == "restart"


# A replica group's rank (torchft): its Manager absorbed a peer group's death at step 20
# (logged, with its traceback, and trained on), then the rank itself was SIGKILLed at step
# 219. Trimmed from a chaos run's log (benchmarks/chaos/replica_groups.py, seed 2).
TORCHFT_SURVIVED = """[train] group 0 step 20/284 loss 4.4645 replicas 2/2 250 ms/step
[nonstop_0:e9577fbc/0 - step 20] got exception waiting for work [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:46220. This is typically caused by a remote worker crashing.
Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/torchft/manager.py", line 1327, in wait
    self._work.wait()
RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:46220. This is typically caused by a remote worker crashing.
[nonstop_0:e9577fbc/0 - step 20] Unable to reset NCCL flight recorder recording so traces will be incorrect.
[train] group 0 step 210/284 loss 3.8925 replicas 2/2 250 ms/step
"""


def test_an_error_torchft_survived_is_not_what_a_later_failure_echoes(tmp_path):
    survived = log(tmp_path, "ft.log", TORCHFT_SURVIVED)
    d = classify(FailureInfo(rank=0, host="vm", exit_code=-9, log_path=survived))
    assert d.root_cause and d.category == "unknown", d
    # the same connection error as the rank's last words, not absorbed: still an echo
    died = log(tmp_path, "died.log", TORCHFT_SURVIVED + PEER)
    assert not classify(FailureInfo(rank=0, host="vm", exit_code=1, log_path=died)).root_cause


def test_the_process_exit_outranks_a_triage_guess(tmp_path):
    """A log no row matches may get the triage fallback's guess from its words; a fatal signal
    is firmer evidence and decides first (the guess stands only where nothing else does)."""
    from nonstop.diagnose.triage import triage_file

    words = "CA 'mlx5_2'\n\tPort 1:\n\t\tState: Down\n\t\tPhysical state: LinkUp\n"
    path = log(tmp_path, "rank-0.log", words)
    assert triage_file(path).guessed  # the words alone give a guess
    assert classify(info(path, exit_code=-11)).category == "software_bug"  # SIGSEGV decides
    d = classify(info(path, exit_code=2))
    assert d.category == triage_file(path).category and d.evidence, d  # nothing else: the guess


def test_the_process_exit_outranks_a_loss_spike_in_the_log(tmp_path):
    """A loss jump in the log's numbers (triage's series check) is weak evidence, as a guess
    is: an uncaught exception or a fatal signal decides first; alone, the spike stands."""
    from nonstop.diagnose.triage import triage_file

    # the Hugging Face Trainer's dicts from haotian-liu/LLaVA#918 (tests/diagnose/test_diag_spike.py)
    steps = (
        "{'loss': 0.6623, 'learning_rate': 0.00017682241998246423, 'epoch': 0.24}\n"
        "{'loss': 0.8022, 'learning_rate': 0.0001768026406281642, 'epoch': 0.24}\n"
        "{'loss': 4.2653, 'learning_rate': 0.00017678285394504535, 'epoch': 0.24}\n"
    )
    path = log(tmp_path, "rank-0.log", steps)
    assert triage_file(path).category == "loss_spike"
    assert classify(info(path, exit_code=2)).category == "loss_spike"  # nothing else: the spike
    assert classify(info(path, exit_code=-11)).category == "software_bug"  # SIGSEGV decides
    crashed = log(
        tmp_path,
        "rank-1.log",
        steps + 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n'
        "    step()\nRuntimeError: expected scalar type Float but found Half\n",
    )
    assert classify(info(crashed, exit_code=1)).category == "user_code_error"


def test_a_guessed_hardware_fault_restarts_and_never_excludes(tmp_path):
    """The triage fallback may name a hardware fault from a log's words (weak evidence, action
    restart); the supervisor keeps the category for the record and restarts: a guess never
    takes a node out of the job."""
    from nonstop.diagnose.triage import triage_file

    words = "Hardware event. This is not a software error.\nMCE 0\nCPU 3 BANK 0\n"
    path = log(tmp_path, "rank-0.log", words + "MCA: Internal parity error\n")
    v = triage_file(path)
    assert v.guessed and (v.category, v.action) == ("cpu", "restart"), v.to_dict()
    d = classify(info(path, exit_code=2))
    assert (d.category, d.action) == ("cpu", "restart"), d
