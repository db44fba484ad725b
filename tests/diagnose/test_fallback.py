"""Triage's statistical fallback (nonstop.diagnose.fallback): asked only when no signature row
matched, it says when it guessed, abstains when unsure, never excludes a node, and ships as a
table that equals a fresh build from the corpus's tuning splits."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from nonstop.diagnose import fallback, triage
from nonstop.diagnose.cli import triage_main

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import build_triage_fallback  # noqa: E402

VENDOR = ROOT / "tests" / "corpus" / "vendor"
# an IB port logically Down while its cable is up: no row knows this wording, the table's words do
IB_DOWN = "CA 'mlx5_2'\n\tPort 1:\n\t\tState: Down\n\t\tPhysical state: LinkUp\n"
IB_DOWN += "\t\tLink layer: InfiniBand\n"


def _log(tmp_path: Path, text: str, name: str = "rank-0.log") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_the_shipped_table_equals_a_fresh_build() -> None:
    assert build_triage_fallback.TRAINING == ("tuning", "fresh", "third", "fourth", "fifth")
    fresh = fallback.dumps(fallback.build(build_triage_fallback.records()))
    assert fallback.TABLE.read_text() == fresh, "run benchmarks/build_triage_fallback.py"
    table = json.loads(fresh)
    assert 0.0 < table["threshold"] < 1.0 and table["temperature"] > 0
    assert fallback.TABLE.stat().st_size < 200_000  # compact: counts, not a matrix


def test_features_mask_numbers_addresses_and_ids() -> None:
    f = fallback.features(
        "NVRM: Xid (PCI:0000:3b:00): 79 at 0x1ff from 10.0.0.1 on nvme0n1 "
        "GPU-0b6b7808-c002-f593-ac86-cd8e57757b94 deadbeef"
    )
    assert {"nvrm", "xid", "nvme0n0", "nvrm xid"} <= f
    assert not any(ch in "123456789" for word in f for ch in word), f
    assert "deadbeef" not in f


def test_a_row_always_decides_and_is_no_guess(tmp_path: Path) -> None:
    text = "NVRM: Xid (PCI:0000:3b:00): 79, pid=7, name=python, GPU has fallen off the bus.\n"
    log = _log(tmp_path, text + IB_DOWN)
    v, rows = triage.triage_file(log), triage.triage_file(log, fallback=False)
    assert (v.category, v.guessed) == ("faulty_gpu", False)
    assert v.to_dict() | {"details": None} == rows.to_dict() | {"details": None}


def test_a_guess_says_it_is_one(tmp_path: Path, capsys) -> None:
    log = _log(tmp_path, IB_DOWN)
    assert triage.triage_file(log, fallback=False).category == "unknown"  # no row knows it
    v = triage.triage_file(log, rank=3, host="node-b")
    assert v.guessed and v.category == "network_switch_cable" and v.action == "restart"
    assert v.verdict.startswith("Guess: ") and v.details["guess"]["category"] == v.category
    assert 0.0 < v.confidence < 1.0 and v.to_dict()["guessed"] is True
    assert v.culprits[0].host == "node-b"
    assert triage.file_json(v)["guessed"] is True
    assert triage_main([str(log)]) == 0
    assert "(guess, p " in capsys.readouterr().out
    assert triage_main([str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["files"][0]["guessed"] and out["overall"]["guessed"]


def test_it_abstains_when_the_words_say_nothing(tmp_path: Path) -> None:
    v = triage.triage_file(_log(tmp_path, "lorem ipsum dolor sit amet\n"))
    assert (v.category, v.guessed, v.confidence) == ("unknown", False, 0.1)


def test_a_guess_never_excludes_a_node() -> None:
    """A healthy `smartctl -a` reads like a disk failure to a bag of words: weak evidence only."""
    v = triage.triage_file(VENDOR / "smartctl-a-passed.txt")
    assert v.action != "exclude_node" and v.category == "unknown", v.to_dict()
    if v.guessed:
        assert v.confidence <= 0.3 and "not enough to exclude the node" in v.verdict


def test_the_model_is_deterministic() -> None:
    m = fallback.model()
    a = m.posterior(fallback.features(IB_DOWN))
    assert a == m.posterior(fallback.features(IB_DOWN)) and abs(sum(a) - 1.0) < 1e-9
