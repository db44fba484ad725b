"""`nonstop triage` on inputs nobody on the team wrote: a file of one very long line, rotated
(compressed) logs, Windows (UTF-16) text, binaries, pipes, a reader that closes early.

Each test runs the real `nonstop` command in a subprocess on real files, as a user would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path


REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "corpus" / "logs"
OOM = (CORPUS / "cuda_oom.log").read_bytes()


def nonstop(
    *args: str, stdin: bytes | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """The `nonstop` command of this checkout, run as a user would run it."""
    return subprocess.run(
        [sys.executable, "-m", "nonstop.cli", *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        input=stdin,
        capture_output=True,
        timeout=timeout,
        check=False,
        text=stdin is None,
    )


def test_a_file_of_one_long_line_without_a_newline_is_triaged_in_seconds(tmp_path: Path) -> None:
    """A 1 MB file with no newline: no one's note, so no operator's advice is read in it
    (prose.LOG_LINE's search is quadratic in a line's length: this took minutes)."""
    log = tmp_path / "one-line.log"
    log.write_bytes(b"a" * (1 << 20))
    start = time.monotonic()
    got = nonstop("triage", str(log), "--json", timeout=60)
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["files"][0]["category"] == "unknown"
    assert time.monotonic() - start < 30


def test_a_signature_inside_a_50_mb_line_is_found_in_seconds(tmp_path: Path) -> None:
    """A 50 MB line full of needles (a progress bar redrawn with carriage returns, a JSON dump):
    the rows search windows of it, not the whole line once per row (over two minutes before)."""
    oom = OOM.splitlines()[3].strip()
    noise = b"RuntimeError: connection failed on the node, retrying\r" * 500_000
    log = tmp_path / "progress.log"
    log.write_bytes(noise[: len(noise) // 2] + oom + b"\r" + noise[len(noise) // 2 :])
    start = time.monotonic()
    got = nonstop("triage", str(log), "--json", timeout=110)
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["files"][0]["category"] == "out_of_memory"
    assert time.monotonic() - start < 60
