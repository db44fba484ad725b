"""Deterministic fault injection, keyed by (attempt, rank, step), shipped with the package.

Faults are given on the command line (`nonstop run --inject SPEC`, repeatable) or in the
environment (`NONSTOP_FAULTS="SPEC;SPEC"`), with no change to the training script. A spec is
`kind@key=value,...`:

    crash@step=40,rank=1                   exit with code 1 at the start of step 40
    crash@step=40,rank=1,signal=SIGKILL    die of a signal (SIGKILL, SIGSEGV, SIGBUS, ...)
    crash@step=40,rank=1,code=137          exit with this code
    crash@step=40,rank=1,xid=79            first write an NVIDIA Xid line for this pid to the
                                           kernel log, as the driver would (/dev/kmsg when
                                           writable, else the file $NONSTOP_KERNEL_LOG; the
                                           agent reads both: exclude_node)
    hang@step=60,rank=0                    SIGSTOP itself (default how=sigstop)
    hang@step=60,rank=0,how=sleep          sleep forever outside any collective
    hang@step=60,rank=0,how=collective     wait forever in a collective no peer joins
    slow@rank=1,factor=1.3                 the compute phase takes 1.3x (from=, to= steps; a
                                           step without a compute phase takes 1.3x as a whole;
                                           host time: on a GPU, launch time unless the phase
                                           synchronizes, docs/run.md)
    exception@step=30,rank=0               raise RuntimeError in user code
    diskfull@step=50,rank=0,to=70          checkpoint writes (through nonstop.checkpoint) fail
                                           with ENOSPC from step 50 until step 70 (to= omitted:
                                           until the attempt ends)
    bitflip@step=30,rank=1                 flip one bit of one parameter on rank 1 after step
                                           30's optimizer step (bit=, default 12: a mantissa
                                           bit; silent data corruption, docs/health.md)
    nan@step=30,rank=0                     rank 0's loss is NaN at step 30
    spike@step=30                          the batch a fault-free run trains on at step 30 is
                                           poisoned: its loss is scaled (factor=, default 1000)
                                           on every rank, in every attempt that trains on it
                                           (both need `loss = rt.faults.scale_loss(loss, step,
                                           batch)` in the script: refused without)

Two ways to say when. `step=N` (and slow's `from=`/`to=`) counts the steps the script reports
with nonstop.runtime's `rt.step(n)`. `after=SECONDS` counts seconds since the bootstrap started
the script and works on any script, also one that never imports nonstop: the bootstrap's
watcher thread fires it, and what must happen in the main thread (an exception, a sleep or
collective hang, a slow rank's pauses) is delivered there by a signal handler the bootstrap
installs (`MAIN_THREAD_SIGNAL`). With after=, `for=SECONDS` bounds a slow rank or a full disk:

    crash@after=20,rank=1                  exit 20 s after the script started
    hang@after=20,rank=0,how=sleep         the main thread sleeps forever from 20 s on
    hang@after=20,rank=0,how=collective    a receive no peer matches (once the process group
                                           exists)
    exception@after=20,rank=0              RuntimeError raised in the main thread
    slow@after=10,for=30,rank=1,factor=2   the main thread pauses half of the time, 10 s - 40 s
    diskfull@after=10,for=20,rank=0        checkpoint writes fail from 10 s to 30 s

Every fault fires only in attempt 0 unless `attempt=N` (or `attempt=*`) says otherwise, so the
restarted job runs clean. A spec that cannot take effect is refused when it is parsed (a key the
kind does not use, a negative step, a signal that does not kill, a rank outside the job:
`check_run`). When a fault really takes effect the rank first writes a `failure` event with
`injected: true` (the injector's own log, which the chaos harness compares with the ledger):
a crash, hang or exception just before it happens (a crash's Xid once its line is written), a
slow rank at its first slowed step or pause, a full disk at the first write it refuses, a bit
flip once flipped, a NaN or spike as `scale_loss` applies it. A fault that never took effect
is not logged as injected; at exit the rank says why (`nonstop.faults: ... never fired: ...`,
and a `fault_not_fired` lifecycle event). Standard library only; the collective hang imports torch
lazily.
"""

from __future__ import annotations

import collections
import dataclasses
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from nonstop import envvars, log
from nonstop.errors import UserError

_logger = log.get("faults")
ENV_FAULTS: Final = envvars.FAULTS
KINDS: Final = ("crash", "hang", "slow", "exception", "diskfull", "bitflip", "nan", "spike")
NUMERIC: Final = frozenset({"bitflip", "nan", "spike"})
"""Faults the training step applies itself (nonstop.runtime.guards, the script's loss)."""
SPIKE_FACTOR: Final = 1000.0
HANG_HOW: Final = ("sigstop", "sleep", "collective")
_WHEN: Final = frozenset({"rank", "attempt", "step", "after"})
KEYS: Final[dict[str, frozenset[str]]] = {
    "crash": _WHEN | {"signal", "code", "xid"},
    "hang": _WHEN | {"how"},
    "slow": frozenset({"rank", "attempt", "after", "for", "factor", "from", "to"}),
    "exception": _WHEN,
    "diskfull": _WHEN | {"to", "for"},
    "bitflip": frozenset({"rank", "attempt", "step", "bit"}),
    "nan": frozenset({"rank", "attempt", "step"}),
    "spike": frozenset({"attempt", "step", "factor"}),
}
"""The keys each kind uses; any other key is refused (a kind missing here: no check)."""
# Signals that do not end a process by default: a crash that would not crash.
_NOT_FATAL: Final = frozenset(
    {"SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGCONT", "SIGCHLD", "SIGURG", "SIGWINCH"}
)
MAIN_THREAD_SIGNAL: Final = "SIGRTMIN+6"
"""The signal the bootstrap's handler listens on to run time-keyed faults in the main thread
(a real-time signal: nothing in Python, torch or the scheduler's warnings uses it)."""
_INT_KEYS: Final = {
    "rank": "rank",
    "step": "step",
    "code": "code",
    "from": "from_step",
    "to": "to_step",
    "xid": "xid",
    "bit": "bit",
}


@dataclass(frozen=True, kw_only=True)
class Fault:
    kind: str
    """crash, hang, slow, exception or diskfull."""
    rank: int | None = None
    """Global rank it applies to; None = every rank."""
    attempt: int | None = 0
    """Attempt it fires in; None = every attempt."""
    step: int | None = None
    """Step at whose start it fires (step-keyed faults)."""
    after_s: float | None = None
    """Seconds after the script started (time-keyed faults, for any script)."""
    for_s: float | None = None
    """slow, diskfull with after=: how long it lasts (None: until the attempt ends)."""
    signal: str | None = None
    code: int = 1
    xid: int | None = None
    bit: int = 12
    """bitflip: which bit of the element flips (0 = least significant)."""
    how: str = "sigstop"
    factor: float = 1.0
    from_step: int = 0
    to_step: int | None = None
    spec: str = field(default="", compare=False)

    def applies(self, attempt: int, rank: int) -> bool:
        return (self.rank is None or self.rank == rank) and (
            self.attempt is None or self.attempt == attempt
        )

    @property
    def step_keyed(self) -> bool:
        """Keyed by the steps the script reports (it never fires in a script without them)."""
        return self.after_s is None and (self.step is not None or self.kind == "slow")


def parse(spec: str) -> Fault:
    """Parse one spec; UserError with the reason for anything malformed or that cannot fire."""
    text = spec.strip()
    kind, _, rest = text.partition("@")
    if kind not in KINDS:
        raise UserError(f"fault {spec!r}: unknown kind {kind!r}; one of {', '.join(KINDS)}")
    kw: dict[str, object] = {"kind": kind, "spec": text}
    allowed = KEYS.get(kind)
    seen: set[str] = set()
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq:
            raise UserError(f"fault {spec!r}: {item!r} is not key=value")
        if key in seen:
            raise UserError(f"fault {spec!r}: {key}= is given twice")
        seen.add(key)
        if allowed is not None and key in _KNOWN_KEYS and key not in allowed:
            raise UserError(
                f"fault {spec!r}: {kind} does not use {key}=; its keys: "
                f"{', '.join(sorted(allowed))}"
            )
        try:
            if key in _INT_KEYS:
                number = int(value)
                if number < 0:
                    raise UserError(f"fault {spec!r}: {key}={value} must be 0 or more")
                kw[_INT_KEYS[key]] = number
            elif key == "attempt":
                kw["attempt"] = None if value == "*" else int(value)
                if value != "*" and int(value) < 0:
                    raise UserError(f"fault {spec!r}: attempt={value} must be 0 or more, or *")
            elif key in ("after", "factor", "for"):
                real = float(value)
                if not math.isfinite(real) or real < 0:
                    raise UserError(f"fault {spec!r}: {key}={value!r} is not a finite number >= 0")
                kw[{"after": "after_s", "for": "for_s"}.get(key, key)] = real
            elif key == "signal":
                sig = value.upper() if value.upper().startswith("SIG") else "SIG" + value.upper()
                if sig not in signal.Signals.__members__:
                    raise UserError(f"fault {spec!r}: unknown signal {value!r}")
                if sig in _NOT_FATAL:
                    raise UserError(
                        f"fault {spec!r}: {sig} does not end a process; for a "
                        "stopped rank use hang@... (how=sigstop)"
                    )
                kw["signal"] = sig
            elif key == "how":
                if value not in HANG_HOW:
                    raise UserError(f"fault {spec!r}: how must be one of {', '.join(HANG_HOW)}")
                kw["how"] = value
            else:
                raise UserError(f"fault {spec!r}: unknown key {key!r}")
        except ValueError:
            raise UserError(f"fault {spec!r}: {key}={value!r} is not a number") from None
    if kind == "spike":  # data is data: a poisoned batch is poisoned in every attempt
        kw.setdefault("attempt", None)
        kw.setdefault("factor", SPIKE_FACTOR)
    f = Fault(**kw)  # type: ignore[arg-type]
    _check(f, spec, seen)
    return f


_KNOWN_KEYS: Final = frozenset().union(*KEYS.values())


def _check(f: Fault, spec: str, keys: set[str]) -> None:
    """Refuse what parses but could never happen as written."""

    def bad(why: str) -> UserError:
        return UserError(f"fault {spec!r}: {why}")

    if f.step is not None and f.after_s is not None:
        raise bad("say when once: step=N or after=SECONDS, not both")
    if f.kind in NUMERIC:
        if f.step is None:
            raise bad(f"{f.kind} needs step=N (it happens inside a step)")
        if f.kind == "spike" and f.factor <= 1.0:
            raise bad(f"spike needs factor > 1, got {f.factor:g}")
        if f.bit > 63:
            raise bad(f"bit={f.bit}: a parameter has at most 64 bits (0-63)")
        return
    if f.code > 255:
        raise bad(f"code={f.code}: an exit code is 0-255")
    if f.xid == 0:
        raise bad("xid=0 is not an Xid (they start at 1)")
    if f.for_s is not None and (f.after_s is None or f.for_s <= 0):
        raise bad("for=SECONDS (> 0) goes with after=SECONDS; with step= use to=STEP")
    if f.kind == "slow":
        if f.factor <= 1.0:
            raise bad(f"slow needs factor > 1, got {f.factor:g}")
        if f.after_s is not None and keys & {"from", "to"}:
            raise bad("from=/to= count steps; with after= say how long with for=SECONDS")
        if f.to_step is not None and f.to_step <= f.from_step:
            raise bad(f"to={f.to_step} must be after from={f.from_step}")
        return
    if f.step is None and f.after_s is None:
        raise bad("say when, with step=N or after=SECONDS")
    if f.kind == "diskfull" and f.to_step is not None:
        if f.after_s is not None:
            raise bad("to= counts steps; with after= say how long with for=SECONDS")
        if f.step is not None and f.to_step <= f.step:
            raise bad(f"to={f.to_step} must be after step={f.step}")


def parse_all(specs: list[str] | str | None) -> list[Fault]:
    if not specs:
        return []
    items = specs.split(";") if isinstance(specs, str) else specs
    return [parse(s) for s in items if s.strip()]


def check_run(
    specs: list[str] | str | None,
    *,
    nproc_per_node: object = None,
    nnodes: object = None,
    no_python: bool = False,
    script: str | None = None,
    module: bool = False,
) -> list[Fault]:
    """What `nonstop run` checks before it starts anything: every spec parses and can fire in
    this job (its rank exists; a collective hang has a peer; the bootstrap runs; a loss fault's
    script applies it). UserError (exit 2) otherwise. `nproc_per_node` and `nnodes` as torchrun
    takes them ("4", "1:2"); `script` the training script (a module's name with `module`)."""
    faults = parse_all(specs)
    if faults and no_python:
        raise UserError(
            "--inject needs nonstop's bootstrap in every rank, which --no-python "
            "leaves out; run the script with python (drop --no-python)"
        )
    try:
        per_node = int(str(nproc_per_node))
        world: int | None = per_node * int(str(nnodes).split(":")[-1])
    except ValueError:  # "auto", "gpu", ...: the world size is known only at launch
        world = None
    for f in faults:
        if world is not None and f.rank is not None and f.rank >= world:
            raise UserError(
                f"fault {f.spec!r}: rank={f.rank} is not in this job (ranks 0-{world - 1})"
            )
        if world == 1 and f.kind == "hang" and f.how == "collective":
            raise UserError(
                f"fault {f.spec!r}: a collective hang needs a peer; this job has "
                "one rank (use how=sleep)"
            )
    loss = [f for f in faults if f.kind in ("nan", "spike")]
    if loss and script is not None:
        source = _script_source(script, module)
        if source is not None and "scale_loss" not in source:
            raise UserError(
                f"fault {loss[0].spec!r}: {script} never applies it (nan@ and spike@ scale the "
                "loss the script computes: it needs `loss = rt.faults.scale_loss(loss, step, "
                "batch)`, as nonstop.workloads.llama.train has)"
            )
    return faults


def _script_source(script: str, module: bool) -> str | None:
    """The training script's own source (a module's, found without importing it or its
    packages); None when it cannot be found or read (then nothing is refused)."""
    import importlib.machinery
    import importlib.util

    origin: str | None = script
    if module:
        spec = None
        where: list[str] | None = [os.getcwd(), *sys.path]
        for i, part in enumerate(script.split(".")):
            if where is None:
                return None
            spec = importlib.machinery.PathFinder.find_spec(part, where)
            if spec is None and i == 0:  # an editable install's meta-path finder
                try:
                    spec = importlib.util.find_spec(part)
                except (ImportError, ValueError):
                    return None
            if spec is None:
                return None
            where = list(spec.submodule_search_locations or []) or None
        origin = spec.origin if spec is not None else None
        if spec is not None and spec.submodule_search_locations:  # `-m pkg` runs its __main__
            origin = os.path.join(next(iter(spec.submodule_search_locations)), "__main__.py")
    if not origin or not origin.endswith(".py"):
        return None
    try:
        with open(origin, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:
        return None


def _process_group_ready() -> bool:
    dist = sys.modules.get("torch.distributed")
    is_init = getattr(dist, "is_initialized", None) if dist is not None else None
    return bool(is_init is not None and is_init())


def main_thread_signal() -> int:
    return int(signal.SIGRTMIN) + int(MAIN_THREAD_SIGNAL.rsplit("+", 1)[1])


def install_main_thread_delivery(injector: Injector) -> None:
    """Let the watcher thread run faults in the main thread: a handler for
    MAIN_THREAD_SIGNAL runs what `injector.in_main_thread(fn)` queued. Call from the main
    thread (the bootstrap does, before the script starts), only when a fault needs it."""
    if not injector.needs_main_thread():
        return
    queue: collections.deque[Callable[[], None]] = collections.deque()
    signum = main_thread_signal()
    main_id = threading.main_thread().ident
    assert main_id is not None and threading.get_ident() == main_id

    def handler(signum: int, frame: object) -> None:
        while queue:
            queue.popleft()()  # may raise (the exception fault) or never return (a hang)

    def call(fn: Callable[[], None]) -> None:
        queue.append(fn)
        signal.pthread_kill(main_id, signum)

    signal.signal(signum, handler)
    injector.in_main_thread = call


class Injector:
    """The faults that apply to this process, fired from the runtime's step hooks and the
    bootstrap's watcher thread (`on_tick`)."""

    def __init__(
        self,
        faults: list[Fault],
        *,
        attempt: int,
        rank: int,
        report: Callable[[Fault, str], None] | None = None,
    ) -> None:
        self.faults = [f for f in faults if f.applies(attempt, rank)]
        self.attempt, self.rank = attempt, rank
        self.report = report or (lambda f, msg: None)
        self.disk_full = False
        self.on_disk_full: Callable[[bool], None] | None = None
        """Called with True when a diskfull fault arms and False when it heals: the checkpoint
        storage fails its writes or stops failing (nonstop.checkpoint.FaultyStorage, which
        calls `disk_refused` at each write it refuses)."""
        self.in_main_thread: Callable[[Callable[[], None]], None] | None = None
        """Runs a function in the main thread soon (install_main_thread_delivery); without it
        a time-keyed fault that must run there does not fire (and says so at exit)."""
        self.steps_seen = False
        self.last_step = -1
        """The highest step started (on_step)."""
        self.loss_scaled = False
        """Whether the script ever called `scale_loss` (nan@ and spike@ need it)."""
        self._why: dict[str, str] = {}  # spec -> why a due fault could not take effect
        self._fired: set[str] = set()
        self._pending: set[str] = set()
        self._armed: set[str] = set()
        self._disk: Fault | None = None
        self._pause_mark: dict[str, float] = {}
        self._reported_unfired = False

    @classmethod
    def from_env(
        cls, *, attempt: int, rank: int, report: Callable[[Fault, str], None] | None = None
    ) -> Injector:
        return cls(parse_all(os.environ.get(ENV_FAULTS)), attempt=attempt, rank=rank, report=report)

    def __bool__(self) -> bool:
        return bool(self.faults)

    @property
    def fired(self) -> set[str]:
        """Specs of the faults that took effect in this process."""
        return set(self._fired)

    def needs_main_thread(self) -> bool:
        return any(
            f.after_s is not None
            and (f.kind in ("exception", "slow") or (f.kind == "hang" and f.how != "sigstop"))
            for f in self.faults
        )

    def slow_factor(self, step: int) -> float:
        """Multiplier of this step's compute time (1.0 when no slow fault applies). The caller
        applies it: the first call that returns a factor for a fault logs it as injected."""
        factor = 1.0
        for f in self.faults:
            if (
                f.kind == "slow"
                and f.after_s is None
                and step >= f.from_step
                and (f.to_step is None or step < f.to_step)
            ):
                factor *= f.factor
                self._log(f, f"from step {step}")
        return factor

    def on_step(self, step: int) -> None:
        """Called at the start of each step: fire step-keyed faults."""
        self.steps_seen = True
        self.last_step = max(self.last_step, step)
        for f in self.faults:
            if f.kind == "diskfull" and f.to_step == step and self._disk is f:
                self._heal_disk()
            elif f.step == step and f.kind == "diskfull":
                self._arm_disk(f)
            elif f.step == step and f.kind != "slow" and f.kind not in NUMERIC:
                self._fire(f, f"at step {step}")

    def loss_scale(self, step: int, batch: int | None = None) -> float:
        """What this step's loss is to be multiplied by: NaN for `nan@step=S` on this rank at
        step S, the factor for `spike@step=B` when it trains on batch B (the batch a fault-free
        run trains on at step B; None: the step's number), else 1.0. Only a query: the fault is
        recorded as injected by `scale_loss`, which applies it."""
        scale = 1.0
        for f in self._loss_faults(step, batch):
            scale = math.nan if f.kind == "nan" else scale * f.factor
        return scale

    def scale_loss(self, loss: Any, step: int, batch: int | None = None) -> Any:
        """`loss` times `loss_scale(step, batch)`: the script's side of `nan@` and `spike@`
        (`loss = rt.faults.scale_loss(loss, step, batch)` after the forward pass). The product
        is taken here, so a fault is recorded as injected exactly when it is applied."""
        self.loss_scaled = True
        due = self._loss_faults(step, batch)
        if not due:
            return loss
        out = loss * self.loss_scale(step, batch)
        for f in due:
            self._log(f, f"at step {step}" + (f" (batch {f.step})" if f.kind == "spike" else ""))
        return out

    def _loss_faults(self, step: int, batch: int | None) -> list[Fault]:
        return [
            f
            for f in self.faults
            if (f.kind == "nan" and f.step == step)
            or (f.kind == "spike" and f.step == (step if batch is None else batch))
        ]

    def bitflip_due(self, step: int) -> Fault | None:
        """The bitflip fault to apply after step `step`'s optimizer step, if one is due (the
        runtime flips the bit: nonstop.runtime.fingerprint.flip_bit, then calls
        `bitflip_done`, which records it)."""
        for f in self.faults:
            if f.kind == "bitflip" and f.step == step and f.spec not in self._fired:
                return f
        return None

    def bitflip_done(self, f: Fault, step: int, what: str | None) -> None:
        """After `flip_bit`: `what` it flipped is recorded as injected; None (nothing to flip:
        no floating-point parameter) is not, and the rank says why at exit."""
        if what is None:
            self._why[f.spec] = "no floating-point parameter to flip among the watched ones"
            return
        self._log(f, f"after step {step} ({what})")

    def on_tick(self, elapsed_s: float) -> None:
        """Called periodically by the bootstrap's watcher thread: time-keyed faults. A crash or
        a SIGSTOP hang fires from this thread; the rest runs in the main thread."""
        for f in self.faults:
            if f.after_s is None or elapsed_s < f.after_s:
                continue
            when = f"after {f.after_s:g} s"
            over = f.for_s is not None and elapsed_s >= f.after_s + f.for_s
            if f.kind == "diskfull":
                if over and self._disk is f:
                    self._heal_disk()
                elif not over and f.spec not in self._armed:
                    self._arm_disk(f)
            elif f.kind == "slow":
                if not over and self.in_main_thread is not None and f.spec not in self._pending:
                    self._pending.add(f.spec)
                    self.in_main_thread(lambda f=f, when=when: self._pause(f, when))  # type: ignore[misc]
            elif f.spec in self._fired or f.spec in self._pending:
                continue
            elif f.kind == "crash" or (f.kind == "hang" and f.how == "sigstop"):
                self._fire(f, when)
            elif self.in_main_thread is not None:  # exception, sleep or collective hang
                if f.kind == "hang" and f.how == "collective" and not _process_group_ready():
                    continue  # it waits for the process group to exist
                self._pending.add(f.spec)
                self.in_main_thread(lambda f=f, when=when: self._fire(f, when))  # type: ignore[misc]

    def disk_refused(self) -> None:
        """The checkpoint storage refused a write (ENOSPC) while a diskfull fault was armed:
        the fault took effect (called from the checkpoint's writer thread)."""
        if self._disk is not None:
            self._log(self._disk, "at the first refused checkpoint write")

    def unfired(self) -> list[tuple[Fault, str]]:
        """The faults that never took effect in this process, each with the reason."""
        out = []
        for f in self.faults:
            if f.spec in self._fired:
                continue
            if f.spec in self._why:
                why = self._why[f.spec]
            elif f.kind == "diskfull" and f.spec in self._armed:
                if self.on_disk_full is None:
                    why = "nothing saved through nonstop.checkpoint's Checkpointer"
                else:
                    why = "no checkpoint was written while the disk was full"
            elif f.step_keyed and not self.steps_seen:
                why = (
                    "this script reports no steps (nonstop.runtime's rt.step); key the "
                    "fault by time with after=SECONDS"
                )
            elif f.kind in ("nan", "spike") and not self.loss_scaled:
                why = "the script never applies it (loss = rt.faults.scale_loss(loss, step, batch))"
            elif f.kind == "bitflip" and f.step is not None and self.last_step >= f.step:
                why = (
                    f"nothing flipped after step {f.step}: the script watches no parameters "
                    "(rt.health.watch(model)), or the step never finished"
                )
            elif f.kind == "spike":  # keyed by the batch: a rollback's skip passes it by
                why = f"batch {f.step} was not trained on (not reached, or skipped)"
            elif f.step_keyed:
                why = f"step {f.step if f.step is not None else f.from_step} was not reached"
            elif f.kind == "hang" and f.how == "collective" and not _process_group_ready():
                why = "the script never created a process group"
            elif (
                f.kind in ("exception", "slow", "hang")
                and self.in_main_thread is None
                and (self.needs_main_thread())
            ):
                why = "no main-thread delivery (the script did not start through the bootstrap)"
            else:
                why = f"the script ended before {f.after_s:g} s"
            out.append((f, why))
        return out

    def report_unfired(self, emit: Callable[..., None]) -> None:
        """At exit: say which faults never fired and why (stderr and a lifecycle event)."""
        if self._reported_unfired:
            return
        self._reported_unfired = True
        for f, why in self.unfired():
            _logger.warning("%s never fired on rank %s: %s", f.spec, self.rank, why)
            emit("lifecycle", phase="fault_not_fired", spec=f.spec, reason=why)

    # -- taking effect -------------------------------------------------------------------------

    def _log(self, f: Fault, when: str, *, took: Fault | None = None) -> bool:
        """Write the injector's record of `f` (once); False when it was written before. `took`:
        the part of `f` that took effect, when not all of it did (its spec is recorded)."""
        if f.spec in self._fired:
            return False
        self._fired.add(f.spec)
        took = took or f
        msg = f"injected {f.kind} {when} on rank {self.rank} ({took.spec})"
        self.report(took, msg)
        _logger.info("%s", msg)
        return True

    def _arm_disk(self, f: Fault) -> None:
        self._armed.add(f.spec)
        self._disk, self.disk_full = f, True
        if self.on_disk_full is not None:
            self.on_disk_full(True)

    def _heal_disk(self) -> None:
        self._disk, self.disk_full = None, False  # the disk was cleaned up
        if self.on_disk_full is not None:
            self.on_disk_full(False)

    def _pause(self, f: Fault, when: str) -> None:
        """In the main thread: pause for (factor - 1) x the time it ran since the last pause,
        so that it makes progress at 1/factor of its speed."""
        self._pending.discard(f.spec)
        now = time.monotonic()
        ran_s = now - self._pause_mark.get(f.spec, now)
        self._log(f, when)
        time.sleep(min((f.factor - 1.0) * ran_s, 60.0))
        self._pause_mark[f.spec] = time.monotonic()

    def _fire(self, f: Fault, when: str) -> None:
        self._pending.discard(f.spec)
        if f.spec in self._fired:
            return
        if f.kind == "hang" and f.how == "collective" and not _process_group_ready():
            return  # no peer to wait for: never fired (unfired() says why)
        if f.kind == "crash" and f.xid is not None and not _write_xid(f.xid, self.rank):
            # the crash happens, its Xid does not: the record names no Xid (the spec asked)
            self._log(f, when, took=_without_xid(f))
        else:  # an Xid is recorded only once its line is written
            self._log(f, when)
        if f.kind == "crash":
            if f.signal:
                os.kill(os.getpid(), getattr(signal, f.signal))
                time.sleep(5)  # a caught signal: fall through to a plain exit
            os._exit(f.code)
        elif f.kind == "exception":
            raise RuntimeError(f"nonstop injected exception {when} ({f.spec})")
        elif f.kind == "hang":
            if f.how == "sigstop":
                os.kill(os.getpid(), signal.SIGSTOP)
            elif f.how == "sleep":
                while True:
                    time.sleep(3600)
            else:
                import torch
                import torch.distributed as dist

                from nonstop.device import collective_device

                # a receive that no peer ever matches: waits forever inside a communication op
                # while the peers wait in their next collective. The buffer is on the group's
                # device (cuda:LOCAL_RANK on NCCL): a CPU tensor there raises, not hangs.
                peer = (dist.get_rank() + 1) % dist.get_world_size()
                dist.recv(torch.zeros(1, device=collective_device()), src=peer, tag=31337)
                while True:
                    time.sleep(3600)


def _without_xid(f: Fault) -> Fault:
    """`f` as it took effect when its Xid line could be left nowhere: no xid= in its spec."""
    kind, _, keys = f.spec.partition("@")
    kept = [kv for kv in keys.split(",") if kv.split("=", 1)[0].strip() != "xid"]
    return dataclasses.replace(f, xid=None, spec=f"{kind}@{','.join(kept)}")


def _write_xid(xid: int, rank: int) -> bool:
    """Leave the Xid where the driver would: the kernel log (/dev/kmsg, root), else the file
    kernel-log source $NONSTOP_KERNEL_LOG (nonstop.kmsg writes, nonstop.diagnose.kernel_log
    reads both). Never the
    rank's own log. The line says it was injected, for a human reading dmesg later."""
    from nonstop import kmsg

    text = (
        f"NVRM: Xid (PCI:0000:{0x18 + rank % 256:02x}:00): {xid}, pid={os.getpid()}, "
        f"name={os.path.basename(sys.executable)}, injected by nonstop.faults"
    )
    if kmsg.write_kmsg(text):
        return True
    path = os.environ.get(envvars.KERNEL_LOG)
    if path:
        try:
            kmsg.write_file_line(path, text)
            return True
        except OSError as e:
            why = f"{path}: {e.strerror or e}"
    else:
        why = f"set {envvars.KERNEL_LOG}=FILE (a shared path the agent reads)"
    _logger.warning("Xid %d left nowhere: /dev/kmsg is not writable and %s", xid, why)
    return False
