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


def _rank_logs(folder: Path, n: int = 40) -> list[Path]:
    """n rank logs of ~32 KB (over GREP_MIN_BYTES together: the external searcher's path),
    each ending in loss lines; rank 7's loss jumps, rank 3's log ends in a CUDA error."""
    folder.mkdir()
    noise = "".join(f"[rank{{r}}] NCCL INFO Channel {i:02d}/24 via NET/IB/0\n" for i in range(700))
    paths = []
    for r in range(n):
        losses = [2.3 - 0.01 * s for s in range(30)] + ([9.5] if r == 7 else [])
        body = noise.format(r=r) + "".join(f"step {s} loss={v:.4f}\n" for s, v in enumerate(losses))
        if r == 3:
            body += (CORPUS / "cuda_illegal_memory_access.log").read_text()
        p = folder / f"rank-{r:02d}.log"
        p.write_text(body)
        paths.append(p)
    return paths


def _verdicts(args: list[str], capsys: pytest.CaptureFixture) -> dict:
    assert nonstop_main(["triage", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_many_rank_logs_read_once_give_what_collecting_them_first_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`nonstop triage` over many plain files starts its search before opening them (each is
    opened once, for its line count, its tail and what it is): the same JSON as collecting
    every input first, for files named one by one and for their folder; and a folder with one
    compressed log in it is collected (decompressed) as before, not searched as bytes."""
    from nonstop.diagnose import inputs, triage

    if triage._search() is None:
        pytest.skip("neither ripgrep nor GNU grep is installed")
    paths = _rank_logs(tmp_path / "logs")
    fast = _verdicts([str(p) for p in paths], capsys)
    assert _verdicts([str(tmp_path / "logs")], capsys) == fast
    monkeypatch.setattr(inputs, "plain_files", lambda args: None)  # the way before
    slow = _verdicts([str(p) for p in paths], capsys)
    assert fast == slow
    cats = [f["category"] for f in fast["files"]]
    assert cats[3] != "unknown" and cats[7] == "loss_spike", cats
    assert fast["files"][7]["culprit"] == slow["files"][7]["culprit"]
    monkeypatch.undo()

    import gzip

    with gzip.open(tmp_path / "logs" / "rank-99.log.gz", "wt") as f:
        f.write((CORPUS / "xid48_double_bit_ecc.log").read_text())
    calls = []
    real = triage.scan_unread
    monkeypatch.setattr(triage, "scan_unread", lambda p: calls.append(real(p)) or calls[-1])
    mixed = _verdicts([str(tmp_path / "logs")], capsys)
    assert calls == [None]  # the fast start saw the gzip and gave way
    assert mixed["files"][-1]["category"] == "gpu_hbm3_memory"
    assert mixed["files"][:-1] == fast["files"]


def test_what_a_file_is_by_its_head_is_the_same_with_the_plain_text_shortcut() -> None:
    """inputs.kind answers a head of printable ASCII without its checks: the same answers."""
    from nonstop.diagnose import inputs

    def slow(head: bytes) -> str:
        plain = inputs._PLAIN
        try:
            inputs._PLAIN = b""  # type: ignore[misc]  # every head takes the checks
            return inputs.kind(head)
        finally:
            inputs._PLAIN = plain  # type: ignore[misc]

    heads = [
        b"",
        b"step 1 loss 2.3\n" * 600,
        b"BZh91AY&SY plain words that look like a bzip2 header",
        b"BZh9 is how a log line could start\n",
        b"MZ is a word too\n",
        b"PK\x03\x04",
        b"\x1f\x8b\x08",
        b"caf\xc3\xa9\n",
        b"\x1b[31mred\x1b[0m\n",
        b"a\x00b\x00c\x00d\x00e\x00f\x00g\x00h\x00",
        b"\x01\x02" * 300,
        *[p.read_bytes()[: inputs.HEAD_BYTES] for p in sorted(CORPUS.glob("*.log"))],
    ]
    for head in heads:
        assert inputs.kind(head) == slow(head), head[:40]
