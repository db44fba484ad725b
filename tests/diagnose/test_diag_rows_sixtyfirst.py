"""Signature rows for the classes the sixtyfirst collection showed missing
(tests/corpus/real/README.md, sixtyfirst.jsonl, "After its rows", branch issue-27rows61): how a
long run's numbers are printed when they go wrong. Each row is tested on the sixtyfirst's
excerpts and on other wordings of its class, from the source or documentation cited beside each,
with the near misses it must not take. Rows widened in place for it: `loss_nan_spelled` (a
quoted key in a trainer's metrics dict; 3DETR's non-finite loss guard), `nan_words` (NaN said in
Chinese with 发生 and 损失为); narrowed: `nan_words` and `nan_loss` (tensorboardX's warning); new:
`tensorboard_nonfinite_scalar`."""

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


def _sixtyfirst(rid: str) -> str:
    return excerpt("sixtyfirst", rid)


SIXTYFIRST = [
    # (log text, category, why)
    # -- unknown: tensorboardX handed a NaN or Inf to log, the warning alone
    # (`tensorboard_nonfinite_scalar`; tensorboardX/x2num.py check_nan, printed by 1.x, logged to
    # the root logger by 2.0-2.4 and to "tensorboardX.x2num" since)
    (_sixtyfirst("9e973e8b3280"), "unknown", "sixtyfirst 9e973e8b3280 (a finite loss beside)"),
    (_sixtyfirst("f21bb3094ec5"), "unknown", "sixtyfirst f21bb3094ec5 (x2num's logger)"),
    (_sixtyfirst("9c59f7c2a4bc"), "unknown", "sixtyfirst 9c59f7c2a4bc (bare)"),
    (_sixtyfirst("7b2d0113e812"), "unknown", "sixtyfirst 7b2d0113e812 (quoted)"),
    (excerpt("fourth", "ddd3d876558a"), "unknown", "fourth ddd3d876558a (apex overflows beside)"),
    ("Warning: NaN or Inf found in input tensor.", "unknown", "tensorboardX 1.x's print"),
    ("WARNING:root:NaN or Inf found in input tensor.", "unknown", "tensorboardX 2.x's logging"),
    (
        "[1,3]<stderr>:WARNING:tensorboardX.x2num:NaN or Inf found in input tensor.",
        "unknown",
        "the x2num logger under mpirun",
    ),
    # ... and where the loss beside it is nan, the NaN rows read that line
    (_sixtyfirst("24fc9a92305e"), "numerical_nan", "sixtyfirst 24fc9a92305e (loss: nan)"),
    (_sixtyfirst("c12bd2df26e9"), "numerical_nan", "sixtyfirst c12bd2df26e9 (Training Loss: nan)"),
    (
        excerpt("twentyninth", "1204d37fb076"),
        "numerical_nan",
        "twentyninth 1204d37fb076 (loss=nan)",
    ),
    (
        excerpt("twentyeighth", "bb637492c982"),
        "numerical_nan",
        "twentyeighth bb637492c982 (the scale at its floor)",
    ),
    (
        "WARNING:root:NaN or Inf found in input tensor.\n"
        "{'loss': nan, 'learning_rate': 2e-05, 'epoch': 0.4}",
        "numerical_nan",
        "a Trainer loss nan beside it",
    ),
    ("ERROR: NaN or Inf found in the loss at step 120", "numerical_nan", "another tool's words"),
    # -- numerical_nan: a trainer's metrics dict with a nan loss (`loss_nan_spelled`, widened;
    # transformers' Trainer.log and its train() summary, Lightning's logged metrics dict)
    (_sixtyfirst("932b3705a75d"), "numerical_nan", "sixtyfirst 932b3705a75d (eval_loss)"),
    (
        "{'train_runtime': 812.4, 'train_samples_per_second': 3.9, 'train_steps_per_second': 0.49,"
        " 'train_loss': nan, 'epoch': 3.0}",
        "numerical_nan",
        "Trainer.train's summary",
    ),
    ("{'val_loss': nan, 'val_acc': 0.1003}", "numerical_nan", "Lightning's metrics dict"),
    ('{"eval_loss": NaN, "eval_runtime": 3.0856}', "numerical_nan", "the JSON form, as before"),
    # -- numerical_nan: 3DETR's non-finite loss guard and its descendants (`loss_nan_spelled`,
    # widened; facebookresearch/3detr engine.py, LL3DA and Vote2Cap-DETR's main.py)
    (_sixtyfirst("7381c3d094f1"), "numerical_nan", "sixtyfirst 7381c3d094f1 (3D-R1)"),
    ("Loss in not finite. Training will be stopped.", "numerical_nan", "3DETR's"),
    (
        "[2023-11-02 10:11:12] Loss in not finite. Terminate training.",
        "numerical_nan",
        "LL3DA's, after max_tolerant_nan skips",
    ),
    # -- numerical_nan: NaN said in Chinese with 发生 and 损失为 (`nan_words`, widened; Chinese
    # training scripts' own messages)
    (_sixtyfirst("1ebaa3eb9fd8"), "numerical_nan", "sixtyfirst 1ebaa3eb9fd8 (损失为nan)"),
    (_sixtyfirst("73a02273a27f"), "numerical_nan", "sixtyfirst 73a02273a27f (发生nan)"),
    ("⚠️ Batch 37: 损失为NaN/Inf，跳过此批次", "numerical_nan", "a script's skip message"),
    ("RuntimeError: 损失为Nan", "numerical_nan", "a loss module's own check"),
    ("第3个epoch时梯度为nan", "numerical_nan", "the gradient"),
    ("训练到一半发生了NaN", "numerical_nan", "发生了"),
]

NOT = [
    # (log text, category it must not get, why)
    ("Warning: NaN or Inf found in input tensor.", "numerical_nan", "tensorboardX's warning alone"),
    (_sixtyfirst("9c59f7c2a4bc"), "numerical_nan", "sixtyfirst 9c59f7c2a4bc"),
    (
        "{'eval_loss': 0.5412, 'eval_runtime': 12.31, 'eval_samples_per_second': 40.6}",
        "numerical_nan",
        "a finite eval loss",
    ),
    ("{'loss_nan_count': 0, 'loss': 1.2}", "numerical_nan", "a counter of NaNs, none"),
    ("Loss is finite. Training continues.", "numerical_nan", "the guard passed"),
    ("训练过程中没有发生nan", "numerical_nan", "none occurred"),
    ("如果损失为nan怎么办", "numerical_nan", "supposed"),
    ("这里检查损失是否为nan", "numerical_nan", "asked, a check"),
    ("为了避免发生nan，降低了学习率", "numerical_nan", "avoided"),
]

test_row = row_test(SIXTYFIRST)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(SIXTYFIRST + NOT)


def test_the_tensorboard_warning_alone_is_read_as_informational(tmp_path: Path) -> None:
    """tensorboardX's warning with nothing else is matched by its row (unknown), so that the
    fallback does not read its words as NaN either."""
    for text in (
        _sixtyfirst("9c59f7c2a4bc"),
        _sixtyfirst("f21bb3094ec5"),
        "WARNING:root:NaN or Inf found in input tensor.",
    ):
        log = tmp_path / "rank.log"
        log.write_text(text + "\n")
        assert {h.signature for h in triage.scan(log).hits} >= {"tensorboard_nonfinite_scalar"}
        assert_both_ways(log, "unknown", "restart")


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The sixtyfirst's excerpts the rows now read get their labels' actions (none excludes a
    node)."""
    for rid, category, action in (
        ("9e973e8b3280", "unknown", "restart"),
        ("f21bb3094ec5", "unknown", "restart"),
        ("9c59f7c2a4bc", "unknown", "restart"),
        ("7b2d0113e812", "unknown", "restart"),
        ("932b3705a75d", "numerical_nan", "restart"),
        ("7381c3d094f1", "numerical_nan", "restart"),
        ("1ebaa3eb9fd8", "numerical_nan", "restart"),
        ("73a02273a27f", "numerical_nan", "restart"),
    ):
        v = rows_alone(tmp_path, _sixtyfirst(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)
