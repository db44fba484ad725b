"""How long the agent gives its ranks between SIGTERM and SIGKILL (failures.STOP_WAIT_S), and
which ranks it records as stopped by itself: FailureHandler.before_stop through its interfaces,
the ranks' exit codes from a stand-in for the agent (the end-to-end case is
tests/supervisor/test_run_startup_errors.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from support.fakes import AgentOps

from nonstop import rundir
from nonstop.ledger import Ledger
from nonstop.supervisor import torch_compat
from nonstop.supervisor.config import SupervisorConfig
from nonstop.supervisor.context import AgentContext
from nonstop.supervisor.failures import STOP_WAIT_S, FailureHandler
from nonstop.supervisor.watchdog import Watchdog


def _handler(tmp_path, codes: list[int | None], said: list[bool | None]) -> FailureHandler:
    cfg = SupervisorConfig(run_dir=rundir.RunDir(tmp_path), run_id="r", host="h")
    ctx = AgentContext(cfg=cfg, ledger=Ledger.open(tmp_path / "ledger.db"))
    ops = AgentOps(dict(enumerate(codes)), {lr: 10 + lr for lr in range(len(codes))})
    ctx.watchdog = Watchdog(ranks=[10 + lr for lr in range(len(codes))])
    for lr, quick in enumerate(said):
        ctx.watchdog.ranks[10 + lr].quick_stop = quick
    return FailureHandler(ctx, ops)


CASES = [
    # (exit codes so far, what each rank's heartbeat said, the wait, ranks noted as stopped)
    (
        "every survivor runs nonstop's handler",
        [-9, None, None],
        [True, True, True],
        STOP_WAIT_S,
        {11, 12},
    ),
    ("one runs the script's own handler", [-9, None, None], [True, True, False], None, {11, 12}),
    ("the script's handler on a rank already gone", [-9, None], [False, True], STOP_WAIT_S, {11}),
    ("not said yet: under half a second in", [-9, None], [True, None], STOP_WAIT_S, {11}),
    ("nothing left running", [0, 0], [True, True], None, set()),
]


@pytest.mark.parametrize(
    ("codes", "said", "wait", "stopped"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_wait_and_stopped_ranks(tmp_path, codes, said, wait, stopped) -> None:
    handler = _handler(tmp_path, codes, said)
    assert handler.before_stop() == wait
    assert handler._stopped_running == stopped  # global ranks


def test_before_close_shortens_torchs_wait_and_keeps_a_longer_one_out() -> None:
    calls = []

    def close(death_sig, timeout=30):
        calls.append(timeout)

    for hook_says, given, want in ((5.0, {}, 5.0), (None, {}, 30), (5.0, {"timeout": 2}, 2)):
        ctx = SimpleNamespace(_close=close)
        torch_compat.before_close(SimpleNamespace(_pcontext=ctx), lambda h=hook_says: h)
        ctx._close("SIGTERM", **given)
        assert calls[-1] == want
    ctx = SimpleNamespace(_close=close)
    torch_compat.before_close(SimpleNamespace(_pcontext=ctx), lambda: 5.0)
    ctx._close("SIGTERM", 30)  # positional, as an older caller might
    assert calls[-1] == 5.0


def test_a_scripts_own_heartbeat_leaves_what_the_bootstrap_said() -> None:
    from nonstop.events.schema import Event

    wd = Watchdog(ranks=[0])

    def beat(**payload: object) -> None:
        wd.observe(
            Event(
                run_id="r", attempt=0, rank=0, host="h", mono=0.0, time=0.0,
                kind="heartbeat", payload=payload,
            )
        )  # fmt: skip

    beat(step=1, source="bootstrap", sigterm="nonstop")
    beat(step=2)  # rt.heartbeat() in the training loop
    assert wd.ranks[0].quick_stop is True
    beat(step=3, source="bootstrap", sigterm="other")
    assert wd.ranks[0].quick_stop is False
