"""Signature rows for the classes the sixtyfifth collection showed missing
(tests/corpus/real/README.md, sixtyfifth.jsonl, "After its rows", branch issue-27rows65):
large-model pretraining stacks at scale. Each row is tested on the sixtyfifth's excerpts and on
other wordings of its class, from the source or documentation cited beside each, with the near
misses it must not take. Rows widened in place for it: `hang_stack` (py-spy frames in gather,
scatter, send and recv; Python faulthandler's frames in a collective), `driver_mismatch`
(Transformer Engine's FP8 block-scaling and Ada checks), `dtensor_dispatch_gap` (DTensor's "found
no DeviceMesh from dtensor args"); new: `parallel_layout_world_size`, `tt_allocator_oom`,
`pytest_timeout_fired`."""

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


def _sixtyfifth(rid: str) -> str:
    return excerpt("sixtyfifth", rid)


SIXTYFIFTH = [
    # (log text, category, why)
    # -- user_code_error: a parallel layout the world size cannot hold, refused at start
    # (`parallel_layout_world_size`; deepspeed/runtime/pipe/module.py PipelineModule,
    # megatron/training/arguments.py validate_args, megatron/core/parallel_state.py
    # initialize_model_parallel, NeMo's MegatronStrategy, torchtitan parallel_dims.py)
    (_sixtyfifth("7668795d1e9a"), "user_code_error", "sixtyfifth 7668795d1e9a (DeepSpeed pipe)"),
    (_sixtyfifth("0c8b4f64d9fd"), "user_code_error", "sixtyfifth 0c8b4f64d9fd (Megatron args)"),
    (_sixtyfifth("9c96387c418f"), "user_code_error", "sixtyfifth 9c96387c418f (ColossalAI)"),
    (
        "RuntimeError: num_stages (4) must divide distributed world size (6)",
        "user_code_error",
        "DeepSpeed's PipelineModule with its exception type",
    ),
    (
        "[rank0]: RuntimeError: world_size (8) is not divisible by tensor_model_parallel_size (3) x "
        "pipeline_model_parallel_size (1) x context_parallel_size (1)",
        "user_code_error",
        "Megatron-Core's initialize_model_parallel",
    ),
    (
        "RuntimeError: `world_size` (6) is not divisible by tensor_model_parallel_size (4) x "
        "pipeline_model_parallel_size (1)",
        "user_code_error",
        "Megatron-DeepSpeed's backticked world_size",
    ),
    (
        "AssertionError: world size (1) is not divisible by total_model_size "
        "(model_cfg.tensor_model_parallel_size=4 * model_cfg.pipeline_model_parallel_size=1 * "
        "model_cfg.context_parallel_size=1)",
        "user_code_error",
        "NeMo's copy of the check",
    ),
    (
        "AssertionError: Invalid parallel dims: dp_replicate(1) * dp_shard(2) * cp(1) * tp(4) * "
        "pp(1) != WORLD_SIZE(4)",
        "user_code_error",
        "TorchTitan's ParallelDims",
    ),
    # -- out_of_memory: Tenstorrent's allocator out of bank memory (`tt_allocator_oom`;
    # tenstorrent/tt-metal tt_metal/impl/allocator/bank_manager.cpp, as tt-xla and tt-forge
    # quote it)
    (_sixtyfifth("1de2d01f778c"), "out_of_memory", "sixtyfifth 1de2d01f778c (tt-xla, DRAM)"),
    (
        "RuntimeError: TT_FATAL @ /tt-metal/tt_metal/impl/allocator/bank_manager.cpp:439: false\n"
        "Out of Memory: Not enough space to allocate 335544320 B DRAM buffer across 8 banks, where "
        "each bank needs to store 41943040 B, but bank size is 4273390016 B (allocated: 4196976832 "
        "B, free: 76413184 B, largest free block: 37030336 B)",
        "out_of_memory",
        "under TT_FATAL's header, the message on its own line",
    ),
    (
        "Out of Memory: Not enough space to allocate 6400 B L1_SMALL buffer across 25 banks, where "
        "each bank needs to store 256 B",
        "out_of_memory",
        "an L1_SMALL buffer (older tt-metal, no statistics)",
    ),
    (
        "2024-08-01 10:11:12.345 | FATAL    | Always | Out of Memory: Not enough space to allocate "
        "896204800 B DRAM buffer across 12 banks, where each bank needs to store 74686464 B, but "
        "bank size is only 1073741792 B",
        "out_of_memory",
        "older tt-metal's 'bank size is only', as tt-forge logs it",
    ),
    # -- hang: pytest-timeout failing a test that ran past its limit (`pytest_timeout_fired`;
    # pytest-dev/pytest-timeout pytest_timeout.py, timeout_sigalrm and timeout_timer)
    (_sixtyfifth("190b7d8330fd"), "hang", "sixtyfifth 190b7d8330fd (Megatron-DeepSpeed CI)"),
    (
        "E       Failed: Timeout (>300.0s) from pytest-timeout.",
        "hang",
        "pytest-timeout 2.x's signal method",
    ),
    (
        "+++++++++++++++++++++++++++++++++++ Timeout ++++++++++++++++++++++++++++++++++++",
        "hang",
        "the thread method's banner before its stack dump",
    ),
    # -- hang: a dump of a rank parked in a collective (`hang_stack`, widened: py-spy's frames in
    # gather/scatter/send/recv, faulthandler's 'File "...", line N in func';
    # torch/distributed/distributed_c10d.py, CPython Python/traceback.c)
    (_sixtyfifth("c1a7b008e1df"), "hang", "sixtyfifth c1a7b008e1df (py-spy, gather_object)"),
    (_sixtyfifth("db92b1d36485"), "hang", "sixtyfifth db92b1d36485 (faulthandler, scatter)"),
    (excerpt("thirtyeighth", "bd1ca7caed23"), "hang", "thirtyeighth bd1ca7caed23 (as before)"),
    (excerpt("twelfth", "5e08277100f5"), "hang", "twelfth 5e08277100f5 (as before)"),
    (
        "Thread 0x00007f3a1c9ff640 (most recent call first):\n"
        '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", '
        "line 3935 in barrier\n"
        '  File "/workspace/train.py", line 88 in main',
        "hang",
        "faulthandler.dump_traceback_later in a barrier",
    ),
    (
        "    recv (torch/distributed/distributed_c10d.py:2052)\n"
        "    _recv_object (torch/distributed/pipelining/stage.py:480)",
        "hang",
        "py-spy in a point-to-point recv",
    ),
    # -- dependency: Transformer Engine's FP8 checks refusing the GPU or CUDA (`driver_mismatch`,
    # widened; NVIDIA/TransformerEngine transformer_engine/pytorch/fp8.py)
    (_sixtyfifth("26102e604e2f"), "dependency", "sixtyfifth 26102e604e2f (NeMo-RL's FP8 docs)"),
    (
        excerpt("fiftysixth", "74bcf85446d4"),
        "dependency",
        "fiftysixth 74bcf85446d4 (as before)",
    ),
    (
        "AssertionError: FP8 block scaled GEMM requires Hopper and CUDA >= 12.9.",
        "dependency",
        "check_fp8_block_scaling_support",
    ),
    (
        "AssertionError: CUDA version 12.1 or higher required for FP8 execution on Ada.",
        "dependency",
        "check_fp8_support on Ada, CUDA",
    ),
    (
        "AssertionError: cuBLASLt version 12.1.3.x or higher required for FP8 execution on Ada.",
        "dependency",
        "check_fp8_support on Ada, cuBLASLt",
    ),
    # -- software_bug: DTensor's dispatcher finding no mesh among an op's arguments
    # (`dtensor_dispatch_gap`, widened; torch/distributed/_tensor/dispatch.py,
    # torch/distributed/tensor/_dispatch.py unwrap_to_op_info)
    (_sixtyfifth("63d0e5ad30f5"), "software_bug", "sixtyfifth 63d0e5ad30f5 (FSDP broadcast)"),
    (
        "AssertionError: found no DeviceMesh from dtensor args for aten._fused_adagrad_.default!",
        "software_bug",
        "a fused optimizer's op",
    ),
    ("AssertionError: found no DeviceMesh from dtensor args!", "software_bug", "torch 2.1's"),
]

NOT = [
    # (log text, category it must not get, why)
    (
        "[WARNING]: n_gpus_per_node(6) is not divisible by tensor_model_parallel_size(4). It is "
        "advised to set tensor_model_parallel_size to a devisor of 6",
        "user_code_error",
        "a script's warning before it falls back, not the world size",
    ),
    (
        "vocab size (50257) is not divisible by 128, padding to 50304",
        "user_code_error",
        "another size, padded",
    ),
    (
        "INFO: world size (8) is divisible by tp (2): data parallel size 4",
        "user_code_error",
        "the layout accepted",
    ),
    (
        "SKIPPED [1] tests/test_sd35.py:40: Out of Memory: Not enough space to allocate 94633984 B "
        "DRAM buffer across 12 banks",
        "out_of_memory",
        "a pytest skip's reason quoting an old failure",
    ),
    (
        '    reason="Out of Memory: Not enough space to allocate 75497472 B DRAM buffer across 12 '
        'banks, where each bank needs to store 6291456 B",',
        "out_of_memory",
        "the reason in a test's source",
    ),
    (
        "Not enough space to allocate the swap file on /dev/sda2",
        "out_of_memory",
        "a disk's space",
    ),
    ("pytest -x --timeout=300 tests/unit", "hang", "the option on a command line"),
    ("timeout: 300.0s", "hang", "pytest-timeout's header"),
    (
        "E       Failed: DID NOT RAISE <class 'TimeoutError'>",
        "hang",
        "pytest's own failure about a timeout",
    ),
    (
        '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", '
        "line 3230, in scatter",
        "hang",
        "a Python traceback's frame (a crash), not faulthandler's",
    ),
    ("    gather (mylib/utils.py:12)", "hang", "py-spy in another module's gather"),
    (
        "FP8 block scaled GEMM on Hopper: 1.4x faster than BF16",
        "dependency",
        "a benchmark line",
    ),
    (
        "device_mesh = DeviceMesh('cuda', [0, 1, 2, 3]) built from dtensor args",
        "software_bug",
        "a mesh described",
    ),
]

test_row = row_test(SIXTYFIFTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(SIXTYFIFTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The sixtyfifth's excerpts the rows now read get their labels' actions, rows alone and as
    shipped; none excludes a node."""
    for rid, category, action in (
        ("7668795d1e9a", "user_code_error", "stop_and_page"),
        ("0c8b4f64d9fd", "user_code_error", "stop_and_page"),
        ("1de2d01f778c", "out_of_memory", "stop_and_page"),
        ("190b7d8330fd", "hang", "restart"),
        ("c1a7b008e1df", "hang", "restart"),
        ("db92b1d36485", "hang", "restart"),
        ("26102e604e2f", "dependency", "restart"),
        ("63d0e5ad30f5", "software_bug", "restart"),
    ):
        v = rows_alone(tmp_path, _sixtyfifth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)
        assert_both_ways(tmp_path / "rank.log", category, action)
