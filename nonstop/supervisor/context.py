"""What the node agent's parts share, and what they may ask of the agent.

NonstopAgent (agent.py) is composed of parts, each owning one concern and its own state:

    FailureHandler      (failures.py)     the reaction to failed and hung ranks
    PlannedStopMachine  (planned_stop.py) drains, restarts and preemptions with a checkpoint

The parts never see the agent or each other. They get an AgentContext, the run's state that
more than one of them reads or writes (one object per agent, shared by reference), and an
AgentOps, the few things only the agent can do: its monitor loop's reads and records, and
torch's worker processes (through torch_compat). The agent calls the parts through their
public methods; tests build the parts from a context and a stand-in for AgentOps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from torch.distributed.elastic.agent.server.api import WorkerGroup

    from nonstop.ledger import Ledger
    from nonstop.supervisor.config import SupervisorConfig
    from nonstop.supervisor.health import SelfTestPool
    from nonstop.supervisor.watchdog import Watchdog


@dataclass(eq=False)  # compared and hashed by identity: it keys the node's kernel-log watch
class AgentContext:
    """The state the agent and its parts share. The agent numbers the attempts and makes each
    attempt's watchdog; the parts read them, and set how `nonstop run` ends."""

    cfg: SupervisorConfig
    ledger: Ledger
    live: Any = None
    """The rich live view (live.py), or None."""
    attempt: int = -1
    """The current attempt's number (the agent's; agreed between nodes after a rendezvous)."""
    attempt_start: float = 0.0
    """Wall-clock start of the current attempt (the supervisor's start for the first)."""
    watchdog: Watchdog | None = None
    """The current attempt's watchdog: what each rank last said (step, finished, host)."""
    exit_code: int | None = None
    """`nonstop run`'s exit code once a part decided it (policy's EXIT_*); None: torch's."""
    exit_message: str = ""
    leaving: bool = False
    """True when this node leaves a job that goes on (excluded or drained): the rendezvous
    must stay open for the others."""
    self_tests: SelfTestPool | None = None
    """Interpreters that have imported torch for the collective self-test (health.py), or
    None (`--no-self-test`)."""


class AgentOps(Protocol):
    """What the parts ask of the agent (NonstopAgent implements it; tests stand in for it)."""

    def poll_events(self) -> None:
        """Read the ranks' new events into the watchdog now (their last words)."""

    def record_phase(self, phase: str, t0: float) -> None:
        """A restart-timeline phase from `t0` to now, into the ledger."""

    def ingest(self, force: bool = False) -> None:
        """The ranks' events into the ledger (the metrics and live view follow)."""

    def stop_workers(self, worker_group: WorkerGroup) -> None:
        """Stop this node's ranks (torch's teardown, timed)."""

    def restart_workers(self, worker_group: WorkerGroup) -> None:
        """Stop and start this node's ranks again (torch's restart)."""

    def exit_codes(self) -> dict[int, int | None] | None:
        """Each local rank's exit code so far (None: running); None without subprocesses."""

    def global_ranks(self) -> dict[int, int]:
        """Local rank -> global rank of the current workers."""

    def restarts_left(self) -> int:
        """The restarts torch will still make."""

    def no_more_restarts(self) -> None:
        """torch makes no more restarts: the next failure ends the agent's run."""

    def local_world_size(self) -> int:
        """Ranks on this node."""
