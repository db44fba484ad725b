"""What the signature-row tests share: the rows a log's lines match through triage's prefilter
(its needles, then the full regexes) against the rows the full regexes alone match."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any


def rows_found(log: Path) -> tuple[set[tuple[int, str]], set[tuple[int, str]]]:
    """(found through the prefilter, matched by the full regexes): (line, row id) pairs of
    `log`, Xid rows left out (they are read by their own parser). Equal when no needle hides a
    row (a needle that overlaps another row's once hid `thermal`, issue 27)."""
    from nonstop.diagnose import signatures, triage

    lines = log.read_bytes().split(b"\n")
    direct = {
        (i + 1, sid)
        for i, ln in enumerate(lines)
        for sid, pat in signatures.COMPILED
        if sid != "xid_loose" and pat.search(ln)
    }
    via = {
        (h.line, "xid" if h.signature.startswith("xid_") else h.signature)
        for h in triage.scan(log).hits
    }
    return {v for v in via if v[1] != "xid"}, {d for d in direct if d[1] != "xid"}


def rows_alone(tmp_path: Path, text: str) -> Any:
    """triage's verdict on `text` as a rank's log, from the signature rows alone (no fallback):
    what a row test checks."""
    from nonstop.diagnose import triage_file

    log = tmp_path / "rank.log"
    log.write_text(text + "\n")
    return triage_file(log, fallback=False)


def assert_prefilter_hides_nothing(tmp_path: Path, cases: Iterable[tuple[str, str, str]]) -> None:
    """Every row whose full regex matches one of the cases' texts is found through the
    needles (`rows_found`); cases are (text, category, why)."""
    log = tmp_path / "rank.log"
    for text, _, why in cases:
        log.write_text(text + "\n")
        via, direct = rows_found(log)
        assert via == direct, why
