"""Signature rows for the classes the twenty-fifth collection showed missing
(tests/corpus/real/README.md, twentyfifth.jsonl, "After its rows", branch issue-27rows2526). Each
row is tested on the twenty-fifth's excerpts and on other wordings of its class, with the near
misses it must not take."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _twentyfifth(rid: str) -> str:
    return excerpt("twentyfifth", rid)


TWENTYFIFTH = [
    # (log text, category, why)
    # -- unknown: a PCIe error recovery that succeeded (no longer read as a disk lost)
    (_twentyfifth("b465b5e9236f"), "unknown", "twentyfifth b465b5e9236f (zpci, nvme recovered)"),
    (
        "pcieport 0000:00:03.0: AER: device recovery successful",
        "unknown",
        "the AER driver's own line",
    ),
    # -- io_expansion_board: a PCIe error recovery that failed, or a fatal PCIe error
    (_twentyfifth("9a75ea8cca4f"), "io_expansion_board", "twentyfifth 9a75ea8cca4f (zpci)"),
    (
        "zpci: 0001:00:00.0: Automatic recovery failed after initial reporting",
        "io_expansion_board",
        "another zpci step",
    ),
    (_twentyfifth("eb8da531d688"), "io_expansion_board", "twentyfifth eb8da531d688 (ESXi PSOD)"),
    (
        "cpu12:2097702)ALERT: ApeiHEST: 327: Fatal error from 0000:3b:00.0(PCI Express Root "
        "Port), VID:0x8086, DID:0x2030 DevSts: 0x4, AERUeSts: 0x20.",
        "io_expansion_board",
        "a root port",
    ),
    # -- system_memory: EDAC's older wording and sb_edac's header, over the machine check
    (_twentyfifth("d04657d69bb2"), "system_memory", "twentyfifth d04657d69bb2 (sb_edac)"),
    (
        'EDAC MC0: UE page 0x1f0, offset 0x0, grain 32, row 3, labels ":": i5000 UE',
        "system_memory",
        "an uncorrected one, older wording",
    ),
    # -- ssd: the raid1 driver's older wording
    (_twentyfifth("e71b9de58f18"), "ssd", "twentyfifth e71b9de58f18 (raid1)"),
    (
        "Mar  2 10:01:12 host kernel: raid10: Disk failure on sdc2, disabling device.",
        "ssd",
        "raid10, a syslog prefix",
    ),
    # -- ssd: XFS's older I/O error wording on a local disk
    (_twentyfifth("04a13a90ca98"), "ssd", "twentyfifth 04a13a90ca98 (xlog_iodone)"),
    (
        'I/O error in filesystem ("nvme0n1p2") meta-data dev nvme0n1p2 block 0x1a2b '
        '("xfs_trans_read_buf") error 5 buf count 4096',
        "ssd",
        "an NVMe partition",
    ),
    # -- dependency: an extension build that does not know the GPU's architecture
    (_twentyfifth("f54c4730c61d"), "dependency", "twentyfifth f54c4730c61d (cpp_extension)"),
    (
        "ValueError: Unknown CUDA arch (9.0+PTX) or GPU not supported",
        "dependency",
        "another arch",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    (
        "nvme nvme1: frozen state error detected, reset controller",
        "ssd",
        "the start of a recovery, not its outcome",
    ),
    (
        "if recovery fails, zpci prints Automatic recovery failed",
        "io_expansion_board",
        "in a sentence, no device",
    ),
    (
        "pcieport 0000:00:03.0: AER: device recovery successful",
        "io_expansion_board",
        "a recovery that worked",
    ),
    ("the raid1: Disk failure on sdb1 message means", "ssd", "no 'disabling device'"),
    (
        'I/O error in filesystem ("md0") meta-data dev md0 block 0x1',
        "ssd",
        "not a single local disk in this wording",
    ),
    ("EDAC MC0: CE counter reset", "system_memory", "no row or page: not an error record"),
]

test_row = row_test(TWENTYFIFTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(TWENTYFIFTH + NOT)


def test_a_recovered_pcie_error_gives_way_to_a_real_failure(tmp_path: Path) -> None:
    """The recovered row is corrected-only (specificity 12): a disk that fails in the same log,
    or a recovery that fails, decides."""
    text = (
        _twentyfifth("b465b5e9236f") + "\nnvme nvme0: Disabling device after reset failure: -19\n"
    )
    assert rows_alone(tmp_path, text).category == "ssd"
    text = _twentyfifth("b465b5e9236f") + "\npcieport 0000:00:03.0: AER: device recovery failed\n"
    assert rows_alone(tmp_path, text).category == "io_expansion_board"


def test_the_twentyfifth_s_wrong_exclusion_is_gone(tmp_path: Path) -> None:
    """b465b5e9236f (an NVMe PCIe error that recovered) excluded the node at first sight."""
    assert rows_alone(tmp_path, _twentyfifth("b465b5e9236f")).action == "restart"
