"""Crash recovery of real clients, nonstop run vs torchrun: a PyTorch Lightning Trainer and a
`transformers.Trainer` (tests/clients), rank 1 SIGKILLed at step 12, each resuming from its own
last checkpoint (every 5 steps).

The one observer is the script itself: tests/clients/client_fault.py appends the wall time of
every step each rank starts (and of the fault) to a file, under both launchers alike. The
figure is the seconds from the fault until every rank has started a step of the next attempt
(detection, teardown, restart, the script's start-up and its checkpoint load), and the steps
redone (the crashed step minus the step it resumed at).

Arms: torchrun --max-restarts 1 (with torch's workaround for its 2.13 restart bug), nonstop run
at its defaults (warm standbys, which import as the rank they will most likely become:
Lightning reads RANK and LOCAL_RANK at import), and nonstop run --no-standby (cold).

    python benchmarks/run.py clients [--quick] [--json] [--save]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from benchmarks import stats  # noqa: E402

CLIENTS = {"lightning": "lightning_ddp.py", "transformers": "hf_trainer.py"}
STEPS, CRASH_AT = 20, 12


def recovery(log: Path) -> tuple[float, int]:
    """(seconds from the fault until every rank started a step of attempt 1, steps redone)
    from a client's step log."""
    fault_t, crashed = None, None
    first: dict[str, tuple[float, int]] = {}
    for line in log.read_text().splitlines():
        t, *rest = line.split()
        if rest[0] == "fault":
            fault_t, crashed = float(t), int(rest[2])
        elif rest[0] == "1" and rest[2] not in first:
            first[rest[2]] = (float(t), int(rest[1]))
    if fault_t is None or crashed is None or len(first) < 2:
        raise RuntimeError(f"no fault or no restarted attempt in {log}: {log.read_text()[-500:]}")
    back = max(t for t, _ in first.values())
    resumed = min(step for _, step in first.values())
    return back - fault_t, crashed - resumed


def _one(arm: str, client: str, work: Path) -> tuple[float, int, str]:
    from support import clients as c

    work.mkdir(parents=True)
    log = work / "steps.log"
    env = {"CLIENT_STEP_LOG": str(log)}
    args = [str(STEPS), str(work / "ckpt")]
    fault = f"crash@{CRASH_AT}"
    if arm == "torchrun":
        ran = c.torchrun(CLIENTS[client], args, work, fault=fault, restarts=1, env=env)
        ok = ran.completed
    else:
        flags = ("--no-standby",) if arm == "nonstop-cold" else ()
        ran = c.nonstop(CLIENTS[client], args, work, fault=fault, flags=flags, env=env)
        ok = ran.code == 0
    if not ok:
        raise RuntimeError(f"{arm} {client} failed ({ran.code}): {ran.out[-2000:]}")
    path = ""
    if arm != "torchrun":
        import sqlite3

        db = work / "run" / "ledger.db"
        if db.exists():
            with sqlite3.connect(db) as con:
                row = con.execute("SELECT restart_path FROM attempts WHERE attempt = 1").fetchone()
            path = row[0] if row else ""
    secs, redone = recovery(log)
    return secs, redone, path


def run(quick: bool = False) -> dict[str, Any]:
    n = stats.reps(quick)
    arms = ("torchrun", "nonstop", "nonstop-cold")
    out: dict[str, Any] = {"clients": {}}
    with tempfile.TemporaryDirectory(prefix="bench-clients-") as tmp:
        for client in CLIENTS:
            secs: dict[str, list[float]] = {a: [] for a in arms}
            redone: dict[str, list[int]] = {a: [] for a in arms}
            paths: list[str] = []
            for i in range(n):
                for arm in arms:  # interleaved: the host's load falls on every arm alike
                    s, r, p = _one(arm, client, Path(tmp) / f"{client}-{arm}-{i}")
                    secs[arm].append(s)
                    redone[arm].append(r)
                    if arm == "nonstop":
                        paths.append(p)
                    print(
                        f"clients: {client} {arm} rep {i}: {s:.2f} s, {r} steps redone",
                        file=sys.stderr,
                        flush=True,
                    )
            out["clients"][client] = {
                "seconds": {a: round(statistics.median(v), 3) for a, v in secs.items()},
                "spread": {a: stats.span(v) for a, v in secs.items()},
                "steps_redone": {a: statistics.median(v) for a, v in redone.items()},
                "ratio_vs_torchrun": round(
                    statistics.median(secs["nonstop"]) / statistics.median(secs["torchrun"]), 3
                ),
                "ratio_ci": stats.bootstrap_ratio_ci(secs["nonstop"], secs["torchrun"]),
                "cold_ratio_vs_torchrun": round(
                    statistics.median(secs["nonstop-cold"]) / statistics.median(secs["torchrun"]),
                    3,
                ),
                "restart_path": paths,
                "samples": {a: [round(x, 3) for x in v] for a, v in secs.items()},
            }
    light = out["clients"]["lightning"]
    return {
        "name": "clients",
        "ours": light["seconds"]["nonstop"],
        "peer": light["seconds"]["torchrun"],
        "peer_name": "torchrun --max-restarts 1 (Lightning's last.ckpt)",
        "ratio": light["ratio_vs_torchrun"],
        "unit": "s from SIGKILL to every rank training again (Lightning)",
        "better": "lower",
        "reps": n,
        "spread": {"ratio": light["ratio_ci"]},
        "cpus": os.cpu_count(),
        **out,
    }
