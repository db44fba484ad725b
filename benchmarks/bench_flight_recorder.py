"""Flight-recorder analysis against torchfrtrace on the same dumps, same memory limit, same ranks.

    python benchmarks/run.py flight-recorder [--quick] [--json]

Dumps (`write_job`): what NCCL's flight recorder writes on a hang in a 3-D parallel job laid out
as Llama 3 405B was (tensor parallel 8 inside a node, pipeline parallel 16, data parallel the
rest: 128 at 16,384 ranks). Every rank's dump is the pickle torch's recorder writes (format 2.10:
`version, comm_lib_version, pg_config, pg_status, entries`; pg_config holds the rank's four
groups, default_pg, tp, pp and dp, with their members) and holds the last 2,000 entries of its
training steps: per micro-batch TP all-gathers (forward) and reduce-scatters (backward), per
step a DP reduce-scatter and all-gather (FSDP), a PP all-reduce (the gradient norm across
stages, as torchtitan's clip_grad_norm_ does) and a global all-reduce; each with the Python
stack frames (train step, model, FSDP, c10d) that real dumps carry, sizes consistent with each
group's size. One rank (ranks // 3) never entered the step's last all-reduce, which every other
rank started and waits in. The format is checked against a real gloo dump made on this machine
(tests/bench). Pipeline send/recv entries are left out: real pipelines record them as coalesced
batch_isend_irecv groups, which this generator does not write, and torchfrtrace 2.13 matches a
plain p2p entry against every member of the group, reports false mismatches and aborts the
group (tried: it would handicap the peer).

Each size (1,024, 4,096 and 16,384 ranks; --quick: 64 and 256) runs both tools as fresh
subprocesses under the same address-space cap (RLIMIT_AS, min(12 GiB, 60% of RAM), so that a
tool that needs more fails with MemoryError instead of waking the OOM killer on a shared
machine): `nonstop diagnose --flight DIR --json` and torch's `python -m
torch.distributed.flight_recorder.fr_trace DIR` (torchfrtrace). Per run: wall and CPU seconds
(user + system, workers included), peak resident memory of the largest process (wait4's
ru_maxrss) and of the whole process tree (sum of VmRSS over the tree, sampled every 50 ms), and
whether the output names the culprit. `ours`/`peer` are median seconds at the largest size
where both finished (5 interleaved repetitions, --quick: 2), `ranks` that size.
NONSTOP_BENCH_DATA_DIR keeps the dumps for the next run (benchmarks/keep.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import keep, stats

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = 2000
FULL_SIZES = (1024, 4096, 16384)
QUICK_SIZES = (64, 256)
TIMEOUT_S = 900.0  # per run; a tool that times out or fails is not run again at that size
VERSION = "2.10"
T0_NS = 1_795_983_600_000_000_000
MICROBATCHES = 4
SITE = "/opt/conda/lib/python3.11/site-packages"
# One stack per kind of call site, shared across entries (real dumps memoise repeated strings).
_C10D = f"{SITE}/torch/distributed/distributed_c10d.py"
_LOG = (f"{SITE}/torch/distributed/c10d_logger.py", 83, "wrapper")
_TRAIN = [
    ("/workspace/torchtitan/torchtitan/train.py", 412, "train_step"),
    ("/workspace/torchtitan/torchtitan/train.py", 530, "train"),
    ("/workspace/torchtitan/torchtitan/train.py", 688, "<module>"),
]
_FSDP = f"{SITE}/torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py"
_MODEL = "/workspace/torchtitan/torchtitan/models/llama3/model.py"


def _stack(*frames: tuple[str, int, str]) -> list[dict[str, Any]]:
    return [{"filename": f, "line": ln, "name": n} for f, ln, n in (*frames, *_TRAIN)]


STACKS = {
    "all_gather": _stack(
        (_C10D, 3866, "all_gather_into_tensor"),
        _LOG,
        (_FSDP, 301, "foreach_all_gather"),
        (_MODEL, 212, "forward"),
    ),
    "reduce_scatter": _stack(
        (_C10D, 4287, "reduce_scatter_tensor"),
        _LOG,
        (_FSDP, 455, "foreach_reduce"),
        (_MODEL, 230, "backward"),
    ),
    "all_reduce": _stack(
        (_C10D, 3245, "all_reduce"),
        _LOG,
        (f"{SITE}/torch/nn/utils/clip_grad.py", 95, "clip_grad_norm_"),
    ),
}


@dataclass(frozen=True)
class Layout:
    """A 3-D parallel layout: rank = tp + TP * (pp + PP * dp)."""

    ranks: int
    tp: int = 8
    pp: int = 16

    @classmethod
    def for_ranks(cls, ranks: int) -> Layout:
        tp = min(8, ranks)
        pp = max(1, min(16, ranks // tp // 2 or 1))
        assert ranks % (tp * pp) == 0, f"{ranks} ranks do not fit tp {tp} x pp {pp}"
        return cls(ranks, tp, pp)

    @property
    def dp(self) -> int:
        return self.ranks // (self.tp * self.pp)

    def coords(self, r: int) -> tuple[int, int, int]:
        return r % self.tp, (r // self.tp) % self.pp, r // (self.tp * self.pp)

    def rank(self, tp: int, pp: int, dp: int) -> int:
        return tp + self.tp * (pp + self.pp * dp)

    def groups(self, r: int) -> dict[str, list[int]]:
        """desc -> members of the rank's groups."""
        return {"default_pg": list(range(self.ranks)), **self.subgroups(r)}

    def subgroups(self, r: int) -> dict[str, list[int]]:
        """The rank's tp, pp and dp groups."""
        t, p, d = self.coords(r)
        return {
            "tp": [self.rank(i, p, d) for i in range(self.tp)],
            "pp": [self.rank(t, i, d) for i in range(self.pp)],
            "dp": [self.rank(t, p, i) for i in range(self.dp)],
        }


def _name(desc: str, members: list[int]) -> str:
    """Group names as torch's hashed names: the same on every member, fixed width."""
    if desc == "default_pg":
        return "0"
    return hashlib.sha1(f"{desc}:{members[0]}:{len(members)}".encode()).hexdigest()[:16]


def _schedule(layout: Layout, r: int) -> list[tuple[str, str]]:
    """One step's collectives on rank r, in order: (op, group desc)."""
    tp = [("all_gather", "tp"), ("all_gather", "tp")]
    rs = [("reduce_scatter", "tp"), ("reduce_scatter", "tp")]
    out = tp * MICROBATCHES + rs * MICROBATCHES  # forward, backward
    out += [("reduce_scatter", "dp"), ("all_gather", "dp")]  # gradients, parameters (FSDP)
    out += [("all_reduce", "pp"), ("all_reduce", "default_pg")]  # grad norm over stages, loss
    return out


def make_dump(
    layout: Layout,
    r: int,
    entries: int,
    *,
    hang: bool = False,
    jitter_ns: int | None = None,
    names: dict[str, str] | None = None,
    members: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Rank r's dump: the last `entries` collectives of its steps; the final all-reduce pending
    (started) on every rank, never entered by the hang rank. `names`/`members` override the
    groups' names and member lists (write_job passes placeholders)."""
    groups = layout.groups(r)
    names = names or {d: _name(d, m) for d, m in groups.items()}
    members = members or {d: str(m) for d, m in groups.items()}
    jitter_ns = (r % 97) * 1_000 if jitter_ns is None else jitter_ns
    ids = {d: i for i, d in enumerate(groups)}
    sched = _schedule(layout, r)
    calls = [c for _ in range(-(-entries // len(sched)) + 1) for c in sched][-entries:]
    if hang:
        calls = calls[:-1]
    # Sequence ids as if the job had run 1,000 steps before the buffer's window.
    seq = {d: 1000 * sum(1 for _, g in sched if g == d) for d in groups}
    out = []
    n = len(calls)
    for i, (op, desc) in enumerate(calls):
        last = i == n - 1 and not hang
        t_ns = T0_NS + i * 3_000_000 + jitter_ns
        seq[desc] += 1
        numel = 4096 * 2048 if desc == "tp" else 1 << 22  # a shard
        k = len(groups[desc])
        ins, outs = {"all_gather": (numel, numel * k), "reduce_scatter": (numel * k, numel)}.get(
            op, (numel, numel)
        )
        out.append(
            {
                "record_id": i,
                "pg_id": ids[desc],
                "process_group": (names[desc], desc),
                "collective_seq_id": seq[desc],
                "p2p_seq_id": 0,
                "op_id": seq[desc],
                "profiling_name": f"nccl:{op}",
                "time_created_ns": t_ns,
                "duration_ms": None if last else 1.5,
                "input_sizes": [[ins]],
                "input_dtypes": ["BFloat16"],
                "output_sizes": [[outs]],
                "output_dtypes": ["BFloat16"],
                "state": "started" if last else "completed",
                "time_discovered_started_ns": t_ns + 2_000,
                "time_discovered_completed_ns": None if last else t_ns + 1_500_000,
                "retired": not last,
                "timeout_ms": 600_000,
                "is_p2p": False,
                "thread_id": "140211877123072",
                "thread_name": "pt_main_thread",
                "frames": STACKS[op],
            }
        )
    status = {}
    for d in groups:
        done = max(
            (
                e["collective_seq_id"]
                for e in out
                if e["process_group"][1] == d and e["state"] == "completed"
            ),
            default=0,
        )
        status[str(ids[d])] = {
            "last_enqueued_collective": seq[d],
            "last_started_collective": seq[d],
            "last_completed_collective": done,
        }
    return {
        "version": VERSION,
        "comm_lib_version": "2.21.5",
        "pg_config": {names[d]: {"name": names[d], "desc": d, "ranks": members[d]} for d in groups},
        "pg_status": status,
        "entries": out,
    }


def _op(s: str) -> bytes:
    """A str as pickle protocol 2 writes it (BINUNICODE: 'X', 4-byte length, UTF-8)."""
    b = s.encode()
    return b"X" + len(b).to_bytes(4, "little") + b


def write_job(
    out: str | Path, ranks: int, entries: int = ENTRIES, *, hang_rank: int, variants: int = 4
) -> Path:
    """rank-0 .. rank-(ranks-1) dumps of one hang into `out`; returns `out`.

    Dumps differ between ranks only in their groups' names and members and a time jitter, so
    a few templates are pickled once with placeholder strings that are then replaced, as
    whole pickle string ops, per rank: 16k dumps cost disk bandwidth, not 16k pickling passes.
    make_dump(layout, r, ...) pickles to the same bytes (tests/bench checks it).
    """
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    layout = Layout.for_ranks(ranks)
    ph_names = {d: f"@{d}-name@".ljust(16, "@") for d in ("tp", "pp", "dp")}
    ph_members = {d: f"@{d}-members@" for d in ("tp", "pp", "dp")}
    everyone = layout.groups(0)

    def template(hang: bool, jitter_ns: int) -> bytes:
        names = {"default_pg": _name("default_pg", everyone["default_pg"]), **ph_names}
        members = {"default_pg": str(everyone["default_pg"]), **ph_members}
        d = make_dump(
            layout, 0, entries, hang=hang, jitter_ns=jitter_ns, names=names, members=members
        )
        return pickle.dumps(d, protocol=2)

    templates = [template(False, v * 1_000) for v in range(variants)]
    for r in range(ranks):
        data = template(True, 0) if r == hang_rank else templates[r % variants]
        for d, m in layout.subgroups(r).items():
            data = data.replace(_op(ph_names[d]), _op(_name(d, m)))
            data = data.replace(_op(ph_members[d]), _op(str(m)))
        (folder / f"rank-{r}").write_bytes(data)
    return folder


# -- measuring ---------------------------------------------------------------------------------


def mem_cap() -> int:
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return int(min(12 << 30, 0.6 * total))


def _limit() -> None:  # runs in each child before exec: the same cap for both tools
    cap = mem_cap()
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def _tree_rss(root: int) -> int:
    """Resident bytes of `root` and its descendants (from /proc)."""
    kids: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                parts = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(d)
        kids.setdefault(int(parts[1]), []).append(pid)
        rss[pid] = int(parts[21]) * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [root]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo += kids.get(p, [])
    return total


def run_tool(cmd: list[str], timeout_s: float) -> dict[str, Any]:
    """Run cmd under the cap; wall, CPU, peak RSS (largest process, tree), output, status."""
    with tempfile.TemporaryFile() as out_f, tempfile.TemporaryFile() as err_f:
        r = _run_tool(cmd, timeout_s, out_f, err_f)
        out_f.seek(0), err_f.seek(0)
        out, err = out_f.read().decode(errors="replace"), err_f.read().decode(errors="replace")
    rc = r.pop("rc")
    if rc == 0:
        state = "ok"
    elif r["wall_s"] >= timeout_s:
        state = "timeout"
    else:
        lines = [ln for ln in err.strip().splitlines() if ln.strip()]
        state = f"failed rc={rc}: {lines[-1][:160] if lines else ''}"
    return {**r, "status": state, "stdout": out, "stderr": err}


def _run_tool(cmd: list[str], timeout_s: float, out_f: Any, err_f: Any) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=out_f, stderr=err_f, env=env, preexec_fn=_limit)
    peak_tree = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak_tree
        while not done.is_set():
            peak_tree = max(peak_tree, _tree_rss(proc.pid))
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    killer = threading.Timer(timeout_s, proc.kill)
    killer.start()
    _, status, ru = os.wait4(proc.pid, 0)  # this child's own rusage, its workers included
    wall = time.perf_counter() - t0
    killer.cancel()
    done.set()
    sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return {
        "wall_s": wall,
        "cpu_s": ru.ru_utime + ru.ru_stime,
        "rc": proc.returncode,
        "peak_rss_gb": ru.ru_maxrss * 1024 / 1e9,
        "peak_tree_rss_gb": peak_tree / 1e9,
    }


def ours_cmd(folder: Path) -> list[str]:
    return [sys.executable, "-m", "nonstop.cli", "diagnose", "--flight", str(folder), "--json"]


def peer_cmd(folder: Path) -> list[str]:
    return [sys.executable, "-m", "torch.distributed.flight_recorder.fr_trace", str(folder)]


def _culprits(r: dict[str, Any]) -> list[int] | None:
    if r["status"] != "ok":
        return None
    try:
        return [c["rank"] for c in json.loads(r["stdout"])["culprits"]]
    except (ValueError, KeyError, TypeError):
        return None


def _med(rows: list[dict[str, Any]], key: str) -> float:
    return round(statistics.median(r[key] for r in rows), 3)


def measure(folder: Path, hang: int, k: int, timeout_s: float) -> dict[str, Any]:
    ours, peer = [], []
    for _ in range(k):  # interleaved
        ours.append(run_tool(ours_cmd(folder), timeout_s))
        if not peer or peer[-1]["status"] == "ok":  # a failure (memory, timeout) would repeat
            peer.append(run_tool(peer_cmd(folder), timeout_s))
    row: dict[str, Any] = {}
    for side, rows in (("ours", ours), ("peer", peer)):
        row[side] = {
            "status": rows[-1]["status"],
            "runs": len(rows),
            "wall_s": _med(rows, "wall_s"),
            "cpu_s": _med(rows, "cpu_s"),
            "peak_rss_gb": _med(rows, "peak_rss_gb"),
            "peak_tree_rss_gb": _med(rows, "peak_tree_rss_gb"),
            "samples_s": [round(r["wall_s"], 3) for r in rows],
        }
    row["ours"]["culprits"] = _culprits(ours[-1])
    out = peer[-1]["stdout"] + peer[-1]["stderr"]
    row["peer"]["mentions_culprit"] = bool(re.search(rf"\b{hang}\b", out))
    row["peer"]["output_tail"] = out.strip()[-300:]
    row["ok"] = all(r["status"] == "ok" for r in ours + peer)
    return row


def run(quick: bool) -> dict:
    sizes = QUICK_SIZES if quick else FULL_SIZES
    k = stats.reps(quick)
    timeout_s = 300 if quick else TIMEOUT_S
    base = Path(tempfile.mkdtemp(prefix="nonstop-bench-fr-"))
    rows: list[dict[str, Any]] = []
    samples: dict[int, tuple[list[float], list[float]]] = {}
    try:
        for n in sizes:
            hang = n // 3
            t0 = time.perf_counter()
            folder, kept = keep.kept(
                f"flight-{n}-{ENTRIES}",
                lambda f, n=n, hang=hang: write_job(f, n, hang_rank=hang),
                base,
            )
            gen_s = time.perf_counter() - t0
            gb = sum(f.stat().st_size for f in folder.iterdir()) / 1e9
            m = measure(folder, hang, k, timeout_s)
            m.update(
                ranks=n,
                layout=Layout.for_ranks(n).__dict__,
                dump_gb=round(gb, 2),
                generate_s=round(gen_s, 1),
                data_kept=kept,
                expected_culprit=hang,
            )
            samples[n] = (m["ours"]["samples_s"], m["peer"]["samples_s"])
            rows.append(m)
            print(f"  {json.dumps(m)[:600]}", file=sys.stderr, flush=True)
            if not kept:
                shutil.rmtree(folder)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    both = [r for r in rows if r["ok"]]
    at = both[-1] if both else rows[0]
    o, p = samples[at["ranks"]]
    return stats.summarize(
        o,
        p if at["ok"] else None,
        name="flight-recorder",
        unit="s",
        peer_name="torchfrtrace (fr_trace), same memory cap",
        better="lower",
        paired=True,
        ranks=at["ranks"],
        largest_ranks=rows[-1]["ranks"],
        # ours alone at the largest size (the peer fails there: `ours`/`peer` are at `ranks`)
        ours_at_largest={
            "ranks": rows[-1]["ranks"],
            "wall_s": rows[-1]["ours"]["wall_s"],
            "cpu_s": rows[-1]["ours"]["cpu_s"],
            "peak_tree_rss_gb": rows[-1]["ours"]["peak_tree_rss_gb"],
            "samples_s": rows[-1]["ours"]["samples_s"],
            "culprits": rows[-1]["ours"]["culprits"],
            "expected_culprit": rows[-1]["expected_culprit"],
        },
        peak_rss_gb={
            "ours": at["ours"]["peak_tree_rss_gb"],
            "peer": at["peer"]["peak_tree_rss_gb"],
        },
        memory_cap_gb=round(mem_cap() / 2**30, 1),
        detail={"sizes": rows, "cpus": os.cpu_count()},
        load=os.getloadavg(),
    )
