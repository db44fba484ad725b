"""Property tests: the flight-recorder loader takes any bytes, truncated real dumps and malicious
pickles, and either loads plain data or raises DumpError; it never runs code from a dump."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from support.bounded import bounded

from nonstop.diagnose.frdump import DumpError, load_dump
from nonstop.diagnose.synth import make_dump

SETTINGS = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
# The same examples every run: these once found real bugs (see docs/chaos.md); keep them fixed.
STABLE = settings(SETTINGS, derandomize=True, phases=[Phase.explicit, Phase.generate])
DUMP = make_dump(4, 12)
PICKLED = pickle.dumps(DUMP, protocol=pickle.HIGHEST_PROTOCOL)
JSONED = json.dumps(DUMP).encode()


def load(tmp_path, data: bytes):
    path = tmp_path / "rank-0"
    path.write_bytes(data)
    with bounded(10):
        try:
            dump, truncated = load_dump(path)
        except DumpError as e:
            assert str(path) in str(e)
            return None
    assert isinstance(dump, dict) and isinstance(dump.get("entries", []), list)
    assert isinstance(truncated, bool)
    return dump


@STABLE
@example(data=b"J")
@given(data=st.binary(max_size=4096))
def test_any_bytes_load_or_raise_dump_error(tmp_path, data):
    load(tmp_path, data)


@STABLE
@given(cut=st.integers(1, len(PICKLED)), fmt=st.sampled_from(["pickle", "json"]))
def test_truncated_real_dumps_keep_a_prefix_of_the_entries(tmp_path, cut, fmt):
    whole = PICKLED if fmt == "pickle" else JSONED
    dump = load(tmp_path, whole[: min(cut, len(whole))])
    if dump is not None:  # whatever was salvaged is entries of the real dump, in order
        ids = [e["record_id"] for e in dump["entries"]]
        real = [e["record_id"] for e in DUMP["entries"]]
        assert ids == real[: len(ids)]


@STABLE
@example(pos=23, byte=144)
@given(pos=st.integers(0, len(PICKLED) - 1), byte=st.integers(0, 255))
def test_one_corrupt_byte_in_a_real_dump(tmp_path, pos, byte):
    data = bytearray(PICKLED)
    data[pos] = byte
    load(tmp_path, bytes(data))


class Evil:
    def __reduce__(self):
        import os

        return (os.system, ("touch PWNED",))


@SETTINGS
@given(where=st.sampled_from(["top", "entry", "truncated"]), proto=st.integers(0, 5))
def test_malicious_pickles_are_refused_and_never_run(tmp_path, monkeypatch, where, proto):
    monkeypatch.chdir(tmp_path)
    dump = {**DUMP, "entries": [dict(e) for e in DUMP["entries"]]}
    if where == "top":
        dump["evil"] = Evil()
    else:
        dump["entries"][3]["frames"] = [Evil()]
    data = pickle.dumps(dump, protocol=proto)
    if where == "truncated":
        data = data[: len(data) * 3 // 4]
    assert load(tmp_path, data) is None or where == "truncated"
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("data", [b"J", b"G", b"\x8e", b"\x8d\x00\x00\x00\x00\x00\x00\x00\x80"])
def test_minimal_examples_of_the_salvage_bug(tmp_path, data):
    load(tmp_path, data)


def test_real_dumps_load_whole(tmp_path):
    for data in (PICKLED, JSONED):
        dump = load(tmp_path, data)
        assert dump is not None and len(dump["entries"]) == len(DUMP["entries"])
