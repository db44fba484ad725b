"""Chaos in replica-group mode: seeded faults across the groups of a `--replica-groups` job.

    python -m benchmarks.chaos.replica_groups --seed 0 --quick    # 2 faults, prints the checks
    python benchmarks/run.py chaos-replica-groups --quick --json  # the same through the harness

The run is a real `nonstop run --replica-groups G --nproc-per-node 1` of the demo Llama's
`--fault-tolerant` mode (torchft; docs/run.md, "Replica groups"), its steps padded to
`STEP_S` (`--min-step-s`, a sleep: no number changes) so that a restarted group comes back
within a few dozen of its peers' steps. A schedule is a seeded order of fault kinds, each in a
seeded group at a seeded step, faults `gap` steps apart so that the group hit before is back
(healed) before the next fault; the last fault leaves as many steps for its group to heal
before the job ends.

- `sigkill`, `exception`, `sigstop` (a hang inside a group): nonstop's injector, routed to the
  group with `--inject SPEC,group=N` and keyed by the group's own attempt (each ends it);
- `lighthouse_kill`: the harness SIGKILLs torchft's Lighthouse process (the parent's child,
  found in /proc), as a crash of its host would; the parent must notice and start it again.

One fault-free reference run with the same settings (no faults, no padding: the padding is a
sleep) gives the loss curve to compare with; `benchmarks/chaos/rg_checks.py` holds the checks.
Standard library only here; every subprocess has a timeout and is killed by process group.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from benchmarks.chaos import procs
from benchmarks.chaos.harness import TINY, Progress

INJECTED: Final = ("sigkill", "exception", "sigstop")
EXTERNAL: Final = ("lighthouse_kill",)
KINDS: Final = INJECTED + EXTERNAL
QUICK_KINDS: Final = ("sigkill", "lighthouse_kill")
GROUPS: Final = 2
STEP_S: Final = 0.25
"""Every step padded to this long (`--min-step-s`): a group's restart (two agents' standbys
and torch imports on 2 shared cores: 2-12 s) lasts 10-50 of its peers' steps, as on a
cluster, and the harness's faults land between steps."""
GAP: Final = (60, 75)
"""Steps between two faults (15-19 s at STEP_S): longer than a group's restart and heal on a
loaded host (11 s measured at load 30, docs/run.md), so a fault never hits the only live
group (that would be a whole-job failure, which replica groups do not claim to survive), and
a group's next fault, keyed to its next attempt at a step, comes after it healed (a group
that heals past that step never reaches it: the injector would never fire it)."""
HANG_GAP: Final = (100, 115)
"""Steps after a hang (25-29 s): its detection alone takes 5-9 s (the watchdog's learned
timeout), then the stopped rank's evidence, restart and heal (chaos seed 1, 2026-12-03: a hang
at step 163 healed past step 238, and the exception scheduled there never fired)."""
LIGHTHOUSE_MARKERS: Final = ("LighthouseServer", "torchft_lighthouse")


@dataclass(frozen=True, kw_only=True)
class RGFault:
    kind: str
    """One of KINDS."""
    group: int
    """The group it hits (lighthouse_kill: -1, every group)."""
    attempt: int
    """The group's own attempt it happens in (lighthouse_kill: -1)."""
    step: int
    """The step (torchft's: committed steps) at which it fires; the harness's faults fire at
    the first step it sees at or past it."""

    def spec(self) -> str | None:
        """The `--inject` spec for the injector's faults; None for the harness's own."""
        where = f"group={self.group},rank=0,attempt={self.attempt}"
        if self.kind == "sigkill":
            return f"crash@step={self.step},{where},signal=SIGKILL"
        if self.kind == "exception":
            return f"exception@step={self.step},{where}"
        if self.kind == "sigstop":
            return f"hang@step={self.step},{where}"
        return None

    def group_spec(self) -> str | None:
        """The spec as the group's own agent gets it (`group=` removed by the parent)."""
        s = self.spec()
        return None if s is None else s.replace(f"group={self.group},", "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "group": self.group,
            "attempt": self.attempt,
            "step": self.step,
            "spec": self.spec(),
        }


@dataclass(frozen=True, kw_only=True)
class RGSchedule:
    seed: int
    steps: int
    groups: int = GROUPS
    faults: list[RGFault] = field(default_factory=list)

    def injects(self) -> list[str]:
        return [s for f in self.faults if (s := f.spec()) is not None]

    def describe(self) -> str:
        lines = [f"seed {self.seed}: {self.groups} replica groups, {self.steps} steps"]
        for f in self.faults:
            who = "Lighthouse" if f.group < 0 else f"group {f.group} attempt {f.attempt}"
            lines.append(
                f"  step {f.step:>3} {who}: {f.kind}"
                + (f" ({f.spec()})" if f.spec() else " (harness)")
            )
        return "\n".join(lines)


def make_schedule(
    *,
    seed: int,
    kinds: tuple[str, ...] | list[str] = KINDS,
    groups: int = GROUPS,
    first: int = 20,
    gap: tuple[int, int] = GAP,
    hang_gap: tuple[int, int] = HANG_GAP,
) -> RGSchedule:
    """One fault of each of `kinds` in a seeded order, group and step; steps grow by `gap`
    (`hang_gap` after a hang)."""
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ValueError(f"kinds: unknown fault kind {unknown[0]!r}; known: {', '.join(KINDS)}")
    rng = random.Random(seed)
    order = list(kinds)
    rng.shuffle(order)
    attempts = [0] * groups
    faults, step = [], first
    for kind in order:
        if kind in EXTERNAL:
            faults.append(RGFault(kind=kind, group=-1, attempt=-1, step=step))
        else:
            g = rng.randrange(groups)
            faults.append(RGFault(kind=kind, group=g, attempt=attempts[g], step=step))
            attempts[g] += 1
        step += rng.randint(*(hang_gap if kind == "sigstop" else gap))
    return RGSchedule(seed=seed, steps=step, groups=groups, faults=faults)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NONSTOP_", "TORCHFT_"))}
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


def command(s: RGSchedule, run_dir: Path, *, faults: bool = True) -> list[str]:
    """`nonstop run --replica-groups` with the schedule's faults (the reference: none, and its
    steps unpadded: the padding is a sleep that changes no number)."""
    inject = [x for spec in s.injects() for x in ("--inject", spec)] if faults else []
    pad = ["--min-step-s", str(STEP_S)] if faults else []
    return [
        sys.executable,
        "-m",
        "nonstop.cli",
        "run",
        "--replica-groups",
        str(s.groups),
        "--nproc-per-node",
        "1",
        "--run-dir",
        str(run_dir),
        "--monitor-interval",
        "0.2",
        "--max-restarts",
        str(len(s.faults) + 3),
        *inject,
        "-m",
        "nonstop.workloads.llama.train",
        "--fault-tolerant",
        *TINY,
        "--steps",
        str(s.steps),
        *pad,
    ]


def reference_run(s: RGSchedule, work: Path, timeout_s: float = 300) -> Path:
    """The fault-free run with the same groups, model, data and steps: its run directory."""
    work.mkdir(parents=True, exist_ok=True)
    run_dir = work / "reference"
    with open(work / "reference.out", "wb") as out:
        r = subprocess.run(
            command(s, run_dir, faults=False),
            stdout=out,
            stderr=subprocess.STDOUT,
            env=_env(),
            timeout=timeout_s,
            start_new_session=True,
        )
    if r.returncode != 0:
        raise RuntimeError(f"reference run failed (exit {r.returncode}); see {work}/reference.out")
    return run_dir


@dataclass
class RGRecord:
    """The harness's own record of the run: its Lighthouse kills and how the parent exited."""

    faults: list[dict[str, Any]] = field(default_factory=list)
    """One per harness fault done: kind, step, time, the killed pid."""
    skipped: list[dict[str, Any]] = field(default_factory=list)
    """Harness faults whose moment never came (with why)."""
    exit_code: int | None = None
    """The parent `nonstop run`'s exit code; None when the harness's timeout stopped it."""
    wall_s: float = 0.0


def lighthouse_pid(parent: int) -> int | None:
    """The pid of the parent's live Lighthouse child (torchft's server), from /proc."""
    for p in procs.processes():
        if (
            p.ppid == parent
            and p.state not in ("Z", "X")
            and any(m in p.cmdline for m in LIGHTHOUSE_MARKERS)
        ):
            return p.pid
    return None


class RGHarness:
    def __init__(self, schedule: RGSchedule, work: Path, *, timeout_s: float = 600) -> None:
        self.s, self.work, self.timeout_s = schedule, work, timeout_s
        self.run_dir = work / "run"
        self.record = RGRecord()
        self.pending = [f for f in schedule.faults if f.kind in EXTERNAL]

    def run(self) -> RGRecord:
        self.work.mkdir(parents=True, exist_ok=True)
        cmd = command(self.s, self.run_dir)
        (self.work / "command.json").write_text(json.dumps(cmd))
        progress = [Progress(self.run_dir / "groups" / f"g{g}") for g in range(self.s.groups)]
        t0 = time.monotonic()
        with open(self.work / "supervisor.out", "wb") as out:
            sup = subprocess.Popen(
                cmd, stdout=out, stderr=subprocess.STDOUT, env=_env(), start_new_session=True
            )
        try:
            while time.monotonic() - t0 < self.timeout_s:
                if sup.poll() is not None:
                    self.record.exit_code = sup.returncode
                    break
                if self.pending:
                    for p in progress:
                        p.update()
                    self._maybe_fire(sup.pid, max(p.step(p.attempt) for p in progress))
                time.sleep(0.05)
        finally:
            self.record.wall_s = time.monotonic() - t0
            for f in self.pending:
                self.record.skipped.append({**f.to_dict(), "why": "its moment never came"})
            if sup.poll() is None:
                procs.kill(sup.pid)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    sup.wait(timeout=30)
            procs.kill_group(sup.pid)
            for pid in self._group_pgids():  # each group's agent leads its own session
                procs.kill_group(pid)
        return self.record

    def _group_pgids(self) -> list[int]:
        out = []
        with contextlib.suppress(OSError, ValueError):
            for line in (self.run_dir / "replica_groups.jsonl").read_text().splitlines():
                e = json.loads(line)
                if e.get("kind") == "group_started":
                    out.append(int(e["pid"]))
        return out

    def _maybe_fire(self, parent: int, step: int) -> None:
        f = self.pending[0]
        if step < f.step:
            return
        if f.kind == "lighthouse_kill":
            pid = lighthouse_pid(parent)
            if pid is None:
                return  # the parent is starting it again after something else: next poll
            at = time.time()  # before the kill: the parent may see the death and restart it
            procs.kill(pid)  # before this thread reads the clock again (seen: 7 ms before)
            self.record.faults.append({**f.to_dict(), "time": at, "pid": pid,
                                       "at_step": step})  # fmt: skip
            print(f"[chaos-rg] SIGKILLed the Lighthouse (pid {pid}) at step {step}",
                  file=sys.stderr, flush=True)  # fmt: skip
            self.pending.pop(0)


def main(argv: list[str] | None = None) -> int:
    import argparse
    import tempfile

    from benchmarks.chaos.rg_checks import evaluate

    p = argparse.ArgumentParser(prog="python -m benchmarks.chaos.replica_groups")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK_KINDS)}")
    p.add_argument("--kinds", default=None, help="comma-separated fault kinds")
    p.add_argument("--work", default=None, help="folder for the runs (default: a temporary one)")
    a = p.parse_args(argv)
    kinds = a.kinds.split(",") if a.kinds else (QUICK_KINDS if a.quick else KINDS)
    s = make_schedule(seed=a.seed, kinds=kinds)
    print(s.describe(), file=sys.stderr)
    work = Path(a.work or tempfile.mkdtemp(prefix="nonstop-chaos-rg-"))
    ref = reference_run(s, work)
    rec = RGHarness(s, work).run()
    print(json.dumps(evaluate(s, work / "run", rec, ref), indent=1, default=str))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    sys.exit(main())
