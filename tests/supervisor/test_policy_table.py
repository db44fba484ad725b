"""`Policy.decide` on a table of FailureInfo cases: real log files, no processes, no clock.

Each row is what one rank's failure looked like (its log's last lines, exit code, step,
attempt, whether the attempt had progressed) and what the supervisor must decide: the category,
the action and whether it is a root cause. Sequences check the run-level memory: a repeat is
counted once per attempt, a stop_and_page category gets one retry, the same failure at the
same step in two attempts stops, a secondary failure is never counted, and a script that
fails before any progress is not retried. The end-to-end tests only confirm the wiring.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from nonstop.runtime.guards import EXIT_ROLLBACK
from nonstop.supervisor.policy import FailureInfo, Policy

LOGS = {
    "user_error": 'Traceback (most recent call last):\n  File "train.py", line 40, in <module>\n'
    "    loss = step(batch)\nRuntimeError: shapes cannot be multiplied (4x3 and 5x6)\n",
    "import_error": 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
    "    import missing_helper\nModuleNotFoundError: No module named 'missing_helper'\n",
    "oom": 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n'
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
    "xid79": "NVRM: Xid (PCI:0000:3b:00): 79, pid=123, name=python3, GPU has fallen off the bus.\n",
    "ecc": "RuntimeError: CUDA error: uncorrectable ECC error encountered\n",
    "disk_full": "Traceback (most recent call last):\n"
    "OSError: [Errno 28] No space left on device: '/ckpt/step-10'\n",
    "nccl_timeout": "[rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective "
    "operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE) ran for 600000 milliseconds before "
    "timing out.\n",
    "ib_retry": "NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1234> with error 12, "
    "opcode 0, len 0, vendor err 129 (Recv) localGid ::ffff:10.0.0.1 hca mlx5_0 port 1 retry "
    "exceeded\n",
    "store_timeout": "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for "
    "clients. 1/2 clients joined.\n",
    "segfault": "Fatal Python error: Segmentation fault\n",
    "peer_closed": "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] "
    "Connection closed by peer [127.0.0.1]:1234\n",
    "empty": "",
}
LOGS["peer_closed_after_xid"] = LOGS["xid79"] + LOGS["peer_closed"]
# the chaos run's phantom (seed 4, attempt 10): a full disk this rank's checkpoint survived,
# then its peer's death
LOGS["peer_closed_after_survived_disk_full"] = (
    "nonstop[host vm attempt 10 rank 0] nonstop.checkpoint: checkpoint of step 185 failed, "
    "training goes on: rank 1: OSError: [Errno 28] No space left on device\n" + LOGS["peer_closed"]
)


@dataclass(frozen=True)
class Case:
    log: str
    exit_code: int | None
    category: str
    action: str
    root_cause: bool = True


# One failure, a fresh policy: the category, its action and whether it is a root cause.
SINGLE = {
    "an uncaught exception is the user's, retried once": Case(
        "user_error", 1, "user_code_error", "restart"
    ),
    "CUDA out of memory, retried once": Case("oom", 1, "out_of_memory", "restart"),
    "Xid 79 excludes the node": Case("xid79", -9, "faulty_gpu", "exclude_node"),
    "uncorrectable ECC excludes the node": Case("ecc", 1, "gpu_hbm3_memory", "exclude_node"),
    "a full disk is storage: restart": Case("disk_full", 1, "storage", "restart"),
    "the NCCL watchdog: restart": Case("nccl_timeout", -6, "nccl_watchdog_timeout", "restart"),
    "InfiniBand retry exceeded is the network": Case(
        "ib_retry", 1, "network_switch_cable", "restart"
    ),
    "a store timeout is a dependency": Case("store_timeout", 1, "dependency", "restart"),
    "a segfault is a software bug": Case("segfault", -11, "software_bug", "restart"),
    "a bare SIGKILL is unknown (OOM killer or an operator)": Case(
        "empty", -9, "unknown", "restart"
    ),
    "a survivor echoing its dead peer is secondary": Case(
        "peer_closed", 1, "unknown", "restart", root_cause=False
    ),
    "an echo that also names the GPU is a root cause": Case(
        "peer_closed_after_xid", 1, "faulty_gpu", "exclude_node"
    ),
    "an echo after a full disk it survived is secondary": Case(
        "peer_closed_after_survived_disk_full", 1, "unknown", "restart", root_cause=False
    ),
}


def write_log(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.log"
    path.write_text(LOGS[name])
    return path


def failure(
    tmp_path: Path,
    log: str,
    *,
    exit_code: int | None = 1,
    rank: int = 0,
    attempt: int | None = 0,
    step: int | None = 40,
    progressed: bool | None = True,
) -> FailureInfo:
    return FailureInfo(
        rank=rank,
        host="node-a",
        exit_code=exit_code,
        log_path=write_log(tmp_path, log),
        step=step,
        attempt=attempt,
        progressed=progressed,
    )


@pytest.mark.parametrize("case", list(SINGLE.values()), ids=list(SINGLE))
def test_one_failure(tmp_path: Path, case: Case) -> None:
    d = Policy().decide(failure(tmp_path, case.log, exit_code=case.exit_code))
    assert (d.category, d.action, d.root_cause) == (case.category, case.action, case.root_cause), (
        d.reason
    )


# The same failure (same log, same step) in attempts 0, 1, 2 with a fresh policy: the actions.
REPEATED = {
    "user code: a retry, then stop": (
        "user_error",
        1,
        ["restart", "stop_and_page", "stop_and_page"],
    ),
    "out of memory: a retry, then stop": ("oom", 1, ["restart", "stop_and_page", "stop_and_page"]),
    "a segfault at the same step twice is deterministic": (
        "segfault",
        -11,
        ["restart", "stop_and_page", "stop_and_page"],
    ),
    "a full disk with an exception line twice stops": (
        "disk_full",
        1,
        ["restart", "stop_and_page", "stop_and_page"],
    ),
    "the NCCL watchdog (no exception line) keeps restarting": ("nccl_timeout", -6, ["restart"] * 3),
    "the network keeps restarting": ("ib_retry", 1, ["restart"] * 3),
    "a bad GPU is excluded every time": ("xid79", -9, ["exclude_node"] * 3),
    "a secondary failure is never counted": ("peer_closed", 1, ["restart"] * 3),
}


@pytest.mark.parametrize(
    ("log", "exit_code", "actions"), list(REPEATED.values()), ids=list(REPEATED)
)
def test_the_same_failure_in_three_attempts(tmp_path, log, exit_code, actions):
    policy = Policy()
    got = [policy.decide(failure(tmp_path, log, exit_code=exit_code, attempt=a)) for a in range(3)]
    assert [d.action for d in got] == actions, [d.reason for d in got]


def test_a_stop_names_the_step_and_the_number_of_attempts(tmp_path):
    policy = Policy()
    policy.decide(failure(tmp_path, "user_error", attempt=0, step=40))
    d = policy.decide(failure(tmp_path, "user_error", attempt=1, step=40))
    assert d.action == "stop_and_page"
    assert "the same failure at step 40 in 2 attempts: deterministic" in d.reason, d.reason


def test_every_rank_failing_alike_in_one_attempt_counts_once(tmp_path):
    policy = Policy()
    first = [policy.decide(failure(tmp_path, "oom", rank=r, attempt=0)) for r in range(4)]
    assert [d.action for d in first] == ["restart"] * 4, [d.reason for d in first]
    assert policy.seen and all(v == [0] for v in policy.seen.values()), policy.seen


def test_without_an_attempt_number_each_report_is_a_new_attempt(tmp_path):
    """The documented fallback: with `attempt=None` the policy cannot tell ranks of one
    attempt apart from attempts, so the second report of the same failure stops."""
    policy = Policy()
    got = [policy.decide(failure(tmp_path, "user_error", attempt=None)).action for _ in range(2)]
    assert got == ["restart", "stop_and_page"]


def test_the_same_exception_at_another_step_is_a_new_failure(tmp_path):
    policy = Policy()
    got = [
        policy.decide(failure(tmp_path, "user_error", attempt=a, step=s)).action
        for a, s in enumerate((40, 80, 120))
    ]
    assert got == ["restart", "restart", "restart"]
    assert policy.decide(failure(tmp_path, "user_error", attempt=3, step=80)).action == (
        "stop_and_page"
    )


def test_a_secondary_failure_does_not_use_up_the_retry_of_the_root_cause(tmp_path):
    policy = Policy()
    echo = policy.decide(failure(tmp_path, "peer_closed", rank=1, attempt=0))
    assert not echo.root_cause and echo.reason.startswith("secondary (a peer failed first)")
    assert policy.seen == {}  # not counted at all
    root = policy.decide(failure(tmp_path, "user_error", rank=0, attempt=0))
    assert root.action == "restart" and "retrying once" in root.reason


# Failures before the attempt made any progress (at import, in setup).
NO_PROGRESS = {
    "an exception at import is not retried": ("user_error", 1, False, "stop_and_page"),
    "a missing module is not retried": ("import_error", 1, False, "stop_and_page"),
    "a dependency that fails at startup is not retried": (
        "store_timeout",
        1,
        False,
        "stop_and_page",
    ),
    "progress unknown: the usual single retry": ("user_error", 1, None, "restart"),
    "after progress: the usual single retry": ("user_error", 1, True, "restart"),
    "storage before progress is still transient": ("disk_full", 1, False, "restart"),
    "a bad GPU before progress is still the GPU": ("xid79", -9, False, "exclude_node"),
    "a segfault before progress is restarted": ("segfault", -11, False, "restart"),
}


@pytest.mark.parametrize(
    ("log", "exit_code", "progressed", "action"), list(NO_PROGRESS.values()), ids=list(NO_PROGRESS)
)
def test_no_retry_before_progress(tmp_path, log, exit_code, progressed, action):
    d = Policy().decide(failure(tmp_path, log, exit_code=exit_code, progressed=progressed))
    assert d.action == action, d.reason
    if action == "stop_and_page" and log != "xid79":
        assert "before the job made any progress" in d.reason


def test_a_hang_restarts_however_often_it_repeats():
    policy = Policy()
    got = [
        policy.decide(
            FailureInfo(rank=1, host="node-a", hang_reason="stopped answering", step=12, attempt=a)
        )
        for a in range(3)
    ]
    assert [(d.category, d.action) for d in got] == [("hang", "restart")] * 3


def test_a_rollback_exit_has_one_root_cause_per_attempt_and_the_others_echo_it():
    nan = {"kind": "nan", "attempt": 0, "step": 20, "ranks": [1], "detail": "non-finite loss"}
    policy = Policy()
    first, second = (
        policy.decide(
            FailureInfo(rank=r, host="node-a", exit_code=EXIT_ROLLBACK, anomalies=[nan], attempt=0)
        )
        for r in (0, 1)
    )
    assert (first.category, first.action, first.root_cause) == ("numerical_nan", "restart", True)
    assert (second.category, second.root_cause) == ("numerical_nan", False)
    # a NaN again near the same step after the rollback: stop and page
    again = {**nan, "attempt": 1, "detail": "again"}
    d = policy.decide(
        FailureInfo(
            rank=0, host="node-a", exit_code=EXIT_ROLLBACK, anomalies=[nan, again], attempt=1
        )
    )
    assert (d.action, d.root_cause) == ("stop_and_page", True), d.reason
