"""`nonstop triage` throughput against `grep -E -i` over the same signature patterns.

    python benchmarks/run.py triage [--quick] [--json]

Writes a synthetic training log (100 MB; --quick: 20 MB) of ordinary lines (step metrics, NCCL
INFO, warnings, kernel noise) with the corpus's failure lines sprinkled in at one per
1,000 lines, then times `triage.scan` (our streaming scanner, classification included) and
`LC_ALL=C grep -E -i -c` with every signature pattern (the same table, converted to POSIX ERE).
`ours` and `peer` are MB/s; ratio = ours / grep (higher is better). grep only counts matching
lines; we also classify them and extract culprits.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import tempfile
import time
from pathlib import Path

from nonstop.diagnose import signatures, triage

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "logs"
NOISE = (
    "[rank{r}] step {s} loss {l:.4f} lr 3.0e-04 grad_norm {g:.3f} tokens/s {t}",
    "node-{h}:{p}:{p2} [{r8}] NCCL INFO Channel {c:02d}/24 : 0[{r8}] -> 8[{r8}] [send] via NET/IB/{r8}/GDRDMA",
    "node-{h}:{p}:{p2} [{r8}] NCCL INFO comm 0x7f{p}a0 rank {r} nRanks 16384 nNodes 2048 localRanks 8 - Init COMPLETE",
    "[rank{r}]:[W1129 03:12:{sec:02d}.{us} {p} ProcessGroupNCCL.cpp:4561] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS is the default now",
    "Nov 29 03:12:{sec:02d} node-{h} kernel: [8123{s}.001] mlx5_core 0000:c1:00.0: mlx5e_update_carrier:{c}: Link up",
    '{{"step": {s}, "rank": {r}, "mfu": 0.41, "mem_gb": 71.2, "data_wait_s": 0.0{c}}}',
)


def _ere(pattern: str) -> str:
    """Python regex -> GNU grep ERE (the table uses a small, convertible subset)."""
    p = pattern.replace("(?i)", "").replace("(?:", "(")
    p = re.sub(r"\(\?P<\w+>", "(", p)
    p = re.sub(r"\[([^\]]*)\]", lambda m: "[" + m.group(1).replace("\\w", "[:alnum:]_")
               .replace("\\d", "0-9").replace("\\.", ".") + "]", p)  # fmt: skip
    return p.replace("\\d", "[0-9]")


def make_log(path: Path, size_mb: int, seed: int = 0) -> int:
    rng = random.Random(seed)
    failures = [ln for f in sorted(CORPUS.glob("*.log")) for ln in f.read_text().splitlines()]
    block = []
    for i in range(20_000):  # ~2.5 MB of distinct lines, repeated
        if i % 1_000 == 500:  # one failure line per 1,000
            block.append(failures[(i // 1_000) % len(failures)])
            continue
        r = rng.randrange(16384)
        block.append(rng.choice(NOISE).format(
            r=r, r8=r % 8, s=i, l=2 + rng.random(), g=rng.random(), t=rng.randrange(10**6),
            h=rng.randrange(2048), p=rng.randrange(10**5), p2=rng.randrange(10**5),
            c=rng.randrange(24), sec=rng.randrange(60), us=rng.randrange(10**6)))  # fmt: skip
    data = ("\n".join(block) + "\n").encode()
    with open(path, "wb") as f:
        written = 0
        while written < size_mb << 20:
            f.write(data)
            written += len(data)
    return written


def run(quick: bool) -> dict:
    size_mb = 20 if quick else 100
    with tempfile.TemporaryDirectory(prefix="nonstop-bench-triage-") as tmp:
        log = Path(tmp) / "train.log"
        nbytes = make_log(log, size_mb)
        pats = Path(tmp) / "patterns.txt"
        pats.write_text("\n".join(_ere(s.pattern) for s in signatures.SIGNATURES
                                  if not s.id.startswith("xid_")) + "\n"
                        + _ere(signatures.XID_PATTERN.decode()) + "\n")  # fmt: skip
        mb = nbytes / 1e6
        t0 = time.perf_counter()
        scan = triage.scan(log)
        ours_s = time.perf_counter() - t0
        env = {**os.environ, "LC_ALL": "C"}
        t0 = time.perf_counter()
        grep = subprocess.run(["grep", "-E", "-i", "-c", "-f", str(pats), str(log)], env=env,
                              capture_output=True, text=True, timeout=600)  # fmt: skip
        grep_s = time.perf_counter() - t0
    if grep.returncode not in (0, 1):
        raise RuntimeError(f"grep failed: {grep.stderr.strip()}")
    ours, peer = mb / ours_s, mb / grep_s
    hit_lines = len({(h.line) for h in scan.hits})
    return {
        "name": "triage",
        "ours": round(ours, 1),
        "peer": round(peer, 1),
        "peer_name": "grep -E -i (LC_ALL=C)",
        "ratio": ours / peer,
        "unit": "MB/s",
        "better": "higher",
        "detail": {
            "log_mb": round(mb, 1),
            "lines": scan.lines,
            "ours_s": round(ours_s, 3),
            "grep_s": round(grep_s, 3),
            "grep_matching_lines": int(grep.stdout.strip() or 0),
            "ours_signature_counts": dict(scan.counts),
            "ours_kept_hit_lines": hit_lines,
        },
    }
