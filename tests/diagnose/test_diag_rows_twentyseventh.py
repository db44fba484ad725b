"""Signature rows for the classes the twenty-seventh collection showed missing
(tests/corpus/real/README.md, twentyseventh.jsonl, "After its rows", branch issue-27rows27). Each
row is tested on the twenty-seventh's excerpts and on other wordings of its class, with the near
misses it must not take."""

from __future__ import annotations

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test


def _twentyseventh(rid: str) -> str:
    return excerpt("twentyseventh", rid)


TWENTYSEVENTH = [
    # (log text, category, why)
    # -- out_of_memory: GPU allocators of scientific codes and miners, in their own words
    (_twentyseventh("4f23e26bb281"), "out_of_memory", "twentyseventh 4f23e26bb281 (RELION)"),
    (_twentyseventh("b0c3bfaaea63"), "out_of_memory", "twentyseventh b0c3bfaaea63 (allocator)"),
    ("out of memory in vector_add.cu at line 37", "out_of_memory", "HANDLE_ERROR, a .cu file"),
    (
        "CUDA error in func 'ethash_cuda_miner::search' at line 300 : out of memory.",
        "out_of_memory",
        "ethminer's CUDA_SAFE_CALL",
    ),
    ("hipCustomAllocator out of memory", "out_of_memory", "the same pool on HIP"),
    # -- numerical_nan: a simulation's own guard on a non-finite state
    (_twentyseventh("46ba40feda51"), "numerical_nan", "twentyseventh 46ba40feda51 (Meep)"),
    (
        "ERROR on proc 0: Non-numeric atom coords - simulation unstable (src/domain.cpp:736)",
        "numerical_nan",
        "LAMMPS, coordinates",
    ),
    (
        "ERROR: Non-numeric pressure - simulation unstable (src/fix_nh.cpp:1040)",
        "numerical_nan",
        "LAMMPS, pressure",
    ),
    # -- ssd: FreeBSD CAM's decode of an ATA UNC read
    (_twentyseventh("efee8c9283fc"), "ssd", "twentyseventh efee8c9283fc (ada1, retries exhausted)"),
    (_twentyseventh("9d49a2703d86"), "ssd", "twentyseventh 9d49a2703d86 (ada0)"),
    (
        "(ada2:ahcich2:0:0:0): ATA status: 41 (DRDY ERR), error: 40 (UNC )",
        "ssd",
        "another disk",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    (
        "Error: out of memory in parser.c at line 120",
        "out_of_memory",
        "a host malloc's report, not a CUDA file",
    ),
    (
        "CUDA error in func 'search' at line 365 : unspecified launch failure.",
        "out_of_memory",
        "ethminer's macro with another error",
    ),
    (
        "If fields are NaN or Inf, increase resolution or use a non-dispersive model",
        "numerical_nan",
        "advice in a docstring",
    ),
    (
        "(ada0:ahcich0:0:0:0): ATA status: 41 (DRDY ERR), error: 04 (ABRT )",
        "ssd",
        "a command aborted, not a media error",
    ),
]

test_row = row_test(TWENTYSEVENTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(TWENTYSEVENTH + NOT)
