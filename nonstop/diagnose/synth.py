"""Synthetic flight-recorder dumps in PyTorch's NCCL dump format (version 2.10), for tests and
benchmarks at scales no test machine reaches (16,384 ranks x 2,000 entries).

    python -m nonstop.diagnose.synth OUT_DIR --ranks 1024 --entries 2000 --hang-rank 77

One job: every rank is in two process groups spanning all ranks (``default_pg`` and a
data-parallel group ``1``), alternating collectives between them. All ranks complete every
collective except the last one, which every rank but `hang_rank` enqueued and waits in
(state ``started``); `hang_rank` stops one collective short. `mismatch_rank` enqueues a
different size at one sequence id. Entry fields follow torch's recorder (see frdump.py).
Healthy ranks share one of a few pre-serialised variants (differing in enqueue times), so
writing 16k dumps costs disk bandwidth, not 16k pickling passes.
"""

from __future__ import annotations

import argparse
import json
import pickle
from pathlib import Path
from typing import Any

VERSION = "2.10"
T0_NS = 1_795_983_600_000_000_000
STEP_NS = 2_000_000


def _entry(i: int, pg: str, seq: int, *, state: str, size: int, t_ns: int) -> dict[str, Any]:
    return {
        "record_id": i,
        "pg_id": int(pg),
        "process_group": (pg, "default_pg" if pg == "0" else "dp_replicate"),
        "collective_seq_id": seq,
        "p2p_seq_id": 0,
        "op_id": seq,
        "profiling_name": "nccl:all_reduce",
        "time_created_ns": t_ns,
        "duration_ms": 1.25 if state == "completed" else None,
        "input_sizes": [[size, 4096]],
        "input_dtypes": ["BFloat16"],
        "output_sizes": [[size, 4096]],
        "output_dtypes": ["BFloat16"],
        "state": state,
        "time_discovered_started_ns": t_ns + 1000,
        "time_discovered_completed_ns": t_ns + 50_000 if state == "completed" else None,
        "retired": state == "completed",
        "timeout_ms": 600_000,
        "is_p2p": False,
        "thread_id": "140211",
        "thread_name": "pt_main_thread",
        "frames": [],
    }


def make_dump(
    ranks: int, entries: int, *, short: bool = False, mismatch: bool = False, jitter_ns: int = 0
) -> dict[str, Any]:
    """One rank's dump: `entries` collectives, the last one pending (`short`: never entered)."""
    n = entries - 1 if short else entries
    members = str(list(range(ranks)))
    out = []
    for i in range(n):
        pg = str(i % 2)
        seq = i // 2 + 1
        state = "started" if i == entries - 1 else "completed"
        size = 1024 + (8 if mismatch and i == entries // 2 else 0)
        out.append(_entry(i, pg, seq, state=state, size=size, t_ns=T0_NS + i * STEP_NS + jitter_ns))
    last = {
        pg: max(
            (
                e["collective_seq_id"]
                for e in out
                if e["process_group"][0] == pg and e["state"] == "completed"
            ),
            default=0,
        )
        for pg in ("0", "1")
    }
    return {
        "version": VERSION,
        "comm_lib_version": "2.21.5",
        "pg_config": {
            pg: {"name": pg, "desc": d, "ranks": members}
            for pg, d in (("0", "default_pg"), ("1", "dp_replicate"))
        },
        "pg_status": {
            pg: {
                "last_enqueued_collective": (n - int(pg) + 1) // 2,
                "last_started_collective": (n - int(pg) + 1) // 2,
                "last_completed_collective": last[pg],
            }
            for pg in ("0", "1")
        },
        "entries": out,
    }


def write_job(
    out: str | Path,
    ranks: int,
    entries: int,
    *,
    hang_rank: int | None = None,
    mismatch_rank: int | None = None,
    dead_ranks: tuple[int, ...] = (),
    fmt: str = "pickle",
    variants: int = 4,
) -> Path:
    """Write rank-0 .. rank-(ranks-1) into `out` (dead ranks get no file); return `out`."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)

    def encode(d: dict[str, Any]) -> bytes:
        if fmt == "json":
            return json.dumps(d).encode()
        return pickle.dumps(d, protocol=pickle.HIGHEST_PROTOCOL)

    healthy = [encode(make_dump(ranks, entries, jitter_ns=v * 7_000)) for v in range(variants)]
    suffix = ".json" if fmt == "json" else ""
    for r in range(ranks):
        if r in dead_ranks:
            continue
        if r in (hang_rank, mismatch_rank):
            data = encode(
                make_dump(
                    ranks,
                    entries,
                    short=r == hang_rank,
                    mismatch=r == mismatch_rank,
                    jitter_ns=900_000,
                )
            )
        else:
            data = healthy[r % variants]
        (folder / f"rank-{r}{suffix}").write_bytes(data)
    return folder


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m nonstop.diagnose.synth")
    p.add_argument("out")
    p.add_argument("--ranks", type=int, default=1024)
    p.add_argument("--entries", type=int, default=2000)
    p.add_argument("--hang-rank", type=int, default=None)
    p.add_argument("--mismatch-rank", type=int, default=None)
    p.add_argument("--json", action="store_true", help="write JSON dumps instead of pickle")
    a = p.parse_args(argv)
    write_job(
        a.out,
        a.ranks,
        a.entries,
        hang_rank=a.hang_rank,
        mismatch_rank=a.mismatch_rank,
        fmt="json" if a.json else "pickle",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
