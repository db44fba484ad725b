"""What the signature-row tests share: the rows a log's lines match through triage's prefilter
(its needles, then the full regexes) against the rows the full regexes alone match."""

from __future__ import annotations

from pathlib import Path


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
