"""Fuzzing the kernel-log reader (nonstop.diagnose.kernel_log): /dev/kmsg records, syslog and
ISO-stamped file lines, and attribution to ranks. Any user on a node can write to the kernel
log (`logger -k` needs no privilege on many systems, a driver prints what it is given), so
every input is untrusted: lines are parsed, skipped or kept as text, never an exception."""

from __future__ import annotations

import math

from hypothesis import example, given, settings
from hypothesis import strategies as st
from support.bounded import bounded

from nonstop.diagnose import kernel_log as kl

SETTINGS = settings(max_examples=200, deadline=None)
stamps = st.sampled_from(
    [
        "2026-12-01T10:00:00+00:00 ",
        "2026-12-01T10:00:00.5Z ",
        "0001-01-01T00:00:00 ",
        "9999-12-31T23:59:59-23:59 ",
        "2026-02-30T00:00:00 ",
        "Feb 29 10:00:00 ",
        "Dec  1 10:00:00 ",
        "Abc 99 99:99:99 ",
        "2026-12-01T10:00:00,123456789+0100 ",
        "",
    ]
)
texts = st.text(max_size=60) | st.sampled_from(
    [
        "vm kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.",
        "NVRM: Xid (PCI:): 13, pid='<unknown>'",
        "Killed process 99999999999999999999 (python)",
        "python[12]: segfault at 0",
        "NVRM: Xid (PCI:0000:zz:00.0): 79",
        "kernel: \x00\udcff",
    ]
)
lines = st.builds(lambda a, b: a + b, stamps, texts)


@SETTINGS
@given(
    raw=st.binary(max_size=120)
    | st.builds(
        lambda p, s, u, f, t: f"{p},{s},{u},{f};{t}\n KEY=v\n".encode(errors="surrogatepass"),
        st.sampled_from(["6", "x", ""]),
        st.sampled_from(["1", "-1", "99999999999999999999", ""]),
        st.sampled_from(["0", "1e9", "-5", "18446744073709551616"]),
        st.sampled_from(["-", "c"]),
        st.text(max_size=40),
    ),
    boot=st.floats(0, 2e9),
)
def test_kmsg_records_parse_or_are_skipped(raw, boot):
    with bounded(5):
        got = kl.parse_kmsg_record(raw, boot)
    if got is not None:
        seq, t, text = got
        assert isinstance(seq, int) and isinstance(text, str) and "\n" not in text
        assert isinstance(t, float)


@SETTINGS
@given(line=lines)
def test_text_log_lines_parse_or_stay_text(line):
    with bounded(5):
        t, text = kl.parse_timestamped(line, year=2024)
    assert isinstance(text, str)
    assert t is None or math.isfinite(t)


@SETTINGS
@given(
    content=st.lists(lines, max_size=8),
    tail=st.binary(max_size=40),
    pids=st.dictionaries(st.integers(0, 10**6), st.integers(0, 7), max_size=3),
)
@example(content=["9999-12-31T23:59:59-23:59 kernel: x"], tail=b"", pids={})  # year 10000
def test_a_kernel_log_file_of_anything_reads_and_attributes(tmp_path_factory, content, tail, pids):
    path = tmp_path_factory.mktemp("k") / "kern.log"
    path.write_bytes("\n".join(content).encode("utf-8", "surrogatepass") + b"\n" + tail)
    log = kl.KernelLog(
        since_s=0.0, extra_file=str(path), kmsg_path=str(path.parent / "none"), use_commands=False
    )
    with bounded(5):
        got = log.read()
        got += log.read()  # the increment: nothing read twice
        attributed = kl.attribute(got, pids, {"3b:00": 1})
        for a in attributed:
            a.line.format("node-a", "note")
    assert all(isinstance(a.line.text, str) for a in attributed)
    for a in attributed:
        assert a.rank is None or a.rank in (*pids.values(), 1)
    log.close()
