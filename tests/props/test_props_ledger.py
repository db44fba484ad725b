"""Property tests: ledger ingestion and the commands that read a run survive garbage files, say
so clearly, and never rewrite what they were given."""

from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from support.bounded import bounded, digest

from nonstop import cli
from nonstop.errors import UserError
from nonstop.events import EventWarning
from nonstop.ledger import Ledger, ingest_run
from nonstop.rundir import create

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

HEADER = {
    "schema_version": 1,
    "run_id": "r",
    "attempt": 0,
    "rank": 0,
    "host": "h",
    "mono": 1.0,
    "time": 1.0,
}
typed = {
    "step": st.integers(0, 10**6),
    "start": st.floats(0, 2e9),
    "end": st.floats(0, 2e9),
    "phase": st.text(max_size=8),
    "message": st.text(max_size=20),
    "source": st.text(max_size=5),
    "metrics": st.dictionaries(st.text(max_size=5), st.floats(0, 1), max_size=2),
    "bytes": st.integers(0, 10**9),
    "loss": st.floats(0, 10),
    "tokens": st.integers(0, 10**9),
    "path": st.text(max_size=10),
    "error": st.text(max_size=10),
}
payload_values = (
    st.none()
    | st.booleans()
    | st.integers(-(2**62), 2**62)
    | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.lists(st.integers(), max_size=2)
)
kinds = st.sampled_from(["step", "checkpoint", "lifecycle", "failure", "telemetry", "heartbeat"])
fields = st.sampled_from(
    [
        "step",
        "start",
        "end",
        "phase",
        "message",
        "source",
        "metrics",
        "bytes",
        "loss",
        "tokens",
        "path",
        "error",
    ]
)


@st.composite
def event_lines(draw: st.DrawFn, wrong_types: bool = False) -> bytes:
    """Well-formed envelopes with payloads of the right types (or of any type), or junk."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=80)).replace(b"\n", b" ")
    if wrong_types:
        payload = draw(st.dictionaries(fields, payload_values, max_size=6))
    else:
        keys = draw(st.lists(fields, max_size=6, unique=True))
        payload = {k: draw(typed[k]) for k in keys}
    rec = {
        **HEADER,
        "kind": draw(kinds),
        "payload": payload,
        "attempt": draw(st.integers(0, 3)),
        "rank": draw(st.integers(0, 3)),
    }
    return json.dumps(rec).encode()


def run_dir_with(tmp_path, files: dict[tuple[int, int], bytes]):
    rd = create(tmp_path / "run")
    for (attempt, rank), data in files.items():
        path = rd.events(attempt, rank)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return rd


@SETTINGS
@given(
    files=st.dictionaries(
        st.tuples(st.integers(0, 2), st.integers(0, 2)),
        st.lists(event_lines(), max_size=12).map(b"\n".join),
        max_size=4,
    )
)
def test_ingest_survives_any_event_files_and_leaves_them_alone(tmp_path_factory, files):
    check_ingest(tmp_path_factory.mktemp("ingest"), files)


@settings(SETTINGS, max_examples=40, derandomize=True, phases=[Phase.generate])
@given(
    files=st.dictionaries(
        st.tuples(st.integers(0, 2), st.integers(0, 2)),
        st.lists(event_lines(wrong_types=True), max_size=12).map(b"\n".join),
        max_size=4,
    )
)
def test_ingest_survives_payloads_of_wrong_types(tmp_path_factory, files):
    check_ingest(tmp_path_factory.mktemp("ingest"), files)


def test_null_step_is_skipped_as_malformed(tmp_path):
    line = json.dumps({**HEADER, "kind": "step", "payload": {"step": None, "start": 0, "end": 1}})
    rd = run_dir_with(tmp_path, {(0, 0): line.encode() + b"\n"})
    with warnings.catch_warnings(), Ledger.open(rd.ledger) as ledger:
        warnings.simplefilter("ignore", EventWarning)
        assert ingest_run(rd, ledger).corrupt == 1


def check_ingest(tmp, files):
    rd = run_dir_with(tmp, files)
    before = {p: digest(p) for _, _, p in rd.event_files()}
    with warnings.catch_warnings(), bounded(20), Ledger.open(rd.ledger) as ledger:
        warnings.simplefilter("ignore", EventWarning)
        first = ingest_run(rd, ledger)
        n = ledger.rows("SELECT (SELECT COUNT(*) FROM steps) + (SELECT COUNT(*) FROM errors)")
        second = ingest_run(rd, ledger)  # idempotent: nothing new the second time
        assert (
            ledger.rows("SELECT (SELECT COUNT(*) FROM steps) + (SELECT COUNT(*) FROM errors)") == n
        )
    assert first.files <= len(before)
    assert second.events == 0
    assert {p: digest(p) for p in before} == before


@SETTINGS
@given(
    data=st.binary(min_size=1, max_size=2048), prefix=st.sampled_from([b"", b"SQLite format 3\x00"])
)
def test_garbage_ledger_is_refused_and_left_byte_identical(tmp_path_factory, data, prefix):
    rd = create(tmp_path_factory.mktemp("ledger") / "run")
    rd.ledger.write_bytes(prefix + data)  # (an empty file is a valid empty SQLite database)
    before = digest(rd.ledger)
    with bounded(20):
        try:
            with Ledger.open(rd.ledger, readonly=True) as ledger:
                ledger.rows("SELECT COUNT(*) FROM attempts")
        except UserError as e:
            assert "ledger" in str(e).lower() or str(rd.ledger) in str(e)
        except Exception as e:  # a sqlite error that slipped through must name the file
            pytest.fail(f"{type(e).__name__}: {e}")
        for argv in (["report", str(rd.root), "--json"], ["diagnose", str(rd.root), "--json"]):
            code = cli.main(argv)
            assert isinstance(code, int)
    assert digest(rd.ledger) == before


def test_infinite_step_is_skipped_as_malformed(tmp_path):
    line = json.dumps(
        {**HEADER, "kind": "step", "payload": {"step": float("inf"), "start": 0, "end": 1}}
    )
    rd = run_dir_with(tmp_path, {(0, 0): line.encode() + b"\n"})
    with warnings.catch_warnings(), Ledger.open(rd.ledger) as ledger:
        warnings.simplefilter("ignore", EventWarning)
        stats = ingest_run(rd, ledger)
    assert stats.corrupt == 1


def test_huge_integer_payload_is_skipped_as_malformed(tmp_path):
    line = json.dumps(
        {**HEADER, "kind": "step", "payload": {"step": 1, "start": 0, "end": 1, "tokens": 2**63}}
    )
    rd = run_dir_with(tmp_path, {(0, 0): line.encode() + b"\n"})
    with warnings.catch_warnings(), Ledger.open(rd.ledger) as ledger:
        warnings.simplefilter("ignore", EventWarning)
        stats = ingest_run(rd, ledger)
    assert stats.corrupt == 1
