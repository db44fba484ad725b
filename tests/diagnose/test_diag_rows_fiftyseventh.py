"""Signature rows for the classes the fiftyseventh collection showed missing
(tests/corpus/real/README.md, fiftyseventh.jsonl, "After its rows", branch issue-27rows57). Each
row is tested on the fiftyseventh's excerpts and on other wordings of its class, from the source
or documentation cited beside each, with the near misses it must not take. Rows widened in place
for it: `port_in_use` (accelerate launch's own port check), `store_timeout` (caffe2's store
handlers), `cloud_quota_exhausted` (dstack's provisioning timeout); new:
`launcher_program_missing`, `launcher_master_addr_undetected`, `ray_placement_group_timeout`,
`skypilot_no_launchable_resource`, `ray_terminate_unhandled_exception`, `torchft_quorum_waiting`,
`kubelet_node_not_found`, `launcher_ssh_unreachable`, `hivemind_no_group`; widened too: `slurm_launch_credential` (srun's task launch timing out)."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fiftyseventh(rid: str) -> str:
    return excerpt("fiftyseventh", rid)


_ACCELERATE = (
    "ConnectionError: Tried to launch distributed communication on port `{}`, but another "
    "process is utilizing it. Please specify a different port (such as using the "
    "`--main_process_port` flag or specifying a different `main_process_port` in your config "
    "file) and rerun your script. To automatically use the next open port (on a single node), "
    "you can set this to `0`."
)
_RAY_TRAIN_PG = (
    "TimeoutError: Placement group creation timed out. Make sure your cluster either has enough "
    "resources or use an autoscaling cluster. If you are running on a cluster, make sure you "
    'specify an address in `ray.init()`, for example, `ray.init("auto")`. You can also increase '
    "the timeout by setting the TRAIN_PLACEMENT_GROUP_TIMEOUT_S environment variable. Current "
    "resources available: {'CPU': 8.0, 'GPU': 1.0}, resources requested by the placement group: "
    "[{'CPU': 1.0, 'GPU': 1.0}, {'CPU': 1.0, 'GPU': 1.0}]"
)

FIFTYSEVENTH = [
    # (log text, category, why)
    # -- dependency: accelerate launch's rendezvous port taken (`port_in_use`, widened;
    # accelerate/commands/launch.py, accelerate/utils/launch.py prepare_multi_gpu_env)
    (_fiftyseventh("96b8bdad1c2b"), "dependency", "fiftyseventh 96b8bdad1c2b (accelerate)"),
    (_ACCELERATE.format(29500), "dependency", "accelerate's whole message, port 29500"),
    (
        '  File "/opt/conda/lib/python3.11/site-packages/accelerate/utils/launch.py", line 217, '
        "in prepare_multi_gpu_env\n    raise ConnectionError(\n"
        + _ACCELERATE.format(29501).replace("`", ""),
        "dependency",
        "accelerate's message under its frame, no backticks",
    ),
    (
        "[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 "
        "- Address already in use).",
        "dependency",
        "torch's c10d store on the same port (the row's own wording)",
    ),
    # -- dependency: caffe2's store wait timing out (`store_timeout`, widened;
    # caffe2/distributed/file_store_handler.cc, redis_store_handler.cc, common_world_ops.h)
    (_fiftyseventh("6b5c48f1fe84"), "dependency", "fiftyseventh 6b5c48f1fe84 (labelled hang)"),
    (
        "RuntimeError: [enforce fail at /pytorch/caffe2/distributed/redis_store_handler.cc:110] "
        "Wait timeout for name(s): allreduce_0_cw_op/0 allreduce_0_cw_op/1",
        "dependency",
        "caffe2's redis store handler",
    ),
    (
        "E0817 11:20:51.183814 29415 common_world_ops.h:110] Caught store handler timeout "
        "exception: [/pytorch/caffe2/distributed/file_store_handler.cc:154] Wait timeout for "
        "name(s): broadcast_cw_op/3",
        "dependency",
        "caffe2's common world, its own wrapper line",
    ),
    # -- dependency: a cloud instance that never came up (`cloud_quota_exhausted`, widened;
    # dstack process_instances.py, core/models/instances.py)
    (_fiftyseventh("f0b6232495de"), "dependency", "fiftyseventh f0b6232495de (dstack)"),
    (
        "[2025-06-04 14:32:27] WARNING dstack._internal.server.background.tasks.process_instances:"
        " Instance gpu-fleet-0 failed because instance has not become running in time",
        "dependency",
        "dstack's warning in its plain log format",
    ),
    (
        "Termination reason: Instance has not become running in time",
        "dependency",
        "dstack's termination reason",
    ),
    (
        "termination_reason: The proivisioning timeout expired",
        "dependency",
        "dstack's older reason string (its typo)",
    ),
    # -- dependency: a launcher running a scheduler or cluster tool the node lacks
    # (`launcher_program_missing`; CPython Lib/subprocess.py, submitit's Slurm requeue and
    # executor, DeepSpeed's multinode runner)
    (_fiftyseventh("ac36b81f984e"), "dependency", "fiftyseventh ac36b81f984e (scontrol)"),
    (
        '  File "/usr/lib/python3.10/subprocess.py", line 1863, in _execute_child\n'
        "    raise child_exception_type(errno_num, err_msg, err_filename)\n"
        "FileNotFoundError: [Errno 2] No such file or directory: 'sbatch'",
        "dependency",
        "submitit's executor submitting with sbatch",
    ),
    (
        "FileNotFoundError: [Errno 2] No such file or directory: 'pdsh'",
        "dependency",
        "DeepSpeed's runner without pdsh",
    ),
    (
        "FileNotFoundError: [Errno 2] No such file or directory: 'nvidia-smi'",
        "dependency",
        "a GPU query in a container without the driver's tools",
    ),
    # -- dependency: the launcher finding no master address (`launcher_master_addr_undetected`;
    # deepspeed/launcher/runner.py, old and new)
    (_fiftyseventh("6a6b8088513e"), "dependency", "fiftyseventh 6a6b8088513e (empty address)"),
    (
        "[2023-03-02 10:11:12,001] [INFO] [runner.py:454:main] Using IP address of  for node "
        "worker-1",
        "dependency",
        "the empty address alone",
    ),
    (
        "[2024-05-01 08:00:01,002] [ERROR] [runner.py:480:main] Unable to detect suitable master "
        "address via `hostname -I`, please manually specify one via --master_addr",
        "dependency",
        "the newer runner's error",
    ),
    (
        "RuntimeError: Unable to detect suitable master address via `hostname -I`, please "
        "manually specify one via --master_addr",
        "dependency",
        "the newer runner's exception",
    ),
    # -- dependency: Ray's placement group never scheduled (`ray_placement_group_timeout`;
    # ray/train/_internal/backend_executor.py, xgboost_ray, TorchX's Ray driver)
    (_fiftyseventh("68cc93885007"), "dependency", "fiftyseventh 68cc93885007 (labelled uce)"),
    (_RAY_TRAIN_PG, "dependency", "Ray Train's wording"),
    (
        "TimeoutError: SPMD Placement group creation timed out. Make sure your cluster either has "
        "enough resources or use an autoscaling cluster. Ensure your cluster has multi-host nodes "
        "available for SPMD scheduling.",
        "dependency",
        "Ray Train's SPMD groups",
    ),
    # -- user_code_error: SkyPilot's catalog has nothing for the request
    # (`skypilot_no_launchable_resource`; sky/optimizer.py, three releases)
    (_fiftyseventh("d5f3e38f8161"), "user_code_error", "fiftyseventh d5f3e38f8161 (T4: 0.5)"),
    (
        "sky.exceptions.ResourcesUnavailableError: No launchable resource found for task "
        "sky-cmd. To fix: relax its resource requirements.\nHint: 'sky show-gpus --all' to list "
        "available accelerators.",
        "user_code_error",
        "a 2023 release's wording",
    ),
    (
        "ValueError: No launchable resource found for task train; To fix: relax its Resources() "
        "requirements.",
        "user_code_error",
        "the earliest releases' ValueError",
    ),
    (
        "This means the catalog does not contain any resources that satisfy this request.",
        "user_code_error",
        "the explanation line alone",
    ),
    # -- software_bug: a Ray C++ process dying on an unhandled exception
    # (`ray_terminate_unhandled_exception`; src/ray/util/logging.cc TerminateHandler)
    (_fiftyseventh("a2448b07daa0"), "software_bug", "fiftyseventh a2448b07daa0 (GCS, json)"),
    (
        "[2023-02-11 10:00:01,123 E 4411 4411] (raylet) logging.cc:97: Unhandled exception: "
        "N5boost6system12system_errorE. what(): bind: Cannot assign requested address",
        "software_bug",
        "the raylet, a boost error",
    ),
    (
        "[2024-07-02 03:04:05,678 E 912 930] core_worker.cc:100: logging.cc:110: Unhandled "
        "unknown exception.",
        "software_bug",
        "an exception of no std type",
    ),
    # -- hang: torchft's quorum that never forms (`torchft_quorum_waiting`; src/lighthouse.rs)
    (_fiftyseventh("8a9b97a43515"), "hang", "fiftyseventh 8a9b97a43515 (1 of 2)"),
    (
        "2025-03-01T10:00:00.100Z INFO torchft::lighthouse - No quorum, only have 2 participants, "
        "need 4",
        "hang",
        "the log line of the first releases",
    ),
    (
        "torchft::lighthouse: quorum status: No quorum, only have 1 participants, need 2 "
        "[0/1 participants healthy][shrink_only=false]",
        "hang",
        "the newer reason string with its metadata",
    ),
    # -- dependency: the kubelet cannot find its own Node object (`kubelet_node_not_found`;
    # pkg/kubelet/kubelet.go, kubeadm's troubleshooting)
    (_fiftyseventh("f89af51a0824"), "dependency", "fiftyseventh f89af51a0824 (kubelet)"),
    (
        "May 18 16:16:19 k8smaster kubelet[2535]: E0518 16:16:19.216072    2535 kubelet.go:2461] "
        '"Error getting node" err="node \\"k8smaster\\" not found"',
        "dependency",
        "the structured log of 1.21 and later",
    ),
    (
        "E0101 00:00:00.000000   12345 kubelet.go:2419] "
        '"Error getting node" err="node \\"k8s-worker-01\\" not found"',
        "dependency",
        "the same without the journal's prefix",
    ),
    # -- dependency: srun's task launch to slurmd timing out (`slurm_launch_credential`,
    # widened; Slurm src/srun launch.c, slurm_strerror)
    (_fiftyseventh("46bcba9a33f9"), "dependency", "fiftyseventh 46bcba9a33f9 (p4d nodes)"),
    (_fiftyseventh("a20c57217588"), "dependency", "fiftyseventh a20c57217588 (MUNGE keys)"),
    (
        "srun: error: Task launch for 812.0 failed on node gpu-17: Socket timed out on send/recv "
        "operation",
        "dependency",
        "an older step id",
    ),
    (
        "srun: error: Application launch failed: Socket timed out on send/recv operation",
        "dependency",
        "the launch's summary line alone",
    ),
    # -- dependency: the launcher cannot ssh to a worker (`launcher_ssh_unreachable`;
    # deepspeed/launcher/runner.py, colossalai/cli/launcher/run.py with paramiko's messages)
    (_fiftyseventh("c4b4bdff5e54"), "dependency", "fiftyseventh c4b4bdff5e54 (DeepSpeed, 255)"),
    (_fiftyseventh("85899ce3e2a7"), "dependency", "fiftyseventh 85899ce3e2a7 (ColossalAI)"),
    (_fiftyseventh("c867bdcc626d"), "dependency", "fiftyseventh c867bdcc626d (RSA key)"),
    (excerpt("sixteenth", "cc27716f6888"), "dependency", "sixteenth cc27716f6888 (ssh check)"),
    (excerpt("tenth", "333a000ec5dd"), "dependency", "tenth 333a000ec5dd (ssh check)"),
    (
        "RuntimeError: Using hostfile at /job/hostfile but host=worker-3 was not reachable via "
        "ssh. If you are running with a single node please remove /job/hostfile or setup "
        "passwordless ssh.",
        "dependency",
        "DeepSpeed's ssh check, its own error",
    ),
    (
        "Error: failed to run torchrun --nproc_per_node=8 --nnodes=2 --node_rank=1 train.py on "
        "node-2, is localhost: False, exception: Authentication failed.",
        "dependency",
        "ColossalAI, paramiko's authentication failure",
    ),
    # -- unknown: hivemind's averager finding no peers (`hivemind_no_group`;
    # hivemind/averaging/averager.py, hivemind/optim)
    (_fiftyseventh("50ae951c6f61"), "unknown", "fiftyseventh 50ae951c6f61 (hivemind)"),
    (
        "Mar 02 11:00:00.001 [INFO] Averaging gradients failed with AllreduceException("
        "'Averaging step failed: could not find a group')",
        "unknown",
        "hivemind's optimizer",
    ),
    (
        "[ERROR] [hivemind.averaging.averager._step:482] Averaging step failed: could not find a "
        "group.",
        "unknown",
        "the averager's later wording, a full stop",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    (
        "UserWarning: Port `29500` is already in use. Accelerate will attempt to launch in a "
        "standalone-like mode by finding an open port automatically for this session.",
        "dependency",
        "accelerate picks another port and goes on",
    ),
    (
        "Tried to launch distributed communication on port 29500",
        "dependency",
        "no refusal",
    ),
    (
        "I0817 11:20:41.000000 29415 file_store_handler.cc:60] File store handler waiting for "
        "name(s): allreduce_0_cw_op/1",
        "dependency",
        "no timeout",
    ),
    (
        "Instance gpu-fleet-0 has become running",
        "dependency",
        "the instance came up",
    ),
    (
        "FileNotFoundError: [Errno 2] No such file or directory: 'chkpnt30000.pth'",
        "dependency",
        "a checkpoint file missing (the tuning set's 53dbc64f94c1)",
    ),
    (
        "FileNotFoundError: [Errno 2] No such file or directory: 'scontrol_output.txt'",
        "dependency",
        "a file named like a program",
    ),
    (
        "FileNotFoundError: [Errno 2] No such file or directory: '/data/ssh/keys'",
        "dependency",
        "a path, not a program",
    ),
    (
        "[INFO] [runner.py:454:main] Using IP address of 10.0.0.4 for node worker-0",
        "dependency",
        "an address found",
    ),
    (
        "Waiting for placement group to start.",
        "dependency",
        "Ray Train waits, no timeout yet",
    ),
    (
        "Placement group has started.",
        "dependency",
        "scheduled",
    ),
    (
        "sky.exceptions.ResourcesUnavailableError: Failed to provision all possible launchable "
        "resources. Relax the task's resource requirements: 1x AWS({'A100': 8})",
        "user_code_error",
        "capacity, not the request",
    ),
    (
        "I 08-13 02:20:14 optimizer.py:691] Found 3 launchable resources for task train.",
        "user_code_error",
        "resources found",
    ),
    (
        "[2023-02-11 10:00:01,123 E 4411 4411] (raylet) logging.cc:97: Unhandled exception: "
        "St9bad_alloc. what(): std::bad_alloc",
        "software_bug",
        "memory, not a bug",
    ),
    (
        "Unhandled exception: KeyError in user callback",
        "software_bug",
        "not Ray's terminate handler",
    ),
    (
        "torchft::lighthouse: 2025-01-09T19:50:55.422+00:00 - INFO start: Fast quorum found!",
        "hang",
        "the quorum formed",
    ),
    (
        "torchft::lighthouse: 2025-01-09T19:50:55.422+00:00 - INFO start: No quorum, join timeout "
        "hasn't elapsed yet",
        "hang",
        "enough replicas, waiting for stragglers",
    ),
    (
        "srun: launch/slurm: _task_start: Node gpu-33, 8 tasks started",
        "dependency",
        "srun's tasks started",
    ),
    (
        "subprocess.CalledProcessError: Command '['ssh worker-0 hostname -I']' returned non-zero "
        "exit status 1.",
        "dependency",
        "ssh connected; the remote command failed",
    ),
    (
        "subprocess.CalledProcessError: Command 'python train.py' returned non-zero exit status "
        "255.",
        "dependency",
        "no ssh",
    ),
    (
        "Error: failed to run torchrun --nproc_per_node=2 --nnodes=2 --node_rank=0 train.py on "
        "10.0.0.1, is localhost: True, exception: Encountered a bad command exit code!",
        "dependency",
        "ColossalAI: the remote command failed, no ssh fault",
    ),
    (
        'Error from server (NotFound): nodes "gpu-17" not found',
        "dependency",
        "kubectl given a wrong node name",
    ),
    (
        "May 24 03:51:12 worker-node-105 kubelet[30687]: I0524 03:51:12.918140   30687 "
        'kubelet_node_status.go:71] "Attempting to register node" node="worker-node-105"',
        "dependency",
        "the kubelet registering, no failure",
    ),
]

test_row = row_test(FIFTYSEVENTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FIFTYSEVENTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The fiftyseventh's excerpts the rows now read as labelled get their labels' actions (none
    excludes a node)."""
    for rid, category, action in (
        ("96b8bdad1c2b", "dependency", "restart"),
        ("f0b6232495de", "dependency", "restart"),
        ("ac36b81f984e", "dependency", "restart"),
        ("6a6b8088513e", "dependency", "restart"),
        ("d5f3e38f8161", "user_code_error", "stop_and_page"),
        ("a2448b07daa0", "software_bug", "restart"),
        ("8a9b97a43515", "hang", "restart"),
        ("f89af51a0824", "dependency", "restart"),
        ("50ae951c6f61", "unknown", "restart"),
        ("46bcba9a33f9", "dependency", "restart"),
        ("a20c57217588", "dependency", "restart"),
        ("c4b4bdff5e54", "dependency", "restart"),
        ("85899ce3e2a7", "dependency", "restart"),
        ("c867bdcc626d", "dependency", "restart"),
    ):
        v = rows_alone(tmp_path, _fiftyseventh(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)


def test_the_hivemind_row_names_no_group_only(tmp_path: Path) -> None:
    """`hivemind_no_group` answers unknown for a round with no group, and no row reads a round
    that averaged (an unknown either way: checked through the rows that matched)."""
    from nonstop.diagnose import triage

    log = tmp_path / "rank.log"
    log.write_text(_fiftyseventh("50ae951c6f61") + "\n")
    assert "hivemind_no_group" in {h.signature for h in triage.scan(log).hits}
    log.write_text("Mar 02 11:00:00.001 [INFO] Averaged gradients with 4 peers\n")
    assert not triage.scan(log).hits
