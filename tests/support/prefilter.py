"""What the signature-row tests share: the rows a log's lines match through triage's prefilter
(its needles, then the full regexes) against the rows the full regexes alone match."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "real"


def excerpt(split: str, rid: str) -> str:
    """The excerpt of record `rid` in tests/corpus/real/`split`.jsonl (KeyError: none)."""
    with open(CORPUS / f"{split}.jsonl") as f:
        for line in f:
            if line.strip() and json.loads(line)["id"] == rid:
                return str(json.loads(line)["excerpt"])
    raise KeyError(rid)


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


def assert_both_ways(log: Path, category: str, action: str) -> None:
    """triage's verdict on `log` is (category, action) from the rows alone and as shipped (the
    fallback and the description reader on): a row's answer that no guess may change."""
    from nonstop.diagnose import triage_file

    for fallback in (False, True):
        v = triage_file(log, fallback=fallback, descriptions=fallback)
        assert (v.category, v.action) == (category, action), (log.read_text()[:200], v.verdict)


def assert_prefilter_hides_nothing(tmp_path: Path, cases: Iterable[tuple[str, str, str]]) -> None:
    """Every row whose full regex matches one of the cases' texts is found through the
    needles (`rows_found`); cases are (text, category, why)."""
    log = tmp_path / "rank.log"
    for text, _, why in cases:
        log.write_text(text + "\n")
        via, direct = rows_found(log)
        assert via == direct, why


# -- the tests every per-collection row file runs (tests/diagnose/test_diag_rows_*.py) --------

Case = tuple[str, str, str]
"""(text, category, why): a line and the category the rows must (or must not) give it."""


def _params(cases: Iterable[Case]) -> list[Any]:
    import pytest

    return [pytest.param(*c, id=c[2][:60]) for c in cases]


def row_test(cases: Iterable[Case]) -> Any:
    """A test that the rows alone read each case's text as its category:
    `test_row = row_test(CASES)` at a test module's top level."""
    import pytest

    @pytest.mark.parametrize(("text", "category", "why"), _params(cases))
    def test_row(tmp_path: Path, text: str, category: str, why: str) -> None:
        v = rows_alone(tmp_path, text)  # the rows alone: the table is what is tested
        assert v.category == category, (why, v.verdict)

    return test_row


def near_miss_test(cases: Iterable[Case]) -> Any:
    """A test that the rows alone do not read each case's text as its category (a near miss:
    `test_near_miss = near_miss_test(NOT)`)."""
    import pytest

    @pytest.mark.parametrize(("text", "category", "why"), _params(cases))
    def test_near_miss(tmp_path: Path, text: str, category: str, why: str) -> None:
        v = rows_alone(tmp_path, text)
        assert v.category != category, (why, v.verdict)

    return test_near_miss


def prefilter_test(cases: Iterable[Case]) -> Any:
    """A test that the prefilter hides no row from the cases' texts
    (`assert_prefilter_hides_nothing`)."""
    kept = list(cases)

    def test_the_prefilter_hides_no_row_from_these_lines(tmp_path: Path) -> None:
        """Every row whose full regex matches a line above is found through the needles."""
        assert_prefilter_hides_nothing(tmp_path, kept)

    return test_the_prefilter_hides_no_row_from_these_lines
