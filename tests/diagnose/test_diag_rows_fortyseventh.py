"""Signature rows for the classes the forty-seventh collection showed missing
(tests/corpus/real/README.md, fortyseventh.jsonl, "After its rows", branch issue-27rows47). Each
row is tested on the forty-seventh's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take. Narrowed in
place: `smartd_mail` and `disk_link_failed` (smartd's informational attribute change), `mce` (an
HPE IML entry whose bank status is corrected or not valid); widened in place: `smartd_mail`
(smartd's error-count and unreadable-log mails), `raid_controller_degraded` (Smart Array's failed
arrays and drives, controllers' unrecoverable media errors), `disk_link_failed` (FreeBSD's SATA
command timeouts), `smart_log_failure` (Reported_Uncorrect); moved: a RAID/SAS controller's
firmware fault, from `disk_controller_fault` (`ssd`) to `storage_controller_fault`
(`io_expansion_board`, as the corpus labels it); new: `storage_controller_fault`,
`bios_smart_status_bad`, `windows_whea_bugcheck`, `dcgm_unreachable`."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fortyseventh(rid: str) -> str:
    return excerpt("fortyseventh", rid)


FORTYSEVENTH = [
    # (log text, category, why)
    # -- ssd: smartd's warning mails (`smartd_mail`, widened; smartmontools smartd.cpp
    # MailWarning: error counts grown, logs unreadable, a usage attribute failed)
    (_fortyseventh("d40bc466967f"), "ssd", "forty-seventh d40bc466967f (ATA error count)"),
    (_fortyseventh("988ed5ccf2fa"), "ssd", "forty-seventh 988ed5ccf2fa (self-test log)"),
    (excerpt("fifteenth", "2123e83a6ea9"), "ssd", "fifteenth 2123e83a6ea9 (self-test log)"),
    (
        "Dec  1 10:00:00 node7 smartd[1234]: Device: /dev/sdb [SAT], Self-Test Log error count "
        "increased from 0 to 1",
        "ssd",
        "smartd's self-test log count",
    ),
    (
        "Dec  1 10:00:00 node7 smartd[1234]: Device: /dev/sda [SAT], Read SMART Error Log Failed",
        "ssd",
        "smartd's unreadable error log",
    ),
    (
        "Dec  1 10:00:00 node7 smartd[1234]: Device: /dev/sdc [SAT], Failed SMART usage "
        "Attribute: 194 Temperature_Celsius.",
        "ssd",
        "smartd's failed usage attribute (LOG_CRIT)",
    ),
    # -- cpu: an IML machine check whose status has the uncorrected bit (`mce`, unchanged there)
    (excerpt("eighth", "f991dd7d05c1"), "cpu", "eighth f991dd7d05c1 (0xBA...)"),
    (excerpt("fortythird", "0504bf1a0b4a"), "cpu", "forty-third 0504bf1a0b4a (0xFE...)"),
    (
        "Uncorrectable Machine Check Exception (Board 0, Processor 2, APIC ID 0x00000020, Bank "
        "0x00000009, Status 0xB2000000'00800090, Address 0x00000000'00000000, Misc "
        "0x00000000'00000000)",
        "cpu",
        "an IML entry with UC and PCC set",
    ),
    # -- io_expansion_board: a RAID/SAS controller's firmware fault (`storage_controller_fault`;
    # Linux megaraid_sas and mpt3sas, FreeBSD sys/dev/mps/mps.c and sys/dev/mpr/mpr.c, illumos
    # mr_sas)
    (_fortyseventh("37669d96ae0b"), "io_expansion_board", "forty-seventh 37669d96ae0b (mps)"),
    (_fortyseventh("db4ab738ac2b"), "io_expansion_board", "forty-seventh db4ab738ac2b (mr_sas)"),
    (excerpt("thirtyfourth", "ff9a4f59b9b8"), "io_expansion_board", "thirty-fourth ff9a4f59b9b8"),
    ("mpr0: IOC Fault 0x40002622, Resetting", "io_expansion_board", "FreeBSD mpr's wording"),
    (
        "megaraid_sas 0000:02:00.0: Found FW in FAULT state, will reset adapter scsi0.",
        "io_expansion_board",
        "megaraid_sas's fusion reset wording",
    ),
    ("mpt3sas_cm1: fault_state(0x5854)!", "io_expansion_board", "mpt3sas's fault state"),
    # -- ssd: a BIOS halting POST on a drive's SMART status (`bios_smart_status_bad`; AMI Aptio,
    # HP's POST error 1720 and its PCs' 301, the Phoenix/Insyde laptop alert)
    (_fortyseventh("b689f72e509f"), "ssd", "forty-seventh b689f72e509f (AMI, NVMe)"),
    ("1720-S.M.A.R.T. Hard Drive Detects Imminent Failure", "ssd", "HP ProLiant POST 1720"),
    ("301-Hard Disk 1: SMART Hard Drive Detects Imminent Failure", "ssd", "HP PC POST 301"),
    (
        "SMART Failure Predicted on Hard Disk 0: WDC WD5000BEVT-352AT0-(S1)",
        "ssd",
        "a laptop BIOS's alert",
    ),
    # -- cpu: Windows' bug check 0x124 (`windows_whea_bugcheck`; Microsoft Learn, bug check
    # 0x124 WHEA_UNCORRECTABLE_ERROR)
    (_fortyseventh("a3fa6a8c0e6f"), "cpu", "forty-seventh a3fa6a8c0e6f (!analyze header)"),
    (
        "The computer has rebooted from a bugcheck.  The bugcheck was: 0x00000124 "
        "(0x0000000000000000, 0xffff9c0b1a2e4028, 0x00000000be000000, 0x00000000800400). A dump "
        "was saved in: C:\\Windows\\MEMORY.DMP.",
        "cpu",
        "the System log's Event 1001",
    ),
    ("BugCheck 124, {0, ffffe0010b3b5028, be000000, 800400}", "cpu", "WinDbg's banner"),
    (
        "Your PC ran into a problem and needs to restart.\nStop code: WHEA_UNCORRECTABLE_ERROR",
        "cpu",
        "the blue screen",
    ),
    # -- ssd: Smart Array's failed array or drive, a controller's unrecoverable media errors
    # (`raid_controller_degraded`, widened; hpacucli/ssacli show config, megaraid_sas events)
    (_fortyseventh("f76b4ee6de91"), "ssd", "forty-seventh f76b4ee6de91 (array B (Failed))"),
    (_fortyseventh("40367350ff48"), "ssd", "forty-seventh 40367350ff48 (media errors)"),
    (
        "   Array A (SAS, Unused Space: 0  MB, Status: Failed Physical Drive)",
        "ssd",
        "ssacli's array status",
    ),
    (
        "      physicaldrive 1I:1:2 (port 1I:box 1:bay 2, SAS HDD, 600 GB, Failed)",
        "ssd",
        "ssacli's failed physical drive",
    ),
    ("      logicaldrive 2 (2.2 TB, RAID 5, Failed)", "ssd", "ssacli's failed logical drive"),
    (
        "megaraid_sas 0000:02:00.0: 5305 (660927610s/0x0002/FATAL) - Unrecoverable medium error "
        "during recovery on PD 06(e0x20/s6) at 255d319",
        "ssd",
        "MegaRAID's event in the kernel log",
    ),
    (
        "Unrecoverable medium error during rebuild on PD 02(e0xff/s2) at 136a980",
        "ssd",
        "MegaCli's event list",
    ),
    # -- ssd: FreeBSD's SATA channels timing commands out (`disk_link_failed`, widened;
    # sys/dev/ahci/ahci.c, sys/dev/siis/siis.c)
    (_fortyseventh("35944d9d55a8"), "ssd", "forty-seventh 35944d9d55a8 (ahcich)"),
    ("siisch1: Timeout on slot 3 port 0", "ssd", "siis(4)'s wording"),
    ("ahcich0: Poll timeout on slot 1 port 15", "ssd", "the poll in a port reset"),
    # -- ssd: smartctl's Reported_Uncorrect above zero (`smart_log_failure`, widened)
    (_fortyseventh("f9633bfe2f2f"), "ssd", "forty-seventh f9633bfe2f2f (7 reported)"),
    (excerpt("twentyfifth", "0ea1508762c3"), "ssd", "twenty-fifth 0ea1508762c3"),
    (
        "187 Reported_Uncorrect      -O--CK   100   100   000    -    12",
        "ssd",
        "smartctl -x's brief flags",
    ),
    # -- dependency: a GPU health monitor that cannot reach or start DCGM (`dcgm_unreachable`;
    # go-dcgm dcgm/admin.go, dcgm-exporter, NVSentinel's gpu-health-monitor)
    (_fortyseventh("ee7894e545b8"), "dependency", "forty-seventh ee7894e545b8 (EKS agent)"),
    (_fortyseventh("09a56e9753b7"), "dependency", "forty-seventh 09a56e9753b7 (NVSentinel)"),
    (excerpt("fortythird", "826349b6150a"), "dependency", "forty-third 826349b6150a"),
    (
        'level=ERROR msg="Failed to connect to remote hostengine" mode=standalone '
        'address=nvidia-dcgm:5555 error="error connecting to nv-hostengine: Error: -21"',
        "dependency",
        "dcgm-exporter's standalone mode",
    ),
    (
        "failed to initialize DCGM: error connecting to nv-hostengine: Host engine connection "
        "invalid/disconnected\n"
        "[Mon Dec  7 03:00:00 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off "
        "the bus.",
        "faulty_gpu",
        "a GPU fault in the same log outranks the monitor's set-up",
    ),
]

NOT = [
    # (log text, category the rows must not give, why)
    (_fortyseventh("5e80cb972dcf"), "ssd", "forty-seventh 5e80cb972dcf (a value moved up)"),
    (
        "Dec  1 10:00:00 node7 smartd[1234]: Device: /dev/sda [SAT], SMART Usage Attribute: 194 "
        "Temperature_Celsius changed from 64 to 63",
        "ssd",
        "a usage attribute changing",
    ),
    (
        "Dec  1 10:00:00 node7 smartd[1234]: Device: /dev/sda [SAT], SMART Prefailure Attribute: "
        "5 Reallocated_Sector_Ct changed from 100 to 99",
        "ssd",
        "a prefailure value moving, far above its threshold",
    ),
    (
        "Dec  1 10:00:00 node7 smartd[1234]: Device: /dev/sda [SAT], is SMART capable. Adding to "
        '"monitor" list.',
        "ssd",
        "smartd registering a disk",
    ),
    (_fortyseventh("2276a1d163c7"), "cpu", "forty-seventh 2276a1d163c7 (status 0x80...)"),
    (
        "Uncorrectable Machine Check Exception (Board 0, Processor 1, APIC ID 0x00000000, Bank "
        "0x00000007, Status 0x9C000040'0000009F, Address 0x00000000'12345000, Misc "
        "0x00000000'00000000)",
        "cpu",
        "UC and PCC clear: a corrected error",
    ),
    (
        "Uncorrectable Machine Check Exception (Processor 1, APIC ID 0x00000000, Bank 0x00000000, "
        "Status 0x00000000'00000000, Address 0x00000000'00000000, Misc 0x00000000'00000000)",
        "cpu",
        "VAL clear: no error in the bank",
    ),
    ("megaraid_sas 0000:02:00.0: FW now in Ready state", "io_expansion_board", "ready"),
    ("mps0: Reinitializing controller", "io_expansion_board", "a reinit alone"),
    ("mpt3sas_cm0: diag reset: SUCCESS", "io_expansion_board", "a reset that succeeded"),
    ("S.M.A.R.T. Status: OK", "ssd", "a status that reads OK"),
    ("Drive SMART status: Good", "ssd", "Good"),
    ("SMART Failure Prediction: Enabled", "ssd", "a BIOS setting"),
    (
        "WHEA-Logger Event ID 19: A corrected hardware error has occurred.",
        "cpu",
        "a corrected event",
    ),
    (_fortyseventh("ac8e46df3a64"), "cpu", "forty-seventh ac8e46df3a64 (WHEA Event 47)"),
    (
        "How do I fix WHEA_UNCORRECTABLE_ERROR on Windows 10?",
        "cpu",
        "the name in a question",
    ),
    (
        "The computer has rebooted from a bugcheck.  The bugcheck was: 0x0000009f "
        "(0x0000000000000003, 0xffffc60f2d5c1060, 0xfffff8014a2b6850, 0xffffc60f2fe7a010).",
        "cpu",
        "another bug check",
    ),
    ("   array A (SAS, Unused Space: 0  MB, Status: OK)", "ssd", "an array OK"),
    ("      logicaldrive 1 (558.9 GB, RAID 1, OK)", "ssd", "a logical drive OK"),
    (
        "      physicaldrive 1I:1:1 (port 1I:box 1:bay 1, SAS HDD, 600 GB, OK)",
        "ssd",
        "a physical drive OK",
    ),
    (
        "Corrected medium error during recovery on PD 01(e0x20/s1) at 1f2e3d",
        "ssd",
        "MegaRAID's corrected medium error",
    ),
    ("ahcich0: AHCI reset: device found", "ssd", "a port reset finding its device"),
    ("ahci0: AHCI v1.31 with 6 6Gbps ports, Port Multiplier supported", "ssd", "attach"),
    (
        "187 Reported_Uncorrect      0x0032   100   100   000    Old_age   Always       -       0",
        "ssd",
        "Reported_Uncorrect at zero",
    ),
    (
        "Started host engine version 3.3.7 using port number: 5555",
        "dependency",
        "nv-hostengine starting",
    ),
    (
        'level=INFO msg="Attempting to connect to remote hostengine at nvidia-dcgm:5555"',
        "dependency",
        "an attempt to connect",
    ),
]

test_row = row_test(FORTYSEVENTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FORTYSEVENTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The forty-seventh's excerpts the rows now read get their labels' actions: the disk,
    controller and CPU reports exclude their node, and the two informational lines that had
    excluded one (smartd's attribute change, a corrected IML machine check) no longer do."""
    for rid, category, action in (
        ("37669d96ae0b", "io_expansion_board", "exclude_node"),
        ("db4ab738ac2b", "io_expansion_board", "exclude_node"),
        ("d40bc466967f", "ssd", "exclude_node"),
        ("988ed5ccf2fa", "ssd", "exclude_node"),
        ("f9633bfe2f2f", "ssd", "exclude_node"),
        ("f76b4ee6de91", "ssd", "exclude_node"),
        ("40367350ff48", "ssd", "exclude_node"),
        ("35944d9d55a8", "ssd", "exclude_node"),
        ("b689f72e509f", "ssd", "exclude_node"),
        ("a3fa6a8c0e6f", "cpu", "exclude_node"),
        ("ee7894e545b8", "dependency", "restart"),
        ("09a56e9753b7", "dependency", "restart"),
        ("5e80cb972dcf", "unknown", "restart"),
        ("2276a1d163c7", "unknown", "restart"),
    ):
        v = rows_alone(tmp_path, _fortyseventh(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)
