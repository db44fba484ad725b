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
import subprocess
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
