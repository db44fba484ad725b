"""Checkpoint configuration: one frozen, keyword-only dataclass with validation.

    CheckpointConfig()                          # auto interval (Daly), async, keep the last 3
    CheckpointConfig(every_steps=500, keep_every=5000)
    CheckpointConfig(**parse_interval("30m"))   # what a CLI flag such as --checkpoint-interval gives

Standard library only.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from typing import Final, Literal

from nonstop import envvars
from nonstop.checkpoint.cadence import Every, parse_every

ENV_MTBI_S: Final = envvars.MTBI_S
"""Set by the supervisor: the run's observed mean time between interruptions, in seconds."""

ENV_MEMORY_EVERY: Final = envvars.MEMORY_CKPT_EVERY
"""Set by `nonstop run`: take an in-memory snapshot every this many steps (0: off)."""

ENV_REPLICAS: Final = envvars.REPLICAS
"""Set by `nonstop run`: how many peer nodes get a copy of each rank's in-memory snapshot."""

DEFAULT_MTBI_S: Final = 3600.0
"""MTBI assumed for `auto` when neither the user nor the supervisor knows better: one hour.
Llama 3 405B saw one interruption every 3.09 h on 16k GPUs; an hour is deliberately pessimistic
for small jobs (it checkpoints more, which costs little when saves are asynchronous)."""

DEFAULT_FIRST_BLOCKING_S: Final = 1.0
"""Blocking time assumed by `auto` before the first save has been measured."""

_UNITS_S: Final = {"s": 1.0, "m": 60.0, "h": 3600.0}


@dataclass(frozen=True, kw_only=True)
class CheckpointConfig:
    """How often, how and how many checkpoints to keep. Neither interval set means `auto`."""

    every_steps: int | None = None
    """Save every this many optimizer steps (fixed interval)."""
    every_s: float | None = None
    """Save when this many seconds have passed since the previous save (fixed interval)."""
    mtbi_s: float | None = None
    """Mean time between interruptions for `auto`; None: $NONSTOP_MTBI_S, else DEFAULT_MTBI_S."""
    min_interval_s: float = 10.0
    """`auto` never saves more often than this, however cheap saves are."""
    keep_last: int = 3
    """Keep this many newest committed checkpoints (at least 1: the last good one)."""
    keep_every: int | None = None
    """Also keep every checkpoint whose step is a multiple of this (None: none kept extra)."""
    async_save: bool = True
    """Block only while staging to CPU memory and write in a background thread."""
    if_busy: Literal["defer", "wait"] = "defer"
    """When a save falls due while the previous one is still writing: `defer` it to the first
    step after that write finishes (training never waits), or `wait` for it (blocks)."""
    verify_on_load: bool = True
    """Check every file's checksums (the marker's algorithm: CRC-32 per 64 MiB by default)
    against the commit marker: before loading, or right after reading where an older checkpoint
    is there to fall back on (docs/checkpoint.md, "Loading")."""
    overlap_staging: bool = True
    """Copy parameters and optimizer states in the writer thread, overlapped with the next
    forward/backward; `optimizer.step()` waits for the copy (see nonstop.checkpoint.staging)."""
    pin_memory: bool | None = None
    """Stage into pinned host memory; None: exactly when the state has CUDA tensors."""
    thread_count: int = 1
    """Writer threads per rank inside torch.distributed.checkpoint's FileSystemWriter."""
    direct_writes: bool = True
    """Write checkpoint files around the page cache (O_DIRECT, in aligned 4 MiB buffers) where
    the filesystem allows it: a third of the write path's CPU and no cache pages taken, but a
    load right after reads the disk instead of memory (docs/checkpoint.md, "Direct writes")."""
    timeout_s: float = 1800.0
    """Timeout of the checkpoint coordination process group (gloo) in distributed runs."""
    memory_every_steps: Every | None = None
    """Snapshot the state into the replica servers' memory every this many steps (0: off), or
    `auto`: as often as a CPU budget allows, measured (nonstop.checkpoint.cadence); None:
    $NONSTOP_MEMORY_CKPT_EVERY, else off (see nonstop.checkpoint.replica)."""
    replicas: int | None = None
    """Peer nodes that get a copy of each snapshot besides this node's own server (0: none);
    None: $NONSTOP_REPLICAS, else 1."""

    def __post_init__(self) -> None:
        if self.every_steps is not None and self.every_s is not None:
            raise ValueError(
                f"every_steps ({self.every_steps!r}) and every_s ({self.every_s!r}) are both "
                "set; choose one, or neither for auto"
            )
        _positive_int("every_steps", self.every_steps, optional=True)
        _positive_int("keep_every", self.keep_every, optional=True)
        _positive_int("keep_last", self.keep_last, optional=False)
        _positive_int("thread_count", self.thread_count, optional=False)
        _positive_float("every_s", self.every_s, optional=True)
        _positive_float("mtbi_s", self.mtbi_s, optional=True)
        _positive_float("timeout_s", self.timeout_s, optional=False)
        if self.memory_every_steps is not None:
            every = parse_every(self.memory_every_steps)  # "AUTO", " 5" read as auto, 5
            object.__setattr__(self, "memory_every_steps", every)
        _count("replicas", self.replicas)
        if not (isinstance(self.min_interval_s, int | float) and self.min_interval_s >= 0):
            raise ValueError(f"min_interval_s must be >= 0, got {self.min_interval_s!r}")
        if self.if_busy not in ("defer", "wait"):
            raise ValueError(f"if_busy must be 'defer' or 'wait', got {self.if_busy!r}")

    @property
    def mode(self) -> Literal["steps", "seconds", "auto"]:
        """Which interval rule applies."""
        if self.every_steps is not None:
            return "steps"
        return "seconds" if self.every_s is not None else "auto"

    def resolved_mtbi_s(self) -> float:
        """The MTBI `auto` uses now: configured, else $NONSTOP_MTBI_S, else DEFAULT_MTBI_S."""
        if self.mtbi_s is not None:
            return float(self.mtbi_s)
        return mtbi_from_env()

    def resolved_memory_every_steps(self) -> Every:
        """Steps between in-memory snapshots, or `auto`: configured, else the environment; 0
        is off."""
        if self.memory_every_steps is not None:
            return self.memory_every_steps
        raw = os.environ.get(ENV_MEMORY_EVERY, "").strip()
        return parse_every(raw, name=ENV_MEMORY_EVERY) if raw else 0

    def resolved_replicas(self) -> int:
        """Peer nodes per snapshot: configured, else $NONSTOP_REPLICAS, else 1."""
        return self.replicas if self.replicas is not None else count_from_env(ENV_REPLICAS, 1)


def count_from_env(name: str, default: int, environ: dict[str, str] | None = None) -> int:
    """The integer >= 0 in environment variable `name`, or `default` when it is unset or empty."""
    raw = (os.environ if environ is None else environ).get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit():
        raise ValueError(f"{name} must be an integer >= 0, got {raw!r}")
    return int(raw)


def mtbi_from_env(environ: dict[str, str] | None = None) -> float:
    """$NONSTOP_MTBI_S when it holds a positive number, else DEFAULT_MTBI_S."""
    raw = (os.environ if environ is None else environ).get(ENV_MTBI_S)
    if raw is None:
        return DEFAULT_MTBI_S
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{ENV_MTBI_S} must be a number of seconds, got {raw!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{ENV_MTBI_S} must be > 0, got {raw!r}")
    return value


def parse_interval(text: str) -> dict[str, int | float | None]:
    """Turn `auto`, `500` / `500steps`, or `90s` / `30m` / `2h` into CheckpointConfig kwargs."""
    t = text.strip().lower()
    if t == "auto":
        return {"every_steps": None, "every_s": None}
    m = re.fullmatch(r"(\d+)\s*(steps?)?", t)
    if m:
        return {"every_steps": int(m.group(1)), "every_s": None}
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([smh])", t)
    if m:
        return {"every_steps": None, "every_s": float(m.group(1)) * _UNITS_S[m.group(2)]}
    raise ValueError(
        f"checkpoint interval {text!r} is not understood; use 'auto', a number of steps "
        "('500' or '500steps') or a duration ('90s', '30m', '2h')"
    )


def _positive_int(name: str, value: object, *, optional: bool) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")


def _count(name: str, value: object) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise ValueError(f"{name} must be an integer >= 0 or None, got {value!r}")


def _positive_float(name: str, value: object, *, optional: bool) -> None:
    if value is None and optional:
        return
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not math.isfinite(float(value)) or float(value) <= 0:  # type: ignore[arg-type]
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
