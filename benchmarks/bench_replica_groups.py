"""One rank SIGKILLed: replica groups under `nonstop run` against torchft's own launcher and
against nonstop's whole-job restart.

    .venv/bin/python benchmarks/run.py replica-groups --quick --json   # 1 rep
    .venv/bin/python benchmarks/run.py replica-groups --json           # 5 reps

Every arm trains the demo Llama (tiny: dim 32, one layer), steps padded to STEP_S (a stand-in
for a bigger model's step), and kills one rank with SIGKILL at step CRASH:

- `nonstop`: `nonstop run --replica-groups 2 --nproc-per-node 1`, `--inject
  crash@step=CRASH,group=1,signal=SIGKILL`, the workload's `--fault-tolerant` mode;
- `torchft`: torchft's own launcher configuration on the same script (its torchx component
  `torchft.torchx.hsdp`): torchft's Lighthouse (`torchft_lighthouse --min_replicas 1`) and one
  `torchrun --nnodes 1 --nproc-per-node 1 --max-restarts 10 --master-port 29600+i` per group
  with REPLICA_GROUP_ID, NUM_REPLICA_GROUPS and TORCHFT_LIGHTHOUSE; the same fault through
  NONSTOP_FAULTS in group 1, and NONSTOP_RUN_DIR per group, so that nonstop.runtime writes
  the same events there (the attempt from TORCHELASTIC_RESTART_COUNT); torchrun's
  `--max-restarts` restarts the group, with no detection beyond the exit, no evidence, no
  health checks and no ledger;
- `whole_job`: `nonstop run --nproc-per-node 2` on the ordinary DDP script, in-memory
  checkpoints every step (nonstop's fastest restart), `crash@step=CRASH,rank=1`.

Read identically from every arm's events: `back_s`, from the injected failure (the `failure`
event rank 1 flushes before it kills itself) until every replica trains again (replica groups:
the end of the killed group's first committed step after it healed; whole job: the start of the
crashed step in the next attempt), and `lost_rank_s`, the rank-seconds in that window not spent in a committed step
(replica groups: the survivor's lost steps and the killed group's whole window; whole job:
both ranks' whole window).
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from nonstop.events import EventWarning, read_events
from nonstop.rundir import RunDir
from nonstop.workloads.llama import tiny_args

REPO = Path(__file__).resolve().parent.parent
PY = sys.executable
STEPS, CRASH, STEP_S = 300, 20, 0.15
TINY = tiny_args(log_every=20)
FT = ["-m", "nonstop.workloads.llama.train", "--fault-tolerant", *TINY, "--steps", str(STEPS),
      "--min-step-s", str(STEP_S)]  # fmt: skip


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NONSTOP_", "TORCHFT_"))}
    env["PYTHONPATH"] = str(REPO)
    env["RUST_LOG"] = "warn"
    env.update(extra)
    return env


def _events(d: Path) -> list[Any]:
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EventWarning)
        for _attempt, _rank, path in RunDir(d).event_files():
            out += read_events(path)[0]
    return out


def _fault_time(events: list[Any]) -> float:
    return min(e.time for e in events if e.kind == "failure" and e.payload.get("injected"))


def _group_window(root: Path, groups: int) -> dict[str, float]:
    """back_s and lost_rank_s of a replica-group run (groups/g<i> run directories)."""
    evs = {g: _events(root / "groups" / f"g{g}") for g in range(groups)}
    fault = _fault_time(evs[1])
    # every group trains again: the end of the killed group's first committed step after the
    # restart (its attempt 1; the step's time includes the quorum in which it healed)
    back = min(
        (
            e.payload["end"]
            for e in evs[1]
            if e.kind == "step" and e.attempt > 0 and e.payload.get("committed")
        ),
        default=float("nan"),
    )
    lost = 0.0
    for g in range(groups):
        busy = sum(
            min(e.payload["end"], back) - max(e.payload["start"], fault)
            for e in evs[g]
            if e.kind == "step" and e.payload.get("committed")
            and e.payload["end"] > fault and e.payload["start"] < back
        )  # fmt: skip
        lost += (back - fault) - busy
    return {"back_s": back - fault, "lost_rank_s": lost}


def run_nonstop(tmp: Path) -> dict[str, float]:
    root = tmp / "nonstop"
    cmd = [PY, "-m", "nonstop.cli", "run", "--replica-groups", "2", "--nproc-per-node", "1",
           "--run-dir", str(root), "--quiet", "--inject",
           f"crash@step={CRASH},group=1,signal=SIGKILL", *FT]  # fmt: skip
    subprocess.run(cmd, env=_env(), capture_output=True, timeout=900, check=True)
    return _group_window(root, 2)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_torchft(tmp: Path) -> dict[str, float]:
    """torchft's launcher configuration (torchft.torchx.hsdp) on the same script."""
    root = tmp / "torchft"
    (root / "groups").mkdir(parents=True)
    port = _free_port()
    bindir = Path(PY).parent
    lh = subprocess.Popen(
        [
            str(bindir / "torchft_lighthouse"),
            "--min_replicas",
            "1",
            "--join_timeout_ms",
            "1000",
            "--quorum_tick_ms",
            "100",
            "--bind",
            f"127.0.0.1:{port}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    procs = []
    try:
        time.sleep(2)
        for g in range(2):
            d = root / "groups" / f"g{g}"
            env = _env(
                REPLICA_GROUP_ID=str(g),
                NUM_REPLICA_GROUPS="2",
                TORCHFT_LIGHTHOUSE=f"http://127.0.0.1:{port}",
                NONSTOP_RUN_DIR=str(d),
                NONSTOP_RUN_ID=f"g{g}",
                NONSTOP_REPLICA_GROUPS_DIR=str(root),
                TORCH_DISABLE_SHARE_RDZV_TCP_STORE="1",
            )
            if g == 1:
                env["NONSTOP_FAULTS"] = f"crash@step={CRASH},rank=0,signal=SIGKILL"
            cmd = [str(bindir / "torchrun"), f"--master-port={_free_port()}", "--nnodes=1",
                   "--nproc-per-node=1", "--max-restarts=10", *FT]  # fmt: skip
            procs.append(
                subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            )
        for p in procs:
            p.wait(timeout=900)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        lh.kill()
        lh.wait()
    return _group_window(root, 2)


def run_whole_job(tmp: Path) -> dict[str, float]:
    root = tmp / "whole"
    cmd = [PY, "-m", "nonstop.cli", "run", "--nproc-per-node", "2", "--run-dir", str(root),
           "--quiet", "--memory-checkpoint-every", "1", "--inject",
           f"crash@step={CRASH},rank=1,signal=SIGKILL", "-m", "nonstop.workloads.llama.train",
           *TINY, "--steps", str(STEPS), "--checkpoint-every", "0"]  # fmt: skip
    subprocess.run(cmd, env=_env(), capture_output=True, timeout=900, check=True)
    evs = _events(root)
    fault = _fault_time(evs)
    # the whole job trains again: the crashed step starts again in the next attempt
    back = min(
        e.payload["start"]
        for e in evs
        if e.kind == "step" and e.attempt > 0 and e.payload["step"] >= CRASH
    )
    return {"back_s": back - fault, "lost_rank_s": 2 * (back - fault)}


def run(quick: bool = False) -> dict[str, Any]:
    """benchmarks/run.py's entry point."""
    return main(quick)


def main(quick: bool = False) -> dict[str, Any]:
    reps = 1 if quick else 5
    arms = {"nonstop": run_nonstop, "torchft": run_torchft, "whole_job": run_whole_job}
    raw: dict[str, list[dict[str, float]]] = {a: [] for a in arms}
    for _ in range(reps):
        for name, fn in arms.items():  # interleaved: the host's load hits every arm alike
            with tempfile.TemporaryDirectory(prefix=f"rg-{name}-") as t:
                raw[name].append(fn(Path(t)))
    out: dict[str, Any] = {"reps": reps, "steps": STEPS, "crash_step": CRASH, "step_s": STEP_S}
    for name, rows in raw.items():
        out[name] = {
            k: {"median": statistics.median(r[k] for r in rows), "reps": [r[k] for r in rows]}
            for k in ("back_s", "lost_rank_s")
        }
    ours, peer = out["nonstop"]["lost_rank_s"]["median"], out["torchft"]["lost_rank_s"]["median"]
    out.update(
        name="replica-groups",
        ours=ours,
        peer=peer,
        peer_name="torchft's launcher (torchrun per group + Lighthouse)",
        ratio=ours / peer if peer else None,
        unit="rank-seconds lost to one SIGKILL",
        better="lower",
        load_average=os.getloadavg(),
    )
    return out


if __name__ == "__main__":
    print(json.dumps(main(quick="--quick" in sys.argv), indent=2, default=str))
