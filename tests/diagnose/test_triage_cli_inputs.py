"""`nonstop triage` takes what users have at hand: files, a folder of logs, or a pipe (`-`)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nonstop.cli import main as nonstop_main

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "logs"


def test_a_directory_is_every_file_in_it(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "node-b").mkdir()
    shutil.copy(CORPUS / "xid48_double_bit_ecc.log", tmp_path / "node-b" / "kern.log")
    shutil.copy(CORPUS / "cuda_oom.log", tmp_path / "rank0.log")
    (tmp_path / ".rank1.log.swp").write_text("CUDA error: an illegal memory access\n")
    assert nonstop_main(["triage", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [Path(f["file"]).relative_to(tmp_path).as_posix() for f in out["files"]] == [
        "node-b/kern.log",  # sorted, recursive, the hidden file left out
        "rank0.log",
    ]
    assert [f["category"] for f in out["files"]] == ["gpu_hbm3_memory", "out_of_memory"]
    (tmp_path / "empty").mkdir()
    assert nonstop_main(["triage", str(tmp_path / "empty")]) == 2
    assert "a directory with no files in it" in capsys.readouterr().err


def test_standard_input_is_named_stdin_everywhere() -> None:
    log = (CORPUS / "xid48_double_bit_ecc.log").read_bytes()
    cmd = [sys.executable, "-m", "nonstop.cli", "triage", "-", str(CORPUS / "clean.log"), "--json"]
    p = subprocess.run(cmd, input=log, capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr.decode()
    assert b"nonstop-triage-" not in p.stdout  # the spool file's path never shows
    out = json.loads(p.stdout)
    stdin = out["files"][0]
    assert stdin["file"] == "<stdin>" and stdin["category"] == "gpu_hbm3_memory"
    assert {e["file"] for e in stdin["evidence"]} == {"<stdin>"}
    assert out["overall"]["category"] == "gpu_hbm3_memory"
    assert all(e.startswith(("<stdin>:", str(CORPUS))) for e in out["overall"]["evidence"])
    text = subprocess.run(cmd[:-1], input=log, capture_output=True, timeout=120)
    assert text.returncode == 0 and text.stdout.startswith(b"<stdin>: gpu_hbm3_memory")


def test_standard_input_from_a_terminal_or_closed_is_one_clear_line() -> None:
    import os
    import pty

    cmd = [sys.executable, "-m", "nonstop.cli", "triage", "-"]
    parent, child = pty.openpty()  # a terminal: reading it would wait for a human forever
    try:
        p = subprocess.run(cmd, stdin=child, capture_output=True, timeout=120)
    finally:
        os.close(parent)
        os.close(child)
    assert p.returncode == 2 and b"standard input is a terminal" in p.stderr, p.stderr
    assert b"Traceback" not in p.stderr
    closed = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    assert closed.returncode == 0 and closed.stdout.startswith(b"<stdin>: unknown"), closed
