"""Hang to detection, measured from outside: `nonstop run` against NVIDIA's resiliency extension
(ft_launcher, rank sections) and torchrun armed with a process-group timeout and torch's elastic
timer, same script, same hangs, same observer; plus slow phases that are not hangs.

    .venv/bin/python benchmarks/run.py hang-detection --quick --json   # 1 rep, 1 kind (~1 min)
    .venv/bin/python benchmarks/run.py hang-detection --json           # 4 kinds x 5 reps + pauses

Every arm runs benchmarks/hang_workload.py (2 ranks, gloo on CPU, steps reported with
nonstop.runtime, which writes the same events under every launcher). The hangs, all on rank 1:

- sigstop: SIGSTOP at the start of step N (`hang@step=N,rank=1`, nonstop.faults);
- collective: inside a receive no peer matches while rank 0 waits in DDP's all-reduce
  (`hang@step=N,rank=1,how=collective`);
- startup: blocks forever after init_process_group, before DDP is built (no step ever runs);
- loader: its DataLoader worker blocks forever producing step N's batch.

Same clocks for every arm. Time zero is the fault's own record, written by the rank just
before it hangs (the injector's `failure` event; the script's `hang.json` for its own hangs).
The end is what one observer sees from outside, polling /proc every POLL_S (20 ms) for every
arm: `detection_s` is the first moment a rank process of the job is gone (killed, exited, a
zombie) or the launcher exits (the headline: the launcher has acted, whichever rank it hit
first); `stuck_gone_s` the moment the hung rank itself (rank 1) is gone; `stopped_s` the moment
every rank is gone (the job is down and could restart). nonstop's own ledger time is kept beside it (`ledger_detection_s`), never used.

The arms:

- ours: `nonstop run --max-restarts 0 --health-checks none --no-self-test --no-standby`,
  `--hang-timeout auto`, the startup timeout as nonstop chooses it: a calibration run of the
  same command first (as a user's earlier runs), then every run learns the startup from the
  run directories beside it (watchdog.learned_for: max(20 s, 3 x the longest startup seen));
- ft: NVIDIA's resiliency extension, `nvidia-resiliency-ext==0.4.1`: `ft_launcher
  --max-restarts 0` with the sections its configuration guide recommends (Megatron's
  `setup`, `step`, `checkpointing`, plus `eval`), reported by the script through
  RankMonitorClient (BENCH_FT=sections), at the same thresholds as ours: `step` and out of
  section STEP_FLOOR_S (5 s), `setup` the startup timeout ours uses in that run, the slow
  phases' sections nonstop's section timeout (1800 s); its rank monitors check every 0.5 s
  (`--ft-workload-check-interval`, nonstop's watcher tick; its default 5 s would add up to
  5 s to every detection);
- torchrun: `torchrun --max-restarts 0` with init_process_group(timeout=STEP_FLOOR_S) and every
  step inside `torch.distributed.elastic.timer.expires(after=STEP_FLOOR_S)` served by the
  agent's FileTimerServer (TORCHELASTIC_ENABLE_FILE_TIMER=1), the strongest setting torchrun
  offers. After reaping a rank, torch's FileTimerServer SIGKILLs its own agent: torchrun dies
  (-9) and leaves its other ranks orphaned (`torchrun_orphans`); the benchmark kills them.

False-positive arm: one run per slow phase per arm, each phase PAUSE_S (8 s: longer than the
5 s floor, far shorter than any timeout a real job sets): rank 0 loads for 8 s before its first
step (I/O-bound, `load`), rank 0 evaluates (CPU-bound, `eval`), rank 0 saves synchronously
(I/O-bound, `checkpointing`), rank 1 recompiles inside a step (Python work, no section). ours
and ft run each phase twice: told (the phase inside rt.section / the FT client's section of
that name) and untold (BENCH_SECTIONS=0); torchrun cannot be told. A false hang is a run that
did not finish: a hang detection in nonstop's ledger, a rank lost under ft or torchrun.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_recovery import (
    PY,
    REPO,
    TIMEOUT_S,
    WORLD,
    _events,
    injected_failure,
    kill_group,
    proc_tree,
)
from benchmarks.stats import bootstrap_ratio_ci, reps, span, summarize
from nonstop import envvars
from nonstop.supervisor.config import SupervisorConfig
from nonstop.supervisor.watchdog import STEP_FLOOR_S, Watchdog, learned_for

KINDS = ("sigstop", "collective", "startup", "loader")
QUICK_KIND = "collective"
HANG_STEP = 12  # past the watchdog's 5 warm-up steps: its steps-based timeout applies
STEPS = 40
PAUSE_S = 8.0
PAUSES = ("load", "eval", "save", "compile")
ARMS = ("ours", "ft", "torchrun")
PEER = "ft"  # the headline peer: NVIDIA's resiliency extension
NONSTOP_FLAGS = [
    "--max-restarts",
    "0",
    "--health-checks",
    "none",
    "--no-self-test",
    "--no-standby",
]
FT_BIN = str(Path(PY).with_name("ft_launcher"))
FT_VERSION = "nvidia-resiliency-ext==0.4.1"
FT_CHECK_S = 0.5  # = nonstop's watcher tick (SupervisorConfig.watcher_tick_s)
SECTION_TIMEOUT_S = SupervisorConfig.section_timeout_s
PEER_TIMEOUT_S = STEP_FLOOR_S
STUCK_RANK = 1  # every hang is rank 1's
POLL_S = 0.02  # the observer's /proc poll, the same for every arm
SCAN_S = 0.5  # the run directory's events (rank pids) and the process tree: less often
WATCH_S = 120.0  # the longest an arm is watched after the hang


def fault_env(kind: str) -> dict[str, str]:
    """The environment that makes rank 1 hang this way (the same for every arm)."""
    if kind == "sigstop":
        return {"NONSTOP_FAULTS": f"hang@step={HANG_STEP},rank=1"}
    if kind == "collective":
        return {"NONSTOP_FAULTS": f"hang@step={HANG_STEP},rank=1,how=collective"}
    if kind == "startup":
        return {"BENCH_HANG": "startup@rank=1"}
    if kind == "loader":
        return {"BENCH_HANG": f"loader@step={HANG_STEP},rank=1"}
    if kind in PAUSES:
        rank = 1 if kind == "compile" else 0
        return {"BENCH_PAUSE": f"{kind}@step={HANG_STEP},rank={rank},s={PAUSE_S:g}"}
    if kind == "clean":
        return {}
    raise ValueError(f"kind: unknown hang kind {kind!r}; one of {', '.join(KINDS + PAUSES)}")


def train_args() -> list[str]:
    return ["-m", "benchmarks.hang_workload", "--steps", str(STEPS)]


def startup_timeout(root: Path) -> float:
    """The startup timeout a new `nonstop run` of the workload in `root` gets now (what it
    learns from the runs beside it): ft's `setup` section gets the same."""
    probe = root / "probe"
    probe.mkdir(exist_ok=True)
    (probe / "config.json").write_text(json.dumps({"command": train_args()}))
    default = SupervisorConfig.startup_timeout_s
    wd = Watchdog(ranks=[0], startup_timeout_s=default, learned=learned_for(probe))
    return wd.startup_timeout()


def ft_flags(setup_s: float) -> list[str]:
    sections = {
        "setup": setup_s,
        "step": PEER_TIMEOUT_S,
        "checkpointing": SECTION_TIMEOUT_S,
        "eval": SECTION_TIMEOUT_S,
        "load": SECTION_TIMEOUT_S,
    }
    return [
        "--ft-rank-section-timeouts",
        ",".join(f"{k}:{v:g}" for k, v in sections.items()),
        "--ft-rank-out-of-section-timeout",
        f"{PEER_TIMEOUT_S:g}",
        "--ft-workload-check-interval",
        f"{FT_CHECK_S:g}",
    ]


def arm_command(arm: str, run_dir: Path, setup_s: float) -> list[str]:
    if arm == "ours":
        return [
            *(PY, "-m", "nonstop.cli", "run", "--nproc-per-node", str(WORLD), "--quiet"),
            *("--run-dir", str(run_dir), *NONSTOP_FLAGS, *train_args()),
        ]
    launcher = [FT_BIN, *ft_flags(setup_s)] if arm == "ft" else [PY, "-m", "torch.distributed.run"]
    return [
        *launcher,
        *("--standalone", "--nproc-per-node", str(WORLD), "--max-restarts", "0"),
        *train_args(),
    ]


def arm_env(arm: str, run_dir: Path, kind: str, *, told: bool = True) -> dict[str, str]:
    env = dict(os.environ, BENCH_MARKS=str(run_dir), PYTHONPATH=str(REPO))
    for k in ("NONSTOP_FAULTS", "BENCH_HANG", "BENCH_PAUSE", "NONSTOP_ATTEMPT", "BENCH_FT"):
        env.pop(k, None)
    env.update(fault_env(kind))
    env["BENCH_SECTIONS"] = "1" if told else "0"
    if arm != "ours":  # the same events through nonstop.runtime (the faults fire from them)
        env.update(NONSTOP_RUN_DIR=str(run_dir), NONSTOP_RUN_ID=run_dir.name)
    if arm == "ft":
        env["BENCH_FT"] = "sections"
    if arm == "torchrun":  # torchrun's strongest hang settings
        env.update(
            BENCH_PG_TIMEOUT_S=f"{PEER_TIMEOUT_S:g}",
            BENCH_TIMER_S=f"{PEER_TIMEOUT_S:g}",
            TORCHELASTIC_ENABLE_FILE_TIMER="1",
            TORCHELASTIC_TIMER_FILE=str(run_dir / "timer.fifo"),
            TORCH_DISABLE_SHARE_RDZV_TCP_STORE="1",
        )
    return env


def hang_time(run_dir: Path) -> float | None:
    """Wall time the hang began: the injector's record, else the script's hang.json."""
    fault = injected_failure(run_dir)
    if fault is not None:
        return fault[2]
    with contextlib.suppress(OSError, ValueError, KeyError):
        return float(json.loads((run_dir / "hang.json").read_text())["time"])
    return None


def pause_time(run_dir: Path) -> float | None:
    with contextlib.suppress(OSError, ValueError, KeyError):
        return float(json.loads((run_dir / "pause.json").read_text())["time"])
    return None


def hang_detections(
    run_dir: Path,
) -> tuple[list[tuple[float, int | None, float | None]], dict[str, Any]]:
    """(detection wall time, rank, latency) of every `hang` detection in the ledger, and the
    first failure's hang evidence (timeout, basis)."""
    path = run_dir / "ledger.db"
    if not path.exists():
        return [], {}
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30.0)
    try:
        rows = con.execute(
            "SELECT detection_time, rank, latency_s FROM detections WHERE"
            " kind = 'hang' ORDER BY detection_time"
        ).fetchall()
        ev = con.execute("SELECT evidence FROM failures ORDER BY time LIMIT 1").fetchone()
    finally:
        con.close()
    hang = json.loads(ev[0]).get("hang", {}) if ev and ev[0] else {}
    return [(float(t), r, lat) for t, r, lat in rows], hang


def steps_after(run_dir: Path, attempt: int, t: float) -> int:
    """Step events of `attempt` that started after wall time `t` (progress after the hang)."""
    return sum(1 for e in _events(run_dir, attempt) if e.kind == "step" and e.payload["start"] > t)


def rank_pids(run_dir: Path) -> dict[int, int]:
    """{rank: pid} from each rank's `attempt_start` event (the first attempt)."""
    out = {}
    for e in _events(run_dir, 0):
        if e.kind == "lifecycle" and e.payload.get("phase") == "attempt_start":
            out[e.rank] = int(e.payload["pid"])
    return out


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


def _workload_pid(pid: int) -> bool:
    try:
        return b"hang_workload" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def run_arm(
    root: Path, tag: str, arm: str, kind: str, *, setup_s: float, told: bool = True
) -> dict[str, Any]:
    """One run of one arm, watched from outside until its ranks are gone; then clean up."""
    run_dir = root / tag
    run_dir.mkdir(parents=True)
    seen: set[int] = set()
    t_start = time.monotonic()
    with open(root / f"{tag}.out", "wb") as f:
        p = subprocess.Popen(
            arm_command(arm, run_dir, setup_s),
            cwd=REPO,
            env=arm_env(arm, run_dir, kind, told=told),
            stdout=f,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            r = observe(p, run_dir, kind, seen)
            if kind in PAUSES or kind == "clean":  # the job's own end, not a kill
                with contextlib.suppress(subprocess.TimeoutExpired):
                    p.wait(timeout=60)
        finally:
            seen |= set(proc_tree(p.pid))
            orphans = [pid for pid in seen - {p.pid} if not _gone(pid) and _workload_pid(pid)]
            kill_group(p)
            for pid in orphans:  # torchrun SIGKILLed by its own timer server leaves these
                for sig in (signal.SIGCONT, signal.SIGKILL):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, sig)
    r.update(
        arm=arm,
        kind=kind,
        told=told,
        rc=p.returncode,
        orphans=len(orphans),
        wall_s=round(time.monotonic() - t_start, 2),
    )
    if arm == "torchrun":
        r["timer_killed_launcher"] = p.returncode == -signal.SIGKILL
    if arm == "ours":
        dets, hang = hang_detections(run_dir)
        t0 = hang_time(run_dir)
        r.update(
            ledger_hang_detections=len(dets),
            ledger_detection_s=dets[0][0] - t0 if dets and t0 is not None else None,
            timeout_s=hang.get("timeout_s"),
            basis=hang.get("basis"),
        )
    if kind in PAUSES:
        finished = p.returncode == 0 and not r.get("ledger_hang_detections")
        r.update(ok=pause_time(run_dir) is not None, finished=finished, false_hang=not finished)
        if finished:  # its ranks exited at the end: no rank was lost
            r.update(first_gone=None, lost_rank_after_pause_s=None)
    return r


def observe(p: subprocess.Popen[bytes], run_dir: Path, kind: str, seen: set[int]) -> dict[str, Any]:
    """The one observer of every arm: poll the ranks' processes every POLL_S until all are gone
    (or the launcher exits); the first and the last disappearance, by the wall clock."""
    deadline = time.monotonic() + TIMEOUT_S
    pids: dict[int, int] = {}
    t_first = t_all = t_stuck = t0 = None
    first = ""
    next_scan = 0.0
    while time.monotonic() < deadline:
        if time.monotonic() >= next_scan:
            next_scan = time.monotonic() + SCAN_S
            seen |= set(proc_tree(p.pid))
            if len(pids) < WORLD:
                pids = rank_pids(run_dir)
            if t0 is None:
                t0 = hang_time(run_dir)
        gone = sorted(r for r, pid in pids.items() if _gone(pid))
        exited = p.poll() is not None
        now = time.time()
        if t_first is None and (gone or exited):
            t_first, first = now, f"ranks {gone}" if gone else "launcher exited"
        if t_stuck is None and (STUCK_RANK in gone or exited):
            t_stuck = now
        if exited or (len(pids) == WORLD and len(gone) == WORLD):
            t_all = now
            break
        if t0 is not None and kind in KINDS and now > t0 + WATCH_S:
            break
        time.sleep(POLL_S)
    if kind not in KINDS:
        t_pause = pause_time(run_dir)
        return {
            "first_gone": first,
            "lost_rank_after_pause_s": None
            if t_first is None or t_pause is None
            else round(t_first - t_pause, 3),
        }
    t0 = hang_time(run_dir)
    if t0 is None:
        return {"ok": False, "why": f"no record of the hang (rc {p.poll()})"}
    if t_first is None:
        return {
            "ok": True,
            "detected": False,
            "watched_s": time.time() - t0,
            "steps_after_hang": steps_after(run_dir, 0, t0),
        }
    if t_first < t0:
        return {"ok": False, "why": f"a rank was lost before the hang ({first})"}
    return {
        "ok": True,
        "detected": True,
        "detection_s": t_first - t0,
        "stuck_gone_s": None if t_stuck is None else t_stuck - t0,
        "stopped_s": None if t_all is None else t_all - t0,
        "first_gone": first,
    }


def _log(msg: str) -> None:
    print(f"[hang-detection] {msg}", flush=True)


def chosen(names: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(hang kinds, pauses) named in NONSTOP_BENCH_HANG_KINDS (comma-separated; all if unset)."""
    if not names:
        return KINDS, PAUSES
    want = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in want if n not in KINDS + PAUSES]
    if unknown:
        raise SystemExit(
            f"{envvars.BENCH_HANG_KINDS}: unknown {', '.join(unknown)}; "
            f"choose from {', '.join(KINDS + PAUSES)}"
        )
    return tuple(k for k in KINDS if k in want), tuple(p for p in PAUSES if p in want)


def run(quick: bool) -> dict[str, Any]:
    hang_kinds, pauses = chosen(os.environ.get(envvars.BENCH_HANG_KINDS))
    kinds = (QUICK_KIND,) if quick else hang_kinds
    n = 1 if quick else reps(False)
    root = Path(tempfile.mkdtemp(prefix="nonstop-bench-hang-"))
    load_start = [round(x, 2) for x in os.getloadavg()]
    t_begin = time.monotonic()
    # a user's earlier run of the same command: what nonstop learns the startup time from
    calib = run_arm(root, "ours-calibrate", "ours", "clean", setup_s=0.0)
    _log(f"calibration run: rc {calib['rc']}, startup timeout now {startup_timeout(root):g} s")
    rows: dict[str, dict[str, list[dict[str, Any]]]] = {k: {a: [] for a in ARMS} for k in kinds}
    for i in range(n):  # interleaved: drift on a shared machine hits every arm alike
        for k in kinds:
            for arm in ARMS:
                setup_s = startup_timeout(root)
                r = run_arm(root, f"{arm}-{k}-{i}", arm, k, setup_s=setup_s)
                r["setup_timeout_s"] = setup_s
                rows[k][arm].append(r)
                _log(f"{arm} {k} #{i}: {r.get('detection_s') or r.get('why')}")
    fp: dict[str, dict[str, Any]] = {}
    if not quick:
        for k in pauses:
            setup_s = startup_timeout(root)
            fp[k] = {
                "ours": run_arm(root, f"ours-{k}", "ours", k, setup_s=setup_s),
                "ours_untold": run_arm(root, f"ours-{k}-u", "ours", k, setup_s=setup_s, told=False),
                "ft": run_arm(root, f"ft-{k}", "ft", k, setup_s=setup_s),
                "ft_untold": run_arm(root, f"ft-{k}-u", "ft", k, setup_s=setup_s, told=False),
                "torchrun": run_arm(root, f"torchrun-{k}", "torchrun", k, setup_s=setup_s),
            }
            _log(f"pause {k}: " + ", ".join(f"{a} {v.get('false_hang')}" for a, v in fp[k].items()))
    load = {"start": load_start, "end": [round(x, 2) for x in os.getloadavg()]}
    return combine(
        rows,
        fp,
        kinds,
        load=load,
        calibration=calib,
        elapsed_s=round(time.monotonic() - t_begin, 1),
        date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        run_root=str(root),
    )


def _detections(rs: list[dict[str, Any]]) -> list[float]:
    return [r["detection_s"] for r in rs if r.get("detected")]


def _med(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def _ratio(o: list[float], p: list[float]) -> float | None:
    return statistics.median(o) / statistics.median(p) if o and p else None


def combine(
    rows: dict[str, dict[str, list[dict[str, Any]]]],
    fp: dict[str, dict[str, Any]],
    kinds: tuple[str, ...],
    **extra: Any,
) -> dict[str, Any]:
    """The harness's JSON object from every run's measurement (medians over kinds and reps);
    the headline peer is ft_launcher, torchrun's figures beside it."""
    every = {a: [x for k in kinds for x in _detections(rows[k][a])] for a in ARMS}
    per_kind = {}
    for k in kinds:
        d = {a: _detections(rows[k][a]) for a in ARMS}
        per_kind[k] = {
            **{a: _med(d[a]) for a in ARMS},
            "ratio_vs_ft": _ratio(d["ours"], d["ft"]),
            "ratio_vs_ft_ci": bootstrap_ratio_ci(d["ours"], d["ft"]),
            "ratio_vs_torchrun": _ratio(d["ours"], d["torchrun"]),
            "stuck_gone": {
                a: _med([r["stuck_gone_s"] for r in rows[k][a] if r.get("stuck_gone_s")])
                for a in ARMS
            },
            "stopped": {
                a: _med([r["stopped_s"] for r in rows[k][a] if r.get("stopped_s") is not None])
                for a in ARMS
            },
            "ours_basis": sorted({str(r.get("basis")) for r in rows[k]["ours"]}),
            "first_gone": {a: sorted({str(r.get("first_gone")) for r in rows[k][a]}) for a in ARMS},
            "failed": {a: [r.get("why") for r in rows[k][a] if not r.get("ok")] for a in ARMS},
            "undetected": {
                a: sum(bool(r.get("ok")) and not r.get("detected") for r in rows[k][a])
                for a in ARMS
            },
        }
    out = summarize(
        every["ours"] or [float("nan")],
        every[PEER],
        name="hang-detection",
        unit="s from hang to the first rank gone, seen from outside",
        better="lower",
        peer_name=f"ft_launcher ({FT_VERSION}) sections: step and out-of-section "
        f"{PEER_TIMEOUT_S:g} s, setup = ours' startup timeout, checked every {FT_CHECK_S:g} s",
    )
    tr = every["torchrun"]
    out.update(
        limit=STEP_FLOOR_S,
        limit_is="the 5 s floor (STEP_FLOOR_S) every arm times out at: none can be faster",
        torchrun={
            "name": f"torchrun, init_process_group(timeout={PEER_TIMEOUT_S:g} s) + elastic "
            f"FileTimerServer expires(after={PEER_TIMEOUT_S:g} s) per step",
            "median": _med(tr),
            "ratio": _ratio(every["ours"], tr),
            "ratio_ci": bootstrap_ratio_ci(every["ours"], tr),
            "spread": span(tr),
            "samples": [round(x, 6) for x in tr],
        },
        stuck_gone={
            a: _med([r["stuck_gone_s"] for k in kinds for r in rows[k][a] if r.get("stuck_gone_s")])
            for a in ARMS
        },
        stopped={
            a: _med([r["stopped_s"] for k in kinds for r in rows[k][a] if r.get("stopped_s")])
            for a in ARMS
        },
        kinds=list(kinds),
        per_kind=per_kind,
        false_hangs=sum(bool(v["ours"].get("false_hang")) for v in fp.values()) if fp else None,
        false_hangs_by_arm={
            a: sum(bool(v[a].get("false_hang")) for v in fp.values())
            for a in ("ours", "ours_untold", "ft", "ft_untold", "torchrun")
        }
        if fp
        else None,
        false_positive_arm={"pause_s": PAUSE_S, "runs": fp} if fp else "not run in --quick",
        torchrun_orphans=sum(r.get("orphans", 0) for k in kinds for r in rows[k]["torchrun"]),
        torchrun_timer_killed_launcher=sum(
            bool(r.get("timer_killed_launcher")) for k in kinds for r in rows[k]["torchrun"]
        ),
        nonstop_flags=" ".join(NONSTOP_FLAGS),
        ft_flags=" ".join(ft_flags(0.0)).replace("setup:0", "setup:<ours' startup timeout>"),
        observer={"poll_s": POLL_S, "end": "first rank process gone or launcher exit"},
        hang_step=HANG_STEP,
        steps=STEPS,
        runs=rows,
        **extra,
    )
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
