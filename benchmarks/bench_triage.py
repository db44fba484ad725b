"""`nonstop triage` against ripgrep and grep over the same signature patterns, in two shapes.

    python benchmarks/run.py triage [--quick] [--json]

- one big log: a synthetic training log of 2 GB (--quick: 4 MB), created in a temporary folder
  and deleted after; ordinary lines (step metrics, NCCL INFO, warnings, kernel noise) with the
  corpus's failure lines at one per 1,000 lines;
- many files: 4,096 rank logs of 32 KB each (--quick: 64), one of which holds the failure.

Each repetition runs, each as a fresh process timed from outside: `nonstop triage --json`
(streaming scan, classification and the verdict included), `rg -i -c -e NEEDLE...` (ripgrep;
it searches many files on all cores) and `LC_ALL=C grep -E -i -c -e NEEDLE...`. All three
search the same needles: the signature table's literals and the failure markers that `nonstop
triage` hands ripgrep (`triage.RG_ARGS`, `triage.GREP_ARGS`); ours then classifies the candidate lines with the
table's full regexes, which the peers do not. The peers only count matching lines. `ours` and `peer` are the big log's MB/s (wall) of ours and rg,
medians of 5 interleaved repetitions (--quick: 2); grep and the many-files shape are in
`detail`, each with wall and CPU (user + system of the child) MB/s. nonstop's modules are
byte-compiled first, as an installed package's are.
"""

from __future__ import annotations

import compileall
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import stats
from nonstop.diagnose import signatures, triage

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "logs"
NOISE = (
    "[rank{r}] step {s} loss {l:.4f} lr 3.0e-04 grad_norm {g:.3f} tokens/s {t}",
    "node-{h}:{p}:{p2} [{r8}] NCCL INFO Channel {c:02d}/24 : 0[{r8}] -> 8[{r8}] [send] via NET/IB/{r8}/GDRDMA",
    "node-{h}:{p}:{p2} [{r8}] NCCL INFO comm 0x7f{p}a0 rank {r} nRanks 16384 nNodes 2048 localRanks 8 - Init COMPLETE",
    "[rank{r}]:[W1129 03:12:{sec:02d}.{us} {p} ProcessGroupNCCL.cpp:4561] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS is the default now",
    "Nov 29 03:12:{sec:02d} node-{h} kernel: [8123{s}.001] mlx5_core 0000:c1:00.0: mlx5e_update_carrier:{c}: Link up",
    '{{"step": {s}, "rank": {r}, "mfu": 0.41, "mem_gb": 71.2, "data_wait_s": 0.0{c}}}',
)
TOOLS = ("ours", "rg", "grep")
BIG_MB, QUICK_BIG_MB = 2048, 4  # the big log, MiB
N_FILES, QUICK_N_FILES = 4096, 64


def _ere(pattern: str) -> str:
    """Python regex -> GNU grep ERE (the table uses a small, convertible subset)."""
    p = pattern.replace("(?i)", "").replace("(?:", "(")
    p = re.sub(r"\(\?P<\w+>", "(", p)
    p = re.sub(
        r"\[([^\]]*)\]",
        lambda m: (
            "["
            + m.group(1).replace("\\w", "[:alnum:]_").replace("\\d", "0-9").replace("\\.", ".")
            + "]"
        ),
        p,
    )
    return p.replace("\\d", "[0-9]")


def _rust(pattern: str) -> str:
    """Python regex -> Rust regex (ripgrep): the same syntax but for escaped quotes."""
    return pattern.replace("(?i)", "").replace('\\"', '"').replace("\\'", "'")


def patterns() -> list[str]:
    """The signature table's patterns, Xid rows sharing one, as Python regexes."""
    rows = [s.pattern for s in signatures.SIGNATURES if not s.id.startswith("xid_")]
    return [*rows, signatures.XID_PATTERN.decode()]


def _noise(rng: random.Random, i: int) -> str:
    r = rng.randrange(16384)
    return rng.choice(NOISE).format(
        r=r,
        r8=r % 8,
        s=i,
        l=2 + rng.random(),
        g=rng.random(),
        t=rng.randrange(10**6),
        h=rng.randrange(2048),
        p=rng.randrange(10**5),
        p2=rng.randrange(10**5),
        c=rng.randrange(24),
        sec=rng.randrange(60),
        us=rng.randrange(10**6),
    )


def _failures() -> list[str]:
    return [
        ln
        for f in sorted(CORPUS.glob("*.log"))
        if f.name != "clean.log"
        for ln in f.read_text().splitlines()
    ]


def make_log(path: Path, size_mb: int, seed: int = 0) -> int:
    """A log of about size_mb MiB: a ~2.5 MB block of distinct lines, repeated."""
    rng = random.Random(seed)
    failures = _failures()
    block = [
        failures[(i // 1_000) % len(failures)] if i % 1_000 == 500 else _noise(rng, i)
        for i in range(20_000)
    ]
    data = ("\n".join(block) + "\n").encode()
    with open(path, "wb") as f:
        written = 0
        while written < size_mb << 20:
            f.write(data)
            written += len(data)
    return written


def make_rank_logs(folder: Path, n: int, kb: int = 32, seed: int = 0) -> list[Path]:
    """n rank logs of about kb KiB each; the log of rank n // 3 ends with a CUDA error."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    body = []
    while sum(len(x) + 1 for x in body) < kb << 10:
        body.append(_noise(rng, len(body)))
    text = "\n".join(body) + "\n"
    bad = (CORPUS / "cuda_illegal_memory_access.log").read_text()
    paths = []
    for r in range(n):
        p = folder / f"rank-{r}.log"
        p.write_text(text + (bad if r == n // 3 else ""))
        paths.append(p)
    return paths


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall s, child CPU s, stdout) of one command run to completion."""
    t0, c0 = time.perf_counter(), _cpu()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    if p.returncode not in (0, 1):  # 1: grep/rg found nothing
        raise RuntimeError(f"{cmd[0]} failed ({p.returncode}): {p.stderr.strip()[-300:]}")
    return wall, cpu, p.stdout


def _commands(targets: list[str], tmp: Path) -> dict[str, list[str]]:
    """The three tools over the same needles: the peers get exactly the literals (ASCII case
    folding, `inf`/`nan` only where a word ends; the rows' needles and the failure markers)
    that ours hands ripgrep before classifying the candidate lines with the table's full
    regexes."""
    return {
        "ours": [sys.executable, "-m", "nonstop.cli", "triage", "--json", *targets],
        "rg": ["rg", "--no-config", "-i", "-a", "-c", "--no-messages", *triage.RG_ARGS, *targets],
        "grep": ["grep", "-E", "-i", "-a", "-c", *triage.GREP_ARGS, *targets],
    }


def _matches(tool: str, out: str) -> int:
    """Matching lines the peer counted (its -c output: N, or FILE:N per file)."""
    if tool == "ours":
        return -1
    return sum(int(ln.rsplit(":", 1)[-1]) for ln in out.splitlines() if ln.strip())


def measure(targets: list[Path], tmp: Path, k: int) -> dict[str, Any]:
    """k interleaved repetitions of the three tools over `targets`; MB/s wall and CPU each."""
    mb = sum(p.stat().st_size for p in targets) / 1e6
    env = {**os.environ, "LC_ALL": "C", "PYTHONPATH": str(ROOT)}
    cmds = _commands([str(p) for p in targets], tmp)
    wall: dict[str, list[float]] = {t: [] for t in TOOLS}
    cpu: dict[str, list[float]] = {t: [] for t in TOOLS}
    found: dict[str, int] = {}
    for _ in range(k):
        for tool in TOOLS:
            w, c, out = _timed(cmds[tool], env)
            wall[tool].append(mb / w)
            cpu[tool].append(mb / c if c > 0 else float("inf"))
            found[tool] = _matches(tool, out)
    return {
        "mb": round(mb, 1),
        "files": len(targets),
        "mb_per_s_wall": {t: round(statistics.median(v), 1) for t, v in wall.items()},
        "mb_per_s_cpu": {t: round(statistics.median(v), 1) for t, v in cpu.items()},
        "samples_wall": {t: [round(x, 1) for x in v] for t, v in wall.items()},
        "rg_matching_lines": found["rg"],
        "grep_matching_lines": found["grep"],
        "wall": wall,
    }


def run(quick: bool) -> dict:
    k = stats.reps(quick)
    # nonstop's modules as an installed package has them, compiled: where
    # PYTHONDONTWRITEBYTECODE is set, each `nonstop triage` would compile them from source again
    compileall.compile_dir(str(ROOT / "nonstop"), quiet=1)
    big_mb = QUICK_BIG_MB if quick else BIG_MB
    n_files = QUICK_N_FILES if quick else N_FILES
    with tempfile.TemporaryDirectory(prefix="nonstop-bench-triage-") as d:
        tmp = Path(d)
        log = tmp / "train.log"
        make_log(log, big_mb)
        big = measure([log], tmp, k)
        log.unlink()  # the multi-GB file goes as soon as it is measured
        many = measure(make_rank_logs(tmp / "logs", n_files), tmp, k)
        shutil.rmtree(tmp / "logs")
    big_wall = big.pop("wall")
    ours, rg, grep = (big_wall[t] for t in TOOLS)
    many_wall = many.pop("wall")
    many["ratio_vs_rg"] = statistics.median(
        a / b for a, b in zip(many_wall["ours"], many_wall["rg"], strict=True)
    )
    many["ratio_vs_rg_ci"] = stats.bootstrap_ratio_ci(
        many_wall["ours"], many_wall["rg"], paired=True
    )
    return stats.summarize(
        ours,
        rg,
        name="triage",
        unit="MB/s",
        peer_name="rg -i -c -e NEEDLES (ripgrep, the same needles)",
        better="higher",
        paired=True,
        ratio_vs_grep=statistics.median(a / b for a, b in zip(ours, grep, strict=True)),
        ratio_vs_grep_ci=stats.bootstrap_ratio_ci(ours, grep, paired=True),
        big_log_mb=big["mb"],
        detail={
            "big_log": big,
            "many_files": many,
            "cpus": os.cpu_count(),
            "rg": subprocess.run(["rg", "--version"], capture_output=True, text=True).stdout.split(
                "\n"
            )[0],
        },
        load=os.getloadavg(),
    )
