"""Signature rows for the classes the thirty-first collection showed missing
(tests/corpus/real/README.md, thirtyfirst.jsonl, "After its rows", branch issue-27rows31). Each
row is tested on the thirty-first's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _thirtyfirst(rid: str) -> str:
    return excerpt("thirtyfirst", rid)


THIRTYFIRST = [
    # (log text, category, why)
    # -- numerical_nan: a row of numbers with nan columns inside it (`nan_metric_row_inner`)
    (_thirtyfirst("60f958ae8369"), "numerical_nan", "thirty-first 60f958ae8369 (D3Feat's table)"),
    ("epoch 12 | 0.4512 | nan | nan | 0.0031", "numerical_nan", "a table with | separators"),
    ("1500, nan, nan, 0.25, 12.5", "numerical_nan", "a CSV metrics row"),
    ("step 300  -nan  1.5e-03  nan  42", "numerical_nan", "a step row, -nan among values"),
    # -- numerical_nan: a torch tensor printed with nan (`torch_tensor_nan`); torch's repr
    # prints NaN as `nan` (torch.set_printoptions)
    (_thirtyfirst("2461088f9eff"), "numerical_nan", "thirty-first 2461088f9eff (OpenFold's print)"),
    ("tensor([nan, 1.0000, 2.0000], device='cuda:0')", "numerical_nan", "a 1-d tensor"),
    ("loss tensor([[-nan, 0.5]], grad_fn=<AddBackward0>)", "numerical_nan", "-nan in a tensor"),
    # -- numerical_nan: E3SM SCREAM's FieldNaNCheck (`field_nan_check`;
    # components/eamxx/src/share/property_checks/field_nan_check.cpp)
    (_thirtyfirst("ca477a3b2ac9"), "numerical_nan", "thirty-first ca477a3b2ac9 (SCREAM)"),
    (" 12:   - Message: FieldNaNCheck failed.", "numerical_nan", "the check's message alone"),
    (
        " 3:   - Property check name: NaN check for field qv",
        "numerical_nan",
        "the check's name on another field",
    ),
    # -- planned_stop: dstack's INTERRUPTED_BY_NO_CAPACITY (`dstack_no_capacity_interrupt`)
    (_thirtyfirst("d5be018d5a77"), "planned_stop", "thirty-first d5be018d5a77 (dstack, TPU)"),
    (
        "Job train-0-0 terminated with reason interrupted_by_no_capacity",
        "planned_stop",
        "the termination reason as the server's log writes it",
    ),
    # -- software_bug: no kernel registered for an op on XLA's JIT device
    # (`xla_op_kernel_unregistered`; tensorflow/compiler/tf2xla)
    (_thirtyfirst("a21d6b694689"), "software_bug", "thirty-first a21d6b694689 (NcclAllReduce)"),
    (
        "InvalidArgumentError: Detected unsupported operations when trying to compile graph "
        "cluster_0[] on XLA_CPU_JIT: No registered 'StringFormat' OpKernel for XLA_CPU_JIT "
        "devices compatible with node {{node StringFormat}}",
        "software_bug",
        "another op on the CPU JIT device",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    ("9753 0.51 0.42 0.00 0.12 0.33 1698.001 16280.8.", "numerical_nan", "a finite row"),
    ("9753 nan 0.42 0.00 0.12 0.33 1698.001", "numerical_nan", "one nan inside a row"),
    ("Steps desc_loss det_loss train_accuracy d_pos d_neg time memory", "numerical_nan", "header"),
    ("tensor([0.5000, 1.0000, 2.0000], device='cuda:0')", "numerical_nan", "a finite tensor"),
    ("tensor([1., 2.]) nanoseconds: 12", "numerical_nan", "a tensor then a word with nan in it"),
    (" 89:   - Property check name: Lower bound check for field T_mid", "numerical_nan", "bounds"),
    (
        "Run failed with error code FAILED_TO_START_DUE_TO_NO_CAPACITY.",
        "planned_stop",
        "no instance ever got: the capacity rule's `dependency`, not taken",
    ),
    (
        "No registered 'Conv2D' OpKernel for GPU devices compatible with node {{node conv}}",
        "software_bug",
        "a build without GPU kernels: not taken",
    ),
]

test_row = row_test(THIRTYFIRST)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(THIRTYFIRST + NOT)


def test_the_new_rows_restart_and_exclude_nothing(tmp_path: Path) -> None:
    """The five excerpts the rows now read are restarted, as their labels are."""
    for rid in ("60f958ae8369", "2461088f9eff", "ca477a3b2ac9", "d5be018d5a77", "a21d6b694689"):
        v = rows_alone(tmp_path, _thirtyfirst(rid))
        assert v.action == "restart", (rid, v.verdict)
