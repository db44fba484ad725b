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
    slow@rank=1,factor=1.3                 the compute phase takes 1.3x (from=, to= steps)
    exception@step=30,rank=0               raise RuntimeError in user code
    diskfull@step=50,rank=0,to=70          checkpoint writes fail with ENOSPC from step 50 until
                                           step 70 (to= omitted: until the attempt ends)
    crash@after=20,rank=1                  time-based (seconds after start): for scripts that
                                           do not use nonstop.runtime, driven by the bootstrap

Every fault fires only in attempt 0 unless `attempt=N` (or `attempt=*`) says otherwise, so the
restarted job runs clean. Before a fault fires the rank writes a `failure` event with
`injected: true`, so a test (or the chaos harness) can compare the ledger to the injector's own
record. Standard library only; the collective hang imports torch lazily.
"""

from __future__ import annotations

import math
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from nonstop.errors import UserError

ENV_FAULTS: Final = "NONSTOP_FAULTS"
KINDS: Final = ("crash", "hang", "slow", "exception", "diskfull", "bitflip", "nan", "spike")
NUMERIC: Final = frozenset({"bitflip", "nan", "spike"})
"""Faults the training step applies itself (nonstop.runtime.guards, the script's loss)."""
SPIKE_FACTOR: Final = 1000.0
HANG_HOW: Final = ("sigstop", "sleep", "collective")


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
    """Seconds after the process started (time-keyed faults, for uninstrumented scripts)."""
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


def parse(spec: str) -> Fault:
    """Parse one spec; UserError with the reason for anything malformed."""
    text = spec.strip()
    kind, _, rest = text.partition("@")
    if kind not in KINDS:
        raise UserError(f"fault {spec!r}: unknown kind {kind!r}; one of {', '.join(KINDS)}")
    kw: dict[str, object] = {"kind": kind, "spec": text}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise UserError(f"fault {spec!r}: {item!r} is not key=value")
        try:
            if key in ("rank", "step", "code", "from", "to", "xid", "bit"):
                kw[{"from": "from_step", "to": "to_step"}.get(key, key)] = int(value)
            elif key == "attempt":
                kw["attempt"] = None if value == "*" else int(value)
            elif key in ("after", "factor"):
                number = float(value)
                if not math.isfinite(number):
                    raise UserError(f"fault {spec!r}: {key}={value!r} is not a finite number")
                kw["after_s" if key == "after" else key] = number
            elif key == "signal":
                sig = value.upper() if value.upper().startswith("SIG") else "SIG" + value.upper()
                if not hasattr(signal, sig):
                    raise UserError(f"fault {spec!r}: unknown signal {value!r}")
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
    if f.kind in NUMERIC:
        if f.step is None:
            raise UserError(f"fault {spec!r}: {f.kind} needs step=N (it happens inside a step)")
        if f.kind == "spike" and (f.factor <= 1.0 or f.rank is not None):
            raise UserError(f"fault {spec!r}: spike needs factor > 1 and no rank")
        if f.bit > 63:
            raise UserError(f"fault {spec!r}: bit={f.bit}: a parameter has at most 64 bits")
    elif f.kind == "slow":
        if f.factor <= 1.0:
            raise UserError(f"fault {spec!r}: slow needs factor > 1, got {f.factor}")
    elif f.step is None and f.after_s is None:
        raise UserError(f"fault {spec!r}: say when, with step=N or after=SECONDS")
    return f


def parse_all(specs: list[str] | str | None) -> list[Fault]:
    if not specs:
        return []
    items = specs.split(";") if isinstance(specs, str) else specs
    return [parse(s) for s in items if s.strip()]


class Injector:
    """The faults that apply to this process, fired from the runtime's step hooks."""

    def __init__(
        self, faults: list[Fault], *, attempt: int, rank: int,
        report: Callable[[Fault, str], None] | None = None,
    ) -> None:  # fmt: skip
        self.faults = [f for f in faults if f.applies(attempt, rank)]
        self.attempt, self.rank = attempt, rank
        self.report = report or (lambda f, msg: None)
        self.disk_full = False
        self.on_disk_full: Callable[[bool], None] | None = None
        """Called with True when a diskfull fault fires and False when it heals (`to=`): the
        checkpoint storage arms or heals itself (see nonstop.checkpoint.FaultyStorage)."""
        self._fired: set[str] = set()

    @classmethod
    def from_env(
        cls, *, attempt: int, rank: int, report: Callable[[Fault, str], None] | None = None
    ) -> Injector:
        return cls(parse_all(os.environ.get(ENV_FAULTS)), attempt=attempt, rank=rank,
                   report=report)  # fmt: skip

    def __bool__(self) -> bool:
        return bool(self.faults)

    def slow_factor(self, step: int) -> float:
        """Multiplier of this step's compute time (1.0 when no slow fault applies)."""
        factor = 1.0
        for f in self.faults:
            if f.kind == "slow" and step >= f.from_step and (f.to_step is None or step < f.to_step):
                factor *= f.factor
        return factor

    def on_step(self, step: int) -> None:
        """Called at the start of each step: fire step-keyed faults."""
        for f in self.faults:
            if f.step == step and f.kind != "slow" and f.kind not in NUMERIC:
                self._fire(f, f"at step {step}")
            elif f.kind == "diskfull" and f.to_step == step and self.disk_full:
                self.disk_full = False  # the disk was cleaned up
                if self.on_disk_full is not None:
                    self.on_disk_full(False)

    def loss_scale(self, step: int, batch: int | None = None) -> float:
        """What the script multiplies this step's loss by: NaN for `nan@step=S` on this rank at
        step S, the factor for `spike@step=B` when it trains on batch B (the batch a fault-free
        run trains on at step B; None: the step's number), else 1.0."""
        scale = 1.0
        for f in self.faults:
            if f.kind == "nan" and f.step == step:
                self._note(f, f"at step {step}")
                scale = math.nan
            elif f.kind == "spike" and f.step == (step if batch is None else batch):
                self._note(f, f"at step {step} (batch {f.step})")
                scale *= f.factor
        return scale

    def bitflip_due(self, step: int) -> Fault | None:
        """The bitflip fault to apply after step `step`'s optimizer step, if one is due (the
        runtime flips the bit: nonstop.checkpoint.fingerprint.flip_bit)."""
        for f in self.faults:
            if f.kind == "bitflip" and f.step == step and self._note(f, f"after step {step}"):
                return f
        return None

    def _note(self, f: Fault, when: str) -> bool:
        if f.spec in self._fired:
            return False
        self._fired.add(f.spec)
        msg = f"injected {f.kind} {when} on rank {self.rank} ({f.spec})"
        self.report(f, msg)
        print(f"nonstop.faults: {msg}", file=sys.stderr, flush=True)
        return True

    def on_tick(self, elapsed_s: float) -> None:
        """Called periodically by the bootstrap thread: fire time-keyed faults that can fire
        from a thread (crash, hang by SIGSTOP)."""
        for f in self.faults:
            if f.after_s is not None and elapsed_s >= f.after_s and f.kind in ("crash", "hang"):
                if f.kind == "hang" and f.how != "sigstop":
                    continue  # a sleep or collective hang must run in the main thread
                self._fire(f, f"after {f.after_s:g} s")

    def _fire(self, f: Fault, when: str) -> None:
        if f.spec in self._fired:
            return
        self._fired.add(f.spec)
        msg = f"injected {f.kind} {when} on rank {self.rank} ({f.spec})"
        if f.kind != "diskfull":
            self.report(f, msg)
            print(f"nonstop.faults: {msg}", file=sys.stderr, flush=True)
        if f.kind == "crash":
            if f.xid is not None:
                _write_xid(f.xid, self.rank)
            if f.signal:
                os.kill(os.getpid(), getattr(signal, f.signal))
                time.sleep(5)  # a caught signal: fall through to a plain exit
            os._exit(f.code)
        elif f.kind == "exception":
            raise RuntimeError(f"nonstop injected exception {when} ({f.spec})")
        elif f.kind == "diskfull":
            self.disk_full = True
            self.report(f, msg)
            if self.on_disk_full is not None:
                self.on_disk_full(True)
        elif f.kind == "hang":
            if f.how == "sigstop":
                os.kill(os.getpid(), signal.SIGSTOP)
            elif f.how == "sleep":
                while True:
                    time.sleep(3600)
            else:
                import torch
                import torch.distributed as dist

                # a receive that no peer ever matches: waits forever inside a communication op
                # while the peers wait in their next collective
                peer = (dist.get_rank() + 1) % dist.get_world_size()
                dist.recv(torch.zeros(1), src=peer, tag=31337)
                while True:
                    time.sleep(3600)


def _write_xid(xid: int, rank: int) -> None:
    """Leave the Xid where the driver would: the kernel log (/dev/kmsg, root), else the file
    kernel-log source $NONSTOP_KERNEL_LOG (nonstop.diagnose.kernel_log reads both). Never the
    rank's own log. The line says it was injected, for a human reading dmesg later."""
    from nonstop.diagnose import kernel_log

    text = (f"NVRM: Xid (PCI:0000:{0x18 + rank % 256:02x}:00): {xid}, pid={os.getpid()}, "
            f"name={os.path.basename(sys.executable)}, injected by nonstop.faults")  # fmt: skip
    if kernel_log.write_kmsg(text):
        return
    path = os.environ.get(kernel_log.ENV_KERNEL_LOG)
    if path:
        try:
            kernel_log.write_file_line(path, text)
            return
        except OSError as e:
            why = f"{path}: {e.strerror or e}"
    else:
        why = f"set {kernel_log.ENV_KERNEL_LOG}=FILE (a shared path the agent reads)"
    print(
        f"nonstop.faults: Xid {xid} left nowhere: /dev/kmsg is not writable and {why}",
        file=sys.stderr,
        flush=True,
    )
