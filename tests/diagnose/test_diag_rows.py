"""Signature rows added for the failure classes a second, untuned collection showed missing
(tests/corpus/real/README.md, fresh.jsonl): each on wordings of its class written here, not on
the collected lines, and the symptoms they must not outrank."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonstop.diagnose import triage_file

CASES = [
    # (log text, category, why)
    (
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -11) local_rank: 3",
        "software_bug",
        "torchrun's summary of a segfault",
    ),
    ("failed (exitcode: -7) local_rank: 0 (pid: 812) of binary: python", "software_bug", "SIGBUS"),
    ("failed (exitcode: -6) local_rank: 1 (pid: 99) of binary: python", "software_bug", "abort"),
    ("failed (exitcode: 1) local_rank: 1 (pid: 99) of binary: python", "unknown", "a plain exit"),
    (
        "[rank3]:[E1201 10:00:00.1 ProcessGroupNCCL.cpp:1] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE) ran for 600001 milliseconds\n"
        "terminate called after throwing an instance of 'c10::DistBackendError'\n"
        "failed (exitcode: -6) local_rank: 3 (pid: 4) of binary: python",
        "nccl_watchdog_timeout",
        "the watchdog's own abort stays a timeout",
    ),
    (
        "/src/aten/native/cuda/Loss.cu:242: nll_loss_forward_reduce_cuda_kernel_2d(float *, "
        "float *, float *, long *, float *, bool, int, int, int, long) [with scalar_t = float, "
        "index_t = long]: block: [0,0,0], thread: [5,0,0] Assertion `t >= 0 && t < n_classes` "
        "failed.",
        "user_code_error",
        "a kernel assert whose function signature has spaces and brackets",
    ),
    (
        "2026/01/02 03:04:05 XidCriticalError: Xid=79 on Device=GPU-0, the device will go unhealthy.",
        "faulty_gpu",
        "the Kubernetes device plugin's Xid=NN",
    ),
    (
        "nonstop.faults: injected crash at step 40 on rank 1 (crash@step=40,rank=1,xid=79)",
        "unknown",
        "the injector's own spec is no Xid: the kernel log holds the one it writes",
    ),
    (
        "slurmstepd: error: Detected 2 oom_kill events in StepId=123.0. Some of the step tasks "
        "have been OOM Killed.",
        "out_of_memory",
        "Slurm's cgroup OOM",
    ),
    (
        "RuntimeError: The NVIDIA driver on your system is too old (found version 11040).",
        "dependency",
        "a torch build newer than the driver",
    ),
    (
        "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        "dependency",
        "a build without this GPU's architecture",
    ),
    ("Power Supply 2 | Redundancy Lost | Asserted", "power_supply", "IPMI SEL"),
    ("kernel: ixgbe 0000:3b:00.1 ens2f1: NIC Link is Down", "network_switch_cable", "Linux"),
    ("kernel: em0: link state changed to DOWN", "network_switch_cable", "BSD"),
    (
        "kernel: watchdog: BUG: soft lockup - CPU#12 stuck for 23s! [python:4411]\n"
        "kernel: NMI watchdog: Watchdog detected hard LOCKUP on cpu 7",
        "server_chassis",
        "the host wedging",
    ),
    (
        "[../third_party/gloo/gloo/transport/tcp/pair.cc:144] connect [127.0.1.1]:29512: "
        "Connection refused",
        "dependency",
        "Debian's /etc/hosts maps the hostname to 127.0.1.1",
    ),
    (
        "[../third_party/gloo/gloo/transport/tcp/pair.cc:144] connect [10.1.2.3]:29512: "
        "Connection refused",
        "unknown",
        "a real peer that is gone: a symptom",
    ),
    ("kernel: eth0: NIC Link is Up 25 Gbps Full Duplex", "unknown", "a link coming up"),
    # a failure the process says it survived is not what ended it (the soak's phantom)
    (
        "nonstop[host vm attempt 5 rank 0] nonstop.checkpoint: checkpoint of step 120 failed, "
        "training goes on: [Errno 28] No space left on device: 'ckpt/step-120.tmp/__0_0.distcp'\n"
        "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed "
        "by peer [127.0.0.1]:57037",
        "unknown",
        "a survived full disk, then the peer's death",
    ),
    (
        "WARNING: OSError: [Errno 28] No space left on device writing metrics.jsonl; retrying "
        "in 5 s\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "software_bug",
        "a retried write, then the kernel fault",
    ),
    (
        "checkpoint of step 40 failed, training goes on: OSError: [Errno 28] No space left on "
        "device",
        "storage",
        "a survived full disk alone is still the verdict",
    ),
    ("OSError: [Errno 28] No space left on device", "storage", "a full disk"),
]


@pytest.mark.parametrize(("text", "category", "why"), CASES, ids=[c[2] for c in CASES])
def test_row(tmp_path: Path, text: str, category: str, why: str) -> None:
    log = tmp_path / "rank.log"
    log.write_text(text + "\n")
    v = triage_file(log)
    assert v.category == category, (why, v.verdict)
