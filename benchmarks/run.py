"""Benchmark harness: each figure is a ratio against a peer measured in the same run.

    python benchmarks/run.py NAME [--quick] [--json]   # one benchmark
    python benchmarks/run.py all [--quick]              # a table of every benchmark
    python benchmarks/run.py list

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
    "event-writer": "per-record cost of the JSONL event writer vs a plain file write+flush",
    "checkpoint": "blocking per save, measured from outside: Checkpointer vs dcp.async_save/save",
    "simulate": "seconds per Monte Carlo trial of Llama 3's job vs a plain SimPy model",
    "flight-recorder": "flight-recorder dump analysis at 1k-16k ranks vs torchfrtrace",
    "triage": "log triage throughput (MB/s) vs grep -E over the same signature patterns",
    "triage-accuracy": "triage on 99 held-out real failure excerpts: category/action accuracy",
    "recovery": "seconds from a SIGKILLed rank to the first resumed step vs torchrun --max-restarts",
    "hang-detection": "seconds from 4 kinds of hang to detection vs torchrun + gloo timeout/timer",
    "overhead": "step time, recovery config vs torchrun + dcp.async_save, 10 ABAB pairs",
    "chaos": "seeded fault schedules, nonstop vs torchrun + DCP: finished, identical, ETTR",
    "soak": "one run through 100+ faults of every kind: nothing lost, agent memory and fds flat",
    "rundir-scale": "ingest, report and diagnose of a 16,384-rank run directory vs torchfrtrace",
    "guards": "per-step cost of the NaN/spike guards and replica fingerprints vs the demo's step",
}

REQUIRED = ("name", "ours", "peer", "peer_name", "ratio", "unit", "better")


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
    p.add_argument("name", help="a benchmark name, 'all' or 'list'")
    p.add_argument("--quick", action="store_true", help="a short version (seconds, not minutes)")
    p.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    a = p.parse_args(argv)
    if a.name == "list":
        for n, doc in BENCHMARKS.items():
            print(f"{n:20s} {doc}")
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
        + (f"; limit {_fmt(r['limit'])}" if "limit" in r else "")
    )
    if a.json:
        print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
