"""Signature rows for the classes the twenty-second collection showed missing
(tests/corpus/real/README.md, twentysecond.jsonl, "After its rows", branch issue-27rows22). Each
row is tested on the twenty-second's excerpts and on other wordings of its class, with the near
misses it must not take."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _twentysecond(rid: str) -> str:
    return excerpt("twentysecond", rid)


# Rows that never exclude a node: restart or stop_and_page, whatever the words.
TWENTYSECOND = [
    # (log text, category, why)
    # -- a loss spike: a grad-norm spike seen, the loss suddenly growing said in Chinese
    (_twentysecond("9102d6315f12"), "loss_spike", "twentysecond 9102d6315f12 (grad-norm spike)"),
    ("we saw several gradient norm spikes after step 12000", "loss_spike", "we saw spikes"),
    ("There were frequent spikes in the grad norm during pretraining", "loss_spike", "spikes in"),
    (
        _twentysecond("ee6831362517"),
        "loss_spike",
        "twentysecond ee6831362517 (突然出现损失函数变大)",
    ),
    ("训练到第5个epoch时loss突然飙升", "loss_spike", "loss突然飙升"),
    ("第3000步损失突然增大", "loss_spike", "损失突然增大"),
    # -- a hang: waited hours or days with nothing printed
    (_twentysecond("576873e9d830"), "hang", "twentysecond 576873e9d830 (waited two days)"),
    ("We waited for 5 hours but nothing was printed after the first batch", "hang", "5 hours"),
    ("I've waited several hours and still no output from rank 0", "hang", "still no output"),
    # -- storage: a cloud instance's disk filling
    (_twentysecond("e1a0fdb7c36c"), "storage", "twentysecond e1a0fdb7c36c (download failed)"),
    (_twentysecond("9f1d97326815"), "storage", "twentysecond 9f1d97326815 (upload failed)"),
    (_twentysecond("92a94b1bf6e2"), "storage", "twentysecond 92a94b1bf6e2 (facing the error)"),
    (_twentysecond("abba48725eef"), "storage", "twentysecond abba48725eef (disck at 100%)"),
    ("ClientError: Checkpoint upload failed: Insufficient disk space", "storage", "checkpoint"),
    ("we got an insufficient disk space error after epoch 4", "storage", "got an error"),
    ("the disk usage hit 100% while writing checkpoints", "storage", "disk usage hit 100%"),
    # -- out of memory: an Ascend NPU's runtime failing to allocate device memory
    (
        _twentysecond("2bdafc4dc6b3"),
        "out_of_memory",
        "twentysecond 2bdafc4dc6b3 (EL0004, rtMalloc)",
    ),
    (
        "E39999: Inner Error! rtMalloc failed, size:8589934592, ret:207001",
        "out_of_memory",
        "rtMalloc failed",
    ),
    # -- dependency: NCCL's bootstrap receiving a message of the wrong size
    (_twentysecond("df9e95a9fe83"), "dependency", "twentysecond df9e95a9fe83 (bootstrap.cc)"),
    (
        "node1:22:22 [0] misc/socket.cc:503 NCCL WARN Message truncated : received 1024 bytes "
        "instead of 256 in bootstrap.cc:180",
        "dependency",
        "with NCCL's prefix",
    ),
    # -- dependency: the cloud unable to provision the instances asked for
    (_twentysecond("76e57b44662c"), "dependency", "twentysecond 76e57b44662c (CapacityError)"),
    (
        "botocore.exceptions.ClientError: ... CapacityError: Unable to provision requested ML "
        "compute capacity. Please retry using a different ML instance type.",
        "dependency",
        "raised through boto",
    ),
]

# Hardware rows: a machine-written record only (a BIOS's POST line, a BMC's SEL entry).
HARDWARE = [
    (_twentysecond("85b44a13fbb8"), "system_memory", "twentysecond 85b44a13fbb8 (BIOS, Node0)"),
    ("  Node 1: DRAM uncorrectable ECC Error", "system_memory", "Node 1, indented"),
    (_twentysecond("4a06449b3042"), "power_supply", "twentysecond 4a06449b3042 (SYS_PWROK)"),
    (
        "SEL Entry: FRU: 2, Record: Standard (0x02), Time: 2024-01-02 03:04:05, Sensor: PWR_ERR "
        "(0x56), Event Data: (02FFFF) CPU0_PWRGD failure Assertion",
        "power_supply",
        "a CPU's power-good failure",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    ("there is no grad-norm spike after the warmup fix", "loss_spike", "none"),
    ("if there is a grad norm spike, skip the batch", "loss_spike", "supposed"),
    ("grad_norm_spike_threshold: 5.0", "loss_spike", "a setting"),
    ("损失函数没有突然变大", "loss_spike", "没有 (none)"),
    ("如何避免损失突然变大", "loss_spike", "避免 (avoiding)"),
    ("if you have waited for two days but no output is printed, kill it", "hang", "supposed"),
    ("I waited for two hours and the training finished", "hang", "a wait that ended"),
    ("to avoid an insufficient disk space error, set volume_size to 100", "storage", "avoided"),
    ("if you get an insufficient disk space error, raise volume_size", "storage", "supposed"),
    ("alert when disk usage reaches 100%", "storage", "a threshold"),
    ("the disk usage reached 40% after epoch 2", "storage", "not full"),
    ("rtMalloc succeeded, size:3221291008", "out_of_memory", "an allocation that succeeded"),
    (
        "hvd1:2918:3333 [0] external/nccl_archive/src/transport/net_socket.cc:200 NCCL WARN "
        "NET/Socket : message truncated : receiving 696320 bytes instead of 65536",
        "dependency",
        "the socket transport mid-run (the nineteenth's 41a347f88472)",
    ),
    ("how do I avoid a CapacityError on SageMaker?", "dependency", "a question, not the record"),
]

HARDWARE_NOT = [
    ("we saw a DRAM uncorrectable ECC error on node 0 last week", "system_memory", "a sentence"),
    ("the BIOS said Node0: DRAM uncorrectable ECC Error", "system_memory", "quoted in a sentence"),
    ("the BMC logged a SYS_PWROK failure Assertion yesterday", "power_supply", "a sentence"),
    (
        "SEL Entry: FRU: 1, Record: Standard (0x02), Time: 2018-03-17 23:46:07, Sensor: PWR_ERR "
        "(0x56), Event Data: (01FFFF) SYS_PWROK failure Deassertion",
        "power_supply",
        "deasserted",
    ),
]

test_row = row_test(TWENTYSECOND + HARDWARE)


test_near_miss = near_miss_test(NOT + HARDWARE_NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(
    TWENTYSECOND + HARDWARE + NOT + HARDWARE_NOT
)


def test_the_twentysecond_s_word_rows_exclude_no_node(tmp_path: Path) -> None:
    """None of the rows that read words excludes a node: restart or stop_and_page."""
    for text, _category, why in TWENTYSECOND:
        assert rows_alone(tmp_path, text).action != "exclude_node", why


def test_the_bios_and_bmc_records_exclude_the_node_and_the_same_in_words_does_not(
    tmp_path: Path,
) -> None:
    """A BIOS's POST line for a node's uncorrected DRAM error and a BMC's SEL entry asserting a
    power-good failure are the machine's own records: the node is excluded; the same said in a
    sentence is not."""
    for text, _category, why in HARDWARE:
        assert rows_alone(tmp_path, text).action == "exclude_node", why
    for text, _category, why in HARDWARE_NOT:
        assert rows_alone(tmp_path, text).action != "exclude_node", why


def test_the_xid_row_still_reads_xid_120_as_the_gsp(tmp_path: Path) -> None:
    """The twenty-second's wrong exclusion at first sight, left alone (corpus README): an Xid 120
    GSP exception (ccf26e5bb282) that its collector, unsure, reads as a driver bug because it
    follows the X server across cards and drivers; the excerpt carries only the Xid, which
    NVIDIA's catalog reads as the GPU's system processor, as the twenty-first's recurring Xid 109
    was left to the catalog."""
    v = rows_alone(tmp_path, _twentysecond("ccf26e5bb282"))
    assert (v.category, v.action) == ("gpu_system_processor", "exclude_node"), v.verdict
