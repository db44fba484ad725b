"""Vendor tools' output as evidence: parsers for what an engineer runs on a suspect node.

    nvidia-smi -q                 ECC (volatile/aggregate, SRAM/DRAM uncorrectable), remapped rows
    dcgmi diag -r 1               DCGM's quick diagnostic: a test that says Fail
    dcgmi nvlink --link-status    NVLink ports Down
    ibstat                        InfiniBand ports: none Active while some are present
    ipmitool sel list             the BMC's event log: power supply failure/AC lost asserted
    ipmitool sdr [elist]          sensors: critical/non-recoverable, or a supply's failure
    smartctl -H -A                SMART overall health FAILED
    nvme smart-log                critical_warning set
    /sys/.../edac/mc/mc*/ue_count uncorrectable host memory errors
    /proc/interrupts MCE          machine-check exceptions since boot

Each parser takes the tool's text and returns a Reading: `bad` findings (each with its taxonomy
category and the line that decided it), what was `seen` (a summary), and `readable` (False
when the text is not that tool's output: garbage decides nothing). Standard library only, no
subprocess: nonstop.supervisor.vendor_checks runs the tools; triage reads the same lines in
logs (signatures.py). A clear bad finding is one a vendor documents as needing service: an
uncorrectable error counted since the last reset, a pending or failed row remap, a test that
failed, a link or supply reported down. Counters that only accumulate history (aggregate ECC,
corrected errors, SEL events deasserted since) are reported, not decisive.

    r = parse("nvidia-smi", text); r.bad[0].category == "gpu_hbm3_memory"
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Finding:
    category: str
    """A nonstop.taxonomy id."""
    detail: str
    """What decided it, in the tool's words (device, field, value)."""


@dataclass
class Reading:
    tool: str
    readable: bool
    bad: list[Finding] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)

    def summary(self) -> str:
        if not self.readable:
            return f"{self.tool}: output not recognized (decides nothing)"
        if self.bad:
            return f"{self.tool}: " + "; ".join(f"{f.detail} [{f.category}]" for f in self.bad)
        return f"{self.tool}: ok" + (f" ({'; '.join(self.seen[:4])})" if self.seen else "")


_KV = re.compile(r"^(?P<indent>\s*)(?P<key>[^:]+?)\s*:\s*(?P<value>.*?)\s*$")


def _int(value: str) -> int | None:
    m = re.match(r"^(0x[0-9a-fA-F]+|\d+)", value.replace(",", ""))
    return int(m.group(1), 0) if m else None


# -- nvidia-smi -q ------------------------------------------------------------------------------


def parse_nvidia_smi(text: str) -> Reading:
    """`nvidia-smi -q` (or `-q -d ECC,ROW_REMAPPER`): per GPU (its `GPU 00000000:3B:00.0`
    header), the ECC section's Volatile uncorrectable counts (SRAM, DRAM, or the older "Double
    Bit" Total) and Remapped Rows' Pending / Remapping Failure Occurred."""
    r = Reading("nvidia-smi", readable=False)
    gpu = "?"
    path: list[tuple[int, str]] = []  # (indent, section) stack
    for line in text.splitlines():
        if m := re.match(r"^GPU ([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.\d)\s*$", line):
            gpu, path = m.group(1), []
            r.readable = True
            continue
        if not line.strip() or line.strip().startswith("["):  # blank, or an elision "[...]"
            continue
        kv = _KV.match(line)
        if kv is None:  # a section header ("ECC Errors", "Volatile", "Remapped Rows")
            indent, key, value = len(line) - len(line.lstrip()), line.strip(), ""
        else:
            indent, key, value = len(kv.group("indent")), kv.group("key").strip(), kv.group("value")
        while path and path[-1][0] >= indent:
            path.pop()
        if not value:  # a section header, with or without its colon
            path.append((indent, key))
            continue
        if key in ("Driver Version", "Attached GPUs", "Product Name"):
            r.readable = True
        sections = [s for _, s in path]
        n = _int(value)
        if "Volatile" in sections and re.search(r"Uncorrectable|Total", key) and n:
            double = "Double Bit" in sections or "Uncorrectable" in key
            if double and "Aggregate" not in sections:
                cat = "gpu_sram_memory" if key.startswith("SRAM") else "gpu_hbm3_memory"
                r.bad.append(Finding(cat, f"GPU {gpu}: volatile {key} {n}"))
        elif "Aggregate" in sections and "Uncorrectable" in key and n:
            r.seen.append(f"GPU {gpu}: aggregate {key} {n} (history)")
        elif sections and sections[-1] == "Remapped Rows":
            if key == "Pending" and value == "Yes":
                r.bad.append(Finding("gpu_hbm3_memory", f"GPU {gpu}: row remapping pending"))
            elif key == "Remapping Failure Occurred" and value == "Yes":
                r.bad.append(Finding("gpu_hbm3_memory", f"GPU {gpu}: row remapping failed"))
    return r


# -- DCGM ---------------------------------------------------------------------------------------


def parse_dcgmi_diag(text: str) -> Reading:
    """`dcgmi diag -r 1`: its table's result column; a test that says Fail (or a row labelled
    Error under it, as DCGM prints the reason) is bad."""
    r = Reading("dcgmi diag", readable="Diagnostic" in text and "Result" in text)
    last = ""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not line.lstrip().startswith("|"):
            continue
        name, result = cells
        if name in ("Diagnostic", "") and not result:
            continue
        if name:
            last = name
        if re.match(r"(?i)^fail", result) or (name == "Error" and result):
            r.bad.append(Finding(_dcgm_category(last, result), f"dcgmi diag {last}: {result}"))
        elif re.match(r"(?i)^(pass|skip|warn)", result):
            r.seen.append(f"{name}: {result.split()[0]}")
    return r


def _dcgm_category(test: str, result: str) -> str:
    text = f"{test} {result}".lower()
    if "memory" in text or "row remap" in text or "ecc" in text:
        return "gpu_hbm3_memory"
    if "thermal" in text or "temperature" in text:
        return "gpu_thermal_interface_sensor"
    if "pcie" in text:
        return "io_expansion_board"
    return "faulty_gpu"


def parse_dcgmi_nvlink(text: str) -> Reading:
    """`dcgmi nvlink --link-status`: one row of link states per GPU (and NvSwitch); `D`
    (down) is bad, `U` up, `X` not supported, `_` disabled."""
    r = Reading("dcgmi nvlink", readable="gpuId" in text or "physicalId" in text)
    for m in re.finditer(r"(gpuId|physicalId) (\d+):\s*\n\s*([UDX_ ]+)", text):
        states = m.group(3).split()
        down = [i for i, s in enumerate(states) if s == "D"]
        who = f"{'GPU' if m.group(1) == 'gpuId' else 'NvSwitch'} {m.group(2)}"
        if down:
            r.bad.append(Finding("faulty_gpu", f"{who}: NVLink link(s) {down} down"))
        else:
            r.seen.append(f"{who}: {states.count('U')} links up")
    return r


# -- InfiniBand ---------------------------------------------------------------------------------


def parse_ibstat(text: str) -> Reading:
    """`ibstat`: every port's State and Physical state. An unused second port is Down in a
    healthy node, so one port down decides nothing; no Active InfiniBand port at all is bad."""
    r = Reading("ibstat", readable=bool(re.search(r"^CA '", text, re.M)))
    ports: list[tuple[str, str, str, str]] = []  # (ca, port, state, link layer)
    ca = port = state = ""
    layer = "InfiniBand"
    for line in text.splitlines():
        s = line.strip()
        if m := re.match(r"^CA '([^']+)'", s):
            ca = m.group(1)
        elif m := re.match(r"^Port (\d+):", s):
            if port:
                ports.append((ca, port, state, layer))
            port, state, layer = m.group(1), "", "InfiniBand"
        elif m := re.match(r"^State:\s*(\w+)", s):
            state = m.group(1)
        elif m := re.match(r"^Link layer:\s*(\w+)", s):
            layer = m.group(1)
    if port:
        ports.append((ca, port, state, layer))
    ib = [p for p in ports if p[3] == "InfiniBand"]
    for c, p, st, _ in ib:
        r.seen.append(f"{c} port {p}: {st or '?'}")
    if ib and not any(st == "Active" for _, _, st, _ in ib):
        down = ", ".join(f"{c} port {p} {st}" for c, p, st, _ in ib)
        r.bad.append(Finding("nic", f"no InfiniBand port is Active ({down})"))
    return r


# -- IPMI ---------------------------------------------------------------------------------------

_SEL_BAD = (
    (
        r"(?i)power supply",
        r"(?i)failure detected|ac lost|input lost|predictive failure",
        "power_supply",
    ),
    (r"(?i)memory", r"(?i)uncorrectable ecc", "system_memory"),
    (r"(?i)processor", r"(?i)ierr|machine check|thermal trip", "cpu"),
)


def parse_ipmitool_sel(text: str) -> Reading:
    """`ipmitool sel list`: `id | date | time | sensor | event | Asserted/Deasserted`. A power
    supply failure, an uncorrectable memory error or a processor error whose last record for
    that sensor and event is Asserted is bad; one deasserted since is history."""
    r = Reading("ipmitool sel", readable=False)
    state: dict[tuple[str, str], str] = {}  # the last direction of each sensor's event
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 5 or not cells[0].strip().isalnum():
            continue
        r.readable = True
        sensor, event = re.sub(r"\s*#0x[0-9a-fA-F]+$", "", cells[3]), cells[4]
        direction = cells[5] if len(cells) > 5 else "Asserted"
        state[(sensor, event)] = direction
    for (sensor, event), direction in state.items():
        for s_pat, e_pat, cat in _SEL_BAD:
            if re.search(s_pat, sensor) and re.search(e_pat, event):
                if direction.lower().startswith("asserted"):
                    r.bad.append(Finding(cat, f"SEL: {sensor}: {event} (asserted)"))
                else:
                    r.seen.append(f"SEL: {sensor}: {event} (deasserted since)")
    return r


def parse_ipmitool_sdr(text: str) -> Reading:
    """`ipmitool sdr` / `sdr elist`: a sensor whose status is `cr` or `nr` (critical,
    non-recoverable), or a power supply whose reading says "Failure detected" or "AC lost"."""
    r = Reading("ipmitool sdr", readable=False)
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 3:
            continue
        r.readable = True
        name = cells[0]
        status = cells[2]  # `sdr`: name | reading | status; `sdr elist`: name | id | status | ...
        reading = cells[-1]
        if re.search(r"(?i)power suppl|\bPSU?\d", name) and re.search(
            r"(?i)failure detected|ac lost|input lost", reading
        ):
            r.bad.append(Finding("power_supply", f"SDR: {name}: {reading}"))
        elif status in ("cr", "nr"):
            cat = "power_supply" if re.search(r"(?i)power|psu|volt", name) else "server_chassis"
            r.bad.append(Finding(cat, f"SDR: {name}: status {status} ({reading})"))
    return r


# -- storage ------------------------------------------------------------------------------------


def parse_smartctl(text: str) -> Reading:
    """`smartctl -H -A`: the overall health line (ATA "self-assessment test result", SCSI
    "SMART Health Status"); FAILED is bad. Attributes are reported (reallocated and pending
    sectors), not decisive."""
    r = Reading("smartctl", readable="smartctl" in text or "SMART" in text)
    m = re.search(r"self-assessment test result:\s*(\S+)", text) or re.search(
        r"SMART Health Status:\s*(\S+)", text
    )
    verdict = m.group(1) if m else ""
    if verdict.upper().startswith("FAIL"):
        r.bad.append(Finding("ssd", f"SMART overall health: {verdict}"))
    elif verdict:
        r.seen.append(f"SMART overall health: {verdict}")
    for m in re.finditer(
        r"^\s*\d+\s+(Reallocated_Sector_Ct|Current_Pending_Sector|Offline_Uncorrectable)\s.*?(\d+)\s*$",
        text,
        re.M,
    ):
        if int(m.group(2)):
            r.seen.append(f"{m.group(1)} {m.group(2)}")
    return r


def parse_nvme_smart_log(text: str) -> Reading:
    """`nvme smart-log /dev/nvmeN`: critical_warning non-zero (spare below threshold,
    temperature, reliability degraded, read-only, backup failed) is bad; media_errors are
    reported."""
    r = Reading("nvme smart-log", readable="critical_warning" in text)
    for line in text.splitlines():
        kv = _KV.match(line)
        if kv is None:
            continue
        key, value = kv.group("key").strip(), kv.group("value")
        n = _int(value)
        if key == "critical_warning" and n:
            r.bad.append(Finding("ssd", f"NVMe critical_warning {value}"))
        elif key == "media_errors" and n:
            r.seen.append(f"media_errors {n}")
    return r


# -- /sys and /proc -----------------------------------------------------------------------------


def read_edac(root: Path = Path("/sys/devices/system/edac/mc")) -> Reading:
    """EDAC's memory controllers: ue_count > 0 (uncorrectable since boot) is bad; ce_count
    (corrected) is reported. No EDAC driver: not readable, decides nothing."""
    r = Reading("edac", readable=False)
    for mc in sorted(root.glob("mc*")) if root.is_dir() else []:
        try:
            ue = int((mc / "ue_count").read_text().strip() or 0)
            ce = int((mc / "ce_count").read_text().strip() or 0)
        except (OSError, ValueError):
            continue
        r.readable = True
        if ue:
            r.bad.append(Finding("system_memory", f"EDAC {mc.name}: {ue} uncorrectable"))
        if ce:
            r.seen.append(f"EDAC {mc.name}: {ce} corrected")
    return r


def read_mce(interrupts: Path = Path("/proc/interrupts")) -> Reading:
    """/proc/interrupts' `MCE:` row: machine-check exceptions since boot, summed over CPUs
    (corrected errors arrive through CMCI or polling, `MCP:`, not as exceptions)."""
    r = Reading("mce", readable=False)
    try:
        text = interrupts.read_text()
    except OSError:
        return r
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] in ("MCE:", "MCP:"):
            r.readable = True
            total = sum(int(p) for p in parts[1:] if p.isdigit())
            if parts[0] == "MCE:" and total:
                r.bad.append(Finding("cpu", f"{total} machine-check exceptions since boot"))
            elif parts[0] == "MCP:":
                r.seen.append(f"{total} machine-check polls")
    return r


PARSERS: dict[str, Callable[[str], Reading]] = {
    "nvidia-smi": parse_nvidia_smi,
    "dcgmi-diag": parse_dcgmi_diag,
    "dcgmi-nvlink": parse_dcgmi_nvlink,
    "ibstat": parse_ibstat,
    "ipmitool-sel": parse_ipmitool_sel,
    "ipmitool-sdr": parse_ipmitool_sdr,
    "smartctl": parse_smartctl,
    "nvme-smart-log": parse_nvme_smart_log,
}


def parse(tool: str, text: str) -> Reading:
    """The reading of `tool`'s output (a PARSERS key)."""
    return PARSERS[tool](text)
