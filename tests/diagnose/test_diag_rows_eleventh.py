"""Signature rows for the classes the eleventh collection showed missing (tests/corpus/real/README.md,
eleventh.jsonl, "After its rows", branch issue-27r11). Each row is tested on the eleventh's line and
on other wordings of its class from other public sources (cited), never on invented lines, with the
symptoms and near misses it must not outrank or take."""

from __future__ import annotations

import json
from pathlib import Path

from support.prefilter import prefilter_test, row_test

from nonstop.diagnose import triage_file

_CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "real" / "eleventh.jsonl"


def _eleventh(rid: str) -> str:
    with open(_CORPUS) as f:
        for line in f:
            if line.strip() and json.loads(line)["id"] == rid:
                return str(json.loads(line)["excerpt"])
    raise KeyError(rid)


ELEVENTH = [
    # (log text, category, why)
    # -- CUDA error 2, out of memory, inside a glog CHECK: OOM above the CHECK-failure row
    (
        "F0903 14:31:26.106397 92421 syncedmem.cpp:56] Check failed: error == cudaSuccess "
        "(2 vs. 0)  out of memory",
        "out_of_memory",
        "eleventh bff1c2a68112 (MhLiao/TextBoxes_plusplus#132)",
    ),
    (
        "F0304 14:26:21.611594  4889 syncedmem.cpp:71] Check failed: error == cudaSuccess "
        "(2 vs. 0)  out of memory",
        "out_of_memory",
        "https://github.com/houqb/DSS/issues/25",
    ),
    (
        "F0419 19:59:24.128612 11075 syncedmem.cpp:53] Check failed: error == cudaSuccess "
        "(2 vs. 0)  out of memory",
        "out_of_memory",
        "https://github.com/BVLC/caffe/issues/2339",
    ),
    (
        "Check failed: cudaSuccess == cudaStat (0 vs. 2) Cuda Error: out of memory",
        "out_of_memory",
        "Paddle's wording, https://github.com/PaddlePaddle/Paddle/issues/8949",
    ),
    (
        "F0806 20:08:39.098415 28262 syncedmem.cpp:19] Check failed: error == cudaSuccess "
        "(29 vs. 0)  driver shutting down",
        "software_bug",
        "near miss: another CUDA error in the same CHECK stays a CHECK failure, "
        "https://github.com/fyangneil/pavement-crack-detection/issues/16",
    ),
    # -- AWS Neuron: the runtime failing inside itself is software_bug, no driver is dependency
    (
        "  (0) INTERNAL: Nrt::Load failed on NeuronCores 0-0(2): nrt_load status=1, error "
        'message="Non specific failure".',
        "software_bug",
        "eleventh 990baeee7b7d (aws-neuron/aws-neuron-sdk#779)",
    ),
    (
        "2021-11-01 06:02:18.992183: W tensorflow/core/framework/op_kernel.cc:1651] OP_REQUIRES "
        "failed at neuron_op.cc:44 : Internal: tensorflow/neuron/runtime/direct/adaptor.cc:446:"
        'Execute failed: nrt_execute: status=1004, error message="Execution was completed with '
        'other errors".',
        "software_bug",
        "https://github.com/aws-neuron/aws-neuron-sdk/issues/351",
    ),
    (
        "2025-Jan-03 21:00:33.247541 13423:13423 ERROR   NRT:nrt_close                         "
        "      Unexpected runtime state: NRT_STATE_START",
        "software_bug",
        "eleventh ac2210e02e10",
    ),
    (
        "2022-Mar-29 07:07:29.0082    11:11    ERROR   NRT:nrt_init                             "
        "   Unable to determine Neuron Driver version. Please check aws-neuron-dkms package is "
        "installed.",
        "dependency",
        "eleventh c5e19ae2048a",
    ),
    (
        "2021-Aug-11 18:38:27.0917 13713:13713 ERROR   NRT:nrt_init      Unable to determine "
        "Neuron Driver version. Please check aws-neuron-dkms package is installed.",
        "dependency",
        "the Neuron SDK's runtime troubleshooting docs (aws-neuron/aws-neuron-sdk, rst sources)",
    ),
    # -- Habana's graph compiler failing (synStatus 26, Generic failure)
    (
        "[rank2]: RuntimeError: synNodeCreateWithId failed for node: batch_gemm with synStatus "
        "26 [Generic failure]. .",
        "software_bug",
        "eleventh 78f16aea6aa9",
    ),
    (
        "Graph compile failed. synStatus=synStatus 26 [Generic failure]. ",
        "software_bug",
        "a Habana PT_EAGER log quoted in public GitHub code (find_string 'synStatus 26')",
    ),
    # -- the AWS SDK's object-store client timing out or unreachable: storage
    (
        "[Data] Retry on `OSError: AWS Error NETWORK_CONNECTION during GetObject operation: "
        "curlCode: 28, Timeout was reached`",
        "storage",
        "eleventh 75bdb9d6f1b5",
    ),
    (
        r'[2023/03/29 02:15:02.832 +00:00] [ERROR] [S3Common.cpp:126] ["tag=AWSXmlClient '
        r"message=HTTP response code: -1\nResolved remote host IP address: \nRequest ID: "
        r"\nException name: \nError message: curlCode: 28, Timeout was reached\n0 response "
        r'headers:"] [source=AWSClient] [thread_id=149]',
        "storage",
        "https://github.com/aws/aws-sdk-cpp/issues/2418",
    ),
    # -- NCCL's ibvwrap wording without its prefix, and WC statuses as "status=N (name)"
    (
        "Call to ibv_modify_qp failed with error No such device",
        "software_bug",
        "eleventh 386d83067497 (NVIDIA/nccl#925)",
    ),
    (
        "72bf7b08-26f3-4ebc-8b9d-85df3e4414c0:76786:77145 [3] misc/ibvwrap.cc:284 NCCL WARN "
        "Call to ibv_modify_qp failed with error No such device",
        "software_bug",
        "https://github.com/NVIDIA/nccl/issues/799",
    ),
    (
        "[WARN chi-mi325x-pod2-098 1711891 1711891 pollOnce rdma/providers/"
        "ib_data_channel_impl.cc:203] pollOnce - channel_id: 4, CQE error, wr_id=19395, "
        "status=10 (remote access error), opcode=1, byte_len=0, vendor_err=0x7, qp_num=0x2c21, "
        "wc_flags=0x0",
        "software_bug",
        "eleventh 2bde9c2b72b2",
    ),
    # -- a local NVMe's block-layer error in any blk_status wording: ssd, above Buffer I/O
    (
        "[275808.417983] blk_update_request: operation not supported error, dev nvme0n1, sector "
        "0 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0\n"
        "[275808.417988] Buffer I/O error on dev nvme0n1, logical block 0, async page read",
        "ssd",
        "eleventh 62b752406e65 (spdk/spdk#1502)",
    ),
    (
        "[  531.168257] blk_update_request: I/O error, dev nvme0n1, sector 100492368 op "
        "0x1:(WRITE) flags 0x104000 phys_seg 16 prio class 0",
        "ssd",
        "https://github.com/oxidecomputer/crucible/issues/1239",
    ),
    # -- no TPU found: the environment, above the configuration-check reading
    (
        "2021-04-23 18:14:43 10.164.0.29 [3] pytorch_lightning.utilities.exceptions."
        "MisconfigurationException: No TPU devices were found.",
        "dependency",
        "eleventh 1564d2cfae30 (Lightning-AI/pytorch-lightning#7197)",
    ),
    (
        "If you get `MisconfigurationException: No TPU devices were found.` then run the "
        "following command to fix it.",
        "dependency",
        "a public notebook's note (find_string 'No TPU devices were found')",
    ),
    # -- symptoms: mpirun's non-zero exit summary, torch elastic's ChildFailedError summary
    (_eleventh("9b9e79fd12e3"), "unknown", "eleventh 9b9e79fd12e3 (horovod/horovod#1421)"),
    (
        _eleventh("f4b3a6aaebd1"),
        "unknown",
        "eleventh f4b3a6aaebd1 (open-mmlab/mmsegmentation#3106)",
    ),
    (
        "E1119 08:26:02.715000 28705 site-packages/torch/distributed/elastic/multiprocessing/"
        "api.py:882] failed (exitcode: -11) local_rank: 0 (pid: 28773) of binary: "
        "/app/anaconda3/envs/py312/bin/python3.12",
        "software_bug",
        "fresh a7d754c1e2ca labels the agent's exitcode -11 a segfault (kept)",
    ),
]


test_row = row_test(ELEVENTH)


def test_mpirun_summary_is_not_a_planned_stop_with_the_fallback(tmp_path: Path) -> None:
    log = tmp_path / "rank.log"
    log.write_text(_eleventh("9b9e79fd12e3") + "\n")
    v = triage_file(log)
    assert v.category == "unknown", v.verdict


def test_a_software_circuit_breaker_is_not_a_power_supply(tmp_path: Path) -> None:
    """eleventh 0cf59f2a871d (bghira/SimpleTuner#2712): a training tool's own "GPU circuit
    breaker OPEN" around torch's collective fingerprint mismatch: never power_supply, never
    exclude_node."""
    log = tmp_path / "rank.log"
    log.write_text(_eleventh("0cf59f2a871d") + "\n")
    v = triage_file(log)
    assert v.category != "power_supply", v.verdict
    assert v.action != "exclude_node", v.verdict


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(ELEVENTH)
