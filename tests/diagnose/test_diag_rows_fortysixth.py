"""Signature rows for the classes the forty-sixth collection showed missing
(tests/corpus/real/README.md, fortysixth.jsonl, "After its rows", branch issue-27rows46). Each
row is tested on the forty-sixth's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take. Rows widened
in place for it: `wrong_device` (older PyTorch's device-mix wordings), `nan_loss` (DeepXDE's
training display), `tensor_misuse` (Ascend HCCL's EI0005 argument mismatch), `cluster_node_lost`
(Volcano's node not Ready), `nccl_timeout_words` ("will appear", "appeared"),
`loss_spike_words` (the verb after a named training loss, 急剧), `hang_words` (程序卡住, 不往下
运行了), `service_unreachable` (Ray's raylet socket), `nan_loss` (NaNs at a step); new:
`deepep_timeout`, `nccl_init_system_error`, `launcher_local_rank_flag`, `slurm_nodevfiles`."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fortysixth(rid: str) -> str:
    return excerpt("fortysixth", rid)


FORTYSIXTH = [
    # (log text, category, why)
    # -- nccl_watchdog_timeout: DeepEP's dispatch/combine timing out (`deepep_timeout`; DeepEP
    # csrc/kernels/internode.cu and intranode.cu's printf, csrc/deep_ep.cpp's runtime_error)
    (_fortysixth("c0eb61a2ef59"), "nccl_watchdog_timeout", "forty-sixth c0eb61a2ef59 (forwarder)"),
    (_fortysixth("ef3ef701ed70"), "nccl_watchdog_timeout", "forty-sixth ef3ef701ed70 (CPU side)"),
    (
        "DeepEP dispatch RDMA sender timeout, channel: 3, RDMA: 1, nvl: 2, dst RDMA lane: 0, "
        "head: 12, tail: 40",
        "nccl_watchdog_timeout",
        "the RDMA sender's wording (internode.cu)",
    ),
    (
        "DeepEP combine NVL sender timeout, channel: 4, RDMA: 0, nvl: 6, dst NVL: 1, RDMA lane: 0, "
        "head: 8, tail: 8, start: 0, end: 128",
        "nccl_watchdog_timeout",
        "the combine kernel's wording",
    ),
    # a DeepEP timeout followed by the library's own CUDA launch failure stays software_bug
    (_fortysixth("85aa5ce2ab50"), "software_bug", "forty-sixth 85aa5ce2ab50 (abort after it)"),
    # -- nccl_watchdog_timeout: an NCCL timeout told in words (`nccl_timeout_words`, widened)
    (
        _fortysixth("2f16fa68b727"),
        "nccl_watchdog_timeout",
        "forty-sixth 2f16fa68b727 (will appear)",
    ),
    (
        "After the first epoch an NCCL timeout appeared on rank 3 and the job was killed.",
        "nccl_watchdog_timeout",
        "the past tense",
    ),
    (excerpt("twentyfirst", "7dab9f0c966a"), "nccl_watchdog_timeout", "twenty-first 7dab9f0c966a"),
    # -- dependency: NCCL's communicator init failing on a system call (`nccl_init_system_error`;
    # XLA nccl_utils.cc / nccl_api.cc, OneFlow eager_nccl_comm_manager.cpp)
    (_fortysixth("5cd5a3443bd4"), "dependency", "forty-sixth 5cd5a3443bd4 (OneFlow CHECK)"),
    (excerpt("thirteenth", "6dee4890e69d"), "dependency", "thirteenth 6dee4890e69d (XLA)"),
    (
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: external/xla/xla/service/gpu/"
        "nccl_api.cc:501: NCCL operation ncclCommInitRankConfig(&comm, nranks, comm_id, rank, "
        "&config) failed: unhandled system error (run with NCCL_DEBUG=INFO for details).",
        "dependency",
        "newer XLA's ncclCommInitRankConfig, under JAX's INTERNAL status",
    ),
    # -- host_maintenance: Volcano's scheduler finding a node not Ready (`cluster_node_lost`,
    # widened; volcano pkg/scheduler/api/node_info.go SetNode)
    (_fortysixth("762e10c21b57"), "host_maintenance", "forty-sixth 762e10c21b57 (old wording)"),
    (
        "W1207 10:00:00.000000       1 node_info.go:95] Failed to set node info for gpu-node-7, "
        "phase: NotReady, reason: NotReady",
        "host_maintenance",
        "the newer wording naming the node",
    ),
    (excerpt("sixth", "73e43b633e4e"), "host_maintenance", "sixth 73e43b633e4e (kubectl)"),
    # -- loss_spike: a spike told in words (`loss_spike_words`, widened: the verb after a named
    # training loss, and 急剧 "sharply" in Chinese)
    (_fortysixth("bc4809914418"), "loss_spike", "forty-sixth bc4809914418 (spikes after)"),
    (_fortysixth("beee38682fb7"), "loss_spike", "forty-sixth beee38682fb7 (急剧增加)"),
    (
        "The training loss spikes every few hundred steps and then recovers.",
        "loss_spike",
        "every N steps",
    ),
    ("训练到第3个epoch时损失急剧上升", "loss_spike", "损失 rising sharply"),
    (excerpt("twentysecond", "ee6831362517"), "loss_spike", "twenty-second ee6831362517 (突然)"),
    # -- numerical_nan: NaNs at a step told in words (`nan_loss`, widened)
    (_fortysixth("07d89f36f2c5"), "numerical_nan", "forty-sixth 07d89f36f2c5 (nan's on step 1)"),
    ("We get NaNs at step 1200 on 64 GPUs.", "numerical_nan", "NaNs at a later step"),
    ("the model outputs nans from iteration 300 onwards", "numerical_nan", "from an iteration"),
    # -- hang: the program stuck, said in Chinese (`hang_words`, widened)
    (_fortysixth("e0b0de94de11"), "hang", "forty-sixth e0b0de94de11 (程序总是卡住)"),
    ("程序卡死了，没有任何报错", "hang", "程序卡死"),
    ("跑到第5个epoch以后程序不往下跑了", "hang", "不往下跑了"),
    (excerpt("seventeenth", "32fa3689a4d2"), "hang", "seventeenth 32fa3689a4d2 (训练 卡死)"),
    # -- dependency: Ray's raylet unreachable at start (`service_unreachable`, widened; ray
    # src/ray/raylet_client/raylet_client.cc)
    (_fortysixth("0295f732b5fe"), "dependency", "forty-sixth 0295f732b5fe (verl on Slurm)"),
    (
        "[2024-05-01 10:00:00,123 C 4242 4242] raylet_client.cc:61: Could not connect to socket "
        "/tmp/ray/session_2024-05-01_09-59-58_000000_1/sockets/raylet",
        "dependency",
        "the default session folder",
    ),
    (
        "ConnectionError: Could not connect to the Ray cluster at address 10.0.0.1:6379",
        "dependency",
        "Ray's other wording of the class, already read",
    ),
    # -- numerical_nan: DeepXDE's training display (`nan_loss`; deepxde/display.py,
    # deepxde/utils/internal.py list_to_str)
    (_fortysixth("d0e061151a8a"), "numerical_nan", "forty-sixth d0e061151a8a (one loss term)"),
    (
        "Step      Train loss                        Test loss                         Test metric\n"
        "5000      [nan, nan, nan]                   [nan, nan, nan]                   []",
        "numerical_nan",
        "several loss terms, no metric",
    ),
    (
        "3000      [1.23e-02, nan, 4.50e-03]    [1.20e-02, nan, 4.40e-03]    []",
        "numerical_nan",
        "one term of several turned nan",
    ),
    # -- user_code_error: older PyTorch's device mix (`wrong_device`; aten/src/ATen/
    # TensorUtils.cpp checkSameGPU, torch 1.x's checked_tensor_unwrap)
    (_fortysixth("0c86ba6ef3f2"), "user_code_error", "forty-sixth 0c86ba6ef3f2 (addmm)"),
    (
        "RuntimeError: Expected tensor for argument #1 'input' to have the same device as tensor "
        "for argument #2 'weight'; but device 1 does not equal 0 (while checking arguments for "
        "cudnn_convolution)",
        "user_code_error",
        "checkSameGPU's numbered form",
    ),
    (
        "RuntimeError: Expected object of device type cuda but got device type cpu for argument "
        "#1 'self' in call to _thnn_conv2d_forward",
        "user_code_error",
        "torch 1.x's device-type wording",
    ),
    # -- user_code_error: HCCL's collective arguments differing between ranks (`tensor_misuse`;
    # CANN HCCL user guide, EI0005)
    (_fortysixth("ee14826e33b2"), "user_code_error", "forty-sixth ee14826e33b2 (count)"),
    (
        "[rank3]: EI0005: [PID: 4242] 2025-01-02-10:00:00.000.000 The arguments for collective "
        "communication are inconsistent between ranks:tag[HcomBroadcast_1_0], parameter[dataType], "
        "local[float16], remote [float32]",
        "user_code_error",
        "the dataType parameter, with torch_npu's rank prefix",
    ),
    (
        "RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is running "
        "collective: CollectiveFingerPrint(OpType=ALLREDUCE), but Rank 1 is running collective: "
        "CollectiveFingerPrint(OpType=BROADCAST)",
        "user_code_error",
        "torch's own wording of the class (TORCH_DISTRIBUTED_DEBUG=DETAIL)",
    ),
    # -- dependency: torch 2.x's launcher flag against an old script (`launcher_local_rank_flag`;
    # torch/distributed/run.py, argparse, transformers' HfArgumentParser, absl flags)
    (_fortysixth("fe8b8a05a908"), "dependency", "forty-sixth fe8b8a05a908 (argparse)"),
    (
        "ValueError: Some specified arguments are not used by the HfArgumentParser: "
        "['--local-rank=0']",
        "dependency",
        "transformers' parser",
    ),
    (
        "FATAL Flags parsing error: Unknown command line flag 'local-rank'",
        "dependency",
        "absl's flags",
    ),
    (
        "main.py: error: unrecognized arguments: --cfg configs/a.yaml --local-rank=3",
        "dependency",
        "the flag after another unknown one",
    ),
    # -- dependency: Slurm's NoDevFiles placeholder parsed as GPU ids (`slurm_nodevfiles`; Slurm's
    # gres plugin, CPython's int()/float() messages)
    (_fortysixth("445c93359263"), "dependency", "forty-sixth 445c93359263 (Ray)"),
    (
        "ValueError: could not convert string to float: 'NoDevFiles'",
        "dependency",
        "float()'s wording",
    ),
    (
        'ValueError: invalid literal for int() with base 10: "NoDevFiles"',
        "dependency",
        "double quotes",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    (
        "DeepEP dispatch timeout set to 100 s (NUM_TIMEOUT_CYCLES)",
        "nccl_watchdog_timeout",
        "DeepEP's timeout setting, informational",
    ),
    (
        "Using DeepEP for dispatch and combine; pass --moe-deepep-timeout to change the timeout",
        "nccl_watchdog_timeout",
        "DeepEP named in a set-up line",
    ),
    (
        "The NCCL timeout appears in the config as 1800 seconds",
        "nccl_watchdog_timeout",
        "a setting, not a timeout raised",
    ),
    (
        "RuntimeError: NCCL error: unhandled system error, NCCL version 2.18.1",
        "dependency",
        "the bare system error, labelled variously, stays nccl_system's",
    ),
    (
        "NCCL operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled cuda error",
        "dependency",
        "a CUDA error at init is not the system error",
    ),
    (
        "W1207 10:00:00.000000  1 node_info.go:95] Failed to set node info for gpu-node-7, "
        "phase: NotReady, reason: OutOfSync",
        "host_maintenance",
        "Volcano's own accounting out of sync, the node is fine",
    ),
    (
        "Training loss spikes are common in large models.",
        "loss_spike",
        "the plural noun in a general remark",
    ),
    ("如何防止loss急剧增加？", "loss_spike", "how to prevent it, no spike seen"),
    ("nan_count at step 3: 0", "numerical_nan", "a counter named nan_count at a step"),
    ("如何防止程序卡住？", "hang", "how to prevent a stall, none seen"),
    (
        "(raylet) client_connection.cc:100: Retrying to connect to socket for pathname "
        "/tmp/ray/session_x/sockets/raylet (num_attempts = 1, num_retries = 10)",
        "dependency",
        "Ray's retry notice, not the failure",
    ),
    (
        "Could not connect to socket /tmp/.X11-unix/X0",
        "dependency",
        "another program's socket, not Ray's raylet",
    ),
    (
        "1000      [5.47e+03]    [6.44e+03]    [1.00e+00]",
        "numerical_nan",
        "a healthy DeepXDE row",
    ),
    (
        "2000      [1.20e-01]    [1.30e-01]    [nan]",
        "numerical_nan",
        "nan only in the test-metric column",
    ),
    (
        "2000      [1.20e-01]    0 samples skipped as nan",
        "numerical_nan",
        "nan later on a step line, not in the train losses",
    ),
    (
        "100      [nan_count: 0]",
        "numerical_nan",
        "a metric named nan_count",
    ),
    (
        "model.to('cuda:1')  # same device as tensor for argument #2, see docs",
        "user_code_error",
        "the words without 'to have', a comment",
    ),
    (
        "train.py: error: unrecognized arguments: --local_rank=1",
        "dependency",
        "the old underscore flag is the launch command's (launch_typo)",
    ),
    (
        "Setting --local-rank=0 from the launcher",
        "dependency",
        "the flag in an informational line",
    ),
    (
        "CUDA_VISIBLE_DEVICES set to NoDevFiles, unsetting it...",
        "dependency",
        "a script's notice that it handles the placeholder",
    ),
    (
        "The arguments for collective communication are consistent between ranks",
        "user_code_error",
        "a check that passed",
    ),
]

test_row = row_test(FORTYSIXTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FORTYSIXTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The forty-sixth's excerpts the rows now read get their labels' actions: the two set-up
    failures restart where the user's-code reading had paged, and the node Volcano found not
    Ready is excluded."""
    for rid, category, action in (
        ("c0eb61a2ef59", "nccl_watchdog_timeout", "restart"),
        ("ef3ef701ed70", "nccl_watchdog_timeout", "restart"),
        ("d0e061151a8a", "numerical_nan", "restart"),
        ("0c86ba6ef3f2", "user_code_error", "stop_and_page"),
        ("ee14826e33b2", "user_code_error", "stop_and_page"),
        ("fe8b8a05a908", "dependency", "restart"),
        ("445c93359263", "dependency", "restart"),
        ("5cd5a3443bd4", "dependency", "restart"),
        ("2f16fa68b727", "nccl_watchdog_timeout", "restart"),
        ("762e10c21b57", "host_maintenance", "exclude_node"),
    ):
        v = rows_alone(tmp_path, _fortysixth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)
