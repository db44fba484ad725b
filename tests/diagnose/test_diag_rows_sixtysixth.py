"""Signature rows for the classes the sixtysixth collection showed missing
(tests/corpus/real/README.md, sixtysixth.jsonl, "After its rows", branch issue-27rows66):
training on accelerators other than NVIDIA's. Each row is tested on the sixtysixth's excerpts and
on other wordings of its class, from the source or documentation cited beside each, with the
near misses it must not take. Rows widened in place for it: `gpu_library_internal` (an event
recorded in a capturing stream, CUDA's and HIP's), `neuron_compiler_internal_error` (neuronx-cc's
[F134], [TEN...] and [NLA...] messages), `xla_memory_exhausted` (the TPU's "Attempting to reserve
... That was not possible", "RESOURCE_EXHAUSTED: Error loading program"), `job_memory_limit`
(Gaudi's PT_DEVMEM); new: `neuron_runtime_resource_exhausted`, `rocm_smi_init_failed`,
`nccl_net_not_found`, `tf_check_numerics_nan`, `amd_smi_tool_traceback`; and in
`triage.decide`, a command not found that the run outlived (a collective timeout after it in the
same file)."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import (
    assert_both_ways,
    excerpt,
    near_miss_test,
    prefilter_test,
    row_test,
    rows_alone,
)


def _sixtysixth(rid: str) -> str:
    return excerpt("sixtysixth", rid)


SIXTYSIXTH = [
    # (log text, category, why)
    # -- software_bug: neuronx-cc's own faults (`neuron_compiler_internal_error`, widened;
    # aws-neuron/aws-neuron-sdk#1000 and aws-neuron/nki-samples#24 "[F134] neuronx-cc terminated
    # abnormally - Please open a support ticket", the Neuron compiler's coded error messages)
    (_sixtysixth("fcc709080794"), "software_bug", "sixtysixth fcc709080794 (F134)"),
    (_sixtysixth("eb60273e1183"), "software_bug", "sixtysixth eb60273e1183 (TEN404)"),
    (excerpt("thirtyninth", "b0dbf17d5290"), "software_bug", "thirtyninth b0dbf17d5290 (NLA001)"),
    (
        "2024-03-02 10:11:12.000123:  4567  ERROR ||NEURON_CC_WRAPPER||: [F134] neuronx-cc "
        "terminated abnormally - Please open a support ticket at "
        "https://github.com/aws-neuron/aws-neuron-sdk/issues/new",
        "software_bug",
        "F134 under torch-neuronx's compile wrapper",
    ),
    (
        "[TEN406] (_dot.17) Internal tensorizer error: DotTransform:Unexpected access pattern - "
        "Please open a support ticket",
        "software_bug",
        "another tensorizer code",
    ),
    (
        "[NLA001]  Unhandled exception with message: Assertion failed: tile size exceeds partition",
        "software_bug",
        "NLA's unhandled exception, an assertion",
    ),
    (
        "07/23/2020 05:33:45 AM ERROR [neuron-cc]:  An Internal Compiler Error has occurred",
        "software_bug",
        "the older neuron-cc's banner, as before",
    ),
    # -- out_of_memory: the Neuron runtime's NRT_RESOURCE (`neuron_runtime_resource_exhausted`;
    # the Neuron runtime's nrt_status.h, NRT_RESOURCE = 4)
    (_sixtysixth("c7a55cb18052"), "out_of_memory", "sixtysixth c7a55cb18052 (nrt_tensor_allocate)"),
    (_sixtysixth("32cc8a679d81"), "out_of_memory", "sixtysixth 32cc8a679d81 (nrt_load info dump)"),
    (
        "  what():  nrt_tensor_allocate status=4",
        "out_of_memory",
        "the C++ exception's what()",
    ),
    (
        "2025-Jan-10 09:14:02.118201 1234:1300 ERROR  NRT:nrt_infodump  Failure: NRT_RESOURCE in "
        "nrt_load_util",
        "out_of_memory",
        "the scratchpad at load",
    ),
    (
        excerpt("thirtyninth", "62b7c1d2c8ae"),
        "out_of_memory",
        "thirtyninth 62b7c1d2c8ae, as before",
    ),
    # -- out_of_memory: Gaudi's device-memory module (`job_memory_limit`, widened;
    # HabanaAI/vllm-fork README_GAUDI, Lightning's is_oom_error list)
    (_sixtysixth("938d9c2a4a63"), "out_of_memory", "sixtysixth 938d9c2a4a63 (reformer, lazy mode)"),
    (
        "RuntimeError: [Rank:0] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for "
        "size::939524096 (896)MB",
        "out_of_memory",
        "vLLM on Gaudi with too small a tensor parallelism",
    ),
    (
        "[Rank:3] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for size::1610612736 (1536)MB",
        "out_of_memory",
        "another rank, no RuntimeError head",
    ),
    # -- out_of_memory: the TPU's HBM reservation and program load (`xla_memory_exhausted`,
    # widened; TensorFlow's and PJRT's TPU status text)
    (_sixtysixth("8dc0a7223686"), "out_of_memory", "sixtysixth 8dc0a7223686 (Resource exhausted)"),
    (
        _sixtysixth("96d115cb39b8"),
        "out_of_memory",
        "sixtysixth 96d115cb39b8 (Error loading program)",
    ),
    (excerpt("fortyfifth", "ba9c26b2fa39"), "out_of_memory", "fortyfifth ba9c26b2fa39"),
    (excerpt("tenth", "bfed357216df"), "out_of_memory", "tenth bfed357216df (no head)"),
    (
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Error loading program "
        "'jit_train_step': Attempting to reserve 8.04G at the bottom of memory. That was not "
        "possible. There are 6.12G free, 0B reserved, and 5.90G reservable.",
        "out_of_memory",
        "the program's name and its size",
    ),
    # -- dependency: rocm-smi unable to initialise its library (`rocm_smi_init_failed`;
    # ROCm/rocm_smi_lib python_smi_tools/rocm_smi.py initializeRsmi)
    (_sixtysixth("3afa9c078620"), "dependency", "sixtysixth 3afa9c078620 (KFD domain property)"),
    (_sixtysixth("8010581774c7"), "dependency", "sixtysixth 8010581774c7 (status 8 alone)"),
    (
        "ERROR:root:Driver not initialized (amdgpu not found in modules)",
        "dependency",
        "rocm_smi.py without amdgpu loaded",
    ),
    ("ROCm SMI returned 1 (the expected value is 0)", "dependency", "print(), another status"),
    # -- dependency: NCCL asked for a network it has not (`nccl_net_not_found`; NVIDIA/nccl's
    # "Error: network %s not found.")
    (_sixtysixth("1e5db685e7bf"), "dependency", "sixtysixth 1e5db685e7bf (AWS Libfabric)"),
    (
        "gpu01:2281:2350 [0] NCCL WARN Error: network IB not found.",
        "dependency",
        "NCCL_NET=IB on a host without verbs",
    ),
    (
        "host7:100:120 [3] net.cc:579 NCCL WARN Error: network Socket not found.",
        "dependency",
        "a misspelled or absent transport",
    ),
    # -- numerical_nan: TensorFlow's CheckNumerics (`tf_check_numerics_nan`;
    # tensorflow/core/kernels/check_numerics_op.cc)
    (_sixtysixth("7ab38aa087f2"), "numerical_nan", "sixtysixth 7ab38aa087f2 (TPU, step 30000)"),
    (
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: LossTensor is inf or nan "
        ": Tensor had NaN values",
        "numerical_nan",
        "tf.debugging.check_numerics on the loss",
    ),
    (
        "InvalidArgumentError: gradients/dense/MatMul : Tensor had Inf and NaN values",
        "numerical_nan",
        "both kinds",
    ),
    # -- software_bug: an event recorded in a capturing stream (`gpu_library_internal`, widened;
    # the CUDA runtime's cudaErrorCapturedEvent, HIP's hipErrorCapturedEvent)
    (_sixtysixth("3e6baf556472"), "software_bug", "sixtysixth 3e6baf556472 (HIP, MI35x)"),
    (
        "RuntimeError: CUDA error: operation not permitted on an event last recorded in a "
        "capturing stream",
        "software_bug",
        "CUDA's wording",
    ),
    ("hipErrorCapturedEvent", "software_bug", "HIP's enum name"),
    # -- software_bug: AMD's management tools crashing in their own code
    # (`amd_smi_tool_traceback`; ROCm/rocm_smi_lib python_smi_tools/rocm_smi.py, ROCm/amdsmi
    # amdsmi_cli)
    (_sixtysixth("2b9a22c55ecb"), "software_bug", "sixtysixth 2b9a22c55ecb (fan EINVAL)"),
    (_sixtysixth("b0da5780d57a"), "software_bug", "sixtysixth b0da5780d57a (empty fan value)"),
    (
        "Traceback (most recent call last):\n"
        '  File "/opt/rocm-6.0.2/libexec/rocm_smi/rocm_smi.py", line 3904, in <module>\n'
        "    showAllConcise(deviceList)\n"
        "KeyError: 'card0'",
        "software_bug",
        "rocm_smi.py under libexec",
    ),
    (
        "Traceback (most recent call last):\n"
        '  File "/opt/rocm/libexec/amdsmi_cli/amdsmi_commands.py", line 812, in metric\n'
        "    gpu_metric = amdsmi_interface.amdsmi_get_gpu_metrics_info(args.gpu)\n"
        "TypeError: 'NoneType' object is not subscriptable",
        "software_bug",
        "amd-smi's CLI",
    ),
    # -- nccl_watchdog_timeout: a command not found that the run outlived (triage.decide,
    # `_outlived_missing_command`)
    (_sixtysixth("75b0acb971ba"), "nccl_watchdog_timeout", "sixtysixth 75b0acb971ba (gpustat)"),
    (
        "sh: 1: nvidia-smi: not found\n"
        "epoch 3 step 1200 loss 1.93\n"
        "[rank0]:[E1205 10:11:12.123456 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught "
        "collective operation timeout: WorkNCCL(SeqNum=5120, OpType=ALLREDUCE, NumelIn=1, "
        "NumelOut=1, Timeout(ms)=600000) ran for 600009 milliseconds before timing out.",
        "nccl_watchdog_timeout",
        "a monitoring call's missing program, then torch 2.x's watchdog",
    ),
    # ... any failure of its own after it, not only a collective timeout
    # (each read dependency before: command_not_found outranks these rows on its own)
    (
        "/bin/sh: 1: gpustat: not found\n"
        "epoch 2 step 800 loss 2.11\n"
        "ValueError: Loss is NaN at step 812",
        "numerical_nan",
        "a monitoring call's missing program, then a NaN loss",
    ),
    (
        "/bin/sh: 1: gpustat: not found\n"
        "epoch 2 step 800 loss 2.11\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "software_bug",
        "a monitoring call's missing program, then an illegal memory access",
    ),
    # ... but set-up words after it are the same kind of failure: still the environment's
    (
        "/bin/sh: 1: nvidia-smi: not found\nModuleNotFoundError: No module named 'apex'",
        "dependency",
        "a missing program, then a missing module: set-up either way",
    ),
    # ... and a program missing at launch, with a timeout before it, stays the environment's
    (excerpt("third", "fd19308197ee"), "dependency", "third fd19308197ee (torchrun not found)"),
    (
        "[E ProcessGroupNCCL.cpp:587] [Rank 1] Watchdog caught collective operation timeout: "
        "WorkNCCL(OpType=BROADCAST, Timeout(ms)=1800000) ran for 1803000 milliseconds before "
        "timing out.\n"
        "/bin/sh: 1: torchrun: not found",
        "dependency",
        "the missing program after the timeout: the relaunch failed",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    (
        "Traceback (most recent call last):\n"
        '  File "/home/u/rocm_smi_monitor.py", line 12, in <module>\n'
        "    main()\n"
        "ValueError: invalid literal for int() with base 10: ''",
        "software_bug",
        "a user's script whose name starts so",
    ),
    (
        "[F137] neuronx-cc was forcibly killed - This most commonly occurs due to insufficient "
        "system memory.",
        "software_bug",
        "F137: the host's memory, not a compiler bug",
    ),
    (
        "Internal tensorizer error messages are listed in the Neuron compiler error codes page.",
        "software_bug",
        "prose, no code",
    ),
    (_sixtysixth("5105a96948a7"), "software_bug", "sixtysixth 5105a96948a7 (boost::filesystem)"),
    (
        excerpt("eleventh", "990baeee7b7d"),
        "out_of_memory",
        "eleventh 990baeee7b7d (nrt_load status=1)",
    ),
    (
        "NCCL WARN NET/IB: Got completion from peer 172.16.12.34<38081> with status=4 opcode=0 "
        "len=0 vendor err 83 (Send) hca mlx5_ib0",
        "out_of_memory",
        "an IB completion's status 4 (sixth ff2c2596def2)",
    ),
    ("nrt_execute status=0 (success)", "out_of_memory", "another status"),
    ("ROCm SMI returned an unexpected payload", "dependency", "a wrapper's words, no status"),
    (
        "NCCL INFO Using network Socket",
        "dependency",
        "NCCL choosing a network",
    ),
    ("The model's tensor had no NaN values after the fix.", "numerical_nan", "prose"),
    (
        "Attempting to reserve 2.00G at the bottom of memory succeeded.",
        "out_of_memory",
        "a reservation that was possible",
    ),
    (
        "CUDA error: operation not permitted when stream is capturing",
        "out_of_memory",
        "the capture row stays software_bug",
    ),
]

test_row = row_test(SIXTYSIXTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(SIXTYSIXTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The sixtysixth's excerpts the rows now read get their labels' actions, rows alone and as
    shipped; none excludes a node."""
    for rid, category, action in (
        ("fcc709080794", "software_bug", "restart"),
        ("eb60273e1183", "software_bug", "restart"),
        ("c7a55cb18052", "out_of_memory", "stop_and_page"),
        ("32cc8a679d81", "out_of_memory", "stop_and_page"),
        ("938d9c2a4a63", "out_of_memory", "stop_and_page"),
        ("8dc0a7223686", "out_of_memory", "stop_and_page"),
        ("96d115cb39b8", "out_of_memory", "stop_and_page"),
        ("3afa9c078620", "dependency", "restart"),
        ("8010581774c7", "dependency", "restart"),
        ("1e5db685e7bf", "dependency", "restart"),
        ("7ab38aa087f2", "numerical_nan", "restart"),
        ("3e6baf556472", "software_bug", "restart"),
        ("2b9a22c55ecb", "software_bug", "restart"),
        ("b0da5780d57a", "software_bug", "restart"),
        ("75b0acb971ba", "nccl_watchdog_timeout", "restart"),
    ):
        v = rows_alone(tmp_path, _sixtysixth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)
        assert_both_ways(tmp_path / "rank.log", category, action)
