"""Signature rows for the classes the thirty-third collection showed missing
(tests/corpus/real/README.md, thirtythird.jsonl, "After its rows", branch issue-27rows33). Each
is tested on the thirty-third's excerpt and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take: CUDA's
"invalid device function" read as HIP's already was (`gpu_stack_env`, dependency), and
detectron2's `total_loss` read by the loss-series reader (triage.spike, loss_spike)."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _thirtythird(rid: str) -> str:
    return excerpt("thirtythird", rid)


THIRTYTHIRD = [
    # (log text, category, why)
    # -- dependency: CUDA's invalid device function, no kernel in the build for this GPU
    # (`gpu_stack_env`; CUDA runtime API, cudaErrorInvalidDeviceFunction = 98, "the requested
    # device function does not exist or is not compiled for the proper device architecture")
    (_thirtythird("69db9c678f40"), "dependency", "thirty-third 69db9c678f40 (flash-attention)"),
    (
        "RuntimeError: CUDA error: invalid device function\nCUDA kernel errors might be "
        "asynchronously reported at some other API call, so the stacktrace below might be "
        "incorrect.",
        "dependency",
        "PyTorch's c10 wording",
    ),
    (
        "GPUassert: cudaErrorInvalidDeviceFunction csrc/kernels.cu 112",
        "dependency",
        "the enum's name, as a CUDA_CHECK macro prints it",
    ),
    (
        "RuntimeError: HIP error: invalid device function",
        "dependency",
        "HIP's, read before (the fourteenth's 307b98cafc31)",
    ),
    # -- loss_spike: detectron2's total_loss jumping between two iterations (triage.spike;
    # detectron2/utils/events.py CommonMetricPrinter: "iter: N  total_loss: X  loss_...: Y")
    (_thirtythird("8edaede50b93"), "loss_spike", "thirty-third 8edaede50b93 (Panoptic FPN)"),
    (
        "[d2.utils.events]:  eta: 1:02:11  iter: 19  total_loss: 1.912  loss_cls: 0.71  lr: 0.0002\n"
        "[d2.utils.events]:  eta: 1:02:01  iter: 39  total_loss: 1.804  loss_cls: 0.66  lr: 0.0004\n"
        "[d2.utils.events]:  eta: 1:01:52  iter: 59  total_loss: 12.37  loss_cls: 9.91  lr: 0.0006",
        "loss_spike",
        "a later jump, after two iterations",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    (
        "RuntimeError: CUDA error: invalid device pointer",
        "dependency",
        "another CUDA error: a bad pointer, the program's",
    ),
    (
        "RuntimeError: CUDA error: invalid argument",
        "dependency",
        "another CUDA error",
    ),
    (
        "[d2.utils.events]:  iter: 19  total_loss: 1.912  loss_cls: 0.71\n"
        "[d2.utils.events]:  iter: 39  total_loss: 1.804  loss_cls: 0.66\n"
        "[d2.utils.events]:  iter: 59  total_loss: 1.755  loss_cls: 0.64",
        "loss_spike",
        "total_loss falling",
    ),
    (
        "epoch 1: total_loss: 0.91\nepoch 1: val_total_loss: 3.5\nepoch 2: total_loss: 0.88\n"
        "epoch 2: val_total_loss: 4.1",
        "loss_spike",
        "a validation total loss is no training loss",
    ),
]

test_row = row_test(THIRTYTHIRD)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(THIRTYTHIRD + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The two excerpts the rows now read get their labels' action: restart."""
    for rid in ("69db9c678f40", "8edaede50b93"):
        v = rows_alone(tmp_path, _thirtythird(rid))
        assert v.action == "restart", (rid, v.verdict)
