"""Benchmark harness: each figure is a ratio against a peer measured in the same run.

    python benchmarks/run.py NAME [--quick] [--json]   # one benchmark
    python benchmarks/run.py all [--quick]              # a table of every benchmark
    python benchmarks/run.py list
    python benchmarks/run.py NAME --save                 # also keep it in benchmarks/results/
    python benchmarks/run.py results                     # the kept results, as a Markdown table

Each benchmark is a module ``benchmarks/bench_<name>.py`` (dashes become underscores) with
``run(quick: bool) -> dict``. The dict has at least ``name``, ``ours``, ``peer``, ``peer_name``,
``ratio`` (ours / peer), ``unit``, ``better`` ("lower" or "higher"), and ``limit`` where a
physical limit was measured in the same run. With --json the last line printed is that object.
Absolute times depend on the machine; compare ratios.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# name -> one line. The module is benchmarks/bench_<name with _ for ->.py.
BENCHMARKS: dict[str, str] = {
    "event-writer": "CPU per record, every thread: JSONL event writer vs logging QueueHandler/Listener",
    "checkpoint": "training progress lost per save (run-queue waits out), durable, verified load: Checkpointer vs dcp.async_save/save",
    "simulate": "seconds per Monte Carlo trial of Llama 3's job vs a plain SimPy model",
    "flight-recorder": "flight-recorder dump analysis at 1k-16k ranks vs torchfrtrace",
    "triage": "log triage throughput (MB/s) vs rg and grep -E over the same signature patterns",
    "triage-accuracy": "triage on 99 held-out real failure excerpts: category/action accuracy",
    "recovery": "SIGKILLed rank until back at the crashed step: 5 arms vs torchrun + DCP, node kill",
    "multinode": "node lost, cable pulled, switch lost, store host lost between namespace hosts: fault to training again vs torchrun (root)",
    "hang-detection": "seconds from 4 kinds of hang to detection vs torchrun + gloo timeout/timer",
    "overhead": "step time, recovery config (snapshots auto) vs torchrun + dcp.async_save, 10 pairs (+ every step, none)",
    "chaos": "seeded fault schedules, nonstop vs torchrun + DCP: finished, identical, ETTR",
    "chaos-replica-groups": "seeded faults across torchft replica groups (SIGKILL, exception, hang, Lighthouse kill): nothing lost or twice, equal fingerprints, loss within 5%",
    "soak": "one run through 100+ faults of every kind: nothing lost, agent memory and fds flat",
    "rundir-scale": "ingest, report and diagnose of a 16,384-rank run directory vs torchfrtrace",
    "clients": "Lightning and transformers.Trainer: SIGKILL until training again vs torchrun (warm, cold)",
    "replica-groups": "one SIGKILL in 2 torchft replica groups: lost rank-seconds vs torchft's launcher and whole-job restart",
    "guards": "per-step cost of the NaN/spike guards and replica fingerprints vs the demo's step",
}

REQUIRED = ("name", "ours", "peer", "peer_name", "ratio", "unit", "better")
RESULTS = Path(__file__).resolve().parent / "results"


def save(result: dict) -> Path:
    """Keep a full run's JSON line in benchmarks/results/NAME.json, with its date and the
    machine's load average (the figures README.md quotes come from these files)."""
    import datetime
    import os

    out = dict(result)
    out.setdefault("date", datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    out.setdefault("load", [round(x, 2) for x in os.getloadavg()])
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{result['name']}.json"
    path.write_text(json.dumps(out) + "\n")
    return path


def _cell(x: object) -> str:
    if x is None or x == "":
        return "-"
    if isinstance(x, float):
        return _fmt(x)
    if isinstance(x, list) and len(x) == 2 and all(isinstance(v, int | float) for v in x):
        return f"{_fmt(float(x[0]))}-{_fmt(float(x[1]))}"
    return str(x)


def _kept(text: str) -> dict:
    """A kept result: a --save file's last line (the JSON object), or one indented object."""
    try:
        r = json.loads(text.splitlines()[-1])
    except json.JSONDecodeError:
        r = json.loads(text)
    if not isinstance(r, dict):
        raise TypeError("not a JSON object")
    return r


def results_table() -> str:
    """The kept full-run results as a Markdown table: medians, spread, reps, date, load."""
    rows = [
        "| benchmark | ours | peer | ratio (95% CI) | unit | reps | date | load (1 min) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for path in sorted(RESULTS.glob("*.json")):
        whole = path.read_text().strip()
        if not whole:
            continue
        try:
            r = _kept(whole)
        except (json.JSONDecodeError, TypeError) as e:
            rows.append(f"| {path.stem} | unreadable: {e} | | | | | | |")
            continue
        spread = r.get("spread") or {}
        ratio = _cell(r.get("ratio"))
        if spread.get("ratio"):
            ratio += f" ({_cell(spread['ratio'])})"
        load = r.get("load")
        if isinstance(load, dict):  # some benchmarks keep the load at several stages
            load = next((v for v in load.values() if isinstance(v, list)), None)
        load_1m = _cell(load[0]) if isinstance(load, list) and load else "-"
        peer = f"{_cell(r.get('peer'))} ({r.get('peer_name', '')})"
        rows.append(
            f"| {r.get('name', path.stem)} | {_cell(r.get('ours'))} | {peer} | {ratio} "
            f"| {r.get('unit', '')} | {_cell(r.get('reps'))} | {str(r.get('date', ''))[:16]} "
            f"| {load_1m} |"
        )
    return "\n".join(rows)


def run_one(name: str, quick: bool) -> dict:
    module = importlib.import_module(f"benchmarks.bench_{name.replace('-', '_')}")
    t0 = time.monotonic()
    result = dict(module.run(quick=quick))
    result.setdefault("name", name)
    result["elapsed_s"] = round(time.monotonic() - t0, 3)
    missing = [k for k in REQUIRED if k not in result]
    assert not missing, f"benchmark {name} did not report {missing}"
    if result["peer"] and "ratio" not in result:
        result["ratio"] = result["ours"] / result["peer"]
    return result


def _fmt(x: object) -> str:
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        return f"{x:.4g}"
    return str(x)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="benchmarks/run.py", description=__doc__.split("\n")[0])
    p.add_argument("name", help="a benchmark name, 'all', 'list' or 'results'")
    p.add_argument("--quick", action="store_true", help="a short version (seconds, not minutes)")
    p.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    p.add_argument(
        "--save",
        action="store_true",
        help="keep each full run's JSON line in benchmarks/results/NAME.json",
    )
    a = p.parse_args(argv)
    if a.name == "list":
        for n, doc in BENCHMARKS.items():
            print(f"{n:20s} {doc}")
        return 0
    if a.name == "results":
        print(results_table())
        return 0
    names = list(BENCHMARKS) if a.name == "all" else [a.name]
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark {unknown[0]!r}; known: {', '.join(BENCHMARKS)}", file=sys.stderr)
        return 2
    results = []
    for n in names:
        print(f"[{n}] running{' (quick)' if a.quick else ''}...", file=sys.stderr, flush=True)
        results.append(run_one(n, a.quick))
        if a.save and not a.quick:
            print(f"[{n}] kept in {save(results[-1])}", file=sys.stderr)
    if a.name == "all":
        from rich.console import Console
        from rich.table import Table

        t = Table(title="nonstop benchmarks (ratio = ours / peer, same run)")
        for col in ("name", "ours", "peer", "peer_name", "ratio", "unit", "better", "limit"):
            t.add_column(col)
        for r in results:
            t.add_row(*(_fmt(r.get(c, "")) for c in t.columns and [c.header for c in t.columns]))
        Console().print(t)
        if a.json:
            print(json.dumps(results))
        return 0
    r = results[0]
    print(
        f"{r['name']}: ours {_fmt(r['ours'])} {r['unit']} vs {r['peer_name']} {_fmt(r['peer'])}"
        f" {r['unit']} -> ratio {_fmt(r['ratio'])} ({r['better']} is better)"
        + (f"; limit {_fmt(r['limit'])}" if r.get("limit") is not None else "")
        + (
            f"; {r['reps']} reps, ratio 95% CI {r['spread']['ratio']}"
            if r.get("reps") and (r.get("spread") or {}).get("ratio")
            else ""
        )
    )
    if a.json:
        print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
