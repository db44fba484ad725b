"""The `vendor` health check with fake tools on PATH: real processes (shell scripts) that print
a real tool's output (tests/corpus/vendor), hang, or print garbage. A bad finding fails the
check (the node is excluded); a tool that hangs, prints garbage or is missing costs at most its
limit and is reported, never a failure."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from nonstop.diagnose.join import _health_hits
from nonstop.supervisor.health import HealthConfig, run_checks
from nonstop.supervisor.vendor_checks import TOOLS, Tool, check_vendor

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "vendor"


def fake_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **scripts: str) -> None:
    """Executables named like the real tools, alone on PATH (no real tool is found)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in scripts.items():
        exe = bin_dir / name
        exe.write_text("#!/bin/sh\n" + body + "\n")
        exe.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))


def printing(fixture: str) -> str:
    return f"/bin/cat {CORPUS / fixture}"


HANG = "exec /bin/sleep 600"
GARBAGE = "/usr/bin/printf '\\000\\377 <html> not what anyone documents\\n'; exit 0"


def cfg(tmp_path: Path, timeout_s: float = 30.0) -> HealthConfig:
    return HealthConfig(paths=(tmp_path,), timeout_s=timeout_s, evidence_dir=tmp_path / "ev")


def no_counters(tmp_path: Path) -> dict[str, Path]:
    return {"edac_root": tmp_path / "no-edac", "interrupts": tmp_path / "no-interrupts"}


def test_a_pending_remap_fails_the_check_with_its_category_and_keeps_the_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_tools(
        tmp_path,
        monkeypatch,
        **{"nvidia-smi": printing("nvidia-smi-q-a100-remap-pending.txt")},
        ibstat=printing("ibstat-active.txt"),
    )
    r = check_vendor(cfg(tmp_path), **no_counters(tmp_path))
    assert r.status == "failed", r
    assert "row remapping pending [gpu_hbm3_memory]" in r.detail
    kept = (tmp_path / "ev" / "nvidia-smi.txt").read_text()
    assert "Remapping Failure Occurred" in kept  # the tool's own words, as evidence
    runs = {
        x["tool"]: x["status"] for x in json.loads((tmp_path / "ev" / "vendor.json").read_text())
    }
    assert (
        runs["nvidia-smi"] == "read"
        and runs["ibstat"] == "read"
        and runs["dcgmi-diag"] == "missing"
    )
    # nonstop diagnose reads the category the check named
    (hit,) = _health_hits([{"name": r.name, "status": r.status, "detail": r.detail, "host": "n1"}])
    assert hit.category == "gpu_hbm3_memory"


def test_power_supply_and_memory_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_tools(tmp_path, monkeypatch, ipmitool=printing("ipmitool-sel-psu-ac-lost.txt"))
    mc = tmp_path / "edac" / "mc0"
    mc.mkdir(parents=True)
    (mc / "ue_count").write_text("2\n")
    (mc / "ce_count").write_text("0\n")
    r = check_vendor(cfg(tmp_path), edac_root=tmp_path / "edac", interrupts=tmp_path / "x")
    assert r.status == "failed"
    assert "[power_supply]" in r.detail and "[system_memory]" in r.detail


def test_hung_garbage_and_missing_tools_cost_their_limit_and_never_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_tools(
        tmp_path,
        monkeypatch,
        **{"nvidia-smi": HANG, "dcgmi": GARBAGE},
        ibstat=printing("ibstat-active.txt"),
    )
    tools = tuple(Tool(t.name, t.argv, 2.0) if t.name == "nvidia-smi" else t for t in TOOLS)
    t0 = time.monotonic()
    r = check_vendor(cfg(tmp_path), tools=tools, **no_counters(tmp_path))
    took = time.monotonic() - t0
    assert r.status == "passed", r
    assert "nvidia-smi hung: killed after 2 s" in r.detail
    assert "dcgmi-diag garbage" in r.detail and "dcgmi-nvlink garbage" in r.detail
    assert "ibstat" in r.detail.split(";")[0]  # the tool that answered well
    assert took < 30  # the hung tool cost its limit, not its 600 s


def test_a_hang_within_the_health_timeout_is_the_tools_not_the_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """run_checks fails a check that outlives its timeout (a hung mount): the vendor check
    keeps every tool inside that timeout, so a hung tool never becomes a node failure."""
    fake_tools(tmp_path, monkeypatch, **{"nvidia-smi": HANG})
    (r,) = run_checks(["vendor"], cfg(tmp_path, timeout_s=4.0), **no_counters(tmp_path))
    assert r.status == "passed", r
    assert "nvidia-smi hung: killed after 2 s" in r.detail


def test_nothing_installed_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_tools(tmp_path, monkeypatch)
    r = check_vendor(cfg(tmp_path), **no_counters(tmp_path))
    assert r.status == "skipped"
