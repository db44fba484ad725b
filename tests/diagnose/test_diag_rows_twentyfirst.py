"""Signature rows for the classes the twenty-first collection showed missing
(tests/corpus/real/README.md, twentyfirst.jsonl, "After its rows", branch issue-27rows21). Each
row is tested on the twenty-first's excerpts and on other wordings of its class, with the near
misses it must not take."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _twentyfirst(rid: str) -> str:
    return excerpt("twentyfirst", rid)


# Rows that never exclude a node: restart or stop_and_page, whatever the words.
TWENTYFIRST = [
    # (log text, category, why)
    # -- a hang: the code stuck at an epoch, "stucked"
    (_twentyfirst("833cfce55751"), "hang", "twentyfirst 833cfce55751 (code stuck at epoch 1)"),
    (_twentyfirst("e2902c06c220"), "hang", "twentyfirst e2902c06c220 (and then stucked)"),
    (_twentyfirst("3640d561fc28"), "hang", "twentyfirst 3640d561fc28 (it's stucked)"),
    ("the training stuck after epoch 3 with no error", "hang", "training stuck after epoch"),
    ("My model is stuck at the end of epoch 0", "hang", "stuck at the end of epoch"),
    ("it loads the data and then stucked.", "hang", "and then stucked"),
    # -- NaN: darknet's progress line, NaN seen in Chinese
    (_twentyfirst("46de7f181b1b"), "numerical_nan", "twentyfirst 46de7f181b1b (-nan avg loss)"),
    (_twentyfirst("2d5df7fee69e"), "numerical_nan", "twentyfirst 2d5df7fee69e (出现了大量的nan)"),
    (" 5021: nan, nan avg, 0.001000 rate, 3.1 seconds, 321344 images", "numerical_nan", "avg"),
    ("训练几个epoch之后loss变成nan", "numerical_nan", "变成nan"),
    # -- spikes in a training or loss curve
    (_twentyfirst("382ac557799f"), "loss_spike", "twentyfirst 382ac557799f (curve having spikes)"),
    ("the loss curve shows frequent spikes after step 20k", "loss_spike", "curve shows spikes"),
    ("There are big spikes in the training loss curve", "loss_spike", "spikes in the curve"),
    # -- CUDA's out of memory with the space lost after the colon
    (_twentyfirst("63e4b19f46d5"), "out_of_memory", "twentyfirst 63e4b19f46d5 (error:out of)"),
    ("RuntimeError: CUDA error:out of memory (malloc at ...)", "out_of_memory", "error:out of"),
    # -- NCCL's timeout reported in Chinese
    (
        _twentyfirst("623001085d9b"),
        "nccl_watchdog_timeout",
        "twentyfirst 623001085d9b (报NCCL超时)",
    ),
    ("多机训练时出现NCCL通信超时，然后进程退出", "nccl_watchdog_timeout", "出现NCCL通信超时"),
    (_twentyfirst("7dab9f0c966a"), "nccl_watchdog_timeout", "twentyfirst 7dab9f0c966a (raised)"),
    ("we got an NCCL timeout after 30 minutes on rank 5", "nccl_watchdog_timeout", "got an"),
    ("The NCCL timeout occurred during the evaluation loop", "nccl_watchdog_timeout", "occurred"),
    # -- the AWS CLI's transfer dropped by the object store's connection
    (_twentyfirst("15e8ba0257bb"), "storage", "twentyfirst 15e8ba0257bb (upload failed, reset)"),
    (
        "download failed: s3://ckpt/step_900/model.pt to ./model.pt Read timeout on endpoint URL",
        "storage",
        "download failed, read timeout",
    ),
]

# Hardware rows: a machine-written record only (zpool status's table).
HARDWARE = [
    (_twentyfirst("d4498e56de99"), "ssd", "twentyfirst d4498e56de99 (DEGRADED, too many errors)"),
    (_twentyfirst("4f5e158a5d34"), "ssd", "twentyfirst 4f5e158a5d34 (DEGRADED, too many errors)"),
    (
        "            nvme2n1   DEGRADED     0     0    14  too many errors",
        "ssd",
        "an NVMe leaf degraded on checksum errors",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    ("if the code stuck at epoch 1, restart it", "hang", "supposed"),
    ("it's not stucked anymore after the fix", "hang", "denied"),
    ("the loss stuck at epoch 3 and never went down", "hang", "a loss, not the job"),
    ("这次训练没有出现nan", "numerical_nan", "没有出现 (none)"),
    ("为了避免出现nan，我们降低了学习率", "numerical_nan", "避免 (avoiding)"),
    ("把NCCL超时时间设置为30分钟", "nccl_watchdog_timeout", "a setting"),
    ("如何避免NCCL超时", "nccl_watchdog_timeout", "avoiding"),
    ("if a NCCL timeout occurs, the watchdog aborts", "nccl_watchdog_timeout", "supposed"),
    ("set it higher to avoid an NCCL timeout happens", "nccl_watchdog_timeout", "avoided"),
    ("the NCCL timeout is set to 1800 seconds", "nccl_watchdog_timeout", "a setting"),
    ("upload: ./ckpt.pt to s3://bucket/ckpt.pt", "storage", "a transfer that succeeded"),
    ("the training curve has no spikes since the warmup fix", "loss_spike", "no spikes"),
    ("a smooth loss curve without spikes in the loss curve", "loss_spike", "without"),
]

HARDWARE_NOT = [
    ("zfs says the disk is DEGRADED with too many errors", "ssd", "a person's words"),
    (
        "	  mirror-0                                      DEGRADED     0     0     0",
        "ssd",
        "a mirror degraded, no error on the line",
    ),
]

test_row = row_test(TWENTYFIRST + HARDWARE)


test_near_miss = near_miss_test(NOT + HARDWARE_NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(
    TWENTYFIRST + HARDWARE + NOT + HARDWARE_NOT
)


def test_the_twentyfirst_s_word_rows_exclude_no_node(tmp_path: Path) -> None:
    """None of the rows that read words excludes a node: restart or stop_and_page."""
    for text, _category, why in TWENTYFIRST:
        assert rows_alone(tmp_path, text).action != "exclude_node", why


def test_zpool_s_degraded_device_excludes_the_node_on_the_machine_s_record(tmp_path: Path) -> None:
    """zpool status's table marking a local device DEGRADED on too many errors is ZFS's own
    record of a failing disk: the node is excluded; the same said in words is not."""
    for text, _category, why in HARDWARE:
        assert rows_alone(tmp_path, text).action == "exclude_node", why
    for text, _category, why in HARDWARE_NOT:
        assert rows_alone(tmp_path, text).action != "exclude_node", why


def test_the_gpu_reset_rows_still_read_the_two_wrong_exclusions_as_the_gpu(tmp_path: Path) -> None:
    """The twenty-first's two wrong exclusions at first sight, left alone (corpus README): the
    amdgpu ring timeout whose reset's KIQ ring test fails (-110) (9278bb57cf00, as the eighth's
    c2b9359a4293, labelled `faulty_gpu`, sure) and repeated Xid 109 context-switch timeouts
    (4ffecfebd734, as the fresh collection's 2da310f2d850 and the held-out 7c6d35a70c16,
    `faulty_gpu`): earlier collections' sure labels read the same records as the GPU."""
    for rid in ("9278bb57cf00", "4ffecfebd734"):
        v = rows_alone(tmp_path, _twentyfirst(rid))
        assert (v.category, v.action) == ("faulty_gpu", "exclude_node"), (rid, v.verdict)
