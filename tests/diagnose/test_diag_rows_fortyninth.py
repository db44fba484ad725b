"""Signature rows for the classes the forty-ninth collection showed missing
(tests/corpus/real/README.md, fortyninth.jsonl, "After its rows", branch issue-27rows49). Each
row is tested on the forty-ninth's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take. Rows widened
in place for it: `cluster_node_lost` (Ray's raylet exiting because the GCS marked its node dead),
`oom_killed_status` (a restart reason "OOMKill"), `oom_words` ("will OOM ... and killed", "OOMed",
"failed with CUDA OOM"), `shm_exhausted` (NCCL's WARN that it could not create a shared-memory
segment); new: `nccl_init_frame`, `rollout_weight_update_failed`,
`sglang_dispatch_invalid_object`."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fortyninth(rid: str) -> str:
    return excerpt("fortyninth", rid)


FORTYNINTH = [
    # (log text, category, why)
    # -- host_maintenance: the raylet exiting because the GCS marked its node dead
    # (`cluster_node_lost`, widened; Ray src/ray/raylet/node_manager.cc, 1.x RAY_LOG(FATAL)
    # "This node has beem marked as dead." (sic), 2.x "[Timeout] Exiting because this node
    # manager has mistakenly been marked as dead by the GCS")
    (_fortyninth("2d6c25269f1e"), "host_maintenance", "forty-ninth 2d6c25269f1e (raylet 1.x)"),
    (excerpt("thirtyfirst", "6d1980071a27"), "host_maintenance", "thirty-first 6d1980071a27"),
    (excerpt("twentysecond", "bd77828fe014"), "host_maintenance", "twenty-second bd77828fe014"),
    (
        "[2025-06-23 12:00:00,000 C 89 89] (raylet) node_manager.cc:1043: [Timeout] Exiting "
        "because this node manager has mistakenly been marked as dead by the GCS: GCS failed to "
        "check the health of this node for 5 times. This is likely because the machine or "
        "raylet has become overloaded.",
        "host_maintenance",
        "Ray 2.x's raylet, as its log prints it",
    ),
    (
        "[2022-04-12 13:46:39,948 C 74 74] node_manager.cc:170: This node has been marked as dead.",
        "host_maintenance",
        "Ray 1.x's line with the typo mended",
    ),
    # -- out_of_memory: a restart or termination reason "OOMKill" (`oom_killed_status`, widened;
    # Kubernetes docs "Assign Memory Resources to Containers": "Reason: OOMKilled")
    (_fortyninth("84b326f94d93"), "out_of_memory", "forty-ninth 84b326f94d93 (OOMKill)"),
    (
        "Termination Reason: OOMKill",
        "out_of_memory",
        "a bare termination reason",
    ),
    (
        "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137",
        "out_of_memory",
        "kubectl describe pod, as Kubernetes' docs show it",
    ),
    # -- out_of_memory: a process said to run out of memory, in words (`oom_words`, widened)
    (_fortyninth("7c19cb482bac"), "out_of_memory", "forty-ninth 7c19cb482bac (will oom)"),
    (_fortyninth("3b311a7c9082"), "out_of_memory", "forty-ninth 3b311a7c9082 (cuda oom)"),
    (
        "The rollout worker OOMed at step 412 and Ray restarted it.",
        "out_of_memory",
        "the verb OOMed",
    ),
    (
        "(RayTrainWorker pid=4411) worker crashed due to OOM",
        "out_of_memory",
        "crashed due to OOM",
    ),
    (
        "rank 3 was killed by the system OOM after the first eval",
        "out_of_memory",
        "killed by the system OOM",
    ),
    # -- out_of_memory: NCCL's own WARN that it could not create a shared-memory segment
    # (`shm_exhausted`, widened; NCCL src/include/shm.h (2.7-2.11) and src/misc/shmutils.cc
    # (2.12+): "Error while %s shared memory segment %s (size %d)", creating or attaching to)
    (_fortyninth("7920d0cd291b"), "out_of_memory", "forty-ninth 7920d0cd291b (shm.h:48)"),
    (excerpt("thirtyfirst", "06dc6b16c9cb"), "out_of_memory", "thirty-first 06dc6b16c9cb"),
    (excerpt("fortyfourth", "440378e113f1"), "out_of_memory", "forty-fourth 440378e113f1"),
    (excerpt("twentysecond", "a437a0e9dbb3"), "out_of_memory", "twenty-second a437a0e9dbb3"),
    (
        "node1:2101:2190 [0] misc/shmutils.cc:132 NCCL WARN Error while creating shared memory "
        "segment /dev/shm/nccl-WU88OE (size 9637888), error: No space left on device (28)",
        "out_of_memory",
        "NCCL 2.12+'s wording with its errno",
    ),
    (
        "node1:2101:2190 [0] include/shm.h:48 NCCL WARN Error while creating shared memory "
        "segment nccl-shm-send-8d7c1b2a-0-1-0 (size 4194304)",
        "out_of_memory",
        "NCCL 2.7-2.11's wording",
    ),
    # -- dependency: an NCCL error raised from the call that creates the communicator
    # (`nccl_init_frame`; vLLM and SGLang vllm|sglang/.../device_communicators/pynccl_wrapper.py
    # `def ncclCommInitRank`, CuPy cupy_backends/cuda/libs/nccl.pyx NcclCommunicator.__init__)
    (_fortyninth("a4f8adb9f2cc"), "dependency", "forty-ninth a4f8adb9f2cc (SGLang pynccl)"),
    (
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/distributed/device_communicators/'
        'pynccl_wrapper.py", line 277, in ncclCommInitRank\n'
        '    self.NCCL_CHECK(self._funcs["ncclCommInitRank"](ctypes.byref(comm),\n'
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/distributed/device_communicators/'
        'pynccl_wrapper.py", line 256, in NCCL_CHECK\n'
        '    raise RuntimeError(f"NCCL error: {error_str}")\n'
        "RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
        "dependency",
        "vLLM's binding, a CUDA error at init",
    ),
    (
        '  File "cupy_backends/cuda/libs/nccl.pyx", line 282, in '
        "cupy_backends.cuda.libs.nccl.NcclCommunicator.__init__\n"
        '  File "cupy_backends/cuda/libs/nccl.pyx", line 128, in '
        "cupy_backends.cuda.libs.nccl.check_status\n"
        "cupy_backends.cuda.libs.nccl.NcclError: NCCL_ERROR_SYSTEM_ERROR: unhandled system error",
        "dependency",
        "CuPy's communicator under Ray's NCCL group",
    ),
    # -- software_bug: the rollout engine failing the trainer's weight update with its own
    # internal error (`rollout_weight_update_failed`; requests/models.py raise_for_status as
    # slime's vllm_engine.py and sglang_engine.py call it, aiohttp's ClientResponseError as
    # AReaL's remote SGLang client raises it, vime's engine check)
    (_fortyninth("a5f65015e9cb"), "software_bug", "forty-ninth a5f65015e9cb (slime -> vLLM)"),
    (_fortyninth("090b124f09c6"), "software_bug", "forty-ninth 090b124f09c6 (vime's check)"),
    (
        "requests.exceptions.HTTPError: 500 Server Error: Internal Server Error for url: "
        "http://10.0.0.7:30000/update_weights_from_tensor",
        "software_bug",
        "SGLang's tensor endpoint, through requests",
    ),
    (
        "aiohttp.client_exceptions.ClientResponseError: 500, message='Internal Server Error', "
        "url='http://10.48.2.224:36021/update_weights_from_disk'",
        "software_bug",
        "SGLang's disk endpoint, through aiohttp",
    ),
    (
        "requests.exceptions.HTTPError: 500 Server Error: Internal Server Error for url: "
        "http://10.0.0.7:30000/init_weights_update_group",
        "software_bug",
        "the weight-update group's set-up endpoint",
    ),
    # -- software_bug: SGLang's dispatcher handed a request type it has no handler for
    # (`sglang_dispatch_invalid_object`; python/sglang/srt/utils.py TypeBasedDispatcher,
    # managers/tokenizer_manager.py and detokenizer_manager.py: "Invalid object: {obj}")
    (_fortyninth("12dbbfaeff89"), "software_bug", "forty-ninth 12dbbfaeff89 (DP controller)"),
    (
        "ValueError: Invalid object: FlushCacheReq()",
        "software_bug",
        "the TypeBasedDispatcher's ValueError",
    ),
    (
        "ValueError: Invalid object: BatchEmbeddingOut(rids=['a1'], finished_reasons=[None], "
        "embeddings=[[0.1]], prompt_tokens=[3])",
        "software_bug",
        "the tokenizer manager's result loop",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    (
        "[2022-02-16 12:45:07,907 W 149 199] node_manager.cc:157: Last heartbeat was sent 6901 "
        "ms ago. There might be resource pressure on this node. If heartbeat keeps lagging, "
        "this node can be marked as dead mistakenly.",
        "host_maintenance",
        "the raylet's warning alone: no death yet",
    ),
    (
        "[2022-02-16 12:45:07,907 W 149 199] node_manager.cc:157: Last heartbeat was sent 6901 "
        "ms ago. There might be resource pressure on this node. If heartbeat keeps lagging, "
        "this node can be marked as dead mistakenly.",
        "out_of_memory",
        "resource pressure is not memory",
    ),
    ('"OOMKilled": false, "ExitCode": 137', "out_of_memory", "Docker's inspect field false"),
    ("Exit Code: 137", "out_of_memory", "a bare exit 137 (the labelling rules: unknown)"),
    ("    oom_score_adj: -998", "out_of_memory", "an OOM-killer setting"),
    ("sysctl -w vm.panic_on_oom=0 vm.oom_kill_allocating_task=1", "out_of_memory", "sysctl"),
    ("kubelet: oom_kill_disable=false on this cgroup", "out_of_memory", "a cgroup setting"),
    (
        "With gradient checkpointing the run finished, no OOM and no restarts.",
        "out_of_memory",
        "no OOM",
    ),
    (
        "It will not OOM with micro batch 1, so we kept it.",
        "out_of_memory",
        "will not OOM",
    ),
    (
        "We never OOMed on 80GB cards.",
        "out_of_memory",
        "never OOMed",
    ),
    (
        "a batch of 64 would OOM, so we use 32",
        "out_of_memory",
        "would OOM: a guess",
    ),
    (
        "[rank1] note: with batch 4096 this model will OOM on a 16 GB GPU; using 8",
        "out_of_memory",
        "will OOM as a start-up warning, no kill told: a plain DDP script's later SIGKILL "
        "read as out of memory under `nonstop run` before",
    ),
    (
        "node1:2101:2190 [0] misc/shmutils.cc:132 NCCL WARN Error while attaching to shared "
        "memory segment /dev/shm/nccl-Ќ (size 0), error: No such file or directory (2)",
        "out_of_memory",
        "attaching to a segment that is not there (NVIDIA/nccl#2190): not exhaustion",
    ),
    (
        "node1:2101:2190 [0] misc/shmutils.cc:132 NCCL WARN Error while creating shared memory "
        "segment /dev/shm/nccl-WU88OE (size 9637888), error: Permission denied (13)",
        "out_of_memory",
        "creation refused on another errno",
    ),
    # (a mid-run all-reduce through the same binding, "RuntimeError: NCCL error: unhandled
    # system error (run with NCCL_DEBUG=INFO for details)", was a near miss here; since the
    # sixtysecond's rows that PyNccl line is `dependency`, as all its corpus labels:
    # tests/diagnose/test_diag_rows_sixtysecond.py)
    (
        '  File ".../pynccl_wrapper.py", line 423 in ncclCommInitRank\n'
        '  File ".../pynccl.py", line 137 in __init__',
        "dependency",
        "faulthandler's dump of a stack, not a traceback",
    ),
    (
        "ValueError: Invalid object: 'chat.completion' is not a chunk",
        "software_bug",
        "another program's 'Invalid object:' without SGLang's class shape",
    ),
    (
        "jsonschema validation failed. Invalid object: {'name': 'x'}",
        "software_bug",
        "a schema validator's wording",
    ),
    (
        "requests.exceptions.HTTPError: 500 Server Error: Internal Server Error for url: "
        "https://huggingface.co/api/models/Qwen/Qwen2.5-7B",
        "software_bug",
        "any other 5xx: the download row's",
    ),
    (
        "requests.exceptions.HTTPError: 400 Client Error: Bad Request for url: "
        "http://10.0.0.7:30000/update_weights_from_disk",
        "software_bug",
        "a 4xx: the caller's request",
    ),
    (
        "requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: "
        "http://10.0.0.7:30000/update_weights_from_tensor",
        "software_bug",
        "a 503: the engine not up yet",
    ),
    (
        'INFO:     10.0.0.2:51234 - "POST /update_weights_from_tensor HTTP/1.1" 200 OK',
        "software_bug",
        "the engine's access log of an update that went through",
    ),
    (
        "NCCL INFO ncclCommInitRank comm 0x55d1 rank 0 nranks 8 cudaDev 0 busId 18000 - Init "
        "COMPLETE",
        "dependency",
        "NCCL's informational line at init",
    ),
    (
        '  File "/app/sglang/srt/distributed/device_communicators/pynccl_wrapper.py", line 399, '
        "in ncclCommInitRank\n"
        "    self.NCCL_CHECK(\n"
        "RuntimeError: NCCL error: remote process exited or there was a network error",
        "dependency",
        "a peer that exited during init: `nccl_remote` stands",
    ),
]

test_row = row_test(FORTYNINTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FORTYNINTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The forty-ninth's excerpts the rows now read get their labels' actions: a page for the
    out-of-memory ones, the node excluded for the raylet the GCS marked dead (as the collections
    label it), a restart for the set-up failure and the weight-sync bug."""
    for rid, category, action in (
        ("2d6c25269f1e", "host_maintenance", "exclude_node"),
        ("84b326f94d93", "out_of_memory", "stop_and_page"),
        ("7c19cb482bac", "out_of_memory", "stop_and_page"),
        ("3b311a7c9082", "out_of_memory", "stop_and_page"),
        ("7920d0cd291b", "out_of_memory", "stop_and_page"),
        ("a4f8adb9f2cc", "dependency", "restart"),
        ("a5f65015e9cb", "software_bug", "restart"),
    ):
        v = rows_alone(tmp_path, _fortyninth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)
