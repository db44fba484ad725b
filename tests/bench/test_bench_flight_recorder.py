"""bench_flight_recorder's synthetic dumps against a REAL flight-recorder dump made here (two
gloo ranks in subprocesses, torch's `_dump_fr_trace`), the template writer against a per-rank
pickle, and both tools on a small job; never the timings."""

from __future__ import annotations

import pickle
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from benchmarks import bench_flight_recorder as bf
from nonstop.diagnose.frdump import load_dump

WORKER = textwrap.dedent("""
    import os, sys
    os.environ["TORCH_FR_BUFFER_SIZE"] = "200"
    import torch, torch.distributed as dist
    from torch._C._distributed_c10d import _dump_fr_trace
    rank, port, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=2)
    sub = dist.new_group([0, 1])
    x = torch.ones(8)
    dist.all_reduce(x, group=sub)
    dist.all_gather_into_tensor(torch.empty(16), x)
    dist.barrier()
    open(f"{out}/rank-{rank}", "wb").write(_dump_fr_trace())
    dist.destroy_process_group()
""")


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# one worker for the module under xdist: `real_dump` runs once
pytestmark = pytest.mark.xdist_group("bench_flight_recorder")


@pytest.fixture(scope="module")
def real_dump(tmp_path_factory: pytest.TempPathFactory) -> dict:
    d = tmp_path_factory.mktemp("real")
    (d / "w.py").write_text(WORKER)
    port = _port()
    procs = [
        subprocess.Popen([sys.executable, str(d / "w.py"), str(r), str(port), str(d)])
        for r in range(2)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    return pickle.loads((d / "rank-1").read_bytes())


def test_synthetic_dump_has_the_real_dumps_fields_and_types(real_dump: dict) -> None:
    ours = bf.make_dump(bf.Layout.for_ranks(64), 9, 50)
    assert set(real_dump) == set(ours) and ours["version"] == real_dump["version"]
    real_e, our_e = real_dump["entries"][0], ours["entries"][0]
    # duration_ms is NCCL's (with timing enabled); gloo's generic recorder has none.
    assert set(our_e) - set(real_e) == {"duration_ms"} and set(real_e) <= set(our_e)
    for k, v in real_e.items():
        if v is not None and our_e[k] is not None:
            assert type(v) is type(our_e[k]), k
    assert set(real_e["frames"][0]) == set(our_e["frames"][0]) == {"filename", "line", "name"}
    assert isinstance(our_e["process_group"], tuple) and len(our_e["process_group"]) == 2
    for v in ours["pg_status"].values():
        assert set(v) == set(next(iter(real_dump["pg_status"].values())))


def test_layout_is_llama3s_at_16k_ranks() -> None:
    lay = bf.Layout.for_ranks(16384)
    assert (lay.tp, lay.pp, lay.dp) == (8, 16, 128)
    g = lay.groups(5461)
    assert 5461 in g["tp"] and 5461 in g["pp"] and 5461 in g["dp"]
    assert [len(g[k]) for k in ("tp", "pp", "dp")] == [8, 16, 128]


def test_template_writer_writes_what_make_dump_pickles(tmp_path: Path) -> None:
    folder = bf.write_job(tmp_path / "job", 64, 60, hang_rank=21)
    lay = bf.Layout.for_ranks(64)
    for r in (0, 21, 63):
        got, truncated = load_dump(folder / f"rank-{r}")  # nonstop's safe loader
        want = bf.make_dump(lay, r, 60, hang=r == 21, jitter_ns=0 if r == 21 else (r % 4) * 1000)
        assert not truncated and got == want
    assert len(list(folder.iterdir())) == 64


def test_both_tools_run_on_a_small_hang(tmp_path: Path) -> None:
    folder = bf.write_job(tmp_path / "job", 16, 200, hang_rank=5)
    row = bf.measure(folder, 5, 1, timeout_s=120)
    assert row["ours"]["status"] == "ok" and row["ours"]["culprits"] == [5]
    assert row["peer"]["status"] == "ok" and row["peer"]["mentions_culprit"]
    assert row["ours"]["peak_rss_gb"] > 0 and row["peer"]["peak_tree_rss_gb"] > 0
