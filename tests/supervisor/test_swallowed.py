"""The supervisor's swallowed failures are seen (issue 26): a ledger write or read that fails in
the agent is a WARNING saying what was lost; a planned stop that cannot read whether the ranks
checkpoint takes the safe answer and says so; a flight recorder that fails beside one that
works is reported. Each on a real ledger that fails (closed: sqlite3.ProgrammingError)."""

from __future__ import annotations

import logging
import time
from types import SimpleNamespace

from support.fakes import AgentOps

from nonstop import rundir
from nonstop.ledger import Ledger
from nonstop.supervisor import bootstrap
from nonstop.supervisor.agent import NonstopAgent
from nonstop.supervisor.config import SupervisorConfig
from nonstop.supervisor.context import AgentContext
from nonstop.supervisor.planned_stop import PlannedStopMachine


def _broken_ledger(tmp_path):
    ledger = Ledger.open(tmp_path / "ledger.db")
    ledger.close()  # every call now raises sqlite3.ProgrammingError
    return ledger


def test_a_lost_ledger_write_in_the_agent_is_a_warning(tmp_path, caplog):
    agent = SimpleNamespace(attempt=2, ledger=_broken_ledger(tmp_path))
    with caplog.at_level(logging.WARNING, logger="nonstop.agent"):
        NonstopAgent._phase(agent, "spawn", time.time())  # type: ignore[arg-type]
    assert "recording the spawn phase (the restart table misses it)" in caplog.text
    assert "ProgrammingError" in caplog.text


def test_an_unreadable_mtbi_is_a_warning_not_a_silent_default(tmp_path, caplog):
    agent = SimpleNamespace(ledger=_broken_ledger(tmp_path))
    with caplog.at_level(logging.WARNING, logger="nonstop.agent"):
        assert NonstopAgent._observed_mtbi_s(agent) is None  # type: ignore[arg-type]
    assert "could not read the observed MTBI" in caplog.text


def test_an_unreadable_lifecycle_takes_the_safe_answer_and_says_so(tmp_path, caplog):
    cfg = SupervisorConfig(run_dir=rundir.RunDir(tmp_path), run_id="r", host="h")
    ctx = AgentContext(cfg=cfg, ledger=_broken_ledger(tmp_path), attempt=0)
    stops = PlannedStopMachine(ctx, AgentOps())
    with caplog.at_level(logging.WARNING, logger="nonstop.planned_stop"):
        # whether the ranks can checkpoint: ask them (and wait up to the grace period)
        assert stops._lifecycle_seen("stop_checks", unknown=True) is True
        # whether the scheduler signalled the ranks: no preemption invented
        assert stops._lifecycle_seen("stop_signal", unknown=False) is False
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("stop_checks" in m and "taking yes" in m for m in lines), lines
    assert any("stop_signal" in m and "taking no" in m for m in lines), lines


def test_a_failing_flight_recorder_beside_a_working_one_is_reported_once(caplog, monkeypatch):
    monkeypatch.setattr(bootstrap, "_warned", {})

    def nccl(*args):
        raise RuntimeError("no NCCL process group")

    # torch's c10d module as the bootstrap sees it: the generic recorder works, NCCL's fails
    c10d = SimpleNamespace(_dump_fr_trace=lambda *a: b"trace", _dump_nccl_trace=nccl)
    with caplog.at_level(logging.WARNING, logger="nonstop.bootstrap"):
        for _ in range(2):  # the watcher asks every tick; the dump says it every time
            blobs, errors = bootstrap._recorder_dumps(c10d, False, False, True)
            assert blobs == [b"trace"] and "no NCCL process group" in errors["_dump_nccl_trace"]
    warned = [r.getMessage() for r in caplog.records if "_dump_nccl_trace" in r.getMessage()]
    assert len(warned) == 1 and "no NCCL process group" in warned[0], warned
