"""Signature rows for the classes the sixtieth collection showed missing
(tests/corpus/real/README.md, sixtieth.jsonl, "After its rows", branch issue-27rows60): multi-GPU
workstations and consumer rigs. Each row is tested on the sixtieth's excerpts and on other
wordings of its class, from the source or documentation cited beside each, with the near misses
it must not take. Rows widened in place for it: `nccl_invalid_usage` (NCCL's duplicate-GPU words
without their head), `cuda_oom` (a CUDA_CHECK macro's "CUDA error 2 at FILE:LINE: out of
memory", ggml's), `shm_exhausted` (NCCL's segment failure as its last error); new:
`cuda_peer_access_unsupported`, `cuda_symbol_not_found`, `windows_tdr_app_closed`,
`nvrm_graphics_exception_bare`; and XID_LOOSE reads the driver's Xid line retyped with its
colons moved ("NVRM Xid (PCI:...) : 32")."""

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


def _sixtieth(rid: str) -> str:
    return excerpt("sixtieth", rid)


SIXTIETH = [
    # (log text, category, why)
    # -- dependency: peer access refused between two GPUs (`cuda_peer_access_unsupported`; CUDA
    # Runtime API enum cudaError 217 and cudaGetErrorString, the driver API's CUresult, HIP's
    # hip_runtime_api.h, NVIDIA/nccl src/include/checks.h CUDACHECK, nccl-tests' CUDACHECK)
    (_sixtieth("9a9428704ed1"), "dependency", "sixtieth 9a9428704ed1 (NCCL's Cuda failure 217)"),
    (_sixtieth("9ab029ceeee3"), "dependency", "sixtieth 9ab029ceeee3 (under unhandled cuda error)"),
    (_sixtieth("c38bbeb9b73d"), "dependency", "sixtieth c38bbeb9b73d (compute-sanitizer)"),
    (_sixtieth("42736d3700fa"), "dependency", "sixtieth 42736d3700fa (the bare message)"),
    (
        "RuntimeError: CUDA error: peer access is not supported between these two devices",
        "dependency",
        "PyTorch's C10_CUDA_CHECK",
    ),
    (
        "cuCtxEnablePeerAccess(peer_ctx, 0) failed: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED",
        "dependency",
        "the driver API's name",
    ),
    (
        "hipDeviceEnablePeerAccess returned hipErrorPeerAccessUnsupported",
        "dependency",
        "HIP's name",
    ),
    (
        "gpu-box: Test CUDA failure common.cu:892 'peer access is not supported between these two "
        "devices'",
        "dependency",
        "nccl-tests' CUDACHECK",
    ),
    # -- dependency: CUDA found no such kernel or symbol (`cuda_symbol_not_found`; enum cudaError
    # cudaErrorSymbolNotFound 500, CUresult CUDA_ERROR_NOT_FOUND, NCCL's CUDACHECK, XLA's
    # stream executor, PyTorch's C10_CUDA_CHECK)
    (_sixtieth("d9ca59b32e21"), "dependency", "sixtieth d9ca59b32e21 (NCCL 2.14 on sm_120)"),
    (excerpt("fiftyeighth", "ccfd1f667460"), "dependency", "fiftyeighth ccfd1f667460 (XLA)"),
    ("RuntimeError: CUDA error: named symbol not found", "dependency", "PyTorch's"),
    (
        "misc/cudawrap.cc:36 NCCL WARN Cuda failure 500 'named symbol not found'",
        "dependency",
        "NCCL 2.19+, the code printed",
    ),
    (
        "cudaFuncGetAttributes returned cudaErrorSymbolNotFound",
        "dependency",
        "the runtime enum's name",
    ),
    # -- software_bug: Windows' display watchdog closing the application (`windows_tdr_app_closed`;
    # NVIDIA's Windows OpenGL driver event and dialog, NVIDIA's knowledge base on its error codes)
    (_sixtieth("6377b21abba4"), "software_bug", "sixtieth 6377b21abba4 (the event's Data)"),
    (
        "A TDR has been detected. The application must close. Error code: 3 (pid=5120 tid=6044 "
        "blender.exe 64bit)",
        "software_bug",
        "another application and code",
    ),
    (
        "The NVIDIA OpenGL driver lost connection with the display driver due to exceeding the "
        "Windows Time-Out limit and is unable to continue. The application must close. Error "
        "code: 3",
        "software_bug",
        "the OpenGL driver's dialog",
    ),
    # -- software_bug: a graphics-engine exception without its Xid (`nvrm_graphics_exception_bare`;
    # the resource manager's Xid 13 words, NVIDIA's Xid catalog as nonstop/diagnose/xids.py has it)
    (_sixtieth("cef65347d039"), "software_bug", "sixtieth cef65347d039 (nvlddmkm event 13)"),
    (
        "NVRM: Graphics SM Warp Exception on (GPC 1, TPC 0, SM 0): Illegal Instruction Encoding",
        "software_bug",
        "the SM warp form",
    ),
    (
        "NVRM: Graphics SM Global Exception on (GPC 0, TPC 1, SM 1): Multiple Warp Errors",
        "software_bug",
        "the SM global form",
    ),
    (
        "[ 1204.123584] NVRM: Xid (PCI:0000:01:00): 13, Graphics SM Warp Exception on (GPC 2, TPC "
        "0, SM 0): Illegal Instruction Encoding",
        "software_bug",
        "with its Xid: the Xid parser's",
    ),
    # -- user_code_error: two ranks on one GPU (`nccl_invalid_usage`, widened; NVIDIA/nccl
    # src/init.cc's duplicate-GPU WARN)
    (_sixtieth("42f14d0ac439"), "user_code_error", "sixtieth 42f14d0ac439 (retyped, no head)"),
    (
        "Error: rank 1 and rank 0 both on CUDA device 10",
        "user_code_error",
        "another pair, no PCI address",
    ),
    (
        "qgpu2018:59522:59993 [0] init.cc:795 NCCL WARN Duplicate GPU detected : rank 6 and rank 4 "
        "both on CUDA device 31000",
        "user_code_error",
        "NCCL's own WARN, still",
    ),
    # -- out_of_memory: a CUDA_CHECK macro's code 2 (`cuda_oom`, widened; ggml's ggml-cuda.cu
    # CUDA_CHECK in llama.cpp, whisper.cpp and llama-cpp-python's vendored copy)
    (_sixtieth("174b1b256439"), "out_of_memory", "sixtieth 174b1b256439 (llama.cpp)"),
    (
        "CUDA error 2 at /tmp/pip-install-k2j/llama-cpp-python/vendor/llama.cpp/ggml-cuda.cu:6600: "
        "out of memory",
        "out_of_memory",
        "llama-cpp-python's vendored ggml, a full path",
    ),
    ("CUDA error 2 at ggml-cuda.cu:5720: out of memory", "out_of_memory", "whisper.cpp's ggml"),
    # -- out_of_memory: NCCL's segment failure as its last error (`shm_exhausted`, widened;
    # NVIDIA/nccl src/misc/shmutils.cc and src/include/shm.h, ncclGetLastError)
    (_sixtieth("cc2c0dc5365e"), "out_of_memory", "sixtieth cc2c0dc5365e (vLLM's last error)"),
    (
        "Last error:\nError while creating shared memory segment /dev/shm/nccl-uc5H5q (size "
        "9637888), error: No space left on device (28)",
        "out_of_memory",
        "NCCL 2.12+ as torch prints its last error",
    ),
    (
        "Error while creating shared memory segment nccl-shm-recv-250a7cc850ba9298-0-1-3 (size "
        "9637888)",
        "out_of_memory",
        "NCCL 2.7-2.11's segment name",
    ),
    # -- software_bug: Xid 32 retyped with its colons moved, read as a quoted Xid (XID_LOOSE,
    # widened; NVIDIA's Xid catalog: 32 ROBUST_CHANNEL_PBDMA_ERROR, RESTART_APP, as two held-out
    # labels of Xid 32 read it)
    (_sixtieth("bdf86af2296e"), "software_bug", "sixtieth bdf86af2296e (retyped Xid 32)"),
    (
        "NVRM Xid (0000:01:00) : 13, Graphics Exception: ESR 0x405840=0x80000000",
        "software_bug",
        "an older driver's bus id, retyped",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    (
        "gpu-box:1234:1300 [1] NCCL INFO Could not enable P2P between dev 1(=41000) and dev "
        "0(=1000)",
        "dependency",
        "NCCL's topology reading (the sixtieth's informational rule)",
    ),
    (
        "> Peer access from NVIDIA GeForce RTX 4090 (GPU0) -> NVIDIA GeForce RTX 4090 (GPU1) : No",
        "dependency",
        "a CUDA sample's table",
    ),
    (
        "If peer access is not supported between these two devices, set NCCL_P2P_DISABLE=1.",
        "dependency",
        "advice",
    ),
    (
        "CUDA error: peer access has not been enabled",
        "dependency",
        "cudaErrorPeerAccessNotEnabled, another error",
    ),
    (
        "cuGetProcAddress('cuMemPoolCreate') returned CUDA_ERROR_NOT_FOUND",
        "dependency",
        "CUDA_ERROR_NOT_FOUND without the symbol words",
    ),
    (
        "To avoid 'named symbol not found', build with TORCH_CUDA_ARCH_LIST=12.0",
        "dependency",
        "advice quoting the words",
    ),
    (
        "To avoid a TDR, set TdrDelay to 60 under HKLM\\System\\CurrentControlSet\\Control\\"
        "GraphicsDrivers",
        "software_bug",
        "advice naming a TDR",
    ),
    (
        "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023",
        "software_bug",
        "the driver's load line",
    ),
    (
        "Error: rank 0 on CUDA device 0, rank 1 on CUDA device 1",
        "user_code_error",
        "two ranks on two devices",
    ),
    (
        "CUDA error 700 at ggml-cuda.cu:6835: an illegal memory access was encountered",
        "out_of_memory",
        "ggml's macro, another code",
    ),
    (
        "Error while creating shared memory segment /dev/shm/nccl-uc5H5q (size 9637888), error: "
        "Permission denied (13)",
        "out_of_memory",
        "NCCL's segment, another errno",
    ),
    (
        "Error while attaching to shared memory segment /dev/shm/nccl-uc5H5q (size 0)",
        "out_of_memory",
        "attaching, not creating (NVIDIA/nccl#2190)",
    ),
]

test_row = row_test(SIXTIETH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(SIXTIETH + NOT)


def test_the_peer_access_row_outranks_nccls_unhandled_cuda_error(tmp_path: Path) -> None:
    """NCCL's "unhandled cuda error" is matched too (`nccl_internal`), but the refused peer access
    it goes on to name decides."""
    log = tmp_path / "rank.log"
    log.write_text(_sixtieth("9ab029ceeee3") + "\n")
    assert {h.signature for h in triage.scan(log).hits} >= {
        "nccl_internal",
        "cuda_peer_access_unsupported",
    }
    assert_both_ways(log, "dependency", "restart")


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The sixtieth's excerpts the rows now read get their labels' actions (none excludes a
    node)."""
    for rid, category, action in (
        ("9a9428704ed1", "dependency", "restart"),
        ("9ab029ceeee3", "dependency", "restart"),
        ("c38bbeb9b73d", "dependency", "restart"),
        ("42736d3700fa", "dependency", "restart"),
        ("d9ca59b32e21", "dependency", "restart"),
        ("6377b21abba4", "software_bug", "restart"),
        ("cef65347d039", "software_bug", "restart"),
        ("42f14d0ac439", "user_code_error", "stop_and_page"),
        ("174b1b256439", "out_of_memory", "stop_and_page"),
        ("cc2c0dc5365e", "out_of_memory", "stop_and_page"),
    ):
        v = rows_alone(tmp_path, _sixtieth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)


def test_a_retyped_xid_line_is_a_quote_and_the_drivers_own_line_is_read_once(
    tmp_path: Path,
) -> None:
    """The retyped form ("NVRM Xid (PCI:...) : 32") is read with XID_LOOSE's discount; the
    driver's own line ("NVRM: Xid (PCI:...): 32, ...") by XID_PATTERN alone, once."""
    log = tmp_path / "rank.log"
    log.write_text(
        "[12146.826127] NVRM Xid (PCI:0000:0b:00) : 32, Channel ID 00000009 intr 00008000\n"
    )
    (hit,) = triage.scan(log).hits
    assert hit.signature == "xid_32"
    log.write_text(
        "[24128.828315] NVRM: Xid (PCI:0000:01:00): 32, Channel ID 00000000 intr 00004000\n"
    )
    hits = triage.scan(log).hits
    assert [h.signature for h in hits] == ["xid_32"]
    assert hits[0].specificity > hit.specificity  # the quote's discount
