"""When the next checkpoint is due: every N steps, every T seconds, or `auto`.

`auto` uses Daly's higher-order optimum (2006, eq. 37; see docs/checkpoint.md) from
`nonstop.sim.interval`, fed with the blocking time this run measured (the latest save's, so a
change in model size or storage shows at once) and the mean time between interruptions: the
configured one, else $NONSTOP_MTBI_S from the supervisor (the ledger's observation), else one
hour. `set_mtbi_s()` updates it live; the interval is recomputed at every decision.

    policy = IntervalPolicy(CheckpointConfig(), start_s=time.monotonic())
    if policy.due(step, time.monotonic()): ...save...; policy.saved(step, now, blocking_s)

The clock is passed in, never read here: tests drive it by hand.
"""

from __future__ import annotations

from nonstop.checkpoint.config import DEFAULT_FIRST_BLOCKING_S, CheckpointConfig
from nonstop.sim.interval import daly_interval_s


class IntervalPolicy:
    """Decides, from the step and a monotonic time, whether a save is due."""

    def __init__(self, config: CheckpointConfig, *, start_s: float, start_step: int = 0) -> None:
        self.config = config
        self._mtbi_s = config.resolved_mtbi_s()
        self._last_s = start_s
        self._last_step = start_step
        self._blocking_s: float | None = None

    @property
    def time_based(self) -> bool:
        """Whether decisions depend on the clock (and so must be agreed across ranks)."""
        return self.config.mode != "steps"

    @property
    def mtbi_s(self) -> float:
        return self._mtbi_s

    @property
    def blocking_s(self) -> float:
        """The blocking time `auto` plans with: the last measured, or a first guess."""
        return DEFAULT_FIRST_BLOCKING_S if self._blocking_s is None else self._blocking_s

    def set_mtbi_s(self, mtbi_s: float) -> None:
        """A new estimate of the mean time between interruptions (e.g. from the ledger)."""
        if not mtbi_s > 0:
            raise ValueError(f"mtbi_s must be > 0, got {mtbi_s!r}")
        self._mtbi_s = float(mtbi_s)

    def interval_s(self) -> float | None:
        """The current time interval: fixed, or Daly's optimum (floored); None for steps."""
        if self.config.mode == "steps":
            return None
        if self.config.every_s is not None:
            return float(self.config.every_s)
        tau = daly_interval_s(self.blocking_s, self._mtbi_s)
        return max(tau, self.config.min_interval_s)

    def due(self, step: int, now_s: float) -> bool:
        """Whether `step` (just completed) should be saved at time `now_s`."""
        if step <= self._last_step:
            return False
        if self.config.every_steps is not None:
            return step - self._last_step >= self.config.every_steps
        interval = self.interval_s()
        assert interval is not None
        return now_s - self._last_s >= interval

    def saved(self, step: int, now_s: float) -> None:
        """A save of `step` was taken (staged) at `now_s`: the next interval starts here."""
        self._last_step = step
        self._last_s = now_s

    def measured(self, blocking_s: float) -> None:
        """The blocking time of the latest save, for `auto`."""
        if blocking_s >= 0:
            self._blocking_s = blocking_s

    def describe(self) -> str:
        mode = self.config.mode
        if mode == "steps":
            return f"every {self.config.every_steps} steps"
        if mode == "seconds":
            return f"every {self.config.every_s:g} s"
        return (
            f"auto: Daly interval {self.interval_s():.0f} s from blocking "
            f"{self.blocking_s:.3g} s and MTBI {self._mtbi_s:.0f} s"
        )
