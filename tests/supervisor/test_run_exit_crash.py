"""A rank that crashes in its interpreter's teardown after every rank finished its script, end
to end: real processes, real gloo, a real SIGABRT.

torch 2.13 aborts now and then when an unmodified script exits without destroying its process
group ("terminate called without an active exception", exit -6): CI saw it under torchrun on
the transformers.Trainer client after the training had completed. torchrun then calls the job
failed and trains again (or, with no restarts left, fails it); `nonstop run` calls it complete,
and does not let torch's SIGTERM cut short a rank still finishing its script (rank 0 saving the
final model).

A rank's ordinary exit is Python's, with its objects frozen first (bootstrap.run_then_exit:
the exit's final garbage collections took 1.2-1.7 s of CPU per rank walking torch's): the
script's atexit handlers still run, after the freeze."""

from __future__ import annotations

import textwrap

import pytest
from support import nonstop_run, rows

pytestmark = pytest.mark.slow

ABORT_AT_EXIT = textwrap.dedent("""
    import atexit, os, sys, time
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    x = torch.ones(10)
    for _ in range(20):
        dist.all_reduce(x)
    rank = dist.get_rank()
    if rank == 1:  # the teardown abort: C++'s message on stderr, then SIGABRT
        def die():
            os.write(2, b"terminate called without an active exception\\n")
            os.abort()
        atexit.register(die)
    else:  # rank 0 saves the final model, slowly, after its peer has left
        time.sleep(4)
        with open(sys.argv[1], "w") as f:
            f.write("final")
        print("final model saved", flush=True)
""")


def test_an_abort_in_teardown_after_every_rank_finished_completes_the_run(tmp_path):
    script = tmp_path / "abort_at_exit.py"
    script.write_text(ABORT_AT_EXIT)
    run_dir, final = tmp_path / "run", tmp_path / "final.txt"
    r = nonstop_run(
        [
            "--nproc-per-node",
            "2",
            "--run-dir",
            str(run_dir),
            "--health-checks",
            "none",
            "--max-restarts",
            "2",
            str(script),
            str(final),
        ],
        timeout=240,
    )
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "rank 1 SIGABRT in the interpreter's teardown" in out, out
    assert final.read_text() == "final", "torch's SIGTERM cut rank 0's final save short"
    assert rows(run_dir, "SELECT attempt, outcome FROM attempts") == [(0, "succeeded")]
    assert rows(run_dir, "SELECT kind, rank FROM detections") == [("exit_crash", 1)]
    assert rows(run_dir, "SELECT COUNT(*) FROM failures")[0][0] == 0
    log = (run_dir / "logs" / "attempt-0" / "rank-1.log").read_text()
    assert "terminate called without an active exception" in log


EXIT_AS_PYTHON = textwrap.dedent("""
    import atexit, gc, sys
    import torch

    @atexit.register
    def said():
        with open(sys.argv[1], "w") as f:
            f.write(f"atexit ran, frozen {gc.get_freeze_count()}")

    sys.exit(0)
""")


def test_a_ranks_exit_runs_its_atexit_handlers_with_torchs_objects_frozen(tmp_path):
    script = tmp_path / "exit_as_python.py"
    script.write_text(EXIT_AS_PYTHON)
    said = tmp_path / "said.txt"
    r = nonstop_run(
        [
            *("--nproc-per-node", "1", "--run-dir", str(tmp_path / "run")),
            *("--health-checks", "none", "--no-self-test"),
            *(str(script), str(said)),
        ],
        timeout=240,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    text = said.read_text()  # torch alone holds over 100,000 objects
    assert text.startswith("atexit ran, frozen ") and int(text.split()[-1]) > 1000, text
