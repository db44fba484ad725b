"""Signature rows for the classes the twenty-third collection showed missing
(tests/corpus/real/README.md, twentythird.jsonl, "After its rows", branch issue-27rows23). Each
row is tested on the twenty-third's excerpts and on other wordings of its class, with the near
misses it must not take."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _twentythird(rid: str) -> str:
    return excerpt("twentythird", rid)


# Rows that never exclude a node: restart or stop_and_page, whatever the words.
TWENTYTHIRD = [
    # (log text, category, why)
    # -- out of memory: an allocator's own words in wordings no row knew
    (_twentythird("cfaa081d42af"), "out_of_memory", "twentythird cfaa081d42af (XLA, wrapped)"),
    (
        "E0613 local_client.cc:672] Execution of replica 0 failed: Resource exhausted: Out of "
        "memory while trying to allocate 5520758552 bytes.",
        "out_of_memory",
        "XLA, on one line",
    ),
    (
        "2024-01-02 03:04:05.000: W external/xla/xla/tsl/framework/bfc_allocator.cc:485] Out "
        "of memory while trying to allocate 17179869184 bytes.",
        "out_of_memory",
        "the BFC allocator's warning",
    ),
    (_twentythird("a2fa869d4fb2"), "out_of_memory", "twentythird a2fa869d4fb2 (new constant)"),
    (
        "jax.errors.JaxRuntimeError: INTERNAL: Failed to allocate 4294967296 bytes for new "
        "constant",
        "out_of_memory",
        "JaxRuntimeError, later jax",
    ),
    (_twentythird("bb2529e3ebe6"), "out_of_memory", "twentythird bb2529e3ebe6 (MXNet pooled)"),
    (
        "[10:00:00] src/storage/storage.cc:110: Memory allocation failed",
        "out_of_memory",
        "MXNet's storage.cc",
    ),
    (_twentythird("0d2aa462aeb8"), "out_of_memory", "twentythird 0d2aa462aeb8 (systemd-oomd)"),
    (
        "Mar 02 11:20:01 gpu7 systemd-oomd[801]: Killed /system.slice/train.service due to "
        "swap used (93.12%) being over the limit of 90.00% (15.5G/16.6G)",
        "out_of_memory",
        "systemd-oomd, swap",
    ),
    # -- storage: the System V NFS client's form
    (_twentythird("ad9a45d9e1e3"), "storage", "twentythird ad9a45d9e1e3 (UnixWare's NFS)"),
    ("NFS server fs01 not responding still trying", "storage", "Solaris, no comma"),
    # -- numerical_nan: the loss suddenly becoming NaN, said in Chinese without 了
    (_twentythird("e2166af00998"), "numerical_nan", "twentythird e2166af00998 (突然变为nan)"),
    ("训练到第10个epoch时loss变成nan", "numerical_nan", "变成nan"),
    ("迭代200次后出现大量nan", "numerical_nan", "大量 without 的"),
    # -- hang: told in words, hanging where the GPUs sit
    (_twentythird("42871ba04043"), "hang", "twentythird 42871ba04043 (hangs where)"),
    ("Training always hangs where rank 3 waits in all_reduce", "hang", "another hangs where"),
]

# Hardware rows: a machine-written record only (a BMC's SEL message, smartd's own record).
HARDWARE = [
    (_twentythird("d8beabdb064c"), "cpu", "twentythird d8beabdb064c (Dell's SEL message)"),
    ("Processor Sensor, IERR error, Processor 2", "cpu", "the record alone"),
    ('Message: "Processor Sensor, FRB3 failure, Processor 1"', "cpu", "FRB3, plain quotes"),
    (_twentythird("77b386d82216"), "ssd", "twentythird 77b386d82216 (smartd, wrapped)"),
    (
        "Jul 24 03:12:46 turtle smartd[1443]: Device: /dev/sda [SAT], 8 Offline uncorrectable "
        "sectors",
        "ssd",
        "smartd's syslog form on one line",
    ),
    ("    2 Offline uncorrectable sectors", "ssd", "the wrapped continuation"),
]

NOT = [
    # (text, the category it must not be read as, why)
    ("how to avoid running out of memory while trying to allocate", "out_of_memory", "no count"),
    (
        "XlaRuntimeError: INTERNAL: Failed to execute XLA Runtime executable",
        "out_of_memory",
        "a bug",
    ),
    ("Memory allocation failed, but the retry succeeded", "out_of_memory", "no storage source"),
    (
        "Mar 02 11:20:01 gpu7 systemd-oomd[801]: Considered 3 cgroups for killing, top "
        "candidates were:",
        "out_of_memory",
        "candidates only",
    ),
    ("nfs: server fs01 OK", "storage", "the server back"),
    ("if the NFS server is not responding, the mount blocks", "storage", "supposed"),
    ("损失函数没有变成nan", "numerical_nan", "没有 (none)"),
    ("如何避免出现nan", "numerical_nan", "避免 (avoiding)"),
    ("if it hangs where the GPUs sit at 0%, kill it", "hang", "supposed"),
]

HARDWARE_NOT = [
    ("the BMC said Processor Sensor, IERR error, Processor 1 last week", "cpu", "in a sentence"),
    ("we got an IERR error on processor 1 yesterday", "cpu", "said in words"),
    (_twentythird("70e4ac5683df"), "ssd", "twentythird 70e4ac5683df (the mail told in words)"),
    ("smartd reported 1 Currently unreadable (pending) sectors on sda", "ssd", "a sentence"),
    ("    0 Currently unreadable (pending) sectors", "ssd", "none"),
]

test_row = row_test(TWENTYTHIRD + HARDWARE)


test_near_miss = near_miss_test(NOT + HARDWARE_NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(
    TWENTYTHIRD + HARDWARE + NOT + HARDWARE_NOT
)


def test_the_twentythird_s_word_rows_exclude_no_node(tmp_path: Path) -> None:
    """None of the rows that read words or an allocator's message excludes a node."""
    for text, _category, why in TWENTYTHIRD:
        assert rows_alone(tmp_path, text).action != "exclude_node", why


def test_out_of_memory_pages(tmp_path: Path) -> None:
    """The four out-of-memory excerpts the twenty-third's first sight restarted now page."""
    for rid in ("cfaa081d42af", "a2fa869d4fb2", "bb2529e3ebe6", "0d2aa462aeb8"):
        v = rows_alone(tmp_path, _twentythird(rid))
        assert (v.category, v.action) == ("out_of_memory", "stop_and_page"), rid


def test_the_bmc_and_smartd_records_exclude_the_node_and_the_same_in_words_does_not(
    tmp_path: Path,
) -> None:
    """Dell's SEL message for a processor's IERR and smartd's own record of unreadable sectors
    are the machine's records: the node is excluded; the same said in a sentence is not."""
    for text, _category, why in HARDWARE:
        assert rows_alone(tmp_path, text).action == "exclude_node", why
    for text, _category, why in HARDWARE_NOT:
        assert rows_alone(tmp_path, text).action != "exclude_node", why


def test_the_xid_row_still_reads_xid_9_as_the_catalog_does(tmp_path: Path) -> None:
    """The twenty-third's wrong exclusion at first sight, left alone (corpus README): a burst of
    Xid 9 (0f507aa9668a), labelled a driver fault from NVIDIA's older description ("Driver error
    programming GPU"); the catalog nonstop reads (xids.py) files Xid 9 under CONTACT_SUPPORT, which
    nonstop reads for every such code as a weak faulty_gpu, and no other collection labels an
    Xid 9, as the twenty-first's Xid 109 and the twenty-second's Xid 120 were left to the
    catalog."""
    v = rows_alone(tmp_path, _twentythird("0f507aa9668a"))
    assert (v.category, v.action) == ("faulty_gpu", "exclude_node"), v.verdict
