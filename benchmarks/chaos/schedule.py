"""Seeded chaos schedules: which fault happens in which attempt, on which rank, at which step.

    from benchmarks.chaos.schedule import make_schedule, QUICK_KINDS
    s = make_schedule(seed=0, kinds=QUICK_KINDS)
    print(s.describe())

A schedule is a list of faults in the order they happen. Every fault that ends an attempt
(a dead or hung rank, a killed supervisor) is keyed to its own attempt number, and fault steps
grow from one attempt to the next, so each fault fires after the previous restart resumed from
its checkpoint (a restart never goes past the step it failed at). Faults that do not end the
attempt (a slow rank, a full disk) share the attempt of the next one. Standard library only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Final

# Expressed by nonstop's own injector (`nonstop run --inject`).
INJECTED: Final = (
    "sigkill",
    "sigstop",
    "slow",
    "exception",
    "diskfull",
    "param_bitflip",
    "nan",
    "spike",
)
# The numerical faults the runtime's guards catch and roll back (docs/health.md), and the
# category the ledger must show for each.
NUMERIC: Final = {
    "param_bitflip": "silent_data_corruption",
    "nan": "numerical_nan",
    "spike": "loss_spike",
}
HEALTH_ENV: Final = "min_history=5,spike_z=8"
"""The guards' settings in chaos runs ($NONSTOP_HEALTH): a spike is called 5 steps after a
restart (faults come 7+ steps apart), with a margin against the tiny model's noisy loss."""
# Done from outside by the harness, which watches the run directory and the process tree.
EXTERNAL: Final = (
    "kill_mid_write",  # SIGKILL a rank while a checkpoint's step-N.tmp is being written
    "bitflip",  # flip a byte in the newest committed checkpoint, then SIGKILL a rank
    "supervisor_kill",  # SIGKILL `nonstop run`, then start the same command again
    "rdzv_loss",  # kill the rendezvous store, start a fresh one, then SIGKILL a rank
    "kill_in_restart",  # SIGKILL a rank of the next attempt before its first step
    "kill_in_health_check",  # SIGKILL `nonstop run` during its health checks, start it again
)
KINDS: Final = INJECTED + EXTERNAL
# Faults that end their attempt (the next fault runs in the next attempt).
ENDS_ATTEMPT: Final = frozenset(KINDS) - {"slow", "diskfull", "kill_in_health_check"}
# Faults that happen during the recovery from the previous one, not at a step.
DURING_RECOVERY: Final = frozenset({"kill_in_restart", "kill_in_health_check"})
# A health-check kill needs the collective self-test, which runs after hangs and unknown
# failures (a SIGKILL is "unknown"), not after a user exception.
SELF_TESTED: Final = frozenset(
    {"sigkill", "sigstop", "kill_mid_write", "bitflip", "rdzv_loss", "kill_in_restart"}
    | {"param_bitflip"}
)

QUICK_KINDS: Final = ("sigkill", "diskfull", "bitflip", "supervisor_kill")
PACE_FACTOR: Final = 25.0
"""Every rank's compute phase is slowed this much in every attempt (`slow@factor=...,attempt=*`
without a rank): a sleep that changes no number, so that steps last tens of milliseconds and the
harness can act between two events. It is pacing, not a fault, and is not counted. It spares
step 0 (`from=1`): the first step's one-off costs, 25 times over, made an 18 s stall that the
watchdog learned as a pause, and seed 4's SIGSTOP then took 53 s to detect (2026-12-02)."""


@dataclass(frozen=True, kw_only=True)
class ChaosFault:
    kind: str
    """One of KINDS."""
    attempt: int
    """The attempt it happens in (for a health-check kill: the attempt whose failure is being
    recovered from)."""
    rank: int
    """The rank it hits (for supervisor kills: unused, 0)."""
    step: int
    """The step at (or after) which it fires; 0 for faults during a recovery."""
    to_step: int | None = None
    """diskfull and slow: the step where the disk is cleaned up / the rank is healthy again."""
    factor: float = 1.0
    """slow: how much slower the rank computes."""

    @property
    def external(self) -> bool:
        return self.kind in EXTERNAL

    def spec(self) -> str | None:
        """The `--inject` spec for injector faults, None for the harness's own."""
        where = f"rank={self.rank},attempt={self.attempt}"
        if self.kind == "sigkill":
            return f"crash@step={self.step},{where},signal=SIGKILL"
        if self.kind == "sigstop":
            return f"hang@step={self.step},{where}"
        if self.kind == "exception":
            return f"exception@step={self.step},{where}"
        if self.kind == "diskfull":
            return f"diskfull@step={self.step},{where},to={self.to_step}"
        if self.kind == "slow":
            return f"slow@{where},factor={self.factor:g},from={self.step},to={self.to_step}"
        if self.kind == "param_bitflip":
            return f"bitflip@step={self.step},{where}"
        if self.kind == "nan":
            return f"nan@step={self.step},{where}"
        if self.kind == "spike":  # every rank's batch: no rank
            return f"spike@step={self.step},attempt={self.attempt}"
        return None

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "attempt": self.attempt,
            "rank": self.rank,
            "step": self.step,
            "to_step": self.to_step,
            "spec": self.spec(),
        }


@dataclass(frozen=True, kw_only=True)
class Schedule:
    seed: int
    steps: int
    """Training steps in total."""
    checkpoint_every: int
    faults: list[ChaosFault] = field(default_factory=list)
    world_size: int = 2

    @property
    def attempts(self) -> int:
        """Attempts the run should take: one per attempt-ending fault, plus the clean one."""
        return sum(f.kind in ENDS_ATTEMPT for f in self.faults) + 1

    def injects(self) -> list[str]:
        """The `--inject` specs: the injector faults and the pacing."""
        specs = [s for f in self.faults if (s := f.spec()) is not None]
        return [*specs, f"slow@factor={PACE_FACTOR:g},attempt=*,from=1"]

    def skips(self, batches: int = 10) -> str:
        """$NONSTOP_SKIP_BATCHES for the reference run: the batches the guards will skip after
        each spike (the guards' default skip_batches), so that both runs train on the same data."""
        return ",".join(f"{f.step}:{batches}" for f in self.faults if f.kind == "spike")

    def describe(self) -> str:
        lines = [f"seed {self.seed}: {self.steps} steps, checkpoint every {self.checkpoint_every}"]
        for f in self.faults:
            lines.append(
                f"  attempt {f.attempt} step {f.step:>3} rank {f.rank}: {f.kind}"
                + (f" ({f.spec()})" if f.spec() else " (harness)")
            )
        return "\n".join(lines)


def _order(kinds: list[str], rng: random.Random) -> list[str]:
    """Shuffle, then make every recovery-time fault follow a fault it can recover from."""
    rng.shuffle(kinds)
    during = [k for k in kinds if k in DURING_RECOVERY]
    rest = [k for k in kinds if k not in DURING_RECOVERY]
    if not any(k in SELF_TESTED for k in rest) and during:
        rest.append("sigkill")  # nothing to recover from yet: add a crash to recover from
    for k in during:
        hosts = [
            i
            for i, x in enumerate(rest)
            if x in SELF_TESTED and (i + 1 == len(rest) or rest[i + 1] not in DURING_RECOVERY)
        ]
        if k == "kill_in_restart":  # the rank of the next attempt dies: any ending fault will do
            hosts = hosts or [i for i, x in enumerate(rest) if x in ENDS_ATTEMPT]
        i = rng.choice(hosts)
        rest.insert(i + 1, k)
    return rest


def make_schedule(
    *,
    seed: int,
    kinds: tuple[str, ...] | list[str] = KINDS,
    checkpoint_every: int = 5,
    gap: tuple[int, int] = (9, 13),
    world_size: int = 2,
) -> Schedule:
    """A schedule with one fault of each of `kinds`, in a seeded order at seeded steps/ranks."""
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ValueError(f"kinds: unknown fault kind {unknown[0]!r}; known: {', '.join(KINDS)}")
    rng = random.Random(seed)
    faults: list[ChaosFault] = []
    attempt, step = 0, checkpoint_every * 2 + 2  # two commits first: fallback has a target
    for kind in _order(list(kinds), rng):
        rank = rng.randrange(world_size)
        if kind in DURING_RECOVERY:
            owner = attempt if kind == "kill_in_restart" else attempt - 1
            faults.append(ChaosFault(kind=kind, attempt=owner, rank=rank, step=0))
            attempt += kind in ENDS_ATTEMPT
            continue
        if kind == "diskfull":  # long enough for one save to fail, then heal
            f = ChaosFault(
                kind=kind,
                attempt=attempt,
                rank=rank,
                step=step,
                to_step=step + checkpoint_every + 2,
            )
        elif kind == "slow":  # the online check runs every 20 steps over a 20-step window
            # and flags on 2 checks in a row (patience): 60 slow steps cover that in any phase
            f = ChaosFault(
                kind=kind, attempt=attempt, rank=rank, step=step, to_step=step + 60, factor=4.0
            )
        else:  # a spike poisons every rank's batch: the injector logs it as rank 0's
            f = ChaosFault(
                kind=kind, attempt=attempt, rank=0 if kind == "spike" else rank, step=step
            )
        faults.append(f)
        step = (f.to_step or step) + rng.randint(*gap)
        attempt += kind in ENDS_ATTEMPT
    return Schedule(
        seed=seed,
        steps=step + 4,
        checkpoint_every=checkpoint_every,
        faults=faults,
        world_size=world_size,
    )
