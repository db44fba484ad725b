"""Numerical guards: NaN/Inf, loss and gradient-norm spikes, and replica fingerprints.

What `rt.step` records (the loss, and `grad_norm` where the script passes it) is checked after
every step, on every rank, and every rank reaches the same decision: each rank writes its row
(finite flags, loss, gradient norm and, every `fingerprint_every` steps, a 64-bit fingerprint of
its parameters) into its own slot of one small float64 vector, one all-reduce (SUM) gives every
rank every row, and every rank runs the same pure `Guards.decide` on the same numbers. Never
rank 0 alone. See docs/health.md for the thresholds and what each detection costs.

    rt = nonstop.runtime.init()
    rt.health.watch(model)                   # parameters to fingerprint (DDP replicas)
    with rt.step(step) as st:
        ...
        st.record(loss=loss.item(), grad_norm=float(norm))
    # on an anomaly every rank writes its evidence and exits with EXIT_ROLLBACK; the supervisor
    # restarts from the newest checkpoint taken before it (docs/health.md)

Configuration: `NONSTOP_HEALTH="spike_z=8,fingerprint_every=100,skip_batches=20"` (the
fields of GuardConfig), passed to the workers through `nonstop run`'s environment; `off`
switches the guards off. The decision logic and the records are standard library only; the
collective and the fingerprint import torch lazily (as `planned_stop_due` does).
"""

from __future__ import annotations

import math
import os
import statistics
import sys
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Final

from nonstop import envvars, log
from nonstop.anomalies import (  # noqa: F401 (the records: nonstop.anomalies, re-exported)
    CATEGORY,
    EXIT_ROLLBACK,
    HEALTH_DIR,
    KINDS,
    anomaly_path,
    read_anomalies,
    write_anomaly,
)
from nonstop.runtime import sdc_replay
from nonstop.runtime.flushing import flush_open_files

_log = log.get("runtime")

ENV_HEALTH: Final = envvars.HEALTH
ENV_SKIP: Final = envvars.SKIP_BATCHES
"""`STEP:N,...`: skip N batches at STEP besides what the spike records say (a known-bad data
window; the chaos harness's reference run skips what the faulty run will)."""
MAD_SCALE: Final = 1.4826  # MAD x this estimates the standard deviation of normal noise
HISTORY_MAX: Final = 1024
"""Steps of per-step fingerprints kept at most (`history=on`): with `fingerprint_every=0` the
window since the last agreement is a checkpoint interval; older steps are dropped first."""

# One row per rank in the all-reduced vector.
SLOTS: Final = (
    "present",
    "loss_bad",
    "grad_bad",
    "loss",
    "grad_norm",
    "fp_present",
    "fp0",
    "fp1",
    "fp2",
    "fp3",
    "params_bad",
    "stop_seen",
)
_I = {name: i for i, name in enumerate(SLOTS)}


@dataclass(frozen=True, kw_only=True)
class GuardConfig:
    """The guards' thresholds; `NONSTOP_HEALTH="key=value,..."` sets them (docs/health.md)."""

    enabled: bool = True
    """Run the guards at all (`NONSTOP_HEALTH=off` switches them off)."""
    check_every: int = 1
    """Check the loss and gradient norm every this many steps (1: every step)."""
    window: int = 100
    """Steps in the running baseline (median and MAD) of the loss and the gradient norm."""
    min_history: int = 20
    """Steps of baseline needed before a spike can be called (NaN/Inf is checked from step 0)."""
    spike_z: float = 6.0
    """A loss spike is more than this many robust standard deviations (1.4826 x MAD) above
    the window's median ..."""
    spike_ratio: float = 3.0
    """... and more than this multiple of the median (a flat loss has a tiny MAD). 3: healthy
    small-batch losses do go 2x their median (2.03x, 7.7 robust sd, on one rank of the demo
    model after a drain: a false rollback at 1.1); the spikes that cost a run (PaLM's) and the
    injected ones (1000x) are far above."""
    grad_z: float = 10.0
    """The same test for the gradient norm, with its own threshold, when `grad_spikes` is on."""
    grad_spikes: bool = False
    """Call gradient-norm spikes at all. Off by default: healthy training has them (a fault-free
    demo run's gradient norm reached 6.7-21x its median at steps 119-121, 13-52 robust sd, and
    was rolled back three times and paged); clipping absorbs them. Non-finite gradients are
    always caught."""
    fingerprint_every: int = 10
    """Compare the replicas' parameter fingerprints every this many steps (0: only before each
    checkpoint). 10: the fingerprint then costs ~0.04% of a demo step on CPU, where 0.1% needs
    K >= 5 (benchmarks/bench_guards.py, docs/health.md)."""
    skip_batches: int = 10
    """After a loss spike, the rollback skips this many batches starting with the spike's."""
    history: bool = False
    """Keep every step's fingerprint since the replicas last agreed (per-tensor sums left on
    the device, read only at an anomaly), so that the re-run's replay can name the corrupted
    replica of a two-replica tie even when the corruption had reached the shared gradient
    before the next check (sdc_replay.py). Costs one fingerprint's read of the parameters
    every step instead of every `fingerprint_every` (docs/health.md)."""

    def __post_init__(self) -> None:
        for name in ("check_every", "window"):
            if int(getattr(self, name)) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)!r}")
        for name in ("min_history", "fingerprint_every", "skip_batches"):
            if int(getattr(self, name)) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")
        for name in ("spike_z", "grad_z"):
            v = getattr(self, name)
            if not (math.isfinite(v) and v > 0):
                raise ValueError(f"{name} must be a positive number, got {v!r}")
        if not (math.isfinite(self.spike_ratio) and self.spike_ratio >= 1.0):
            raise ValueError(f"spike_ratio must be >= 1, got {self.spike_ratio!r}")
        if self.min_history > self.window:
            raise ValueError(
                f"min_history ({self.min_history}) must not exceed window ({self.window})"
            )

    @classmethod
    def from_spec(cls, text: str | None) -> GuardConfig:
        """`key=value,...` (GuardConfig's fields), `off`, or empty for the defaults;
        ValueError naming the bad field."""
        text = (text or "").strip()
        if text.lower() in ("off", "0", "false", "no"):
            return cls(enabled=False)
        kinds = {f.name: f.type for f in fields(cls)}
        kw: dict[str, Any] = {}
        for item in filter(None, (p.strip() for p in text.split(","))):
            key, eq, value = item.partition("=")
            key = key.strip().replace("-", "_")
            if not eq or key not in kinds:
                raise ValueError(
                    f"{ENV_HEALTH}: {item!r} is not one of {', '.join(k + '=' for k in kinds)}"
                )
            typ = str(kinds[key])
            try:
                if typ == "bool":
                    kw[key] = value.strip().lower() in ("1", "true", "yes", "on")
                elif typ == "int":
                    kw[key] = int(value)
                else:
                    kw[key] = float(value)
            except ValueError:
                raise ValueError(f"{ENV_HEALTH}: {key}={value!r} is not a number") from None
        return cls(**kw)


class Baseline:
    """A running window of recent values; median and MAD, robust to the outliers it judges."""

    def __init__(self, window: int) -> None:
        self.values: deque[float] = deque(maxlen=window)

    def add(self, x: float) -> None:
        self.values.append(x)

    def __len__(self) -> int:
        return len(self.values)

    def stats(self) -> tuple[float, float]:
        """(median, MAD) of the window."""
        med = statistics.median(self.values)
        return med, statistics.median(abs(v - med) for v in self.values)

    def spike(self, x: float, *, z: float, ratio: float) -> tuple[bool, float, float]:
        """(is x a spike, median, robust z-score of x)."""
        med, mad = self.stats()
        sigma = MAD_SCALE * mad
        score = (x - med) / sigma if sigma > 0 else (math.inf if x > med else 0.0)
        return (score > z and x > ratio * med), med, score


@dataclass(frozen=True, kw_only=True)
class Anomaly:
    """One agreed detection: what, at which step, which ranks, and the numbers behind it."""

    kind: str
    """nan, spike or sdc."""
    step: int
    """The step whose end it was detected at (0-based, as `rt.step`)."""
    ranks: list[int]
    """The ranks named: where the loss was not finite, or replicas off the majority."""
    detail: str
    """One line for humans."""
    majority: bool = True
    """sdc: whether a strict majority of replicas agreed (False: a tie, e.g. 2 replicas)."""
    last_good_step: int | None = None
    """sdc: the last step at which every replica's fingerprint agreed (None: not this run)."""
    last_good_fingerprint: str | None = None
    """sdc: the fingerprint every replica held at `last_good_step` (hex): where a replay that
    names the corrupted replica of a tie starts comparing (sdc_replay.py)."""
    value: float | None = None
    baseline: float | None = None
    score: float | None = None
    fingerprints: dict[int, str] = field(default_factory=dict)

    @property
    def category(self) -> str:
        return CATEGORY[self.kind]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["category"] = self.category
        d["fingerprints"] = {str(k): v for k, v in self.fingerprints.items()}
        return d


def split64(x: int) -> list[float]:
    """A 64-bit integer as four 16-bit chunks, each exact in float64 (and in a SUM with 0s)."""
    return [float((x >> (16 * i)) & 0xFFFF) for i in range(4)]


def join64(chunks: Iterable[float]) -> int:
    return sum(int(c) << (16 * i) for i, c in enumerate(chunks))


def make_row(
    *,
    loss: Any = None,
    grad_norm: Any = None,
    fingerprint: int | None = None,
    params_finite: bool = True,
    stop_seen: bool = False,
) -> list[float]:
    """This rank's row of the vector: non-finite values become flags (a NaN in a SUM would
    spread to nothing else, but a flag is clearer), absent values zeros."""
    row = [0.0] * len(SLOTS)
    row[_I["present"]] = 1.0
    row[_I["stop_seen"]] = 1.0 if stop_seen else 0.0
    for name, v in (("loss", loss), ("grad_norm", grad_norm)):
        if v is None:
            continue
        f = float(v)
        if math.isfinite(f):
            row[_I[name]] = f
        else:
            row[_I["loss_bad" if name == "loss" else "grad_bad"]] = 1.0
    if fingerprint is not None:
        row[_I["fp_present"]] = 1.0
        row[_I["fp0"] : _I["fp3"] + 1] = split64(fingerprint)
        row[_I["params_bad"]] = 0.0 if params_finite else 1.0
    return row


class Guards:
    """The decision, a pure function of every rank's row and this object's running baselines
    (which every rank updates identically, so every rank decides the same)."""

    def __init__(self, config: GuardConfig) -> None:
        self.config = config
        self.loss = Baseline(config.window)
        self.grad = Baseline(config.window)
        self.last_agreed_step: int | None = None
        self.last_agreed_fingerprint: str | None = None
        self.checks = 0

    def decide(self, step: int, rows: list[list[float]]) -> Anomaly | None:
        """The anomaly these rows show at `step`, if any; else the baselines learn them."""
        self.checks += 1
        rows = [r for r in rows if r[_I["present"]]]  # ranks outside the group send zeros
        ranks = list(range(len(rows)))
        c = self.config
        bad_loss = [r for r in ranks if rows[r][_I["loss_bad"]]]
        bad_grad = [r for r in ranks if rows[r][_I["grad_bad"]]]
        bad_params = [r for r in ranks if rows[r][_I["fp_present"]] and rows[r][_I["params_bad"]]]
        if bad_loss or bad_grad or bad_params:
            named = bad_loss or bad_grad or bad_params
            what = "loss" if bad_loss else ("gradient norm" if bad_grad else "parameters")
            return Anomaly(
                kind="nan",
                step=step,
                ranks=named,
                detail=f"non-finite {what} on rank(s) {_list(named)} at step {step}",
            )
        sdc = self._replicas(step, rows)
        if sdc is not None:
            return sdc
        losses = [rows[r][_I["loss"]] for r in ranks]
        loss = sum(losses) / len(losses) if losses else 0.0
        grad = max((rows[r][_I["grad_norm"]] for r in ranks), default=0.0)
        has_grad = any(rows[r][_I["grad_norm"]] for r in ranks)
        for name, base, x, z, ratio in (
            ("loss", self.loss, loss, c.spike_z, c.spike_ratio),
            ("gradient norm", self.grad, grad, c.grad_z, 1.0),
        ):
            if name == "gradient norm" and not (has_grad and c.grad_spikes):
                continue
            if len(base) >= max(1, c.min_history):
                hit, med, score = base.spike(x, z=z, ratio=ratio)
                if hit:
                    return Anomaly(
                        kind="spike",
                        step=step,
                        ranks=[],
                        value=x,
                        baseline=med,
                        score=score,
                        detail=f"{name} spike at step {step}: {x:.4g} "
                        f"against a median of {med:.4g} ({score:.1f} robust sd)",
                    )
        self.loss.add(loss)
        if has_grad:
            self.grad.add(grad)
        return None

    def _replicas(self, step: int, rows: list[list[float]]) -> Anomaly | None:
        have = [r for r in range(len(rows)) if rows[r][_I["fp_present"]]]
        if not have:
            return None
        fps = {r: join64(rows[r][_I["fp0"] : _I["fp3"] + 1]) for r in have}
        named, majority = odd_ones(fps)
        if not named:
            self.last_agreed_step = step
            self.last_agreed_fingerprint = f"{fps[have[0]]:016x}"
            return None
        hexes = {r: f"{v:016x}" for r, v in fps.items()}
        why = (
            "differ from the majority"
            if majority
            else f"disagree with no majority among {len(fps)} replicas"
        )
        since = (
            "" if self.last_agreed_step is None else f" (agreed at step {self.last_agreed_step})"
        )
        return Anomaly(
            kind="sdc",
            step=step,
            ranks=named,
            majority=majority,
            last_good_step=self.last_agreed_step,
            last_good_fingerprint=self.last_agreed_fingerprint,
            fingerprints=hexes,
            detail=f"parameter fingerprints of rank(s) {_list(named)} {why} at step {step}{since}",
        )


def odd_ones(fingerprints: Mapping[int, int]) -> tuple[list[int], bool]:
    """(the ranks whose fingerprint differs from the strict majority's, whether one exists).
    All agree: ([], True). Without a strict majority (two replicas that differ, an even
    split) fingerprints cannot tell which replica is wrong: every rank is named, False."""
    groups: dict[int, list[int]] = {}
    for r, fp in sorted(fingerprints.items()):
        groups.setdefault(fp, []).append(r)
    if len(groups) <= 1:
        return [], True
    big = max(groups.values(), key=len)
    if 2 * len(big) > len(fingerprints):
        return sorted(r for g in groups.values() if g is not big for r in g), True
    return sorted(fingerprints), False


def _list(ranks: Iterable[int]) -> str:
    return ", ".join(map(str, ranks))


# -- records in the run directory (what the supervisor and the next attempt read) -------------


def skip_plan(run_dir: Path | str, extra: str | None = None) -> dict[int, int]:
    """{step: batches to skip there}: each loss spike's step and window, plus `extra`
    (`STEP:N,...`, from $NONSTOP_SKIP_BATCHES). Every attempt after the spike skips the same
    batches whenever it reaches that step again."""
    plan: dict[int, int] = {}
    for item in filter(None, (p.strip() for p in (extra or "").split(","))):
        at, _, n = item.partition(":")
        if not (at.isdigit() and n.isdigit()):
            raise ValueError(f"{ENV_SKIP}: {item!r} is not STEP:BATCHES")
        plan[int(at)] = max(plan.get(int(at), 0), int(n))
    for d in read_anomalies(run_dir):
        if d["kind"] == "spike" and int(d.get("skip_batches", 0)) > 0:
            step = int(d["step"])
            plan[step] = max(plan.get(step, 0), int(d["skip_batches"]))
    return plan


# -- the per-rank handle: collectives and fingerprints (torch imported lazily) ----------------


class Health:
    """`rt.health`: runs the guards after each step and on every checkpoint (`verify`)."""

    def __init__(self, rt: Any, config: GuardConfig | None = None) -> None:
        self.rt = rt
        try:
            self.config = config or GuardConfig.from_spec(os.environ.get(ENV_HEALTH))
        except ValueError as e:
            _log.warning("%s; the guards use their defaults", e)
            self.config = GuardConfig()
        self.guards = Guards(self.config)
        self.params: list[Any] | None = None
        self.group: Any = None
        self.anomaly: Anomaly | None = None
        self.last_fingerprint: str | None = None
        self._before_rollback: list[Callable[[], Any]] = []
        self._history: deque[tuple[int, Any]] = deque(maxlen=HISTORY_MAX)
        """(step, per-tensor word sums on the device) since the last agreement (`history`)."""
        self._last_verify: int | None = None
        self._verify_every: int | None = None
        """The steps between the last two saves' `verify` calls: a step whose end a save
        will verify defers its check to that call, so that one collective does both."""
        self._deferred: tuple[int, Mapping[str, Any]] | None = None
        """(step, fields) of that deferred check."""
        self.stop_agreed: tuple[int, bool] | None = None
        """(steps done, whether any rank had seen a planned stop) from the last check over every
        rank: `rt.planned_stop_due` of those steps answers from it, without a collective of its
        own (one collective per step instead of two)."""
        self.replay: Any = None
        """A tie of two replicas from an earlier attempt that this re-run replays to name the
        corrupted one (nonstop.runtime.sdc_replay.Replay), or None."""

    @property
    def active(self) -> bool:
        """Under `nonstop run` (a supervisor can roll back), with the guards on, once the script
        called `watch` (which says that every rank reports every step: the check is a
        collective)."""
        return self.rt.run_dir is not None and self.config.enabled and self.params is not None

    def watch(self, params: Any, *, group: Any = None) -> None:
        """Turn the guards on and fingerprint these parameters (a module or an iterable of
        tensors; `[]` for the loss guards alone) across `group` (default: every rank, as DDP
        replicates). From now on every rank must report every step with `rt.step`: the check
        after each one is a collective. Sharded (DTensor) parameters are skipped: FSDP shards
        differ by design (docs/health.md)."""
        ps = list(params.parameters() if hasattr(params, "parameters") else params)
        replicated = [p for p in ps if not _is_sharded(p)]
        if len(replicated) < len(ps):
            _log.warning(
                "%d sharded parameter(s) not fingerprinted (FSDP): silent-corruption "
                "checks cover the rest only",
                len(ps) - len(replicated),
            )
        self.params, self.group = replicated, group
        if self.active and replicated:
            rec = sdc_replay.pending(self.rt.run_dir, self.rt.attempt, self.rt.world_size)
            self.replay = sdc_replay.Replay(rec) if rec is not None else None

    def before_rollback(self, fn: Callable[[], Any]) -> None:
        """Run `fn` on every rank before a rollback exits, e.g. `ckpt.wait`: a save still in
        flight was taken before the anomaly (the guards verified it) and is worth keeping."""
        self._before_rollback.append(fn)

    def skip_plan(self) -> dict[int, int]:
        """{step: batches} the script skips when it reaches the step (docs/health.md)."""
        if self.rt.run_dir is None:
            return {}
        try:
            return skip_plan(self.rt.run_dir, os.environ.get(ENV_SKIP))
        except ValueError as e:
            _log.warning("%s; ignored", e)
            return skip_plan(self.rt.run_dir)

    def before_step(self, step: int) -> None:
        """Called by `rt.step` when a step begins: a pending replay fingerprints the state the
        process loaded (sdc_replay.py); nothing otherwise. A check deferred to a save that did
        not come runs here, on the parameters it is about (before this step changes them)."""
        self._run_deferred()
        if self.replay is not None and self.params:
            self.replay.before_step(step, self.params)

    def after_step(self, step: int, fields: Mapping[str, Any]) -> None:
        """Called by `rt.step` when a step ends (after the optimizer step): inject the numeric
        faults due, check, and on an agreed anomaly roll back (this never returns then)."""
        faults = self.rt.faults
        if self.params is None:
            return
        self._run_deferred()  # (a script that skipped `rt.step`'s entry)
        if faults and self.params:
            f = faults.bitflip_due(step)
            if f is not None:
                from nonstop.runtime.fingerprint import flip_bit

                faults.bitflip_done(f, step, flip_bit(self.params, bit=f.bit))
        if self.replay is not None and self.params and self.replay.after_step(step, self.params):
            replay, self.replay = self.replay, None  # every rank at the same step: collective
            with log.swallowed(_log, "the replay's verdict on a replica tie"):
                replay.conclude(self.rt, self.group)  # naming the culprit never costs the run
        if self.config.history and self.active and self.params:
            from nonstop.runtime.fingerprint import word_sums

            self._history.append((step, word_sums(self.params)))
        if not self.active or (step + 1) % self.config.check_every:
            return
        if self.params and self._verify_every and (step + 1) % self._verify_every == 0:
            self._deferred = (step, fields)  # the save's verify checks it, fingerprint included
            return
        k = self.config.fingerprint_every
        fp_due = bool(self.params) and k > 0 and (step + 1) % k == 0
        self._check(step, fields, fingerprint=fp_due)

    def verify(self, steps_done: int) -> str | None:
        """Before a checkpoint of `steps_done`: every replica's fingerprint must agree and be
        finite, or the checkpoint would preserve the corruption (an anomaly: roll back).
        Collective: every rank calls it at the same step. The agreed fingerprint, or None
        when nothing is watched.

        Saves come at a cadence (a snapshot every step, a durable save every N): once two have
        shown it, the step before a save defers its own check to here, and one collective
        checks the step and the replicas (one per step instead of two). Every rank decides
        alike, from the steps of the calls alone."""
        if not self.active or not self.params:
            return None
        if self._last_verify is not None and steps_done > self._last_verify:
            self._verify_every = steps_done - self._last_verify
        self._last_verify = steps_done
        deferred, self._deferred = self._deferred, None
        if deferred is not None and deferred[0] == steps_done - 1:
            self._check(deferred[0], deferred[1], fingerprint=True)
            return self.last_fingerprint
        if deferred is not None:
            self._check(deferred[0], deferred[1], fingerprint=True)
        self._check(steps_done - 1, {}, fingerprint=True, spikes=False)
        return self.last_fingerprint

    def _run_deferred(self) -> None:
        """A deferred check whose save never came: run it now, and stop deferring until two
        saves show a cadence again."""
        if self._deferred is not None:
            (step, fields), self._deferred = self._deferred, None
            self._verify_every = self._last_verify = None
            self._check(step, fields, fingerprint=True)

    def _check(
        self, step: int, fields: Mapping[str, Any], *, fingerprint: bool, spikes: bool = True
    ) -> None:
        fp, finite = None, True
        if fingerprint:
            from nonstop.runtime.fingerprint import fingerprint as fingerprint_of

            fp, finite = fingerprint_of(self.params or [])
            self.last_fingerprint = f"{fp:016x}"
        row = make_row(
            loss=fields.get("loss"),
            grad_norm=fields.get("grad_norm"),
            fingerprint=fp,
            params_finite=finite,
            stop_seen=getattr(self.rt, "stop_at", None) is not None,
        )
        rows = self._gather(row)
        if self._over_world():
            self.stop_agreed = (step + 1, any(r[_I["stop_seen"]] > 0 for r in rows))
        if spikes:
            anomaly = self.guards.decide(step, rows)
        else:  # a save's check: the replicas and finiteness only, the baselines untouched
            save_check = Guards(self.config)
            save_check.last_agreed_step = self.guards.last_agreed_step
            save_check.last_agreed_fingerprint = self.guards.last_agreed_fingerprint
            anomaly = save_check.decide(step, [_no_values(r) for r in rows])
            self.guards.last_agreed_step = save_check.last_agreed_step
            self.guards.last_agreed_fingerprint = save_check.last_agreed_fingerprint
        if anomaly is not None:
            self.rollback(anomaly)
        agreed = self.guards.last_agreed_step
        while agreed is not None and self._history and self._history[0][0] < agreed:
            self._history.popleft()  # before the last agreement: no replay needs it

    def _over_world(self) -> bool:
        """Whether the check's collective spans every rank (DDP's default group), so that its
        rows say what every rank had seen."""
        import torch.distributed as dist

        if not (dist.is_available() and dist.is_initialized()):
            return True
        return self.group is None or dist.get_world_size(self.group) == dist.get_world_size()

    def _gather(self, row: list[float]) -> list[list[float]]:
        import torch
        import torch.distributed as dist

        from nonstop.device import collective_device

        if not (dist.is_available() and dist.is_initialized()) or dist.get_world_size() == 1:
            return [row]
        n, me = dist.get_world_size(self.group), dist.get_rank(self.group)
        # the parameters' device, else LOCAL_RANK's: never the current device (cuda:0 in a
        # script that places its model on cuda:LOCAL_RANK without set_device)
        device = collective_device(self.group, self.params or ())
        buf = torch.zeros(n, len(SLOTS), dtype=torch.float64, device=device)
        buf[me] = torch.tensor(row, dtype=torch.float64)
        dist.all_reduce(buf, op=dist.ReduceOp.SUM, group=self.group)
        return [[float(v) for v in r] for r in buf.cpu().tolist()]

    def rollback(self, anomaly: Anomaly) -> None:
        """Every rank: record the anomaly (rank 0 writes run_dir/health/), flush, and exit with
        EXIT_ROLLBACK; the supervisor restarts from the newest checkpoint before it."""
        self.anomaly = anomaly
        rt, good = self.rt, anomaly.last_good_step
        kept = [(st, x) for st, x in self._history if good is None or st >= good]
        hosts, held = sdc_replay.gather_held(rt, kept if anomaly.kind == "sdc" else [])
        record = {
            **anomaly.to_dict(),
            "attempt": rt.attempt,
            "world_size": rt.world_size,
            "hosts": hosts,
            "held": held,
            "skip_batches": self.config.skip_batches if anomaly.kind == "spike" else 0,
            "config": asdict(self.config),
        }
        mine = rt.rank in anomaly.ranks
        with rt.section("checkpoint"):  # a save in flight may take a while: not a hang
            for fn in self._before_rollback:
                try:
                    fn()
                except Exception as e:  # the rollback must happen regardless
                    _log.warning("before the rollback: %r", e)
        if rt.rank == 0 and rt.run_dir is not None:
            try:
                write_anomaly(rt.run_dir, record)
            except OSError as e:
                _log.warning("could not write the anomaly record: %s", e)
        rt.emit(
            "failure",
            type="NumericalAnomaly",
            category=anomaly.category,
            step=anomaly.step,
            message=anomaly.detail,
            anomaly=anomaly.kind,
            named=mine,
            ranks=anomaly.ranks,
        )
        _log.warning("rank %s: %s; rolling back (exit %d)", rt.rank, anomaly.detail, EXIT_ROLLBACK)
        if rt.writer is not None:
            rt.writer.close()
        flush_open_files()  # the script's own files, as an ordinary exit would
        sys.stdout.flush()
        os._exit(EXIT_ROLLBACK)  # no teardown: a hung collective must not keep us here


def _no_values(row: list[float]) -> list[float]:
    out = list(row)
    for name in ("loss_bad", "grad_bad", "loss", "grad_norm"):
        out[_I[name]] = 0.0
    return out


def _is_sharded(p: Any) -> bool:
    placements = getattr(p, "placements", None)
    return placements is not None and any(type(x).__name__ != "Replicate" for x in placements)
