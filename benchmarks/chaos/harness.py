"""Run the demo workload under a chaos schedule and keep the harness's own record of it.

    python -m benchmarks.chaos.harness --seed 0 --quick      # one run, prints the checks
    python -m benchmarks.chaos.harness --replica-groups --seed 0 --quick   # replica-group mode

The run is a real `nonstop run` (2 CPU ranks, c10d rendezvous on a TCPStore server that this
harness owns, so that it can lose it). Injector faults go in with `--inject`; the others are done
from outside while polling the run directory and the process tree every few milliseconds.
A fault-free reference run with the same seed and flags gives the parameters to compare with.
Every subprocess has a timeout and is killed by process group at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.chaos import procs
from benchmarks.chaos.schedule import HEALTH_ENV, Schedule
from nonstop.workloads.llama import tiny_args

TINY = tiny_args(log_every=10)
POLL_S = 0.01
STORE = (
    "import sys, time\n"
    "from torch.distributed import TCPStore\n"
    "s = TCPStore('127.0.0.1', int(sys.argv[1]), is_master=True, wait_for_workers=False)\n"
    "print('ready', flush=True)\n"
    "time.sleep(float(sys.argv[2]))\n"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def train_args(s: Schedule, final: Path) -> list[str]:
    return [
        "-m",
        "nonstop.workloads.llama.train",
        *TINY,
        "--steps",
        str(s.steps),
        "--checkpoint-every",
        str(s.checkpoint_every),
        "--save-final",
        str(final),
    ]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("NONSTOP_FAULTS", None)
    # the numerical guards (docs/health.md); the soak, without numerical faults, turns them off
    env["NONSTOP_HEALTH"] = os.environ.get("NONSTOP_CHAOS_HEALTH", HEALTH_ENV)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


def seeded_runs(
    run_seed: Callable[[int, bool, Path], dict[str, Any]],
    quick: bool,
    quick_seeds: list[int],
    full_seeds: list[int],
    *,
    prefix: str,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """`run_seed(seed, quick, root)` for each seed of a chaos benchmark: NONSTOP_CHAOS_SEEDS
    (comma-separated), else its quick or full list, under NONSTOP_CHAOS_DIR or a new
    temporary folder named `prefix`. Returns the runs and what the result records beside
    them: the load average before and after, the date, the folder."""
    env = os.environ.get("NONSTOP_CHAOS_SEEDS")
    seeds = [int(x) for x in env.split(",")] if env else (quick_seeds if quick else full_seeds)
    root = Path(os.environ.get("NONSTOP_CHAOS_DIR") or tempfile.mkdtemp(prefix=prefix))
    load_start = [round(x, 2) for x in os.getloadavg()]
    runs = [run_seed(seed, quick, root) for seed in seeds]
    load = {"start": load_start, "end": [round(x, 2) for x in os.getloadavg()]}
    date = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return runs, {"load": load, "date": date, "work_dir": str(root)}


def reference_run(s: Schedule, work: Path, timeout_s: float = 240) -> Path:
    """A fault-free run with the same seed, flags and world size: the final parameters."""
    work.mkdir(parents=True, exist_ok=True)
    final = work / "reference.pt"
    cmd = [
        sys.executable,
        "-m",
        "nonstop.cli",
        "run",
        "--quiet",
        "--nproc-per-node",
        str(s.world_size),
        "--run-dir",
        str(work / "reference"),
        "--no-self-test",
        *train_args(s, final),
    ]
    env = _env()
    if s.skips():  # the batches the faulty run skips after its spikes: the same data
        env["NONSTOP_SKIP_BATCHES"] = s.skips()
    with open(work / "reference.out", "w") as log:
        r = subprocess.run(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            timeout=timeout_s,
            env=env,
            start_new_session=True,
        )
    if r.returncode != 0 or not final.exists():
        raise RuntimeError(f"reference run failed (exit {r.returncode}); see {work}/reference.out")
    return final


@dataclass
class Record:
    """The harness's own record of what it did (the external faults) and saw."""

    faults: list[dict[str, Any]] = field(default_factory=list)
    """One per external fault actually done: kind, attempt, rank, time, detail."""
    skipped: list[dict[str, Any]] = field(default_factory=list)
    """External faults whose moment never came (with why)."""
    commits: list[tuple[float, list[int]]] = field(default_factory=list)
    """(time, committed steps) each time the set of committed checkpoints changed."""
    corrupted: list[tuple[int, float]] = field(default_factory=list)
    """(step, time) of each checkpoint the harness flipped a bit in."""
    supervisor_exits: list[int] = field(default_factory=list)
    requeues: int = 0
    """Times the supervisor stopped on its own (not killed by us) and was started again."""
    orphans: int = 0
    """Ranks still alive a second after their supervisor was SIGKILLed."""


class CheckpointWatcher(threading.Thread):
    """Polls checkpoints/ and records the committed set (folders with COMMIT.json) over time."""

    def __init__(self, root: Path, record: Record, period_s: float = 0.01) -> None:
        super().__init__(daemon=True)
        self.root, self.record, self.period_s = root, record, period_s
        self.stop_event = threading.Event()

    def committed(self) -> list[int]:
        out = []
        with contextlib.suppress(OSError):
            for name in os.listdir(self.root):
                committed = (self.root / name / "COMMIT.json").exists()
                if name.startswith("step-") and name[5:].isdigit() and committed:
                    out.append(int(name[5:]))
        return sorted(out)

    def run(self) -> None:
        last: list[int] | None = None
        while not self.stop_event.is_set():
            now = self.committed()
            if now != last:
                self.record.commits.append((time.time(), now))
                last = now
            self.stop_event.wait(self.period_s)

    def stop(self) -> None:
        self.stop_event.set()
        self.join(timeout=5)
        self.record.commits.append((time.time(), self.committed()))


class Progress:
    """The newest attempt and the highest step each attempt reached, from the event files."""

    def __init__(self, run_dir: Path) -> None:
        self.events = run_dir / "events"
        self.offsets: dict[Path, int] = {}
        self.steps: dict[int, int] = {}

    def update(self) -> None:
        with contextlib.suppress(OSError):
            for adir in self.events.iterdir():
                if not adir.name.startswith("attempt-"):
                    continue
                attempt = int(adir.name.split("-")[1])
                self.steps.setdefault(attempt, -1)
                for path in adir.glob("rank-*.jsonl"):
                    self._tail(attempt, path)

    def _tail(self, attempt: int, path: Path) -> None:
        start = self.offsets.get(path, 0)
        with open(path, "rb") as f:
            f.seek(start)
            data = f.read()
        end = data.rfind(b"\n") + 1
        self.offsets[path] = start + end
        for line in data[:end].splitlines():
            with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
                e = json.loads(line)
                if e["kind"] == "step":
                    self.steps[attempt] = max(self.steps[attempt], int(e["payload"]["step"]))

    @property
    def attempt(self) -> int:
        return max(self.steps, default=-1)

    def step(self, attempt: int) -> int:
        return self.steps.get(attempt, -1)


class Store:
    """The rendezvous store, in its own process so that it can be lost and started again."""

    def __init__(self, port: int, log: Path, timeout_s: float) -> None:
        self.port, self.log, self.timeout_s = port, log, timeout_s
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", STORE, str(self.port), str(self.timeout_s)],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.proc.poll() is not None:
                raise RuntimeError(f"the store did not start; see {self.log}")
            time.sleep(0.05)
        raise RuntimeError("the store did not start within 60 s")

    def kill(self) -> None:
        if self.proc is not None:
            procs.kill_group(self.proc.pid)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=10)


class Harness:
    @property
    def max_requeues(self) -> int:
        """Relaunches of a launcher that exited on its own, not killed by the harness, as a
        scheduler's requeue (a `nonstop run` agent should never need one)."""
        return 2

    def __init__(self, schedule: Schedule, work: Path, *, timeout_s: float = 600) -> None:
        self.s, self.work, self.timeout_s = schedule, work, timeout_s
        self.run_dir = work / "run"
        self.final = work / "final.pt"
        self.record = Record()
        self.rng = random.Random(schedule.seed * 7919 + 1)
        self.pending = [f for f in schedule.faults if f.external]
        self.sup: subprocess.Popen[bytes] | None = None
        self.killed_by_us = False
        self.all_groups: list[int] = []
        self.on_poll: Any = None
        """Called with the supervisor's pid on every poll (the soak samples its memory)."""

    # -- processes ---------------------------------------------------------------------------

    def launcher_flags(self, port: int, rdzv_id: str) -> list[str]:
        """The torchrun flags both launchers get: one node, the schedule's world size, c10d
        rendezvous on the harness's store at `port`, and restarts to spare."""
        s = self.s
        return [
            "--nnodes",
            "1",
            "--nproc-per-node",
            str(s.world_size),
            "--rdzv-backend",
            "c10d",
            "--rdzv-endpoint",
            f"127.0.0.1:{port}",
            "--rdzv-conf",
            "is_host=false",
            "--rdzv-id",
            rdzv_id,
            "--max-restarts",
            str(len(s.faults) + 3),
            "--monitor-interval",
            "0.2",
        ]

    def command(self, port: int) -> list[str]:
        s = self.s
        inject = [x for spec in s.injects() for x in ("--inject", spec)]
        return [
            sys.executable,
            "-m",
            "nonstop.cli",
            "run",
            "--quiet",
            *self.launcher_flags(port, f"chaos-{s.seed}"),
            "--run-dir",
            str(self.run_dir),
            *inject,
            *train_args(s, self.final),
        ]

    def env(self) -> dict[str, str]:
        """The launcher's environment."""
        return _env()

    def _launch(self, cmd: list[str]) -> None:
        log = open(self.work / "supervisor.out", "ab")  # noqa: SIM115 - owned by the child
        log.write(f"\n=== launch at {time.time():.3f}\n".encode())
        log.flush()
        self.sup = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, env=self.env(), start_new_session=True
        )
        log.close()
        self.all_groups.append(self.sup.pid)
        self.killed_by_us = False

    def _kill_supervisor(self) -> None:
        assert self.sup is not None
        procs.kill(self.sup.pid)
        self.sup.wait(timeout=30)
        self.killed_by_us = True
        time.sleep(1.0)  # PR_SET_PDEATHSIG: the ranks die with their supervisor
        self.record.orphans += len(procs.workers(self.run_dir))
        procs.kill_group(self.sup.pid)  # the self-test's processes, and any orphan

    # -- the run -----------------------------------------------------------------------------

    def run(self) -> Record:
        self.work.mkdir(parents=True, exist_ok=True)
        port = free_port()
        store = Store(port, self.work / "store.out", timeout_s=self.timeout_s + 60)
        store.start()
        self.run_dir.mkdir(parents=True, exist_ok=True)
        watcher = CheckpointWatcher(self.run_dir / "checkpoints", self.record)
        watcher.start()
        progress = Progress(self.run_dir)
        cmd = self.command(port)
        (self.work / "command.json").write_text(json.dumps(cmd))
        deadline = time.monotonic() + self.timeout_s
        try:
            self._launch(cmd)
            while time.monotonic() < deadline:
                assert self.sup is not None
                code = self.sup.poll()
                if code is not None:
                    self.record.supervisor_exits.append(code)
                    if code == 0 and not self.killed_by_us:
                        break
                    if not self.killed_by_us:
                        if self.record.requeues >= self.max_requeues:
                            break
                        self.record.requeues += 1  # a scheduler would requeue it
                        time.sleep(1.0)
                    self._launch(cmd)
                    continue
                progress.update()
                if self.on_poll is not None:
                    self.on_poll(self.sup.pid)
                if self.pending:
                    self._maybe_fire(progress, store)
                time.sleep(POLL_S)
            else:
                self.record.supervisor_exits.append(-999)  # our timeout
        finally:
            for f in self.pending:
                self.record.skipped.append({**f.to_dict(), "why": "its moment never came"})
            if self.sup is not None and self.sup.poll() is None:
                procs.kill(self.sup.pid)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.sup.wait(timeout=30)
            for pgid in self.all_groups:
                procs.kill_group(pgid)
            watcher.stop()
            store.kill()
        return self.record

    # -- external faults ---------------------------------------------------------------------

    def _note(self, f: Any, **detail: Any) -> None:
        self.record.faults.append({**f.to_dict(), "time": time.time(), **detail})
        print(
            f"[chaos] {f.kind} attempt {f.attempt} rank {f.rank} {detail}",
            file=sys.stderr,
            flush=True,
        )

    def _tmp_saves(self) -> list[Path]:
        return list((self.run_dir / "checkpoints").glob("step-*.tmp"))

    def _maybe_fire(self, progress: Progress, store: Store) -> None:
        f = self.pending[0]
        attempt = progress.attempt
        if f.kind == "kill_in_restart":
            pid = procs.workers(self.run_dir).get((f.attempt, f.rank))
            if pid is not None and progress.step(f.attempt) < 0:
                procs.kill(pid)
                self._note(f, pid=pid)
                self.pending.pop(0)
            elif progress.step(f.attempt) >= 0:  # too late: it already trains
                self.record.skipped.append({**f.to_dict(), "why": "attempt started training"})
                self.pending.pop(0)
            return
        if f.kind == "kill_in_health_check":
            assert self.sup is not None
            if attempt > f.attempt:
                self.record.skipped.append({**f.to_dict(), "why": "no self-test was seen"})
                self.pending.pop(0)
            elif attempt == f.attempt and procs.self_test_running(self.sup.pid):
                self._kill_supervisor()
                self._note(f, during="collective self-test")
                self.pending.pop(0)
            return
        if attempt != f.attempt or progress.step(attempt) < f.step:
            if attempt > f.attempt:
                self.record.skipped.append({**f.to_dict(), "why": f"attempt {attempt} started"})
                self.pending.pop(0)
            return
        if f.kind == "supervisor_kill":
            self._kill_supervisor()
            self._note(f, at_step=progress.step(attempt))
            self.pending.pop(0)
        elif f.kind == "kill_mid_write":
            # find the rank once (a /proc scan is slow), then spin on the folder: a save of
            # this small model is in step-N.tmp for only tens of milliseconds
            pid = procs.workers(self.run_dir).get((f.attempt, f.rank))
            deadline = time.monotonic() + 2.0
            tmp = self._tmp_saves()
            while pid is not None and not tmp and time.monotonic() < deadline:
                time.sleep(0.002)
                tmp = self._tmp_saves()
            if tmp and pid is not None:
                procs.kill(pid)
                torn = [p.name for p in tmp if not (p / "COMMIT.json").exists()]
                self._note(f, pid=pid, writing=torn)
                self.pending.pop(0)
        elif f.kind == "bitflip":
            committed = sorted(
                int(p.name[5:])
                for p in (self.run_dir / "checkpoints").glob("step-*")
                if p.name[5:].isdigit() and (p / "COMMIT.json").exists()
            )
            pid = procs.workers(self.run_dir).get((f.attempt, f.rank))
            if committed and not self._tmp_saves() and pid is not None:
                step = committed[-1]
                where = self._flip(self.run_dir / "checkpoints" / f"step-{step}")
                procs.kill(pid)
                self.record.corrupted.append((step, time.time()))
                self._note(f, pid=pid, checkpoint=step, flipped=where)
                self.pending.pop(0)
        elif f.kind == "rdzv_loss":
            pid = procs.workers(self.run_dir).get((f.attempt, f.rank))
            if pid is None:
                return
            store.kill()
            t_lost = time.time()
            time.sleep(1.0)  # the agents' keep-alive writes fail meanwhile
            store.start()
            procs.kill(pid)  # the restart must rendezvous through the new, empty store
            self._note(f, pid=pid, store_down_s=round(time.time() - t_lost, 2))
            self.pending.pop(0)

    def _flip(self, folder: Path) -> dict[str, Any]:
        files = [p for p in folder.iterdir() if p.is_file() and p.name != "COMMIT.json"]
        target = max(files, key=lambda p: p.stat().st_size)
        size = target.stat().st_size
        offset = self.rng.randrange(size // 4, size - size // 4)
        bit = self.rng.randrange(8)
        with open(target, "r+b") as fh:
            fh.seek(offset)
            byte = fh.read(1)[0]
            fh.seek(offset)
            fh.write(bytes([byte ^ (1 << bit)]))
            fh.flush()
            os.fsync(fh.fileno())
        return {"file": target.name, "offset": offset, "bit": bit}


def main(argv: list[str] | None = None) -> int:
    import argparse

    from benchmarks.chaos.checks import evaluate
    from benchmarks.chaos.schedule import KINDS, QUICK_KINDS, make_schedule

    p = argparse.ArgumentParser(prog="python -m benchmarks.chaos.harness")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK_KINDS)}")
    p.add_argument("--kinds", default=None, help="comma-separated fault kinds")
    p.add_argument("--work", default=None, help="folder for the runs (default: a temporary one)")
    p.add_argument(
        "--replica-groups",
        action="store_true",
        help="the replica-group mode: faults across the torchft groups of one job "
        "(benchmarks/chaos/replica_groups.py)",
    )
    a, rest = p.parse_known_args(argv)
    if a.replica_groups:
        from benchmarks.chaos import replica_groups

        return replica_groups.main([x for x in (argv or sys.argv[1:]) if x != "--replica-groups"])
    if rest:
        p.error(f"unrecognized arguments: {' '.join(rest)}")
    kinds = a.kinds.split(",") if a.kinds else (QUICK_KINDS if a.quick else KINDS)
    s = make_schedule(seed=a.seed, kinds=kinds, gap=(7, 9) if a.quick else (9, 13))
    print(s.describe(), file=sys.stderr)
    import tempfile

    work = Path(a.work or tempfile.mkdtemp(prefix="nonstop-chaos-"))
    ref = reference_run(s, work)
    rec = Harness(s, work).run()
    print(json.dumps(evaluate(s, work, rec, ref), indent=1, default=str))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    sys.exit(main())
