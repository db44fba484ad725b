"""Loading dumps: restricted unpickling, truncated files, formats, and the analysis on synthetic jobs."""

import json
import os
import pickle
from pathlib import Path

import pytest

from nonstop.diagnose import analyze_flight, flight, frsummary
from nonstop.diagnose.frdump import (
    WINDOW_HEAD,
    WINDOW_TAIL,
    DumpError,
    load_dump,
    load_window,
    rank_of,
    safe_loads,
)
from nonstop.diagnose.synth import make_dump, write_job
from nonstop.errors import UserError


class _Evil:
    """Unpickling this would run os.system: the classic malicious pickle."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (os.system, (f"touch {self.marker}",))


def test_malicious_pickle_is_refused_and_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    payload = pickle.dumps({"version": "2.10", "entries": [_Evil(marker)]})
    assert not marker.exists()
    with pytest.raises(pickle.UnpicklingError, match="refused global"):
        safe_loads(payload)
    (tmp_path / "rank-0").write_bytes(payload)
    with pytest.raises(DumpError, match="refused global"):
        load_dump(tmp_path / "rank-0")
    # a truncated malicious dump goes through the salvage path: still refused
    (tmp_path / "rank-1").write_bytes(payload[: len(payload) - 3])
    with pytest.raises(DumpError):
        load_dump(tmp_path / "rank-1")
    assert not marker.exists(), "the dump executed code"
    with pytest.raises(UserError, match="refused global"):  # no dump readable: an error
        analyze_flight(tmp_path)
    assert not marker.exists()
    write_job(tmp_path, 2, 5)  # beside readable dumps, the folder as a whole is analyzed
    (tmp_path / "rank-1").write_bytes(payload)
    v = analyze_flight(tmp_path)
    assert any("refused global" in e for e in v.evidence)
    assert not marker.exists()


def test_builtin_containers_load(tmp_path: Path) -> None:
    d = make_dump(4, 10)
    assert safe_loads(pickle.dumps(d)) == d


@pytest.mark.parametrize("fmt", ["pickle", "json"])
def test_truncated_dump_keeps_the_entries_before_the_cut(tmp_path: Path, fmt: str) -> None:
    d = make_dump(4, 3000)
    data = pickle.dumps(d) if fmt == "pickle" else json.dumps(d).encode()
    path = tmp_path / "rank-3"
    path.write_bytes(data[: int(len(data) * 0.6)])
    got, truncated = load_dump(path)
    assert truncated
    n = len(got["entries"])
    assert 1000 < n < 3000
    expected = d["entries"][:n]
    if fmt == "json":  # JSON turns the (name, desc) tuple into a list
        expected = json.loads(json.dumps(expected))
    assert got["entries"] == expected


def test_unreadable_files_are_reported_not_fatal(tmp_path: Path) -> None:
    write_job(tmp_path, 4, 20, hang_rank=1)
    (tmp_path / "rank-2").write_bytes(b"")
    v = analyze_flight(tmp_path)
    assert any("rank-2: empty file" in e for e in v.evidence)
    assert {c.rank for c in v.culprits} == {1, 2}  # 2 left no usable dump while pg waits
    with pytest.raises(UserError, match="no such flight-recorder folder"):
        analyze_flight(tmp_path / "rank-2")  # a file, not a folder
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="no flight-recorder dumps"):
        analyze_flight(tmp_path / "empty")


def test_a_folder_whose_every_dump_is_unreadable_is_an_error_not_an_idle_job(
    tmp_path: Path,
) -> None:
    """Random bytes and a pickle cut after its header: nothing could be read, which said "No
    hang or mismatch ... every group is idle" with exit 0. Now a clear error, as for no dumps;
    inside a run directory's joined diagnosis the flight part says it read nothing."""
    (tmp_path / "nccl_trace_rank_0").write_bytes(os.urandom(3000))
    (tmp_path / "nccl_trace_rank_1").write_bytes(b"\x80\x04\x95")
    with pytest.raises(UserError, match="none of its 2 flight-recorder dump") as e:
        analyze_flight(tmp_path)
    assert "nccl_trace_rank_0" in str(e.value) and "nothing to analyze" in str(e.value)
    p = flight.load_partial(flight.find_dumps(tmp_path), 1)
    v = flight.verdict_from(p, hosts={}, world_size=None, source=str(tmp_path))
    assert "could be read" in v.verdict and "idle" not in v.verdict, v.verdict
    assert v.confidence <= 0.1


def test_rank_from_file_names() -> None:
    assert rank_of(Path("nccl_trace_rank_12")) == 12
    assert rank_of(Path("rank-7.json")) == 7
    assert rank_of(Path("README")) is None


@pytest.mark.parametrize("fmt", ["pickle", "json"])
def test_hang_names_the_rank_that_never_entered(tmp_path: Path, fmt: str) -> None:
    write_job(tmp_path, 16, 40, hang_rank=5, fmt=fmt)
    v = analyze_flight(tmp_path, hosts={r: f"node-{r // 8}" for r in range(16)})
    assert [(c.rank, c.host) for c in v.culprits] == [(5, "node-0")]
    pg = next(g for g in v.details["groups"] if g["state"] == "hung")
    assert pg["pg"] == "1" and pg["frontier"] == 20 and pg["last_all_completed"] == 19
    assert len(pg["waiting"]) == 15 and pg["never_entered"] == {"5": 19}
    top = v.details["suspect_groups"][0]
    assert top["most_often_last"] == 5  # its enqueues are the latest of every collective


def test_dead_ranks_without_dumps_are_named(tmp_path: Path) -> None:
    write_job(tmp_path, 8, 30, dead_ranks=(6,))
    v = analyze_flight(tmp_path, world_size=8)
    assert [c.rank for c in v.culprits] == [6]
    assert v.details["missing_dumps"] == [6]
    v2 = analyze_flight(tmp_path)  # membership from the NCCL dumps' pg_config
    assert [c.rank for c in v2.culprits] == [6]
    gloo_like = tmp_path / "gloo"  # gloo dumps have no pg_config: world size unknown
    gloo_like.mkdir()
    for r in range(7):
        d = make_dump(8, 30)
        d["pg_config"] = {}
        (gloo_like / f"rank-{r}").write_bytes(pickle.dumps(d))
    v3 = analyze_flight(gloo_like)
    assert v3.culprits == [] and "waits in collective" in v3.verdict
    assert [c.rank for c in analyze_flight(gloo_like, world_size=8).culprits] == [7]


def test_mismatched_collective_is_a_desync(tmp_path: Path) -> None:
    write_job(tmp_path, 8, 30, mismatch_rank=3)
    v = analyze_flight(tmp_path)
    assert v.category == "user_code_error" and v.action == "stop_and_page"
    assert [c.rank for c in v.culprits] == [3]
    m = next(g for g in v.details["groups"] if g["mismatches"])["mismatches"][0]
    assert m["others"][0]["ranks"] == [3] and "[[1032, 4096]]" in m["others"][0]["op"]


def test_victim_waiting_elsewhere_is_not_the_culprit(tmp_path: Path) -> None:
    # ranks 0-3 in group A; rank 3 waits in group B (ranks 3, 4) for rank 4 that never came.
    def entry(i: int, pg: str, seq: int, state: str) -> dict:
        return {
            "record_id": i,
            "pg_id": int(pg),
            "process_group": (pg, "A" if pg == "1" else "B"),
            "collective_seq_id": seq,
            "profiling_name": "nccl:all_reduce",
            "input_sizes": [[4]],
            "input_dtypes": ["Float"],
            "output_sizes": [[4]],
            "state": state,
            "retired": state == "completed",
            "time_created_ns": i,
        }

    dumps = {
        0: [entry(0, "1", 1, "completed"), entry(1, "1", 2, "started")],
        1: [entry(0, "1", 1, "completed"), entry(1, "1", 2, "started")],
        2: [entry(0, "1", 1, "completed"), entry(1, "1", 2, "started")],
        3: [entry(0, "1", 1, "completed"), entry(1, "2", 1, "started")],
        4: [],
    }
    for r, es in dumps.items():
        cfg = {"1": {"desc": "A", "ranks": "[0, 1, 2, 3]"}, "2": {"desc": "B", "ranks": "[3, 4]"}}
        dump = {"version": "2.4", "pg_config": cfg, "entries": es}
        (tmp_path / f"rank-{r}").write_bytes(pickle.dumps(dump))
    v = analyze_flight(tmp_path)
    assert [c.rank for c in v.culprits] == [4], v.to_dict()
    assert "pg 2 (B)" in v.verdict


def test_parallel_load_equals_serial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_job(tmp_path, 24, 30, hang_rank=11, mismatch_rank=2)
    serial = analyze_flight(tmp_path, workers=1).to_dict()
    monkeypatch.setattr(flight, "PARALLEL_MIN_FILES", 1)
    parallel = analyze_flight(tmp_path, workers=2).to_dict()
    assert parallel == serial


def test_mismatch_on_the_reference_rank_itself(tmp_path: Path) -> None:
    # rank 0 is read first and becomes the reference the others are compared against
    write_job(tmp_path, 8, 30, mismatch_rank=0)
    v = analyze_flight(tmp_path, workers=1)
    assert [c.rank for c in v.culprits] == [0]
    m = next(g for g in v.details["groups"] if g["mismatches"])["mismatches"][0]
    assert m["ranks_expected"] == 7 and m["others"][0]["ranks"] == [0]


def test_mismatch_inside_a_tensor_parallel_group_of_a_3d_job(tmp_path: Path) -> None:
    """Every rank of a tp x dp job is in its own set of groups; the ranks of one group must
    still be compared with each other (a reference per group set compared no rank at all)."""
    tp = {r: "10" if r < 4 else "11" for r in range(8)}  # tp groups [0-3], [4-7]
    dp = {r: f"2{r % 4}" for r in range(8)}  # dp pairs [0, 4], [1, 5], [2, 6], [3, 7]
    members = {"0": str(list(range(8))), "10": "[0, 1, 2, 3]", "11": "[4, 5, 6, 7]"}
    members |= {f"2{i}": f"[{i}, {i + 4}]" for i in range(4)}

    def entry(i: int, pg: str, seq: int, size: int) -> dict:
        return {
            "record_id": i,
            "pg_id": int(pg),
            "process_group": (pg, {"0": "default_pg", "1": "tp", "2": "dp"}[pg[0]]),
            "collective_seq_id": seq,
            "profiling_name": "nccl:all_reduce",
            "input_sizes": [[size]],
            "input_dtypes": ["Float"],
            "output_sizes": [[size]],
            "state": "completed",
            "retired": True,
            "time_created_ns": i,
        }

    for r in range(8):
        es, i = [], 0
        for seq in range(1, 7):
            for pg in ("0", tp[r], dp[r]):
                size = 999 if (r == 6 and pg == tp[r] and seq == 4) else 64
                es.append(entry(i, pg, seq, size))
                i += 1
        cfg = {g: {"desc": "", "ranks": m} for g, m in members.items()}
        dump = {"version": "2.4", "pg_config": cfg, "entries": es}
        (tmp_path / f"rank-{r}").write_bytes(pickle.dumps(dump))
    v = analyze_flight(tmp_path, workers=1)
    assert v.category == "user_code_error", v.to_dict()
    assert [c.rank for c in v.culprits] == [6], v.to_dict()
    m = next(g for g in v.details["groups"] if g["mismatches"])["mismatches"][0]
    assert m["others"][0]["ranks"] == [6] and "999" in m["others"][0]["op"]


# -- windowed reads of large dumps (frdump.load_window) ------------------------------------------


def _p2(d: dict) -> bytes:  # type: ignore[type-arg]
    return pickle.dumps(d, protocol=2)  # what torch's C++ pickler writes


def test_window_holds_the_first_and_last_entries_exactly(tmp_path: Path) -> None:
    d = make_dump(8, 3000)
    path = tmp_path / "rank-0"
    path.write_bytes(_p2(d))
    w = load_window(path)
    assert w is not None
    head, skipped = w.pop("nonstop_window")
    assert head == WINDOW_HEAD and skipped == 3000 - WINDOW_HEAD - WINDOW_TAIL
    assert w["entries"] == d["entries"][:WINDOW_HEAD] + d["entries"][-WINDOW_TAIL:]
    assert {k: v for k, v in w.items() if k != "entries"} == {
        k: v for k, v in d.items() if k != "entries"
    }
    small = tmp_path / "rank-1"
    small.write_bytes(_p2(make_dump(8, 100)))
    assert load_window(small) is None  # small dumps are decoded in full


def test_windowed_analysis_gives_the_full_analysis_verdict(tmp_path: Path) -> None:
    win, full = tmp_path / "win", tmp_path / "full"
    win.mkdir(), full.mkdir()
    for r in range(8):
        d = make_dump(8, 3000, short=r == 5, jitter_ns=r * 1000)
        (win / f"rank-{r}").write_bytes(_p2(d))
        (full / f"rank-{r}").write_bytes(pickle.dumps(d, protocol=4))  # never windowed
    a, b = analyze_flight(win), analyze_flight(full)
    assert [c.rank for c in a.culprits] == [c.rank for c in b.culprits] == [5]
    assert a.verdict == b.verdict
    assert a.details["groups"] == b.details["groups"]
    assert any("8 large dump(s) read in part" in e for e in a.evidence)
    assert not any("read in part" in e for e in b.evidence)


def test_a_group_used_only_in_the_skipped_middle_is_read_in_full(tmp_path: Path) -> None:
    d = make_dump(8, 3000)
    e = d["entries"][1500]  # group 2's one collective, older than the tail window
    e.update(pg_id=2, process_group=("2", "pp"), collective_seq_id=1)
    d["pg_status"]["2"] = {
        "last_enqueued_collective": 1,
        "last_started_collective": 1,
        "last_completed_collective": 1,
    }
    path = tmp_path / "rank-0"
    path.write_bytes(_p2(d))
    assert load_window(path) is not None  # the bytes can be cut, but the tail misses group 2
    got, truncated = frsummary._load(path)
    assert "nonstop_window" not in got and not truncated
    assert len(got["entries"]) == 3000


def test_a_string_first_seen_in_the_skipped_middle_means_a_full_read(tmp_path: Path) -> None:
    d = make_dump(8, 3000)
    for e in d["entries"][1500:]:  # a new op name: memoised in the middle, fetched in the tail
        e["profiling_name"] = "nccl:reduce_scatter"
    path = tmp_path / "rank-0"
    path.write_bytes(_p2(d))
    assert load_window(path) is None
    got, _ = frsummary._load(path)
    assert got == d


def _without_completions(d: dict) -> dict:
    for e in d["entries"]:
        e.pop("state", None)
        e.pop("retired", None)
    d.pop("pg_status", None)
    return d


def test_dumps_without_completion_fields_claim_no_completion_and_no_wait(tmp_path: Path) -> None:
    """Entries without `state` or `retired` and no pg_status (a trimmed or foreign dump): the
    verdict said every rank "waits in collective #5, none completed it" and "last completed by
    all #0", neither of which the dumps record. With one rank behind, the others still wait
    (a collective cannot complete without every member)."""
    for r in range(4):
        d = _without_completions(make_dump(4, 10, short=r == 3))
        (tmp_path / f"rank-{r}").write_bytes(pickle.dumps(d))
    v = analyze_flight(tmp_path)
    assert all("#0" not in e for e in v.evidence), v.evidence
    groups = v.details["groups"]
    assert all(g["last_all_completed"] is None and not g["completion_known"] for g in groups)
    assert v.category == "nccl_watchdog_timeout" and "rank 3" in v.verdict, v.verdict
    assert "do not say which collectives completed" in v.verdict, v.verdict

    (tmp_path / "rank-3").write_bytes(pickle.dumps(_without_completions(make_dump(4, 10))))
    v = analyze_flight(tmp_path)
    assert v.category == "unknown" and "waits" not in v.verdict, v.verdict
    assert "do not record which collectives completed" in v.verdict, v.verdict
    # the same dumps with their completion fields: every rank waits in #5, in flight
    for r in range(4):
        (tmp_path / f"rank-{r}").write_bytes(pickle.dumps(make_dump(4, 10)))
    v = analyze_flight(tmp_path)
    assert v.category == "nccl_watchdog_timeout" and "none completed it" in v.verdict, v.verdict
