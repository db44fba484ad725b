"""Property tests: log triage classifies any text or bytes into the taxonomy, without crashing."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.bounded import bounded, digest
from support.searchers import SEARCHERS, using

from nonstop import cli, taxonomy
from nonstop.diagnose.signatures import BY_ID
from nonstop.diagnose.triage import CHUNK_BYTES, scan, triage_file

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
CATEGORIES = {c.id for c in taxonomy.CATEGORIES} | {taxonomy.UNKNOWN}
NEEDLES = st.sampled_from(
    [
        "NCCL WARN",
        "Xid",
        "CUDA error",
        "out of memory",
        "Traceback",
        "Watchdog caught collective operation timeout",
        "NVRM: Xid (PCI:",
        "[rank1]:",
        "ECC",
        "No space left on device",
        "Segmentation fault",
    ]
)
lines = st.lists(
    st.one_of(
        st.text(max_size=120),
        NEEDLES,
        st.tuples(st.text(max_size=20), NEEDLES, st.text(max_size=40)).map("".join),
    ),
    max_size=40,
)


def check(path, rank=None):
    before = digest(path)
    with bounded(10):
        v = triage_file(path, rank=rank, host="h")
    assert v.category in CATEGORIES and v.action in ("restart", "exclude_node", "stop_and_page")
    assert 0.0 <= v.confidence <= 1.0
    assert digest(path) == before


@SETTINGS
@given(data=st.binary(max_size=8192))
def test_any_bytes(tmp_path, data):
    path = tmp_path / "rank-0.log"
    path.write_bytes(data)
    check(path)


@SETTINGS
@given(text=lines, sep=st.sampled_from(["\n", "\r\n", "\r"]), rank=st.none() | st.integers(0, 9))
def test_any_text_with_signature_fragments(tmp_path, text, sep, rank):
    path = tmp_path / "rank-0.log"
    path.write_bytes(sep.join(text).encode("utf-8", "surrogatepass"))
    check(path, rank)


@SETTINGS
@given(fill=st.binary(min_size=1, max_size=64), needle=NEEDLES)
def test_a_line_across_the_chunk_boundary_is_seen(tmp_path, fill, needle):
    """Scanning in chunks never splits a signature line: same hits as one big chunk."""
    path = tmp_path / "big.log"
    body = fill.replace(b"\n", b" ") * (2048 // len(fill) + 1)
    path.write_bytes(body + b"\n" + needle.encode() + b" tail\n" + body)
    small = scan(path, chunk_bytes=257)
    whole = scan(path, chunk_bytes=CHUNK_BYTES)
    assert [h.signature for h in small.hits] == [h.signature for h in whole.hits]
    assert all(h.signature in BY_ID for h in whole.hits)


@settings(SETTINGS, max_examples=25)
@given(data=st.binary(max_size=2048))
def test_triage_cli_on_garbage(tmp_path, data, capsys):
    """Any bytes: a verdict (exit 0), or, for what is no log (binary, a damaged or zstd
    archive: nonstop.diagnose.inputs), one line that says so (exit 2); never a traceback."""
    path = tmp_path / "x.log"
    path.write_bytes(data)
    with bounded(20):
        rc = cli.main(["triage", str(path), "--json"])
    out, err = capsys.readouterr()
    if rc == 0:
        json.loads(out)
    else:
        assert rc == 2 and out == "", (rc, out, err)
        assert len(err.splitlines()) == 1 and err.startswith("nonstop triage: error: "), err


def _same_scan(path):
    """Each searcher's candidate lines give exactly the Python scan's result."""
    py = scan(path, grep=False)
    for searcher in SEARCHERS:
        with using(searcher):
            _same(py, scan(path, grep=True))


def _same(py, gr):
    key = [(h.signature, h.line, h.text, h.host, h.rank, h.gpu, h.pci) for h in py.hits]
    assert [(h.signature, h.line, h.text, h.host, h.rank, h.gpu, h.pci) for h in gr.hits] == key
    assert (gr.counts, gr.pci_map, gr.lines, gr.bytes, gr.marked) == (
        py.counts,
        py.pci_map,
        py.lines,
        py.bytes,
        py.marked,
    )


@SETTINGS
@given(data=st.binary(max_size=4096))
def test_grep_prefilter_equals_the_python_scan_on_any_bytes(tmp_path, data):
    path = tmp_path / "x.log"
    path.write_bytes(data)
    _same_scan(path)


@SETTINGS
@given(
    text=lines,
    extra=st.lists(
        st.sampled_from(
            # "infé": a word end in bytes (what Python and grep in the C locale see), not in
            # Unicode (what ripgrep sees unless its patterns say (?-u))
            # and the failure markers: `down`, `hang`, `dead`, `lost` only where a word ends
            [
                "loss inf",
                "loss=nan",
                "INFO",
                "nanosecond",
                "Loss: -inf",
                "infiniband",
                "loss infé",
                "State: Down",
                "downloading",
                "link downé",
                "exchange",
                "HANG",
                "deadline",
                'File "x.py", line 3, in f',
                "ERROR",
            ]
        ),
        max_size=5,
    ),
    sep=st.sampled_from(["\n", "\r\n"]),
)
def test_grep_prefilter_equals_the_python_scan_on_signature_text(tmp_path, text, extra, sep):
    path = tmp_path / "x.log"
    path.write_bytes(sep.join(text + extra).encode("utf-8", "surrogatepass"))
    _same_scan(path)
