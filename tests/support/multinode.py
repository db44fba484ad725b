"""`nonstop run` (or torchrun) agents on the nodes of the namespace cluster (support.cluster).

Each agent is started on its node with c10d rendezvous on node0's address, the run directory on
the filesystem every node shares (as an NFS home would be), output in `<name>.out` beside it.
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from support.cluster import Cluster, Node
from support.procs import TINY, clean_env

RDZV_PORT = 29400


@dataclass
class Agent:
    node: Node
    proc: subprocess.Popen
    out: Path
    _log: object = field(repr=False, default=None)

    def poll(self) -> int | None:
        return self.proc.poll()

    def finish(self, timeout: float = 240) -> tuple[int, str]:
        """Wait for the agent; its exit code and the last lines of its output."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.node.kill()
            self.proc.kill()
            self.proc.wait()
        if self._log is not None:
            self._log.close()  # type: ignore[attr-defined]
        lines = [x for x in self.out.read_text().splitlines() if "frame #" not in x]
        return self.proc.returncode, "\n".join(lines[-80:])


def train_cmd(
    run_dir: Path,
    cluster: Cluster,
    nnodes: str,
    *extra: str,
    steps: int = 40,
    ckpt_every: int = 10,
    train: tuple[str, ...] = (),
    rdzv_id: str = "mn",
) -> list[str]:
    return [
        sys.executable,
        "-m",
        "nonstop.cli",
        "run",
        "--quiet",
        "--nnodes",
        nnodes,
        "--nproc-per-node",
        "1",
        "--rdzv-backend",
        "c10d",
        "--rdzv-endpoint",
        f"{cluster[0].ip}:{RDZV_PORT}",
        "--rdzv-id",
        rdzv_id,
        "--run-dir",
        str(run_dir),
        "--no-self-test",
        "--monitor-interval",
        "0.2",
        *extra,
        "-m",
        "nonstop.workloads.llama.train",
        *TINY,
        "--steps",
        str(steps),
        "--checkpoint-every",
        str(ckpt_every),
        *train,
    ]


def start_agent(node: Node, cmd: list[str], out_dir: Path, env: dict[str, str] | None = None):
    out = out_dir / f"{node.name}.out"
    log = open(out, "a")  # noqa: SIM115 - closed by Agent.finish
    proc = node.popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=clean_env(env))
    return Agent(node, proc, out, log)


def last_step(run_dir: Path, attempt: int | None = None) -> int:
    """The newest step any rank reported, from the event streams (-1 before the first)."""
    from nonstop.events import read_events

    best = -1
    pattern = (
        f"events/attempt-{attempt}/rank-*.jsonl" if attempt is not None else "events/*/rank-*.jsonl"
    )
    for p in run_dir.glob(pattern):
        events, _ = read_events(p)
        best = max([best, *(e.payload["step"] for e in events if e.kind == "step")])
    return best


def wait_for_step(run_dir: Path, step: int, timeout: float = 180, agents=()) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = last_step(run_dir)
        if s >= step:
            return s
        if any(a.poll() is not None for a in agents):
            raise AssertionError(
                "an agent exited early:\n" + "\n".join(a.finish(1)[1] for a in agents)
            )
        time.sleep(0.2)
    raise AssertionError(f"no step {step} within {timeout} s (last {last_step(run_dir)})")
