"""Submitting examples/slurm/nonstop.sbatch to the test cluster and watching its jobs."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from support.procs import tiny

ROOT = Path(__file__).resolve().parents[2]
SBATCH = ROOT / "examples/slurm/nonstop.sbatch"
# a small model: an attempt costs the interpreter's start, not the training (as tests/supervisor)
TINY = tiny(log_every=500)
# seconds between a requeue and the release of the job (Job.release)
REVOKE_GAP_S = 2.0
FINISHED = ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY")


def train(steps: int, every: int = 1000) -> list[str]:
    return [
        "-m",
        "nonstop.workloads.llama.train",
        *TINY,
        "--steps",
        str(steps),
        "--checkpoint-every",
        str(every),
    ]


class Job:
    def __init__(
        self,
        conf: Path,
        workdir: Path,
        sbatch_flags: list[str],
        args: list[str],
        env: dict[str, str] | None = None,
    ) -> None:
        self.env = dict(os.environ, SLURM_CONF=str(conf), **(env or {}))
        # the tasks run what this test runs: this venv's nonstop; the numerical guards are off,
        # since a tiny model's gradient norms spike for real now and then (not what is tested)
        self.env["PATH"] = f"{Path(sys.executable).parent}:{self.env.get('PATH', '')}"
        self.env.setdefault("NONSTOP_HEALTH", "off")
        self.env.pop("NONSTOP_FAULTS", None)
        self.workdir = workdir
        self.run_dir = workdir / "run"
        self.env["NONSTOP_RUN_DIR"] = str(self.run_dir)
        self.out = workdir / "slurm.out"
        self.requeued_at = 0.0
        r = subprocess.run(
            ["sbatch", "--parsable", f"--output={self.out}", *sbatch_flags, str(SBATCH), *args],
            env=self.env,
            cwd=workdir,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert r.returncode == 0, r.stderr
        self.id = r.stdout.strip().split(";")[0]

    def scontrol(self, *args: str) -> str:
        r = subprocess.run(
            ["scontrol", *args], env=self.env, capture_output=True, text=True, timeout=30
        )
        assert r.returncode == 0, r.stderr
        return r.stdout

    def info(self) -> dict[str, str]:
        """`scontrol show job` as a dict (JobState, Restarts, ExitCode, ...)."""
        out = self.scontrol("show", "job", "-o", self.id)
        return dict(w.split("=", 1) for w in out.split() if "=" in w)

    def wait(
        self, done: Callable[[dict[str, str]], bool], timeout_s: float, what: str
    ) -> dict[str, str]:
        deadline = time.monotonic() + timeout_s
        while True:
            info = self.info()
            if done(info):
                return info
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"job {self.id}: not {what} after {timeout_s:g} s: "
                    f"{info.get('JobState')}\n{self.output()}"
                )
            time.sleep(1.0)

    def wait_finished(self, timeout_s: float) -> dict[str, str]:
        return self.wait(lambda j: j["JobState"] in FINISHED, timeout_s, "finished")

    def wait_requeued(self, timeout_s: float) -> dict[str, str]:
        """Back in the queue after a requeue; Slurm holds a requeued job (BeginTime, about
        2 minutes): release it at once, as an operator would with the same command."""
        info = self.wait(
            lambda j: int(j["Restarts"]) >= 1 and j["JobState"] == "PENDING", timeout_s, "requeued"
        )
        self.requeued_at = time.time()
        return info

    def release(self, time_limit: str | None = None) -> None:
        """Start the requeued job now. Not within the second of its requeue: slurmd revokes the
        old run's credential then, to the second, and refuses a launch whose credential was
        issued in that same second (slurmctld: "Killing non-startable batch JobId=45: Job
        credential revoked", the job FAILED; CI saw it when released 0.12 s after the
        requeue). Slurm's own ~2 minute BeginTime hold is what normally keeps them apart."""
        wait = self.requeued_at + REVOKE_GAP_S - time.time()
        if wait > 0:
            time.sleep(wait)
        extra = [f"TimeLimit={time_limit}"] if time_limit else []
        self.scontrol("update", f"JobId={self.id}", "StartTime=now", *extra)

    def output(self) -> str:
        try:
            return self.out.read_text(errors="replace")
        except OSError:
            return ""

    def cancel(self) -> None:
        subprocess.run(["scancel", self.id], env=self.env, capture_output=True, timeout=30)

    def rows(self, sql: str) -> list[tuple]:
        conn = sqlite3.connect(self.run_dir / "ledger.db")
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()

    def seen(self, sql: str) -> bool:
        """Whether `sql` finds a row yet (False while the ledger is still being created)."""
        try:
            return bool(self.rows(sql))
        except sqlite3.Error:
            return False

    def steps_trained(self) -> list[int]:
        """Every step rank 0 trained, in every attempt, in order (a step trained twice shows
        twice)."""
        return [
            s for (s,) in self.rows("SELECT step FROM steps WHERE rank = 0 ORDER BY attempt, step")
        ]
