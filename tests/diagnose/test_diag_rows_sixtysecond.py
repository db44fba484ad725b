"""Signature rows for the classes the sixtysecond collection showed missing
(tests/corpus/real/README.md, sixtysecond.jsonl, "After its rows", branch issue-27rows62): the
rollout stack of RL post-training in its own words. Each row is tested on the sixtysecond's
excerpts and on other wordings of its class, from the source or documentation cited beside each
(and in the row's comment), with the near misses it must not take. New rows:
`pynccl_system_error`, `vllm_kv_cache_too_small`, `sglang_pool_leak_check`,
`trtllm_refit_failed`, `ray_task_import_error`, `model_server_client_timeout`,
`engine_core_device_assert`; widened in place: `no_space` (Hadoop's local-directory allocator and
YARN's full local dirs), `nccl_topology_detect` (NCCL's topology-attribute warning as a relay
prints it, without "NCCL WARN"; raised from 45 to 48)."""

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

from nonstop.diagnose import triage


def _sixtysecond(rid: str) -> str:
    return excerpt("sixtysecond", rid)


SIXTYSECOND = [
    # (log text, category, why)
    # -- dependency: a rollout engine's PyNccl communicator failing NCCL's set-up with a system
    # error (`pynccl_system_error`; vLLM and SGLang device_communicators/pynccl_wrapper.py
    # NCCL_CHECK, vLLM's multiproc_worker_utils.py relaying a worker's exception)
    (_sixtysecond("404da3ede749"), "dependency", "sixtysecond 404da3ede749 (SGLang's PyNccl)"),
    (_sixtysecond("69b7cc9dc722"), "dependency", "sixtysecond 69b7cc9dc722 (vLLM's TP workers)"),
    (excerpt("fortyninth", "17c24752f912"), "dependency", "fortyninth 17c24752f912 (Ray actor)"),
    (
        excerpt("thirtyfifth", "848996bcc904"),
        "dependency",
        "thirtyfifth 848996bcc904 (init_device)",
    ),
    (
        "(RayWorkerWrapper pid=4242) ERROR 05-02 10:11:12 worker_base.py:467] RuntimeError: NCCL "
        "error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
        "dependency",
        "vLLM's Ray worker wrapper relaying pynccl's error",
    ),
    (
        "[2025-03-01 10:00:00 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
        '    raise RuntimeError(f"NCCL error: {error_str}")\n'
        "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
        "dependency",
        "SGLang's scheduler relaying it",
    ),
    # -- out_of_memory: vLLM's KV cache cannot hold the configured max model length
    # (`vllm_kv_cache_too_small`; vLLM worker/worker.py raise_if_cache_size_invalid and
    # v1/core/kv_cache_utils.py check_enough_kv_cache_memory)
    (_sixtysecond("f9632681e0a2"), "out_of_memory", "sixtysecond f9632681e0a2 (v0's words)"),
    (_sixtysecond("a9265f389611"), "out_of_memory", "sixtysecond a9265f389611 (v1's, cut)"),
    (
        "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens "
        "that can be stored in KV cache (15024). Try increasing `gpu_memory_utilization` or "
        "decreasing `max_model_len` when initializing the engine.",
        "out_of_memory",
        "v0's whole message",
    ),
    (
        "(EngineCore_DP0 pid=812) ValueError: To serve at least one request with the model's max "
        "seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV "
        "cache memory (9.41 GiB). Based on the available memory, the estimated maximum model "
        "length is 77056. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` "
        "when initializing the engine.",
        "out_of_memory",
        "v1's whole message",
    ),
    # -- software_bug: SGLang's scheduler finding its pools leaked (`sglang_pool_leak_check`;
    # sglang/srt/managers/scheduler.py check_memory)
    (_sixtysecond("942244ba3dd4"), "software_bug", "sixtysecond 942244ba3dd4 (pool memory leak)"),
    (
        "ValueError: token_to_kv_pool_allocator memory leak detected! available_size=1024, "
        "evictable_size=0, self.token_to_kv_pool_allocator.size=262144",
        "software_bug",
        "the allocator's older words",
    ),
    (
        "ValueError: req_to_token_pool memory leak detected!available_size=2, total_size=4096",
        "software_bug",
        "the request pool's",
    ),
    # -- software_bug: TensorRT-LLM failing to refit its engine (`trtllm_refit_failed`;
    # cpp/tensorrt_llm/runtime/tllmRuntime.cpp)
    (_sixtysecond("2ec37801233f"), "software_bug", "sixtysecond 2ec37801233f (NeMo-Aligner)"),
    (
        "[TensorRT-LLM][ERROR] Assertion failed: Failed to refit transformer.layers.31.mlp.fc."
        "weight (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:240)",
        "software_bug",
        "the runtime's own line",
    ),
    (
        "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Failed to refit engine",
        "software_bug",
        "the refitter's engine-wide words",
    ),
    # -- dependency: a Ray task or actor failing to import on its worker (`ray_task_import_error`;
    # ray/exceptions.py RayTaskError.as_instanceof_cause)
    (_sixtysecond("26cc4b7788e1"), "dependency", "sixtysecond 26cc4b7788e1 (cut before the cause)"),
    (
        "ray.exceptions.RayTaskError(ModuleNotFoundError): ray::WorkerDict.__init__() (pid=1234, "
        "ip=10.0.0.2, actor_id=abcd)",
        "dependency",
        "a missing module on the worker",
    ),
    (
        "ray.exceptions.RayActorError: The actor died because of an error raised in its creation "
        "task, ray::LLMRayActor.__init__() (pid=77, ip=10.0.0.3)\n"
        "ray.exceptions.RayTaskError(ImportError): ray::LLMRayActor.__init__() (pid=77)",
        "dependency",
        "an actor's creation task",
    ),
    # -- dependency: a client timing out on the model server the job calls
    # (`model_server_client_timeout`; openai-python _base_client.py, pytriton client/utils.py)
    (_sixtysecond("f2d625933f7c"), "dependency", "sixtysecond f2d625933f7c (the OpenAI client)"),
    (_sixtysecond("b04b7bba7856"), "dependency", "sixtysecond b04b7bba7856 (PyTriton's client)"),
    ("openai.APITimeoutError: Request timed out.", "dependency", "the client's exception alone"),
    (
        "litellm.Timeout: APITimeoutError - Request timed out. Error_str: Request timed out.",
        "dependency",
        "LiteLLM's wrapper",
    ),
    (
        "pytriton.client.exceptions.PyTritonClientTimeoutError: Waiting for model reward_model to "
        "be ready timed out.",
        "dependency",
        "PyTriton waiting for a model",
    ),
    # -- software_bug: a device-side assert inside vLLM's engine process
    # (`engine_core_device_assert`; vllm/v1/engine/core.py, v1/executor/multiproc_executor.py,
    # executor/multiproc_worker_utils.py)
    (_sixtysecond("696ba4c862ef"), "software_bug", "sixtysecond 696ba4c862ef (multimodal merge)"),
    (excerpt("twentyfourth", "901b5e859424"), "software_bug", "twentyfourth 901b5e859424"),
    (
        "(EngineCore_DP0 pid=2201) ERROR 09-01 12:00:00 [core.py:700] RuntimeError: CUDA error: "
        "device-side assert triggered",
        "software_bug",
        "the data-parallel engine core",
    ),
    (
        "(VllmWorker TP1 pid=3301) ERROR 07-10 10:10:10 [multiproc_executor.py:527] RuntimeError: "
        "CUDA error: device-side assert triggered",
        "software_bug",
        "v1's multiproc worker",
    ),
    (
        "(VllmWorkerProcess pid=91) ERROR 07-28 23:29:37 multiproc_worker_utils.py:226] "
        "RuntimeError: CUDA error: device-side assert triggered",
        "software_bug",
        "v0's multiproc worker",
    ),
    # -- dependency: NCCL's topology XML missing an attribute at init, relayed without "NCCL
    # WARN" (`nccl_topology_detect`, widened; NVIDIA/nccl src/graph/xml.h)
    (_sixtysecond("105b2655681a"), "dependency", "sixtysecond 105b2655681a (vLLM's Ray workers)"),
    (
        excerpt("fiftyeighth", "b188f2ae1600"),
        "dependency",
        "fiftyeighth b188f2ae1600 (XLA's relay)",
    ),
    (excerpt("twentythird", "0b92b3ab6d10"), "dependency", "twentythird 0b92b3ab6d10 (NCCL WARN)"),
    (
        "ncclInternalError: Internal check failed.\nLast error:\nAttribute class of node pci not "
        "found",
        "dependency",
        "torch's Last error: a PCI node",
    ),
    (
        "ERROR ray_utils.py:45] Attribute dev of node net not found",
        "dependency",
        "a net node, relayed",
    ),
    # -- storage: Hadoop's local-directory allocator and YARN's local dirs full (`no_space`,
    # widened; hadoop-common fs/LocalDirAllocator.java, yarn-server-nodemanager
    # LocalDirsHandlerService)
    (_sixtysecond("e975ffec71d0"), "storage", "sixtysecond e975ffec71d0 (YARN's diagnostics)"),
    (
        "org.apache.hadoop.util.DiskChecker$DiskErrorException: No space available in any of the "
        "local directories.",
        "storage",
        "the allocator's exception",
    ),
    (
        "org.apache.hadoop.util.DiskChecker$DiskErrorException: Could not find any valid local "
        "directory for output/attempt_1_0001_m_000000_0/file.out",
        "storage",
        "a map task's spill",
    ),
    (
        "2016-04-23 06:42:39,123 WARN nodemanager.DirectoryCollection: Directory /tmp/hadoop-yarn/"
        "nm-local-dir error, used space above threshold of 90.0%, removing from list of valid "
        "directories\n1/1 local-dirs usable space is below configured utilization percentage/no "
        "more usable space [ /tmp/hadoop-yarn/nm-local-dir : used space above threshold of 90.0% ]",
        "storage",
        "the NodeManager's health report",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    (
        "RuntimeError: NCCL error: unhandled system error",
        "dependency",
        "the bare line without NCCL_DEBUG's hint (labels split: nccl_system's)",
    ),
    (
        "RuntimeError: NCCL error: unhandled system error, NCCL version 2.18.1",
        "dependency",
        "torch's older check, with a version (the forty-sixth's near miss)",
    ),
    # torch's own and an async collective's wording keep `nccl_system` (labels split there)
    (excerpt("tuning", "8cc1363720d9"), "dependency", "tuning 8cc1363720d9 (async exception)"),
    (excerpt("tuning", "50bdf8226266"), "dependency", "tuning 50bdf8226266 (torch's NCCL error)"),
    ("RuntimeError: NCCL error: invalid usage", "dependency", "pynccl's other errors"),
    (
        "INFO 04-17 15:10:09 [gpu_executor.py:122] # GPU blocks: 150, # CPU blocks: 512\n"
        "INFO 04-17 15:10:09 Maximum concurrency for 8192 tokens per request: 1.17x",
        "out_of_memory",
        "vLLM's KV cache sizing, healthy",
    ),
    (
        "INFO 05-01 [kv_cache_utils.py:716] GPU KV cache size: 2,400 tokens",
        "out_of_memory",
        "the KV cache size alone",
    ),
    ("==12==ERROR: LeakSanitizer: detected memory leaks", "software_bug", "a sanitizer's"),
    ("no memory leak detected in the pool", "software_bug", "a check passed"),
    (
        "[TensorRT-LLM][INFO] Refitting engine with new weights",
        "software_bug",
        "refit informational",
    ),
    (
        "ray.exceptions.RayTaskError(RuntimeError): ray::_Inner.train() (pid=1641548)",
        "dependency",
        "another cause wrapped",
    ),
    ("from ray.exceptions import RayTaskError", "dependency", "an import of Ray's exception"),
    (
        "INFO:openai._base_client:Retrying request to /chat/completions in 0.8 seconds",
        "dependency",
        "the client's retry note",
    ),
    ("except openai.APITimeoutError:", "dependency", "code that handles it"),
    ("Waiting for server to be ready...", "dependency", "PyTriton waiting, no timeout"),
    (
        "RuntimeError: CUDA error: device-side assert triggered",
        "software_bug",
        "a bare device-side assert (the training script's)",
    ),
    (
        "(WorkerDict pid=1234) ../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: "
        "[0,0,0], thread: [0,0,0] Assertion `-sizes[i] <= index && index < sizes[i]` failed.",
        "software_bug",
        "a Ray trainer actor's index assert",
    ),
    (
        "KeyError: Attribute href of node link not found",
        "dependency",
        "another XML's node (not NCCL's topology)",
    ),
    (
        "INFO: Allocated local directory /tmp/hadoop-yarn/nm-local-dir for container_01",
        "storage",
        "YARN's local dir, healthy",
    ),
    (
        "If no space available in any of the local directories, the task fails",
        "storage",
        "supposed, in a sentence",
    ),
]

test_row = row_test(SIXTYSECOND)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(SIXTYSECOND + NOT)


def test_pynccl_leaves_torch_and_async_wordings_to_nccl_system(tmp_path: Path) -> None:
    """Only the PyNccl wrapper's form is read as set-up: the tuning split's async collective and
    torch's ProcessGroupNCCL wording keep `nccl_system`'s `software_bug`, as labelled."""
    for rid in ("8cc1363720d9", "50bdf8226266"):
        log = tmp_path / "rank.log"
        log.write_text(excerpt("tuning", rid) + "\n")
        assert "pynccl_system_error" not in {h.signature for h in triage.scan(log).hits}
        assert rows_alone(tmp_path, excerpt("tuning", rid)).category == "software_bug"


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The sixtysecond's excerpts the rows now read get their labels' actions, with and without
    the fallback (none excludes a node)."""
    for rid, category, action in (
        ("404da3ede749", "dependency", "restart"),
        ("69b7cc9dc722", "dependency", "restart"),
        ("f9632681e0a2", "out_of_memory", "stop_and_page"),
        ("a9265f389611", "out_of_memory", "stop_and_page"),
        ("942244ba3dd4", "software_bug", "restart"),
        ("2ec37801233f", "software_bug", "restart"),
        ("26cc4b7788e1", "dependency", "restart"),
        ("f2d625933f7c", "dependency", "restart"),
        ("b04b7bba7856", "dependency", "restart"),
    ):
        log = tmp_path / "rank.log"
        log.write_text(_sixtysecond(rid) + "\n")
        assert_both_ways(log, category, action)
