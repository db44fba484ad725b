"""nonstop inside the training loop: heartbeats, step timing, named sections, lifecycle events.

A few lines in the script make hang detection step-accurate and feed goodput accounting:

    import nonstop.runtime as ns
    rt = ns.init()                          # reads NONSTOP_RUN_DIR, RANK, ... set by `nonstop run`
    for step in range(start, steps):
        with rt.step(step) as st:           # heartbeat at entry, a `step` event at exit
            with st.phase("data"):
                x, y = loader.next_batch()
            with st.phase("compute"):
                loss = model.loss(x, y); loss.backward()
            with st.phase("optimizer"):
                opt.step(); opt.zero_grad()
            st.record(loss=loss.item(), tokens=x.numel())
        with ns.section("checkpoint"):      # slow phases never raise hang alarms
            save(...)

Without `nonstop run` (no NONSTOP_RUN_DIR) every call is a cheap no-op, so the same script runs
under plain torchrun. This module imports no torch.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from nonstop import envvars, log, rundir
from nonstop.events import EventWriter
from nonstop.faults import Fault, Injector
from nonstop.runtime.guards import Health

__all__ = ["Runtime", "StepTimer", "current", "init", "section"]

_current: Runtime | None = None


class StepTimer:
    """Times one step and its phases; emitted as one `step` event when the block exits."""

    def __init__(self, rt: Runtime, step: int) -> None:
        self.rt, self.step = rt, step
        self.fields: dict[str, Any] = {}
        self.start = 0.0
        """Wall time the step began (the event's `start`, for accounting)."""
        self._t0 = 0.0  # time.perf_counter() at the start: the step's duration
        self.slowed = False  # an injected slow fault was applied to the compute phase

    def __enter__(self) -> StepTimer:
        self.start = time.time()
        self._t0 = time.perf_counter()
        self.rt.heartbeat(self.step)
        if self.rt.faults:
            self.rt.faults.on_step(self.step)
        self.rt.health.before_step(self.step)  # a pending replay fingerprints the loaded state
        return self

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Time a phase: data, compute (forward+backward) or optimizer; stored as `<name>_s`.
        Where CUDA is in use, compute is also timed on the GPU with CUDA events
        (`compute_gpu_s`, nonstop.runtime.gputime): host timers see kernel launches only.
        `nonstop ctl RUN set phase_timing=off` drops the other phases' timing; compute stays,
        since straggler detection reads it (two clock reads per step)."""
        if not self.rt.phase_timing and name != "compute":
            yield
            return
        gpu = self.rt.gpu_timer() if name == "compute" else None
        gpu_start = gpu.start() if gpu is not None else None
        t0 = time.perf_counter()
        try:
            yield
            if name == "compute" and self.rt.faults:  # an injected straggler computes slower
                factor = self.rt.faults.slow_factor(self.step)
                if factor > 1.0:
                    time.sleep((factor - 1.0) * (time.perf_counter() - t0))
                    self.slowed = True
        finally:
            key = f"{name}_s"
            self.fields[key] = self.fields.get(key, 0.0) + time.perf_counter() - t0
            if gpu is not None:
                gpu.stop(gpu_start, self.step)

    def record(self, **fields: Any) -> None:
        """Attach values to the step event: loss, tokens, lr, ..."""
        self.fields.update(fields)

    def __exit__(self, typ: type | None, exc: BaseException | None, tb: object) -> None:
        if typ is None and self.rt.faults and not self.slowed:
            factor = self.rt.faults.slow_factor(self.step)  # no compute phase: the whole step
            if factor > 1.0:
                time.sleep((factor - 1.0) * (time.perf_counter() - self._t0))
        if typ is None:
            gpu = self.rt._gpu_timer
            if gpu:  # the newest compute phase the GPU has finished (a step or two ago)
                done = gpu.resolved()
                if done:
                    self.fields["compute_gpu_step"], self.fields["compute_gpu_s"] = done[-1]
            self.rt.emit("step", step=self.step, start=self.start, end=time.time(), **self.fields)
            # NaN/Inf, spikes and replica fingerprints, agreed by every rank (guards.py); on an
            # anomaly every rank records it and exits for a rollback
            self.rt.health.after_step(self.step, self.fields)


class Runtime:
    """The per-process handle. Create it with `init()`."""

    def __init__(
        self,
        *,
        run_dir: Path | None,
        run_id: str,
        attempt: int,
        rank: int,
        world_size: int,
        host: str,
    ) -> None:
        self.run_dir, self.run_id = run_dir, run_id
        self.attempt, self.rank, self.world_size, self.host = attempt, rank, world_size, host
        self.current_step = -1
        self.writer: EventWriter | None = None
        if run_dir is not None:
            path = rundir.RunDir(run_dir).events(attempt, rank)
            self.writer = EventWriter(path, run_id=run_id, attempt=attempt, rank=rank, host=host)
        self.faults = Injector.from_env(attempt=attempt, rank=rank, report=self._fault_fired)
        self.health = Health(self)
        """Numerical guards and replica fingerprints (`rt.health.watch(model)`; guards.py)."""
        self._gpu_timer: Any = None
        """nonstop.runtime.gputime.GpuTimer once CUDA is seen in use; False: looked, none."""
        self.phases_seen: set[str] = set()
        """Lifecycle phases this process has emitted (the bootstrap adds `finished` once)."""
        self.stop_at: int | None = None
        """Set (by the bootstrap's watcher) when this rank reads a planned stop: the step the
        agent saw last when it planned (see nonstop.supervisor.planned_stop, planned_stop_due)."""
        # live settings (`nonstop ctl`), applied by the bootstrap's watcher thread
        self.phase_timing = True
        self.fr_stacks = True
        self.telemetry: Any = None
        every = os.environ.get(envvars.STOP_CHECK_EVERY, "1")
        self.stop_check_every = max(1, int(every)) if every.isdigit() else 1
        self.stop_checks = 0
        """Calls of planned_stop_due so far: 0 means this script cannot be asked to checkpoint
        (the bootstrap's SIGTERM handler and the agent's planned stop both go by it)."""
        self._recorded_failure: BaseException | None = None

    def gpu_timer(self) -> Any:
        """The CUDA event timer for compute phases, or None (no CUDA in use). Looked up at the
        first compute phase, by when a GPU script has initialised CUDA."""
        if self._gpu_timer is None:
            from nonstop.runtime.gputime import GpuTimer

            self._gpu_timer = GpuTimer.for_process() or False
        return self._gpu_timer or None

    def planned_stop_due(self, steps_done: int) -> bool:
        """True when the run must checkpoint now and exit: a drain, a restart or a scheduler's
        preemption warning (SIGTERM, SIGUSR1) is planned. Call it on every rank after each
        optimizer step with the number of steps done; every rank gets the same answer.

        Each rank's watcher thread reads the plan on its own clock, so ranks see it at
        different steps; agreeing on a step number ahead of time fails when steps are short and
        a watcher is late. Instead the ranks decide together: every `stop_check_every` steps
        (env NONSTOP_STOP_CHECK_EVERY, default 1) they all-reduce (MAX) one integer, "I have
        seen a plan", and all stop at the first check where any of them has. That costs one
        one-element all-reduce per check, as Megatron-LM's exit-signal handler does per step,
        unless the guards' check of this step already spanned every rank: its rows carry the
        same flag, read when it ran (`rt.health.stop_agreed`), so one collective serves both.
        """
        seen = self.stop_at is not None
        self.stop_checks += 1
        if self.stop_checks == 1:  # tells the agent that a planned stop gets a checkpoint here
            self.lifecycle("stop_checks", step=self.current_step)
        if self.run_dir is None or steps_done % self.stop_check_every:
            return False  # no run directory: no supervisor can plan a stop, nothing to agree on
        import torch.distributed as dist

        if not (dist.is_available() and dist.is_initialized()) or dist.get_world_size() == 1:
            return seen
        agreed = self.health.stop_agreed
        if agreed is not None and agreed[0] == steps_done:
            return agreed[1]
        import torch

        from nonstop.device import collective_device

        device = collective_device()  # LOCAL_RANK's GPU on NCCL, never the current device
        flag = torch.tensor([int(seen)], dtype=torch.int32, device=device)
        dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        return bool(flag.item())

    def _fault_fired(self, fault: Fault, message: str) -> None:
        # Written and flushed before the fault fires: the injector's own record of it.
        self.emit(
            "failure",
            message=message,
            injected=True,
            fault=fault.kind,
            step=self.current_step,
            spec=fault.spec,
        )
        if self.writer is not None:
            self.writer.flush(timeout_s=2.0)

    @property
    def enabled(self) -> bool:
        return self.writer is not None

    def emit(self, kind: str, /, **payload: Any) -> None:
        if self.writer is not None:
            self.writer.emit(kind, **payload)

    def step(self, step: int) -> StepTimer:
        return StepTimer(self, step)

    def heartbeat(self, step: int | None = None) -> None:
        if step is not None:
            self.current_step = step
        self.emit("heartbeat", step=self.current_step)

    @contextlib.contextmanager
    def section(self, name: str, limit_s: float | None = None) -> Iterator[None]:
        """A named slow phase (checkpoint, eval, data_load): the watchdog allows it more time
        (the section timeout). With `limit_s`, a call that gives up by itself after that many
        seconds (a collective or quorum with its own timeout): the watchdog allows it only
        the running timeout plus `limit_s`, and only while the rank still answers."""
        extra = {} if limit_s is None else {"limit_s": float(limit_s)}
        self.emit("section", name=name, phase="begin", step=self.current_step, **extra)
        try:
            yield
        finally:
            self.emit("section", name=name, phase="end", step=self.current_step)

    def lifecycle(self, phase: str, **payload: Any) -> None:
        """attempt_start, pg_ready, resumed (step=last loaded step), finished."""
        self.phases_seen.add(phase)
        self.emit("lifecycle", phase=phase, **payload)

    def failure(self, exc: BaseException) -> None:
        # once per exception: the bootstrap records it, then hands it to sys.excepthook to
        # print, and this module's hook is in that chain
        if exc is self._recorded_failure:
            return
        self._recorded_failure = exc
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-4000:]
        self.emit(
            "failure",
            type=type(exc).__name__,
            message=str(exc)[:2000],
            step=self.current_step,
            traceback=tb,
        )

    def close(self) -> None:
        if self.faults:  # which injected faults never fired here, and why
            self.faults.report_unfired(self.emit)
        if self.writer is not None:
            self.writer.close()


def init(*, run_dir: str | os.PathLike[str] | None = None) -> Runtime:
    """Create (once per process) the runtime from the launcher's environment variables."""
    global _current
    if _current is not None:
        return _current
    env = os.environ
    root = run_dir if run_dir is not None else env.get(rundir.ENV_RUN_DIR)
    rt = Runtime(
        run_dir=Path(root) if root else None,
        run_id=env.get(rundir.ENV_RUN_ID, "local"),
        attempt=int(env.get(rundir.ENV_ATTEMPT) or env.get(rundir.ENV_TORCH_ATTEMPT) or 0),
        rank=int(env.get(envvars.RANK, "0")),
        world_size=int(env.get(envvars.WORLD_SIZE, "1")),
        host=env.get(rundir.ENV_HOST) or socket.gethostname(),
    )
    _current = rt
    if rt.enabled:
        rt.lifecycle("attempt_start", world_size=rt.world_size, pid=os.getpid())
        _install_excepthook(rt)
    return rt


def current() -> Runtime | None:
    return _current


def section(name: str, limit_s: float | None = None) -> contextlib.AbstractContextManager[None]:
    """`with nonstop.runtime.section("checkpoint"):` — a no-op when init() was not called."""
    if _current is None:
        return contextlib.nullcontext()
    return _current.section(name, limit_s)


def _install_excepthook(rt: Runtime) -> None:
    previous = sys.excepthook

    def hook(typ: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if exc is rt._recorded_failure:  # the bootstrap recorded it and closed: print only
            previous(typ, exc, tb)
            return
        with log.swallowed(
            log.get("runtime"), "recording the uncaught exception (its failure event is lost)"
        ):
            rt.failure(exc)
            rt.close()
        previous(typ, exc, tb)

    sys.excepthook = hook
