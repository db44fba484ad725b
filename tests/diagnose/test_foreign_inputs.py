"""`nonstop triage` on inputs nobody on the team wrote: a file of one very long line, rotated
(compressed) logs, Windows (UTF-16) text, binaries, pipes, a reader that closes early.

Each test runs the real `nonstop` command in a subprocess on real files, as a user would.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from nonstop.diagnose import diagnose_run, synth

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


XID = CORPUS / "xid79_then_watchdog.log"


def verdicts(got: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """File name -> category, from `nonstop triage --json` output (which must be valid JSON)."""
    assert got.returncode == 0, got.stderr
    assert "Traceback" not in got.stderr
    return {f["file"]: f["category"] for f in json.loads(got.stdout)["files"]}


@pytest.mark.parametrize(
    ("suffix", "compress"),
    [(".gz", gzip.compress), (".xz", lzma.compress), (".bz2", bz2.compress)],
)
def test_a_rotated_compressed_log_is_read_and_named_as_given(
    tmp_path: Path, suffix: str, compress: Callable[[bytes], bytes]
) -> None:
    """kern.log.2.gz gave "no known failure signature": its compressed bytes were scanned."""
    log = tmp_path / f"kern.log.2{suffix}"
    log.write_bytes(compress(XID.read_bytes()))
    got = nonstop("triage", str(log), "--json")
    assert verdicts(got) == {str(log): "faulty_gpu"}
    text = nonstop("triage", str(log))
    assert text.stdout.startswith(f"{log}: faulty_gpu -> exclude_node"), text.stdout


def test_a_log_cut_while_compressed_keeps_what_came_before_and_says_so(tmp_path: Path) -> None:
    data = gzip.compress(OOM + os.urandom(100_000).hex().encode())  # what gzip cannot shrink
    log = tmp_path / "rank-0.log.gz"
    log.write_bytes(data[: len(data) // 2])
    got = nonstop("triage", str(log), "--json")
    assert verdicts(got) == {str(log): "out_of_memory"}
    assert "gzip stream ends early" in got.stderr


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le"])  # with and without a BOM
def test_windows_utf16_text_is_read(tmp_path: Path, encoding: str) -> None:
    log = tmp_path / "event.log"
    log.write_bytes(OOM.decode().replace("\n", "\r\n").encode(encoding))
    got = nonstop("triage", str(log), "--json")
    assert verdicts(got) == {str(log): "out_of_memory"}


@pytest.mark.parametrize("mark", [b"\xff\xfe", b"\xfe\xff"])
def test_a_stray_byte_order_mark_before_a_plain_log_or_a_binary_is_not_utf16(
    tmp_path: Path, mark: bytes
) -> None:
    """A file that began with FF FE was converted from UTF-16 whatever followed: an ASCII log
    behind the two bytes came out as CJK characters and read "unknown"; random bytes were
    read as a log."""
    log = tmp_path / "rank-0.log"
    log.write_bytes(mark + OOM)
    got = nonstop("triage", str(log), "--json")
    assert verdicts(got) == {str(log): "out_of_memory"}
    garbage = tmp_path / "garbage.log"
    garbage.write_bytes(mark + os.urandom(100_000))
    got = nonstop("triage", str(garbage), "--json")
    assert got.returncode == 2 and "not a log" in got.stderr, got.stdout


def test_a_binary_file_is_refused_in_one_line_and_left_out_of_a_folder(tmp_path: Path) -> None:
    """/bin/ls was read as a log and guessed a chassis fault (p 0.3)."""
    got = nonstop("triage", sys.executable, "--json")
    assert got.returncode == 2
    assert got.stdout == ""
    assert got.stderr.strip().splitlines() == [
        f"nonstop triage: error: {sys.executable}: an ELF executable or library, not a log"
    ]
    folder = tmp_path / "job"
    folder.mkdir()
    (folder / "rank-0.log").write_bytes(OOM)
    (folder / "ledger.db").write_bytes(b"SQLite format 3\x00" + os.urandom(4000))
    # a log a crash left with a hole of NULs is still a log
    (folder / "rank-1.log").write_bytes(b"\x00" * 70_000 + XID.read_bytes())
    got = nonstop("triage", str(folder), "--json")
    assert verdicts(got) == {
        str(folder / "rank-0.log"): "out_of_memory",
        str(folder / "rank-1.log"): "faulty_gpu",
    }
    assert f"left out {folder / 'ledger.db'}: a SQLite database, not a log" in got.stderr


def test_random_bytes_are_refused_and_latin1_or_coloured_logs_are_read(tmp_path: Path) -> None:
    """`head -c 200000 /dev/urandom > garbage.log` was read as a log (about 9% of random bytes
    are control bytes, under the 10% that refuses a file) and answered "unknown -> restart"."""
    garbage = tmp_path / "garbage.log"
    garbage.write_bytes(os.urandom(200_000))
    got = nonstop("triage", str(garbage), "--json")
    assert got.returncode == 2, got.stdout
    assert "not a log" in got.stderr  # either refusal, by the share of control bytes drawn
    latin1 = tmp_path / "latin1.log"  # high bytes outside UTF-8, no control bytes
    latin1.write_bytes(("Schlüssel größe überschritten: é à ç\n" * 300).encode("latin-1") + OOM)
    coloured = tmp_path / "coloured.log"  # ESC sequences and UTF-8
    coloured.write_bytes(("\x1b[31m✗ schritt fehlgeschlagen\x1b[0m\n" * 300).encode() + OOM)
    got = nonstop("triage", str(latin1), str(coloured), "--json")
    assert verdicts(got) == {str(latin1): "out_of_memory", str(coloured): "out_of_memory"}


@pytest.mark.parametrize("first", [b"BZh9 run 7: ", b"MZ-train started\n"])
def test_a_log_whose_first_word_looks_like_a_magic_is_read_as_text(
    tmp_path: Path, first: bytes
) -> None:
    """bzip2's "BZh" and a Windows executable's "MZ" are short enough to begin a line of text:
    they are taken with what follows them in such files, not alone."""
    log = tmp_path / "job.log"
    log.write_bytes(first + OOM)
    got = nonstop("triage", str(log), "--json")
    assert got.returncode == 0, got.stderr
    assert verdicts(got) == {str(log): "out_of_memory"}
    real = tmp_path / "job.log.bz2"
    real.write_bytes(bz2.compress(first + OOM))
    assert verdicts(nonstop("triage", str(real), "--json")) == {str(real): "out_of_memory"}


def test_an_empty_file_is_said_to_be_empty(tmp_path: Path) -> None:
    """An empty log read as "no known failure signature" (confidence 0.1), as if a log had been
    read and found clean."""
    empty = tmp_path / "rank-3.log"
    empty.write_bytes(b"")
    got = nonstop("triage", str(empty))
    assert got.returncode == 0, got.stderr
    assert "The log is empty: nothing to classify." in got.stdout
    out = json.loads(nonstop("triage", str(empty), "--json").stdout)
    assert out["files"][0]["verdict"] == out["overall"]["verdict"]
    assert out["files"][0]["verdict"].startswith("The log is empty")
    assert out["files"][0]["confidence"] == 0.0
    (tmp_path / "rank-0.log").write_bytes(OOM)  # beside a real log, the verdict is the log's
    both = json.loads(nonstop("triage", str(tmp_path), "--json").stdout)
    assert both["overall"]["category"] == "out_of_memory"


def test_zstd_is_named_and_refused(tmp_path: Path) -> None:
    log = tmp_path / "kern.log.zst"
    log.write_bytes(b"\x28\xb5\x2f\xfd" + os.urandom(100))
    got = nonstop("triage", str(log))
    assert got.returncode == 2
    assert "zstd-compressed" in got.stderr
    assert "Traceback" not in got.stderr


def test_a_pipe_is_read_like_standard_input(tmp_path: Path) -> None:
    """`nonstop triage <(zcat kern.log.2.gz)` said "no such log file": a pipe is no regular
    file."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"cat {XID} > {fifo}"])
    try:
        got = nonstop("triage", str(fifo), "--json")
    finally:
        writer.wait(timeout=30)
    assert verdicts(got) == {str(fifo): "faulty_gpu"}


def test_a_symlink_loop_and_a_device_are_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    got = nonstop("triage", str(tmp_path / "a"))
    assert got.returncode == 2
    assert got.stderr.strip() == (
        f"nonstop triage: error: {tmp_path / 'a'}: cannot read log "
        "(Too many levels of symbolic links)"
    )
    got = nonstop("triage", "/dev/zero")  # would never end
    assert got.returncode == 2
    assert (
        got.stderr.strip() == "nonstop triage: error: /dev/zero: not a file, a directory or a pipe"
    )


@pytest.mark.parametrize("as_json", [False, True])
def test_a_reader_that_goes_away_gets_no_traceback(as_json: bool) -> None:
    """`nonstop triage DIR | head -1` printed a BrokenPipeError traceback."""
    with subprocess.Popen(
        [sys.executable, "-m", "nonstop.cli", "triage", str(CORPUS), *(["--json"] * as_json)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # as `head` does once it has its lines
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 141  # a shell's status for SIGPIPE, as `cat` gives
    assert err == ""


def test_a_garbage_ledger_is_an_error_for_one_attempt_too_and_said_in_the_library(
    tmp_path: Path,
) -> None:
    """`nonstop diagnose RUN` refused a ledger that is not one, but `--attempt 0` read it as
    empty without a word and named the rank that died of its peer (the ledger holds the root
    cause)."""
    run = tmp_path / "run"
    (run / "events").mkdir(parents=True)
    (run / "logs" / "attempt-0").mkdir(parents=True)
    (run / "logs" / "attempt-0" / "rank-0.log").write_bytes(OOM)
    (run / "ledger.db").write_bytes(b"SQLite format 3\x00" + b"\x07" * 5000)  # cut by a crash
    before = (run / "ledger.db").read_bytes()
    for argv in (["diagnose", str(run)], ["diagnose", str(run), "--attempt", "0", "--json"]):
        got = nonstop(*argv)
        assert got.returncode == 2, (argv, got.stdout, got.stderr)
        assert got.stderr.strip().splitlines() == [
            f"nonstop diagnose: error: {run / 'ledger.db'}: not a nonstop ledger "
            "(file is not a database); nothing was changed"
        ]
    assert (run / "ledger.db").read_bytes() == before
    v = diagnose_run(run, 0, workers=1)  # the supervisor's call goes on, and says so
    assert v.details["ledger_error"] == "file is not a database"
    assert any("unreadable (file is not a database)" in e for e in v.evidence), v.evidence


def test_a_folder_torchrun_wrote_points_to_triage(tmp_path: Path) -> None:
    """torchrun --log-dir D --redirects 3 --tee 3 writes D/<id>/attempt_0/<local rank>/
    {stdout,stderr}.log and no ledger: diagnose and report refuse it and name the verb that
    reads it."""
    ranks = tmp_path / "D" / "f7963afa_4de5b06a" / "attempt_0"
    for r in (0, 1):
        (ranks / str(r)).mkdir(parents=True)
        (ranks / str(r) / "stdout.log").write_text("")
    (ranks / "1" / "stderr.log").write_bytes(OOM)
    for verb in ("diagnose", "report"):
        got = nonstop(verb, str(tmp_path / "D"))
        assert got.returncode == 2
        assert got.stderr.strip().endswith(f"`nonstop triage {tmp_path / 'D'}`"), got.stderr
    got = nonstop("triage", str(tmp_path / "D"), "--json")
    assert verdicts(got)[str(ranks / "1" / "stderr.log")] == "out_of_memory"


RAISES_ON_RANK_1 = """
import torch, torch.distributed as dist
dist.init_process_group("gloo")
dist.all_reduce(torch.ones(4))
if dist.get_rank() == 1:
    raise RuntimeError("rank 1 gave up on purpose")
dist.barrier()
"""


@pytest.mark.timeout(180)
def test_triage_of_a_torchrun_log_dir_names_not_the_rank_that_lost_its_peer(
    tmp_path: Path,
) -> None:
    """Plain torchrun, rank 1 raises a plain exception (no row knows it); rank 0's barrier
    fails with gloo's "Connection closed by peer". `nonstop triage D` named rank 0 the
    culprit; it names none, says rank 0 saw its peer go, and points to rank 1's log."""
    script = tmp_path / "train.py"
    script.write_text(RAISES_ON_RANK_1)
    logs = tmp_path / "D"
    run = subprocess.run(
        [
            *(sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2"),
            *("--log-dir", str(logs), "--redirects", "3", "--tee", "3", str(script)),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=150,
        check=False,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    rank1 = next(logs.glob("*/attempt_0/1/stderr.log"))
    assert b"rank 1 gave up on purpose" in rank1.read_bytes()
    got = nonstop("triage", str(logs), "--json")
    assert got.returncode == 0, got.stderr
    overall = json.loads(got.stdout)["overall"]
    assert overall["culprits"] == [], overall
    assert overall["details"]["seen_by"]["rank"] == 0
    assert "(seen by rank 0)" in overall["verdict"]
    assert str(rank1) in overall["verdict"]


def test_a_watchdog_timeout_names_the_rank_that_saw_it_not_a_culprit(tmp_path: Path) -> None:
    """Every signature of a collective that failed because a peer went away (the set
    nonstop.diagnose.join demotes beside a recorded root cause) is a victim's line in
    `nonstop triage` too: NCCL's watchdog on rank 3 is not rank 3's own failure."""
    (tmp_path / "rank-3.log").write_bytes((CORPUS / "nccl_watchdog_timeout.log").read_bytes())
    (tmp_path / "rank-1.log").write_text("epoch 3 loss 1.2\n")
    got = nonstop("triage", str(tmp_path), "--json")
    assert got.returncode == 0, got.stderr
    overall = json.loads(got.stdout)["overall"]
    assert overall["category"] == "nccl_watchdog_timeout"
    assert overall["culprits"] == [] and overall["details"]["seen_by"]["rank"] == 3, overall
    assert "(seen by rank 3)" in overall["verdict"]


def test_a_damaged_event_stream_is_said_in_a_few_lines(tmp_path: Path) -> None:
    """500 bad lines in a rank's event stream printed 1,000 lines of Python warnings (each with
    a line of nonstop's source) on `nonstop diagnose RUN --attempt 0`."""
    run = tmp_path / "run"
    (run / "events" / "attempt-0").mkdir(parents=True)
    (run / "logs" / "attempt-0").mkdir(parents=True)
    (run / "logs" / "attempt-0" / "rank-0.log").write_bytes(OOM)
    bad = "".join(f"{{bad {i}\n" for i in range(500))
    (run / "events" / "attempt-0" / "rank-0.jsonl").write_text(bad)
    got = nonstop("diagnose", str(run), "--attempt", "0", "--json")
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["category"] == "out_of_memory"
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 4, lines
    assert lines[0].startswith(f"nonstop diagnose: warning: {run}/events/attempt-0/rank-0.jsonl:1:")
    assert lines[-1] == "nonstop diagnose: warning: ... and 497 more"


def test_unreadable_flight_dumps_are_not_ranks_that_left_no_dump(tmp_path: Path) -> None:
    """Both ranks' dumps there but damaged: with the world size known, diagnose said "2 rank(s)
    left no dump: they may have died before dumping" and recommended a restart."""
    (tmp_path / "rank-0").write_bytes(b"garbage")
    (tmp_path / "rank-1").write_bytes(b"\x80\x04" + bytes(range(256)))
    got = nonstop("diagnose", "--flight", str(tmp_path), "--world-size", "2", "--json")
    assert got.returncode == 2, got.stdout  # nothing readable: an error, as for no dumps
    assert "none of its 2 flight-recorder dump(s) could be read" in got.stderr
    assert "may have died" not in got.stderr + got.stdout


XID_MESSAGE = XID.read_text().splitlines()[2].split("] ", 1)[1]  # "NVRM: Xid (PCI:...): 79, ..."


@pytest.mark.parametrize(
    "line",
    [
        f"Nov 29 03:12:41 node-b kernel: {XID_MESSAGE}",  # journalctl (short), syslog
        f"Nov 29 03:12:41.001240 node-b kernel: {XID_MESSAGE}",  # -o short-precise
        f"2026-11-29T03:12:41+0000 node-b kernel: {XID_MESSAGE}",  # -o short-iso
        f"2026-11-29T03:12:41.001240+00:00 node-b kernel: {XID_MESSAGE}",  # short-iso-precise
        f"Sun 2026-11-29 03:12:41 UTC node-b kernel: {XID_MESSAGE}",  # -o short-full
        f"1764386000.001240 node-b kernel: {XID_MESSAGE}",  # -o short-unix
        f"[812346.001240] node-b kernel: {XID_MESSAGE}",  # -o short-monotonic
        json.dumps({"_HOSTNAME": "node-b", "SYSLOG_IDENTIFIER": "kernel", "MESSAGE": XID_MESSAGE}),
    ],
)
def test_the_host_of_an_xid_in_each_journalctl_output_is_the_node_to_exclude(
    tmp_path: Path, line: str
) -> None:
    """An exclude_node verdict must say which node: only journalctl's short and short-iso
    lines gave it; short-precise, short-full, short-unix, short-monotonic and json said
    host=None."""
    log = tmp_path / "kern.log"
    log.write_text(line + "\n")
    got = nonstop("triage", str(log), "--json")
    f = json.loads(got.stdout)["files"][0]
    assert (f["category"], f["action"], f["culprit"]["host"]) == (
        "faulty_gpu",
        "exclude_node",
        "node-b",
    )
    dmesg = tmp_path / "dmesg.log"  # a device's subsystem is no host
    dmesg.write_text(f"[812346.001240] sd 0:0:0:0: [sda] {XID_MESSAGE}\n")
    f = json.loads(nonstop("triage", str(dmesg), "--json").stdout)["files"][0]
    assert f["culprit"]["host"] is None


def test_a_file_damaged_from_its_start_is_refused_in_one_line(tmp_path: Path) -> None:
    """gzip's magic and then garbage: a zlib.error traceback."""
    log = tmp_path / "kern.log.1.gz"
    log.write_bytes(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + bytes(range(256)) * 4)
    got = nonstop("triage", str(log), "--json")
    assert got.returncode == 2
    assert got.stdout == ""
    assert got.stderr.startswith(f"nonstop triage: error: {log}: a damaged gzip file, nothing")
    assert len(got.stderr.splitlines()) == 1


def _as_a_user(argv: list[str]) -> list[str]:
    """`argv` without root's power to read any file (CAP_DAC_*), so that a file's mode counts:
    the suite runs as root in CI containers."""
    if os.geteuid() != 0:
        return argv
    if shutil.which("capsh") is None:
        pytest.skip("running as root without capsh: a file's mode would not count")
    return ["capsh", "--drop=cap_dac_override,cap_dac_read_search", "--", "-c", shlex.join(argv)]


def test_a_folder_with_files_the_user_cannot_read_is_triaged_without_them(
    tmp_path: Path,
) -> None:
    """`nonstop triage /var/log/` as a user: one root-only file failed the whole folder."""
    folder = tmp_path / "logs"
    (folder / "private").mkdir(parents=True)
    (folder / "rank-0.log").write_bytes(OOM)
    (folder / "btmp").write_bytes(b"root's own")
    (folder / "btmp").chmod(0)
    (folder / "private").chmod(0)
    try:
        argv = [sys.executable, "-m", "nonstop.cli", "triage", str(folder), "--json"]
        got = subprocess.run(
            _as_a_user(argv),
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert verdicts(got) == {str(folder / "rank-0.log"): "out_of_memory"}
        assert f"left out {folder / 'btmp'}: cannot read log (Permission denied)" in got.stderr
        assert f"left out {folder / 'private'}: cannot read it (Permission denied)" in got.stderr
        named = subprocess.run(
            _as_a_user([*argv[:-2], str(folder / "btmp")]),
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert named.returncode == 2
        assert named.stderr.strip() == (
            f"nonstop triage: error: {folder / 'btmp'}: cannot read log (Permission denied)"
        )
    finally:
        (folder / "private").chmod(0o700)


def test_an_attempt_the_run_never_had_is_an_error(tmp_path: Path) -> None:
    """`nonstop diagnose RUN --attempt 99` of a one-attempt run said "Nothing conclusive for
    attempt 99 ... No action is recommended", exit 0."""
    run = tmp_path / "run"
    (run / "logs" / "attempt-0").mkdir(parents=True)
    (run / "events").mkdir()
    (run / "logs" / "attempt-0" / "rank-0.log").write_bytes(OOM)
    for attempt in ("99", "-1"):
        got = nonstop("diagnose", str(run), "--attempt", attempt)
        assert got.returncode == 2
        assert got.stderr.strip() == (
            f"nonstop diagnose: error: {run}: no attempt {attempt} (attempts: 0)"
        )
    got = nonstop("diagnose", str(run), "--attempt", "0", "--json")
    assert json.loads(got.stdout)["category"] == "out_of_memory"


@pytest.mark.parametrize(
    "text",
    [
        "slurmstepd: error: *** JOB 1234 ON node12 CANCELLED AT 2026-11-29T03:12:41 DUE TO NODE"
        " FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***\n",
        "srun: error: Node failure on node12\nsrun: error: node12: task 3: Killed\n",
        "slurmstepd: error: Detected 1 oom_kill event in StepId=1234.0. Some of the step tasks"
        " have been OOM Killed.\nsrun: error: node12: task 3: Out Of Memory\n",
    ],
)
def test_a_slurm_jobs_output_names_the_node(tmp_path: Path, text: str) -> None:
    """Slurm's own lines name the node ("ON node12", "Node failure on node12", "srun: error:
    node12: task 3"); triage said host=None, also for an exclude_node verdict."""
    log = tmp_path / "slurm-1234.out"
    log.write_text(text)
    got = nonstop("triage", str(log), "--json")
    assert json.loads(got.stdout)["files"][0]["culprit"]["host"] == "node12"


def test_a_half_written_config_does_not_stop_the_diagnosis(tmp_path: Path) -> None:
    """A run folder whose config.json was cut (copied while written, a full disk) and which
    holds flight dumps: `nonstop diagnose RUN` refused it all for the config's world size."""
    run = tmp_path / "run"
    (run / "events").mkdir(parents=True)
    (run / "logs" / "attempt-0").mkdir(parents=True)
    (run / "logs" / "attempt-0" / "rank-0.log").write_bytes(OOM)
    synth.write_job(run / "flight" / "attempt-0", 4, 20, hang_rank=2)
    (run / "config.json").write_text('{"run_id": "r", "world_si')
    for argv in (["diagnose", str(run), "--json"], ["diagnose", str(run), "--attempt", "0"]):
        got = nonstop(*argv)
        assert got.returncode == 0, (argv, got.stderr)
    v = diagnose_run(run, 0, workers=1)
    assert v.category == "out_of_memory"
    assert any("config.json is not readable JSON" in e for e in v.evidence), v.evidence
