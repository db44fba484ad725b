"""NCCL's flight recorder in the bootstrap: progress and evidence dumps read `_dump_nccl_trace` as
well as the generic `_dump_fr_trace`, and its buffer size is set like the generic one.

This machine's torch is a CPU build (no `_dump_nccl_trace`), so the c10d module is faked with the
two functions returning pickles in PyTorch's format (the NCCL one from nonstop.diagnose.synth).
docs/diagnose.md describes the check on a GPU."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from nonstop.diagnose import analyze_flight, synth
from nonstop.supervisor import bootstrap

GLOO = {  # the generic recorder: one gloo group "2", its last collective completed
    "version": "2.10",
    "pg_config": {"2": {"name": "2", "desc": "gloo_side", "ranks": "[0, 1]"}},
    "pg_status": {"2": {"last_enqueued_collective": 3, "last_completed_collective": 3}},
    "entries": [
        {
            "record_id": i,
            "pg_id": 2,
            "process_group": ("2", "gloo_side"),
            "collective_seq_id": i + 1,
            "p2p_seq_id": 0,
            "op_id": i + 1,
            "profiling_name": "gloo:all_reduce",
            "time_created_ns": 1000 + i,
            "input_sizes": [[4]],
            "input_dtypes": ["Float"],
            "output_sizes": [[4]],
            "output_dtypes": ["Float"],
            "state": "scheduled",
            "retired": True,
            "is_p2p": False,
            "frames": [],
        }
        for i in range(3)
    ],
}


def _fake(monkeypatch: pytest.MonkeyPatch, nccl: dict[str, Any] | None) -> list[tuple]:
    calls: list[tuple] = []

    def fr(*args: Any) -> bytes:
        calls.append(("fr", *args))
        return pickle.dumps(GLOO)

    c10d = types.ModuleType("torch._C._distributed_c10d")
    c10d._dump_fr_trace = fr  # type: ignore[attr-defined]
    if nccl is not None:

        def nc(*args: Any) -> bytes:
            calls.append(("nccl", *args))
            return pickle.dumps(nccl)

        c10d._dump_nccl_trace = nc  # type: ignore[attr-defined]
    dist = types.ModuleType("torch.distributed")
    dist.is_initialized = lambda: True  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch._C._distributed_c10d", c10d)
    monkeypatch.setitem(sys.modules, "torch.distributed", dist)
    return calls


def test_progress_reads_both_recorders(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake(monkeypatch, synth.make_dump(4, 10))  # pgs 0 and 1, last collective pending
    progress = bootstrap.collective_progress()
    assert progress == {"0": [5, 5], "1": [5, 4], "2": [3, 3]}, progress
    assert [c[0] for c in calls] == ["fr", "nccl"]
    assert all(c[1:] == (False, False, True) for c in calls)  # no entries, no stacks, active


def test_progress_without_nccl_recorder_is_the_generic_one(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake(monkeypatch, None)
    assert bootstrap.collective_progress() == {"2": [3, 3]}


def test_evidence_dump_holds_both_recorders_and_the_analysis_reads_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for rank, short in ((0, False), (1, True)):  # rank 1 never entered NCCL's last collective
        calls = _fake(monkeypatch, synth.make_dump(2, 10, short=short))
        rt = types.SimpleNamespace(run_dir=tmp_path, attempt=0, rank=rank, fr_stacks=True)
        files = bootstrap.write_dumps(rt)  # type: ignore[arg-type]
        # each recorder fast (no C++ stacks) before the answer, symbolized after it
        assert [c[1:] for c in calls] == [(True, False, False)] * 2 + [(True, True, False)] * 2
        assert files[0].endswith(f"flight/attempt-0/rank-{rank}")
        assert files[1].endswith(".stacks.txt")
    v = analyze_flight(tmp_path / "flight" / "attempt-0", world_size=2)
    groups = {g["pg"]: g for g in v.details["groups"]}
    assert set(groups) == {"0", "1", "2"}  # NCCL's groups and the gloo one, from one file
    assert [c.rank for c in v.culprits] == [1], v.verdict
    assert groups["2"]["state"] == "idle"


def test_nccl_buffer_size_is_set_like_the_generic_one(tmp_path: Path) -> None:
    """torch >= 2.8 reads TORCH_FR_BUFFER_SIZE for NCCL's recorder too (the old name would only
    warn on every rank); before 2.8 NCCL's reads only TORCH_NCCL_TRACE_BUFFER_SIZE, set to match."""
    script = tmp_path / "show.py"
    script.write_text(
        "import os\nprint(os.environ['TORCH_FR_BUFFER_SIZE'], "
        "os.environ.get('TORCH_NCCL_TRACE_BUFFER_SIZE', '-'))\n"
    )
    env = {k: v for k, v in os.environ.items() if "BUFFER_SIZE" not in k}
    run = [sys.executable, "-m", "nonstop.supervisor.bootstrap", str(script)]
    old = bootstrap._torch_before_shared_fr_size()
    nccl = bootstrap.FR_ENTRIES if old else "-"
    out = subprocess.run(run, capture_output=True, text=True, env=env, timeout=120)
    assert out.stdout.split() == [bootstrap.FR_ENTRIES, nccl], out.stderr
    assert "deprecated" not in out.stderr
    env["TORCH_FR_BUFFER_SIZE"] = "77"  # a user's choice is kept, and NCCL's follows it
    out = subprocess.run(run, capture_output=True, text=True, env=env, timeout=120)
    assert out.stdout.split() == ["77", "77" if old else "-"], out.stderr
    f = bootstrap._torch_before_shared_fr_size
    assert f("2.7.1+cu126") and f("2.5.0") and not f("2.8.0") and not f("2.13.0.dev20261101")
    assert not f("not-a-version")


def test_a_failing_nccl_dump_is_reported_not_hidden_behind_an_empty_generic_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An NCCL-only job: the generic recorder holds nothing and dumps an empty trace, NCCL's
    raises. The old code wrote the empty dump and said nothing, so `nonstop diagnose` saw idle
    ranks; now the dump names the failed recorder, the rank's log warns, and the verdict says
    a hang in NCCL's collectives cannot be seen."""
    empty = {"version": "2.10", "pg_config": {}, "pg_status": {}, "entries": []}

    def nccl_fails(*args: Any) -> bytes:
        raise RuntimeError("NCCL flight recorder: CUDA error: an illegal memory access")

    c10d = types.ModuleType("torch._C._distributed_c10d")
    c10d._dump_fr_trace = lambda *args: pickle.dumps(empty)  # type: ignore[attr-defined]
    c10d._dump_nccl_trace = nccl_fails  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch._C._distributed_c10d", c10d)
    for rank in (0, 1):
        rt = types.SimpleNamespace(run_dir=tmp_path, attempt=0, rank=rank, fr_stacks=False)
        with caplog.at_level("WARNING", logger="nonstop"):
            files = bootstrap.write_dumps(rt)  # type: ignore[arg-type]
        assert files[0].endswith(f"flight/attempt-0/rank-{rank}")
    assert "_dump_nccl_trace" in caplog.text and "illegal memory access" in caplog.text
    dump = pickle.loads((tmp_path / "flight/attempt-0/rank-0").read_bytes())
    assert dump[bootstrap.RECORDER_ERRORS] == {
        "_dump_nccl_trace": "RuntimeError: NCCL flight recorder: CUDA error: an illegal memory access"
    }
    v = analyze_flight(tmp_path / "flight" / "attempt-0", world_size=2)
    assert "flight recorder _dump_nccl_trace failed on rank(s) 0, 1" in v.verdict, v.verdict
    assert any("rank 1: flight recorder _dump_nccl_trace failed" in e for e in v.evidence)
    assert v.details["recorder_errors"][0][:2] == [0, "_dump_nccl_trace"]


def test_the_recorder_errors_key_is_the_one_diagnose_reads() -> None:
    from nonstop.diagnose.frdump import RECORDER_ERRORS

    assert bootstrap.RECORDER_ERRORS == RECORDER_ERRORS
