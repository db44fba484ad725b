"""nonstop.diagnose.vendor on real tool output (tests/corpus/vendor, sources in its README):
a clear bad finding names its taxonomy category; history is reported, not decisive; garbage
decides nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonstop.diagnose import vendor

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "vendor"


def real(name: str) -> str:
    return (CORPUS / name).read_text()


def test_nvidia_smi_a_pending_remap_is_bad_and_correctable_counts_are_not() -> None:
    r = vendor.parse("nvidia-smi", real("nvidia-smi-q-a100-remap-pending.txt"))
    assert r.readable
    assert [(f.category, f.detail) for f in r.bad] == [
        ("gpu_hbm3_memory", "GPU 00000000:10:1C.0: row remapping pending")
    ]


def test_nvidia_smi_volatile_uncorrectable_sram_and_dram() -> None:
    # the real output with one documented field changed each time
    text = real("nvidia-smi-q-a100-remap-pending.txt").replace(
        "Pending                           : Yes", "Pending                           : No"
    )
    assert vendor.parse("nvidia-smi", text).bad == []
    dram = text.replace(
        "            DRAM Uncorrectable            : 0\n        Aggregate",
        "            DRAM Uncorrectable            : 2\n        Aggregate",
    )
    (f,) = vendor.parse("nvidia-smi", dram).bad
    assert f.category == "gpu_hbm3_memory" and "volatile DRAM Uncorrectable 2" in f.detail
    sram = text.replace(
        "            SRAM Uncorrectable            : 0\n            DRAM Correctable              : 177\n            DRAM Uncorrectable            : 0\n        Aggregate",
        "            SRAM Uncorrectable            : 1\n            DRAM Correctable              : 177\n            DRAM Uncorrectable            : 0\n        Aggregate",
    )
    (f,) = vendor.parse("nvidia-smi", sram).bad
    assert f.category == "gpu_sram_memory"
    # the aggregate (lifetime) count alone is history: reported, not an exclusion
    history = text.replace(
        "            DRAM Uncorrectable            : 0\n    Retired",
        "            DRAM Uncorrectable            : 5\n    Retired",
    )
    r = vendor.parse("nvidia-smi", history)
    assert r.bad == [] and any("aggregate" in s for s in r.seen)
    failed = text.replace(
        "Remapping Failure Occurred        : No", "Remapping Failure Occurred        : Yes"
    )
    assert [f.detail for f in vendor.parse("nvidia-smi", failed).bad][-1].endswith(
        "row remapping failed"
    )


def test_dcgmi_diag_error_row() -> None:
    r = vendor.parse("dcgmi-diag", real("dcgmi-diag-row-remap-pending.txt"))
    assert r.readable
    (f,) = r.bad
    assert f.category == "gpu_hbm3_memory" and "uncorrectable memory errors" in f.detail


def test_ipmitool_sel_asserted_then_deasserted() -> None:
    text = real("ipmitool-sel-psu-ac-lost.txt")
    (f,) = vendor.parse("ipmitool-sel", text).bad
    assert f.category == "power_supply" and "AC lost" in f.detail
    # the same sensor and event deasserted later (a line in the same format): history
    later = (
        text
        + "  12 | 02/06/2020 | 18:42:07 | Power Supply #0xfb | Power Supply AC lost | Deasserted\n"
    )
    r = vendor.parse("ipmitool-sel", later)
    assert r.bad == [] and r.seen


def test_ipmitool_sdr_a_supply_failure_although_its_status_says_ok() -> None:
    (f,) = vendor.parse("ipmitool-sdr", real("ipmitool-sdr-elist-psu-failure.txt")).bad
    assert f.category == "power_supply" and f.detail.startswith("SDR: Power Supply 1:")


def test_ibstat_no_active_port_is_bad_one_down_port_is_not() -> None:
    text = real("ibstat-active.txt")
    r = vendor.parse("ibstat", text)
    assert r.readable and r.bad == []
    down = text.replace("State: Active", "State: Down").replace("LinkUp", "Polling")
    (f,) = vendor.parse("ibstat", down).bad
    assert f.category == "nic"
    second = text + "Port 2:\nState: Down\nPhysical state: Polling\nLink layer: InfiniBand\n"
    assert vendor.parse("ibstat", second).bad == []  # an unused second port


def test_smartctl_failed() -> None:
    text = real("smartctl-a-passed.txt")
    r = vendor.parse("smartctl", text)
    assert r.bad == [] and "PASSED" in r.summary()
    (f,) = vendor.parse("smartctl", text.replace("result: PASSED", "result: FAILED!")).bad
    assert f.category == "ssd"


def test_dcgmi_nvlink_and_nvme_smart_log_in_their_documented_layouts() -> None:
    # written to the tools' documented layouts (no published real sample was found)
    nvlink = "+----------------------+\n|  NvLink Link Status  |\n+----------------------+\nGPUs:\n    gpuId 0:\n        U U U U U U U U U U U U\n    gpuId 1:\n        U U D U U U U U U U U U\n"
    (f,) = vendor.parse("dcgmi-nvlink", nvlink).bad
    assert f.category == "faulty_gpu" and "GPU 1" in f.detail and "[2]" in f.detail
    nvme = "Smart Log for NVME device:nvme0 namespace-id:ffffffff\ncritical_warning                        : 0\nmedia_errors                            : 0\n"
    assert vendor.parse("nvme-smart-log", nvme).bad == []
    (f,) = vendor.parse("nvme-smart-log", nvme.replace(": 0\nmedia", ": 0x4\nmedia")).bad
    assert f.category == "ssd"


@pytest.mark.parametrize("tool", sorted(vendor.PARSERS))
def test_garbage_decides_nothing(tool: str) -> None:
    for text in ("", "\x00\xff garbage {<html>", "command not found\n", "Segmentation fault\n"):
        r = vendor.parse(tool, text)
        assert r.bad == [], (tool, text)


def test_edac_and_machine_check_counters(tmp_path: Path) -> None:
    mc = tmp_path / "edac" / "mc0"
    mc.mkdir(parents=True)
    (mc / "ue_count").write_text("0\n")
    (mc / "ce_count").write_text("3\n")
    r = vendor.read_edac(tmp_path / "edac")
    assert r.readable and r.bad == [] and r.seen == ["EDAC mc0: 3 corrected"]
    (mc / "ue_count").write_text("1\n")
    (f,) = vendor.read_edac(tmp_path / "edac").bad
    assert f.category == "system_memory"
    assert not vendor.read_edac(tmp_path / "none").readable
    irq = tmp_path / "interrupts"
    irq.write_text(
        "           CPU0       CPU1\n MCE:          0          0   Machine check exceptions\n MCP:         12         12   Machine check polls\n"
    )
    assert vendor.read_mce(irq).bad == []
    irq.write_text(irq.read_text().replace("MCE:          0", "MCE:          2"))
    (f,) = vendor.read_mce(irq).bad
    assert f.category == "cpu"


@pytest.mark.parametrize(
    ("fixture", "category", "signature"),
    [
        ("nvidia-smi-q-a100-remap-pending.txt", "gpu_hbm3_memory", "row_remap_failure"),
        ("dcgmi-diag-row-remap-pending.txt", "faulty_gpu", "dcgm_diag_fail"),
        ("ipmitool-sel-psu-ac-lost.txt", "power_supply", "psu"),
        ("ipmitool-sdr-elist-psu-failure.txt", "power_supply", "psu"),
        ("smartctl-a-passed.txt", "unknown", None),
        ("ibstat-active.txt", "unknown", None),
    ],
)
def test_triage_reads_the_same_outputs_in_a_log(
    fixture: str, category: str, signature: str | None
) -> None:
    """A tool's output pasted into a log decides as the health check does; a healthy one
    (and nvidia-smi's `Double Bit ECC : N/A`) is no evidence to the rows. The statistical
    fallback may still read a healthy report's words as its tool's failure class (it knows words,
    not states): then the verdict says it guessed, and a guess never excludes a node."""
    from nonstop.diagnose.triage import triage_file

    v = triage_file(CORPUS / fixture, fallback=False)
    assert v.category == category, v.to_dict()
    sigs = {e["signature"] for e in v.details.get("evidence_lines", [])}
    assert (signature in sigs) if signature else not sigs, sigs
    g = triage_file(CORPUS / fixture)
    if signature:
        assert (g.category, g.guessed) == (category, False), g.to_dict()
    else:
        assert g.guessed or g.category == "unknown", g.to_dict()
        assert g.action != "exclude_node", g.to_dict()


def test_triage_smartctl_failed_in_a_log(tmp_path: Path) -> None:
    from nonstop.diagnose.triage import triage_file

    log = tmp_path / "epilog.log"
    log.write_text(real("smartctl-a-passed.txt").replace("result: PASSED", "result: FAILED!"))
    assert triage_file(log).category == "ssd"
