"""Signature rows for the classes the fortieth collection showed missing
(tests/corpus/real/README.md, fortieth.jsonl, "After its rows", branch issue-27rows40). Each row
is tested on the fortieth's excerpts and on other wordings of its class, from the documentation,
source or public reports cited beside each, with the near misses it must not take."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fortieth(rid: str) -> str:
    return excerpt("fortieth", rid)


FORTIETH = [
    # (log text, category, why)
    # -- out_of_memory: a hosted notebook's own notice that the host RAM ran out
    # (`notebook_host_ram_exhausted`; Google Colab's and Kaggle's notices)
    (_fortieth("96b5420bbc32"), "out_of_memory", "fortieth 96b5420bbc32 (Colab, high-RAM link)"),
    (_fortieth("b3b588d2d973"), "out_of_memory", "fortieth b3b588d2d973 (Colab Pro)"),
    (_fortieth("b9b2a2ba8922"), "out_of_memory", "fortieth b9b2a2ba8922 (Colab, bare)"),
    (
        "Your notebook tried to allocate more memory than is available. It has restarted.",
        "out_of_memory",
        "Kaggle's notice (pycaret/pycaret#295, buxiangzhiren/DDCap#39)",
    ),
    (
        "I am getting the following error 'Your notebook tried to allocate more memory than is "
        "available. It has restarted.' multiple times in a kaggle notebook",
        "out_of_memory",
        "Kaggle's notice quoted in a report (pycaret/pycaret#295)",
    ),
    (
        "[Colab] Your session crashed after using all available RAM",
        "out_of_memory",
        "Colab's notice on a TPU runtime (kingoflolz/mesh-transformer-jax#120)",
    ),
    # -- dependency: torch.utils.cpp_extension's ninja build failing (`torch_extension_build_failed`;
    # torch/utils/cpp_extension.py _run_ninja_build's error_prefix)
    (
        _fortieth("c7ff0ab1d058"),
        "dependency",
        "fortieth c7ff0ab1d058 (cpu_adam, then AttributeError)",
    ),
    (
        "RuntimeError: Error building extension 'fused_adam'\n"
        "AttributeError: 'FusedAdam' object has no attribute 'fused_adam'",
        "dependency",
        "DeepSpeed's FusedAdam op builder, its destructor's AttributeError after it",
    ),
    (
        "RuntimeError: Error building extension 'upfirdn2d_plugin': [1/2] /usr/local/cuda/bin/nvcc "
        "-DTORCH_EXTENSION_NAME=upfirdn2d_plugin -c upfirdn2d.cu -o upfirdn2d.cuda.o",
        "dependency",
        "load() of a custom op, the compiler's output after the colon",
    ),
    (
        "RuntimeError: Error compiling objects for extension",
        "dependency",
        "BuildExtension in a setup.py build (_write_ninja_file_and_compile_objects)",
    ),
    # -- dependency: torch's shm_open of a shared tensor failing for the open-file limit
    # (`torch_shm_open_failed`; ATen's MapAllocator.cpp, TH's THAllocator.c)
    (_fortieth("72e1ed9571a0"), "dependency", "fortieth 72e1ed9571a0 (then Errno 24)"),
    (
        "RuntimeError: unable to open shared memory object </torch_24613_3129627457_0> in "
        "read-write mode: Too many open files (24)",
        "dependency",
        "MapAllocator.cpp's wording with strerror and errno (torch 1.x and 2.x)",
    ),
    (
        "RuntimeError: unable to open shared memory object </torch_2818_1045485340> in read-write "
        "mode at /pytorch/aten/src/TH/THAllocator.c:226",
        "dependency",
        "TH's wording with its source line (torch 0.4 to 1.0)",
    ),
    # -- software_bug: torch's THC check macro on a kernel fault (`thc_check_kernel_fault`;
    # THCGeneral's __THCudaCheck, the strings of cudaGetErrorString)
    (
        _fortieth("b02453d5ed3e"),
        "software_bug",
        "fortieth b02453d5ed3e (error=4, a terminal border)",
    ),
    (excerpt("twentyfirst", "b1ff9ef20ac1"), "software_bug", "twenty-first b1ff9ef20ac1 (error=4)"),
    (
        "THCudaCheck FAIL file=/tmp/luarocks_cutorch-scm-1-3026/cutorch/lib/THC/generic/THCStorage.c "
        "line=32 error=4 : unspecified launch failure",
        "software_bug",
        "Lua torch's cutorch, the same macro",
    ),
    (
        "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCCachingAllocator.cpp line=510 error=74 : "
        "misaligned address",
        "software_bug",
        "a misaligned address (cudaErrorMisalignedAddress before CUDA 10.1, 74)",
    ),
    # -- dependency: PaddlePaddle's dynamic loader missing a library
    # (`paddle_dynamic_library_missing`; paddle/phi/backends/dynload/dynamic_loader.cc)
    (_fortieth("133ef180e934"), "dependency", "fortieth 133ef180e934 (nccl2, init_parallel_env)"),
    (
        "You may need to install 'rccl' from ROCM official website: "
        "https://rocmdocs.amd.com/en/latest/Installation_Guide/Installation-Guide.html before "
        "install PaddlePaddle.",
        "dependency",
        "the ROCm build's hint",
    ),
    (
        "ExternalError: The third-party dynamic library (libcudnn.so) that Paddle depends on is not "
        "configured correctly. (error code is libcudnn.so: cannot open shared object file: No such "
        "file or directory)",
        "dependency",
        "the newer loader's error for cuDNN",
    ),
    (
        "Failed to find dynamic library: libnccl.so ( libnccl.so: cannot open shared object file: "
        "No such file or directory )",
        "dependency",
        "the older loader's error",
    ),
    # -- out_of_memory: torch's DataLoader bus-error message with the space before "(shm)" lost
    # where it was retyped (`shm_exhausted`)
    (_fortieth("8e0e0d533959"), "out_of_memory", "fortieth 8e0e0d533959 (retyped, no space)"),
    (
        "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient "
        "shared memory (shm).",
        "out_of_memory",
        "torch's own wording (torch/csrc/DataLoader.cpp's SIGBUS handler)",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    ("Your session crashed for an unknown reason.", "out_of_memory", "Colab naming no cause"),
    (
        "Your session crashed. Automatically restarting.",
        "out_of_memory",
        "Colab's console restarting (googlecolab/colabtools#2538)",
    ),
    (
        "The kernel appears to have died. It will restart automatically.",
        "out_of_memory",
        "Jupyter's kernel restart, no cause (jupyter/notebook#4097)",
    ),
    (
        "Building extension module cpu_adam...",
        "dependency",
        "cpp_extension's progress line before a build",
    ),
    (
        "Loading extension module fused_adam...",
        "dependency",
        "cpp_extension loading a built op",
    ),
    (
        "RuntimeError: unable to write to file </torch_18692_1954506624>: No space left on device (28)",
        "dependency",
        "/dev/shm full: a write that fails (`shm_exhausted`)",
    ),
    (
        "RuntimeError: unable to open shared memory object </torch_1_2> in read-write mode: No "
        "space left on device (28)",
        "dependency",
        "an open that says the device is full stays `shm_exhausted`",
    ),
    (
        "RuntimeError: unable to mmap 65536 bytes from file </torch_6_7>: Cannot allocate memory (12)",
        "dependency",
        "a map that fails for memory",
    ),
    (
        "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=70 error=38 : no CUDA-capable "
        "device is detected",
        "software_bug",
        "the macro on a missing device (an environment, read by its own row)",
    ),
    (
        "I0308 12:18:59.455384  7161 nccl_context.cc:189] init nccl context nranks: 4 local rank: 0 "
        "gpu id: 0 ring id: 0",
        "dependency",
        "Paddle's NCCL context set up (its library loaded)",
    ),
]

test_row = row_test(FORTIETH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FORTIETH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The excerpts the rows now read get their labels' actions: Colab's exhausted RAM stops and
    pages (out_of_memory), the extension build and the open-file limit restart (dependency); no
    node is excluded."""
    for rid, action in (
        ("96b5420bbc32", "stop_and_page"),
        ("b3b588d2d973", "stop_and_page"),
        ("b9b2a2ba8922", "stop_and_page"),
        ("c7ff0ab1d058", "restart"),
        ("72e1ed9571a0", "restart"),
    ):
        v = rows_alone(tmp_path, _fortieth(rid))
        assert v.action == action, (rid, v.verdict)


def test_a_full_dev_shm_is_still_out_of_memory(tmp_path: Path) -> None:
    """/dev/shm full still reads `out_of_memory` (`shm_exhausted`), whether the write, the map or
    an open that says so fails; only the open that fails for another reason moved."""
    for text in (
        "RuntimeError: unable to write to file </torch_18692_1954506624>: No space left on device (28)",
        "RuntimeError: unable to open shared memory object </torch_1_2> in read-write mode: No "
        "space left on device (28)",
    ):
        v = rows_alone(tmp_path, text)
        assert v.category == "out_of_memory", v.verdict
