"""`nonstop triage`, `diagnose` and `report` on what tools nobody on the team wrote leave behind:
`kubectl describe pod`, rotated rank logs in a run folder, file names that are not UTF-8,
event streams read while they grow. The layer after tests/diagnose/test_foreign_inputs.py.

Each test runs the real `nonstop` command in a subprocess on real files, as a user would.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support.procs import CLI, clean_env, nonstop_cli

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "corpus" / "logs"
OOM = (CORPUS / "cuda_oom.log").read_bytes()

# `kubectl describe pod` as kubectl prints it (pkg/describe: the header's "Node:  NAME/IP",
# a container's "Last State: Terminated / Reason: OOMKilled", then the events table)
DESCRIBE = """\
Name:             trainer-{i}
Namespace:        default
Priority:         0
Service Account:  default
Node:             {node}/10.0.0.{i}
Start Time:       Thu, 03 Dec 2026 16:51:01 +0000
Labels:           app=trainer
Status:           Running
IP:               10.244.1.{i}
Containers:
  trainer:
    Image:          trainer:latest
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       {reason}
      Exit Code:    137
    Ready:          False
    Restart Count:  3
Events:
  Type     Reason     Age               From               Message
  ----     ------     ----              ----               -------
  Normal   Scheduled  2m                default-scheduler  Successfully assigned default/trainer-{i} to {node}
  Warning  BackOff    10s (x5 over 1m)  kubelet            Back-off restarting failed container trainer in pod trainer-{i}_default
"""


def test_kubectl_describe_pod_names_the_pods_node(tmp_path: Path) -> None:
    """The header's `Node:  gpu-node-7/10.0.0.5` is the host of the pod's events and states:
    triage read hosts per line and said host=None."""
    log = tmp_path / "describe.txt"
    log.write_text(DESCRIBE.format(i=5, node="gpu-node-7", reason="OOMKilled"))
    got = nonstop_cli("triage", str(log), "--json")
    assert got.returncode == 0, got.stderr
    f = json.loads(got.stdout)["files"][0]
    assert (f["category"], f["culprit"]["host"]) == ("out_of_memory", "gpu-node-7"), f


def test_kubectl_describe_pods_gives_each_event_its_own_pods_node(tmp_path: Path) -> None:
    """`kubectl describe pods -l app=trainer` prints pod after pod: an event is its own pod's,
    not the first pod's (and the searcher's path, for a big file, agrees)."""
    log = tmp_path / "describe-pods.txt"
    log.write_text(
        DESCRIBE.format(i=1, node="node-a", reason="Completed")
        + "\n\n"
        + DESCRIBE.format(i=2, node="node-b", reason="OOMKilled")
    )
    for search in ("python", "grep"):
        got = nonstop_cli("triage", str(log), "--json", env={"NONSTOP_TRIAGE_SEARCH": search})
        assert got.returncode == 0, got.stderr
        f = json.loads(got.stdout)["files"][0]
        assert (f["category"], f["culprit"]["host"]) == ("out_of_memory", "node-b"), (search, f)


@pytest.mark.parametrize(
    ("name", "compress"),
    [
        ("rank-1.log.gz", gzip.compress),
        ("rank-1.log.1.gz", gzip.compress),
        ("rank-1.log.xz", lzma.compress),
        ("rank-1.log.1.bz2", bz2.compress),
    ],
)
def test_diagnose_reads_a_run_folders_compressed_rank_log(
    tmp_path: Path, name: str, compress: Callable[[bytes], bytes]
) -> None:
    """A rank log rotated and compressed in place (logrotate, or by hand to save room):
    `nonstop diagnose RUN` scanned its compressed bytes and said "Nothing conclusive";
    `nonstop triage` of the same folder read it. The evidence names the file as it is."""
    run = tmp_path / "run"
    (run / "events").mkdir(parents=True)
    logs = run / "logs" / "attempt-0"
    logs.mkdir(parents=True)
    (logs / "rank-0.log").write_text("step 1 loss 2.3\n")
    (logs / name).write_bytes(compress(OOM))
    (logs / "core").write_bytes(b"\x7fELF" + bytes(5000))  # a binary: left out, said once
    for argv in (
        ["diagnose", str(run), "--json"],
        ["diagnose", str(run), "--attempt", "0", "--json"],
    ):
        got = nonstop_cli(*argv)
        assert got.returncode == 0, got.stderr
        v = json.loads(got.stdout)
        assert v["category"] == "out_of_memory", (argv, v["verdict"])
        assert f"{logs / name}:4:" in v["culprits"][0]["evidence"][0], v["culprits"]
        assert "Traceback" not in got.stderr
        assert got.stderr.count("left out") == 1, got.stderr
        assert f"{logs / 'core'}: an ELF executable" in got.stderr


def _strict(text: str) -> object:
    """`text` as a strict JSON reader reads it: no escaped lone surrogate (serde_json refuses
    `\\udcff`), every string UTF-8."""
    assert "\\udc" not in text, text[:300]
    got = json.loads(text)
    json.dumps(got, ensure_ascii=False).encode("utf-8")  # raises on a lone surrogate
    return got


def test_a_file_name_that_is_not_utf8_is_named_as_ls_shows_it(tmp_path: Path) -> None:
    """`caf\\xff.log` (Latin-1 bytes in a name): --json wrote it as `caf\\udcff.log`, no
    character; the text output under a strict UTF-8 standard output ended in a traceback."""
    folder = os.fsencode(tmp_path / "logs")
    os.mkdir(folder)
    with open(os.path.join(folder, b"caf\xff.log"), "wb") as f:
        f.write(OOM)
    name = str(tmp_path / "logs" / "caf\\xff.log")
    got = nonstop_cli("triage", os.fsdecode(folder), "--json")
    assert got.returncode == 0, got.stderr
    out = _strict(got.stdout)
    assert isinstance(out, dict) and out["files"][0]["file"] == name
    assert out["files"][0]["evidence"][0]["file"] == name
    assert got.stderr.count("not UTF-8") == 1, got.stderr
    text = subprocess.run(
        [*CLI, "triage", folder],
        capture_output=True,
        env=clean_env({"PYTHONIOENCODING": "utf-8"}),  # strict, as under en_US.UTF-8
        timeout=60,
        check=False,
    )
    assert text.returncode == 0 and b"Traceback" not in text.stderr, text.stderr
    assert text.stdout.startswith(os.path.join(folder, b"caf\xff.log: out_of_memory"))


def test_a_run_folder_whose_name_is_not_utf8_gives_strict_json(tmp_path: Path) -> None:
    run = os.path.join(os.fsencode(tmp_path), b"run-\xfe")
    logs = os.path.join(run, b"logs", b"attempt-0")
    os.makedirs(logs)
    os.makedirs(os.path.join(run, b"events"))
    with open(os.path.join(logs, b"rank-0.log"), "wb") as f:
        f.write(OOM)
    for verb in ("diagnose", "report"):
        got = nonstop_cli(verb, os.fsdecode(run), "--json")
        assert got.returncode == 0, got.stderr
        _strict(got.stdout)
        assert got.stderr.count("not UTF-8") == 1, (verb, got.stderr)
    got = nonstop_cli("diagnose", os.fsdecode(run), "--json")
    assert "/run-\\xfe/logs/attempt-0/rank-0.log:4:" in json.loads(got.stdout)["evidence"][0]


# rank 1 fails three ways under plain torchrun; rank 0's barrier then loses its peer
FAILS_ON_RANK_1 = """
import ctypes, faulthandler, os, signal, sys
import torch, torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

@record
def main():
    dist.init_process_group("gloo")
    dist.all_reduce(torch.ones(4))
    if dist.get_rank() == 1:
        if sys.argv[1] == "raise":
            raise RuntimeError("rank 1 gave up on purpose")
        if sys.argv[1] == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        faulthandler.enable()
        ctypes.string_at(0)
    dist.barrier()

main()
"""


def _wrapped(text: str, how: str) -> str:
    """torchrun's console output as a wrapper hands it on."""
    lines = text.splitlines()
    if how == "kubectl --prefix":
        return "".join(f"[pod/trainer-0/trainer] {line}\n" for line in lines)
    if how == "kubectl --timestamps":
        return "".join(
            f"2026-12-05T16:45:{i % 60:02d}.123456789Z {x}\n" for i, x in enumerate(lines)
        )
    if how == "kubectl --prefix --timestamps":
        return "".join(
            f"[pod/trainer-0/trainer] 2026-12-05T16:45:{i % 60:02d}.123456789Z {x}\n"
            for i, x in enumerate(lines)
        )
    assert how == "slurm"
    return text + "srun: error: gpu-node-3: task 0: Exited with exit code 1\n"


@pytest.mark.timeout(240)
@pytest.mark.parametrize("mode", ["raise", "kill", "segv"])
def test_torchruns_failure_summary_names_its_root_cause_not_a_victim(
    tmp_path: Path, mode: str
) -> None:
    """`torchrun ... 2>&1 | tee out` where rank 1 raised, was SIGKILLed or segfaulted: triage
    named rank 0 (whose barrier lost rank 1: "Connection closed by peer", printed by rank 0 and
    again in the summary's "Failures") or no rank. torchrun's "Root Cause (first observed
    failure)" names rank 1 on its host; so does triage, on the raw output and as Slurm and
    `kubectl logs --prefix/--timestamps` hand it on."""
    script = tmp_path / "train.py"
    script.write_text(FAILS_ON_RANK_1)
    argv = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2"]
    for _ in range(3):
        run = subprocess.run(
            [*argv, str(script), mode],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=180,
            env=clean_env(),
            check=False,
        )
        out = run.stdout + run.stderr
        # torchrun's own race: on a loaded host its agent may read a dead rank's error file
        # while it is still empty and die of a JSONDecodeError before printing its summary
        # (seen under `pytest -n 2` on the 2-core machine): that run has no summary to triage
        if "Root Cause (first observed failure)" in out or "JSONDecodeError" not in out:
            break
    assert run.returncode == 1 and "Root Cause (first observed failure)" in out, out
    # the root cause's index is the failure's place in torchrun's list: "[1]:" where
    # torchrun's first observed failure was rank 0's echo (tests/diagnose/recorded/)
    host = re.search(r"Root Cause[^\n]*\n\[\d+\]:\n[^\n]*\n\s+host\s*: (\S+)", out)
    assert host, out
    for how in [
        "raw",
        "slurm",
        "kubectl --prefix",
        "kubectl --timestamps",
        "kubectl --prefix --timestamps",
    ]:
        log = tmp_path / f"console-{how.replace(' ', '_')}.log"
        log.write_text(out if how == "raw" else _wrapped(out, how))
        got = nonstop_cli("triage", str(log), "--json")
        assert got.returncode == 0, got.stderr
        f = json.loads(got.stdout)
        culprit = f["files"][0]["culprit"]
        assert culprit["rank"] == 1, (how, f["files"][0])
        if how != "slurm":  # Slurm's own line names its node, which wins
            assert culprit["host"] == host.group(1), (how, culprit)
        root = f["overall"]["details"]["torchrun_root_cause"]
        assert (root["rank"], root["local_rank"]) == (1, 1), root
        want = {"raise": "RuntimeError: rank 1 gave up on purpose", "kill": "Signal 9 (SIGKILL)"}
        assert root["message"].startswith(want.get(mode, "Signal 11 (SIGSEGV)")), (how, root)
        if mode == "segv":
            assert f["files"][0]["category"] == "software_bug", (how, f["files"][0])


# Ray prints a remote worker's output under "(ACTOR pid=PID, ip=NODE_IP)" (the AWS ECS
# blueprint's example output: "(RayTrainWorker pid=364, ip=10.0.0.218) Setting up process group
# for: env:// [rank=0, world_size=12]") and a task's error with "(pid=PID, ip=NODE_IP, actor_id=..."
# (an EasyR1 run's traceback, github.com/chepraid/EasyR1/issues/9)
RAY_ERROR = (
    "ray.exceptions.RayTaskError(OutOfMemoryError): ray::WorkerDict.actor_rollout_ref_update_"
    "actor() (pid=118848, ip=10.130.71.7, actor_id=b2ba64f62469495ea505301701000000, repr=<verl."
    "single_controller.ray.base.WorkerDict object at 0x7b8aac2e25c0>)\n"
)


def test_rays_worker_prefix_names_the_node(tmp_path: Path) -> None:
    """The node a Ray worker ran on is in its prefix (`ip=`): triage said host=None."""
    oom = next(line for line in OOM.decode().splitlines() if "OutOfMemoryError" in line)
    prefixed = tmp_path / "ray-driver.log"
    prefixed.write_text(
        "(RayTrainWorker pid=364, ip=10.0.0.218) Setting up process group for: env:// "
        "[rank=0, world_size=12]\n"
        f"(RayTrainWorker pid=365, ip=10.0.0.219) {oom}\n"
    )
    task = tmp_path / "ray-task.log"
    task.write_text(RAY_ERROR)
    got = nonstop_cli("triage", str(prefixed), str(task), "--json")
    assert got.returncode == 0, got.stderr
    files = {f["file"]: f for f in json.loads(got.stdout)["files"]}
    assert files[str(prefixed)]["culprit"]["host"] == "10.0.0.219", files[str(prefixed)]
    assert files[str(task)]["culprit"]["host"] == "10.130.71.7", files[str(task)]
    assert {f["category"] for f in files.values()} == {"out_of_memory"}


@pytest.mark.timeout(180)
def test_torchruns_summary_beside_its_log_dir_names_the_root_cause(tmp_path: Path) -> None:
    """A folder with the launcher's console output (torchrun's summary: rank 1) and the
    `--log-dir` torchrun wrote (rank 0's stderr and error file: "Connection closed by peer"):
    the overall verdict named no culprit ("seen by rank 0"), though torchrun had said which."""
    script = tmp_path / "train.py"
    script.write_text(FAILS_ON_RANK_1)
    folder = tmp_path / "job"
    run = subprocess.run(
        [
            *(sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2"),
            *("--log-dir", str(folder / "D"), "--redirects", "3", "--tee", "3"),
            *(str(script), "raise"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=150,
        env=clean_env(),
        check=False,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    (folder / "console.log").write_text(run.stdout + run.stderr)
    got = nonstop_cli("triage", str(folder), "--json")
    assert got.returncode == 0, got.stderr
    overall = json.loads(got.stdout)["overall"]
    assert [c["rank"] for c in overall["culprits"]] == [1], overall
    assert overall["details"]["torchrun_root_cause"]["rank"] == 1


def _swapped(out: str) -> str:
    """torchrun's summary with its root cause and its other failure swapped, as torchrun prints
    it when the victim's error file has the root's timestamp (whole seconds: a tie)."""
    lines = out.splitlines()
    fail = lines.index("Failures:")
    root = lines.index("Root Cause (first observed failure):")
    end = next(i for i in range(root, len(lines)) if lines[i].startswith("=" * 20))
    other, first = lines[fail + 1 : root - 1], lines[root + 1 : end]
    return "\n".join(
        [*lines[: fail + 1], *first, lines[root - 1], lines[root], *other, *lines[end:]]
    )


@pytest.mark.timeout(180)
def test_a_victim_torchrun_names_first_is_not_the_culprit(tmp_path: Path) -> None:
    """torchrun's "first observed failure" compares error-file timestamps in whole seconds: on
    a tie it may name the SIGTERMed rank whose barrier lost its peer. That entry is an echo;
    the culprit is the rank under "Failures" that failed on its own."""
    script = tmp_path / "train.py"
    script.write_text(FAILS_ON_RANK_1)
    run = subprocess.run(
        [
            *(sys.executable, "-m", "torch.distributed.run"),
            "--nproc-per-node=2",
            str(script),
            "raise",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=150,
        env=clean_env(),
        check=False,
    )
    out = run.stdout + run.stderr
    swapped = _swapped(out)
    assert re.search(r"Root Cause[^\n]*\n\[\d\]:\n[^\n]*\n[^\n]*\n\s+rank\s*: 0 ", swapped)
    log = tmp_path / "console.log"
    log.write_text(swapped)
    got = nonstop_cli("triage", str(log), "--json")
    assert got.returncode == 0, got.stderr
    f = json.loads(got.stdout)
    assert f["files"][0]["culprit"]["rank"] == 1, f["files"][0]
    root = f["overall"]["details"]["torchrun_root_cause"]
    assert (root["rank"], root["first_observed"]) == (1, False), root
    assert "rank 0, is an echo" in root["said"]


def test_a_recorded_summary_whose_root_cause_is_the_victim_names_the_killed_rank() -> None:
    """Recorded in CI (test above, "kill"): rank 1 SIGKILLed itself; rank 0's barrier lost it
    and its error file was written at 20:04:11, while torchrun timed rank 1's death (no error
    file) when it saw it, at 20:04:12. So torchrun's own "Root Cause (first observed failure)"
    is rank 0 (SIGTERMed, "Connection closed by peer"), listed as "[1]:", not by a same-second
    tie. triage names rank 1, SIGKILL."""
    log = Path(__file__).parent / "recorded" / "torchrun-kill-root-is-victim.log"
    got = nonstop_cli("triage", str(log), "--json")
    assert got.returncode == 0, got.stderr
    f = json.loads(got.stdout)
    assert f["files"][0]["culprit"]["rank"] == 1, f["files"][0]
    root = f["overall"]["details"]["torchrun_root_cause"]
    assert (root["rank"], root["first_observed"]) == (1, False), root
    assert root["message"].startswith("Signal 9 (SIGKILL)"), root
    assert "rank 0, is an echo" in root["said"], root


def test_lightnings_rank_prefix_names_the_rank(tmp_path: Path) -> None:
    """Lightning's RankedLogger writes "[rank: 1] MESSAGE" (lightning_utilities'
    rank_prefixed_message): triage read "[rank1]" and "[Rank 1]" but said rank=None here."""
    oom = next(line for line in OOM.decode().splitlines() if "OutOfMemoryError" in line)
    log = tmp_path / "lightning.log"
    log.write_text(f"[rank: 1] {oom.split(': ', 1)[1]}\n")
    got = nonstop_cli("triage", str(log), "--json")
    f = json.loads(got.stdout)["files"][0]
    assert (f["category"], f["culprit"]["rank"]) == ("out_of_memory", 1), f


@pytest.mark.timeout(120)
def test_a_faulthandler_timeout_dump_is_a_hang(tmp_path: Path) -> None:
    """A rank that set itself a deadline with Python's `faulthandler.dump_traceback_later` and
    missed it leaves "Timeout (0:00:01)!" and every thread's stack on stderr: that is a hang (it
    was guessed `dependency`). The dump is the real one, from a real Python process; the same
    words inside a sentence are not taken."""
    script = tmp_path / "stuck.py"
    script.write_text(
        "import faulthandler, threading, time\n"
        "faulthandler.dump_traceback_later(1, exit=True)\n"
        "def wait_for_peers():\n"
        "    threading.Event().wait(60)\n"
        "wait_for_peers()\n"
    )
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and run.stderr.startswith("Timeout (0:00:01)!"), run.stderr
    log = tmp_path / "rank-1.err"
    log.write_text(run.stderr)
    said = tmp_path / "chat.log"
    said.write_text("we hit a Timeout (0:00:01)! yesterday, see the thread\n")
    got = nonstop_cli("triage", str(log), str(said), "--json")
    assert got.returncode == 0, got.stderr
    files = {f["file"]: f for f in json.loads(got.stdout)["files"]}
    assert files[str(log)]["category"] == "hang", files[str(log)]
    assert files[str(log)]["action"] == "restart"
    assert files[str(said)]["category"] != "hang", files[str(said)]


@pytest.mark.timeout(180)
def test_a_summary_without_an_error_file_says_no_docs_pointer_as_the_error(
    tmp_path: Path,
) -> None:
    """A script whose main is not wrapped in torch's `@record` (most are) writes no error file,
    and torchrun's summary prints "traceback : To enable traceback see: https://pytorch.org/..."
    for the failed rank: triage gave that pointer as the rank's error. The root cause is still
    rank 1; its message is left empty and the rank's own ValueError is evidence beside it."""
    script = tmp_path / "plain.py"
    script.write_text(
        "import torch.distributed as dist\n"
        "dist.init_process_group('gloo')\n"
        "if dist.get_rank() == 1:\n"
        "    raise ValueError('bad batch')\n"
        "dist.barrier()\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2", str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=150,
        env=clean_env(),
        check=False,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1 and "To enable traceback see:" in out, out
    log = tmp_path / "console.log"
    log.write_text(out)
    got = nonstop_cli("triage", str(log), "--json")
    assert got.returncode == 0, got.stderr
    f = json.loads(got.stdout)
    root = f["overall"]["details"]["torchrun_root_cause"]
    assert root["rank"] == 1 and "To enable traceback" not in root["message"], root
    assert f["files"][0]["culprit"]["rank"] == 1, f["files"][0]
    assert f["files"][0]["category"] == "user_code_error", f["files"][0]


def test_a_guess_from_a_ranks_traceback_names_that_rank(tmp_path: Path) -> None:
    """torch prefixes every line of rank 1's traceback with "[rank1]: "; where no row knows
    the exception (a project's own class), the verdict (the fallback's guess, or none) named
    no rank."""
    log = tmp_path / "console.log"
    log.write_text(
        '[rank1]: Traceback (most recent call last):\n[rank1]:   File "/w/train.py", line 12, '
        "in <module>\n[rank1]:     build(cfg)\n[rank1]: MyConfigError: unknown optimizer adamw2\n"
    )
    got = nonstop_cli("triage", str(log), "--json")
    f = json.loads(got.stdout)["files"][0]
    # no row knows it: `unknown`, or the fallback's guess said as one (since the retrain on the
    # thirty-fifth and thirty-sixth collections: dependency at p 0.37, a restart either way)
    assert f["category"] == "unknown" or f.get("guessed"), f
    assert f["action"] == "restart" and f["culprit"]["rank"] == 1, f
    # two ranks' lines: which one failed is not the prefix's to say
    log.write_text(log.read_text() + "[rank0]: waiting for the others\n")
    f = json.loads(nonstop_cli("triage", str(log), "--json").stdout)["files"][0]
    assert f["culprit"]["rank"] is None, f
