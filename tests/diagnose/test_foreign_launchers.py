"""`nonstop triage` on the console output of launchers and frameworks nobody on the team wrote:
torchrun, `accelerate launch`, Lightning's Trainer(strategy="ddp") and DeepSpeed's multi-node
runner (pdsh), Slurm's `srun --label` and Open MPI's `mpirun --tag-output`,
torch.multiprocessing.spawn and Ray Train's TorchTrainer, each failing as users see them fail.

Each test runs the real launcher where the project's venv has it (torch's own launcher, accelerate
and Lightning, torch.multiprocessing.spawn) on CPU with gloo, captures its console as
`2>&1 | tee` would, and runs the real `nonstop triage --json` on it. DeepSpeed, Slurm, Open MPI and Ray are not in the venv: their output
is recorded under tests/diagnose/recorded/ (the command that made each file is next to its
test; tests/slurm/test_slurm_triage.py runs srun itself where a Slurm cluster is up).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support.procs import clean_env, free_port, nonstop_cli

RECORDED = Path(__file__).parent / "recorded"
TORCHRUN = (sys.executable, "-m", "torch.distributed.run")
ACCELERATE = (sys.executable, "-m", "accelerate.commands.launch")
# two local processes, and every choice given (no config file, no prompts)
ACCELERATE_QUIET = ("--multi_gpu", "--num_processes", "2", "--num_machines", "1")
ACCELERATE_QUIET += ("--mixed_precision", "no", "--dynamo_backend", "no")

# a worker that fails on rank 1 as MODE says, after one collective; the others then wait on rank 1
WORKER = """\
import ctypes, logging, os, sys
import torch
import torch.distributed as dist

mode = sys.argv[1]
if mode == "oom":  # under accelerate launch
    from accelerate import Accelerator
    from accelerate.logging import get_logger

    logging.basicConfig(level=logging.INFO, format="%(asctime)s - %(levelname)s - %(name)s - %(message)s")
    acc = Accelerator(cpu=True)
    rank = acc.process_index
    log = get_logger(__name__)
else:
    dist.init_process_group("gloo")
    rank = dist.get_rank()
dist.all_reduce(torch.ones(1))
if rank == 1:
    if mode == "raise":
        raise ValueError("bad batch shape at step 3")
    if mode == "oom":
        # what a training loop that catches torch.OutOfMemoryError logs on every process
        log.error("CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.11 GiB total "
                  "capacity; 77.80 GiB already allocated)", main_process_only=False)
        sys.exit(1)
dist.barrier()
"""

# a Lightning module whose rank 1 segfaults in its third training step, while rank 0 waits
LIGHTNING = """\
import ctypes
import threading
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

class Model(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def training_step(self, batch, i):
        if self.global_rank == 1 and i == 2:
            ctypes.string_at(0)
        if self.global_rank == 0 and i == 2:
            # out of any collective (which would raise first, on the lost peer) until
            # Lightning's observer sees rank 1 gone and kills this process
            threading.Event().wait()
        return self.layer(batch[0]).sum()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), 0.1)

if __name__ == "__main__":
    trainer = L.Trainer(accelerator="cpu", strategy="ddp", devices=2, max_epochs=1,
                        enable_progress_bar=False, enable_model_summary=False, logger=False,
                        enable_checkpointing=False)
    trainer.fit(Model(), DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=4))
"""


def _console(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> Path:
    """Run a launcher with stdout and stderr in one file, as `2>&1 | tee` keeps them."""
    log = cwd / "console.log"
    with open(log, "wb") as out:
        proc = subprocess.run(
            argv,
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=240,
            env=clean_env({"OMP_NUM_THREADS": "1", **(env or {})}),
        )
    assert proc.returncode != 0, log.read_text(errors="replace")
    return log


def _triage(log: Path) -> dict[str, Any]:
    proc = nonstop_cli("triage", str(log), "--json")
    assert "Traceback" not in proc.stderr, proc.stderr
    overall: dict[str, Any] = json.loads(proc.stdout)["overall"]
    return overall


def test_torchrun_rank_exception_is_on_the_summarys_host(tmp_path: Path) -> None:
    """`[rank1]: ValueError` names the rank, torchrun's summary its host: the verdict said
    host=None though the summary's root cause (rank 1) names its host."""
    (tmp_path / "w.py").write_text(WORKER)
    log = _console(
        [*TORCHRUN, "--nproc-per-node", "2", "--master-port", str(free_port()), "w.py", "raise"],
        tmp_path,
    )
    got = _triage(log)
    root = got["details"]["torchrun_root_cause"]
    assert (got["category"], got["action"]) == ("user_code_error", "stop_and_page")
    assert root["rank"] == 1 and root["host"]
    assert [(c["rank"], c["host"]) for c in got["culprits"]] == [(1, root["host"])]


def test_accelerate_launch_rank_of_its_loggers_prefix(tmp_path: Path) -> None:
    """accelerate's logger writes `[RANK 1] ` before a message logged on every process: the
    OOM it logged named no rank (rank read only from `[rank1]`, `[Rank 1]`, `[rank: 1]`)."""
    pytest.importorskip("accelerate")
    (tmp_path / "w.py").write_text(WORKER)
    log = _console(
        [*ACCELERATE, *ACCELERATE_QUIET, "--main_process_port", str(free_port()), "w.py", "oom"],
        tmp_path,
    )
    assert "[RANK 1] CUDA out of memory" in log.read_text(errors="replace")
    got = _triage(log)
    root = got["details"]["torchrun_root_cause"]
    assert (got["category"], got["action"]) == ("out_of_memory", "stop_and_page")
    assert [(c["rank"], c["host"]) for c in got["culprits"]] == [(1, root["host"])]


def test_lightning_ddp_child_segfault(tmp_path: Path) -> None:
    """Lightning's process observer says "[rank: 1] Child process with PID N terminated with
    code -11" and kills the rest: no row read a negative return code in these words, and the
    statistical fallback guessed a storage fault."""
    pytest.importorskip("lightning")
    (tmp_path / "fit.py").write_text(LIGHTNING)
    log = _console(
        [sys.executable, "fit.py"],
        tmp_path,
        {"MASTER_PORT": str(free_port()), "PL_DISABLE_FORK": "1"},
    )
    assert "terminated with code -11" in log.read_text(errors="replace")
    got = _triage(log)
    assert (got["category"], got["action"], got["guessed"]) == ("software_bug", "restart", False)
    assert [c["rank"] for c in got["culprits"]] == [1]


# DeepSpeed 0.19.8 (torch 2.13.0+cpu, DS_ACCELERATOR=cpu) with a two-host hostfile
# ("worker-0 slots=1", "worker-1 slots=1"):
#   deepspeed --hostfile hostfile --no_ssh_check --master_addr 127.0.0.1 ds.py MODE 2>&1 | tee
# its PDSHRunner ran `pdsh -S -f 1024 -w worker-0,worker-1 ...`; pdsh itself was a stand-in
# that runs the command once per host on this machine with pdsh's "host: " line prefix (the
# lines after each prefix are DeepSpeed's and torch's own). ds.py: deepspeed.init_distributed
# ("gloo"), deepspeed.initialize of a Linear(4, 1), then global rank 1 raises ValueError
# (MODE=raise) or segfaults (ctypes.string_at(0), MODE=segv), and dist.barrier().
@pytest.mark.parametrize(
    ("name", "category", "rank"),
    [
        ("deepspeed-pdsh-raise.log", "user_code_error", 1),
        ("deepspeed-pdsh-segv.log", "software_bug", None),
        ("deepspeed-pdsh-kill.log", "unknown", None),  # os.kill(SIGKILL) (MODE=kill)
    ],
)
def test_deepspeed_pdsh_host_prefix(name: str, category: str, rank: int | None) -> None:
    """pdsh puts `worker-1: ` before every line of worker-1's launcher and ranks: the verdict
    named no host. (A segfaulted rank prints nothing; DeepSpeed's launch.py on its host says
    `exits with return code = -11` with the local rank only.)"""
    got = _triage(RECORDED / name)
    assert got["category"] == category
    assert [(c["rank"], c["host"]) for c in got["culprits"]] == [(rank, "worker-1")]


def test_a_peer_that_lost_a_killed_rank_is_not_the_culprit() -> None:
    """worker-1's rank was SIGKILLed: its launcher says `exits with return code = -9`, while
    worker-0's rank 0 says "Connection closed by peer" (a row of higher specificity). The
    verdict was that no file showed the peer's own failure, with rank 0 on worker-0 named; the
    peer's death is on record, on another host, and it is the culprit."""
    got = _triage(RECORDED / "deepspeed-pdsh-kill.log")
    assert [(c["rank"], c["host"]) for c in got["culprits"]] == [(None, "worker-1")], got
    assert "exits with return code = -9" in got["evidence"][0], got["evidence"][0]
    assert "Its peers lost it" in got["verdict"] and "worker-0" in got["verdict"], got["verdict"]


def test_line_heads_that_are_no_hosts(tmp_path: Path) -> None:
    """Lines that begin with a word and ": " are no host prefix where the words are a log's own
    (levels, exceptions, a program's name): Slurm's `srun: error: node12: task 1: ...` is still
    node12's, and an exception's lines name none."""
    log = tmp_path / "job.out"
    log.write_text(
        "WARNING: Location 'file:///opt/simple/idna/' is ignored\n"
        "WARNING: Location 'file:///opt/simple/h11/' is ignored\n"
        "srun: error: node12: task 1: Segmentation fault (core dumped)\n"
        "srun: launch/slurm: _step_signal: Terminating StepId=81.0\n"
        "RuntimeError: NCCL error: unhandled system error\n"
    )
    got = _triage(log)
    assert [c["host"] for c in got["culprits"]] == ["node12"]


# Recorded 2026-12-06 on a one-node Slurm 22.05 cluster (tests/slurm/slurm_cluster.py):
#   srun --label -n 2 -t 2 python3 t.py > job.out 2>&1
# t.py prints three steps, then task 1 (SLURM_PROCID) raises RuntimeError("CUDA error: an
# illegal memory access was encountered"). And with Open MPI 4.1 (Debian's openmpi-bin):
#   mpirun --allow-run-as-root --oversubscribe --tag-output -np 3 python3 mpi_t.py 2>&1
# mpi_t.py prints three steps, then rank 1 (OMPI_COMM_WORLD_RANK) SIGKILLs itself and rank 2
# raises gloo's "Connection closed by peer" 0.1 s later, as a peer of a killed rank does. The
# -kill, -segv and mpirun -raise files: v.py MODE, where task/rank 1 SIGKILLs itself, reads
# address 0 (ctypes.string_at(0)) or raises ValueError("bad batch shape at step 3"), with
#   srun --label -n 2 -t 2 python3 v.py MODE
#   mpirun --allow-run-as-root --oversubscribe --tag-output -np 2 python3 v.py MODE
@pytest.mark.parametrize(
    ("name", "category", "said"),
    [
        ("srun-label-raise.log", "software_bug", "CUDA error: an illegal memory access"),
        ("srun-label-kill.log", "unknown", "srun: error: vm: task 1: Killed"),
        ("srun-label-segv.log", "software_bug", "task 1: Segmentation fault"),
        ("mpirun-tag-output-kill.log", "unknown", "exited on signal 9 (Killed)"),
        ("mpirun-tag-output-segv.log", "software_bug", "exited on signal 11"),
        ("mpirun-tag-output-raise.log", "user_code_error", "ValueError: bad batch shape"),
    ],
)
def test_task_labels_name_the_rank_and_the_launcher_names_its_node(
    name: str, category: str, said: str
) -> None:
    """srun --label puts the task before every line ("1: ..."), mpirun --tag-output its
    "[job,rank]<stderr>:"; each launcher's own message names the task's node ("srun: error:
    vm: task 1: Exited with exit code 1", "process rank 1 with PID 0 on node vm exited on
    signal 9"). The verdicts named no host (and srun's no rank); Open MPI's killed rank 1 was
    named only by chance, its evidence the peer's "Connection closed by peer", and its raising
    rank's `[1,1]<stderr>:ValueError: ...` matched no row (the tag was read as part of the
    exception's name)."""
    got = _triage(RECORDED / name)
    assert got["category"] == category
    host = None if name == "mpirun-tag-output-raise.log" else "vm"  # no message names its node
    assert [(c["rank"], c["host"]) for c in got["culprits"]] == [(1, host)], got
    assert said in got["evidence"][0], got["evidence"]


def test_a_rank_line_outranks_the_task_label(tmp_path: Path) -> None:
    """torchrun started once per node under `srun --label`: the label is the node's task, and
    the rank that torch's prefix names on the line is the rank."""
    log = tmp_path / "job.out"
    log.write_text(
        "".join(f"{t}: step {s} loss 2.2\n" for s in range(3) for t in (0, 1))
        + "1: [rank5]: RuntimeError: CUDA error: an illegal memory access was encountered\n"
        "srun: error: node12: task 1: Exited with exit code 1\n"
    )
    got = _triage(log)
    assert [(c["rank"], c["host"]) for c in got["culprits"]] == [(5, "node12")], got


def test_numbered_lines_are_no_task_labels(tmp_path: Path) -> None:
    """Lines numbered one by one ("12: ...", a listing) are no srun labels: no rank 14."""
    log = tmp_path / "listing.txt"
    log.write_text(
        "".join(f"{i}: step {i} loss 2.2\n" for i in range(1, 14))
        + "14: RuntimeError: CUDA error: an illegal memory access was encountered\n"
    )
    got = _triage(log)
    assert [c["rank"] for c in got["culprits"]] in ([], [None]), got


def test_skypilots_worker_prefix_names_the_node(tmp_path: Path) -> None:
    """SkyPilot puts "(worker1, rank=1, pid=2875, ip=172.31.4.17) " before each line of a
    multi-node job's workers (the head's has no address): the address is the host, as Ray's
    "(RayTrainWorker pid=2212, ip=10.0.3.5)" is. It said host=None. (Written in SkyPilot's
    format: SkyPilot needs a cloud to run.)"""
    log = tmp_path / "sky.log"
    log.write_text(
        "(head, rank=0, pid=3310) step 10 loss 2.21\n"
        "(worker1, rank=1, pid=2875, ip=172.31.4.17) step 10 loss 2.21\n"
        "(worker1, rank=1, pid=2875, ip=172.31.4.17) torch.OutOfMemoryError: CUDA out of "
        "memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 22.05 GiB\n"
    )
    got = _triage(log)
    assert got["category"] == "out_of_memory"
    assert [(c["rank"], c["host"]) for c in got["culprits"]] == [(1, "172.31.4.17")], got


# Recorded 2026-12-06 on CPU with gloo, OMP_NUM_THREADS=1, FAIL_MODE=raise|kill|segv, from
# train.py: init_process_group("gloo"), one all_reduce, then global rank 1 raises
# ValueError("bad batch shape at step 3"), SIGKILLs itself or reads address 0
# (ctypes.string_at(0)), and rank 0 waits in dist.barrier():
#   torchx 0.7.0, torch 2.13.0+cpu:
#     FAIL_MODE=MODE torchx run --scheduler local_cwd dist.ddp -j 1x2 --script train.py \
#       > torchx-local-MODE.log 2>&1
#   mosaicml (Composer) 0.32.1, torch 2.7.0 (it pins torch<2.7.1; beside 2.13 it does not import):
#     FAIL_MODE=MODE composer -n 2 train.py > composer-n2-MODE.log 2>&1
@pytest.mark.parametrize(
    ("name", "category", "host", "said"),
    [
        (
            "torchx-local-raise.log",
            "user_code_error",
            "localhost",
            "root cause (first observed failure) rank 1",
        ),
        ("torchx-local-kill.log", "unknown", "localhost", "Signal 9 (SIGKILL) received by PID"),
        ("torchx-local-segv.log", "software_bug", "localhost", "rank 1 on localhost, exitcode -11"),
        ("composer-n2-raise.log", "user_code_error", None, "ValueError: bad batch shape"),
        ("composer-n2-kill.log", "unknown", None, "Rank 1 crashed with exit code -9."),
        ("composer-n2-segv.log", "software_bug", None, "Global rank 1 (PID 26823) exited with"),
    ],
)
def test_torchx_and_composer_name_the_failed_rank(
    name: str, category: str, host: str | None, said: str
) -> None:
    """TorchX's local scheduler puts the role and replica before torchrun's own "[1]:" prefix
    ("train/0 [1]:[rank1]: ValueError: ..."), and torchrun's summary names the host. Composer's
    launcher says "Rank 1 crashed with exit code -9." and, for a rank it did not kill, "Global
    rank 1 (PID 26823) exited with code -11". Composer's SIGKILLed rank 1 was not named: its
    "crashed" matched no row and "Rank 1" no rank, so the verdict named rank 0, which had only
    lost its peer ("Connection closed by peer"). TorchX's three were right already."""
    got = _triage(RECORDED / name)
    assert got["category"] == category
    assert [(c["rank"], c["host"]) for c in got["culprits"]] == [(1, host)], got
    assert said in got["evidence"][0], got["evidence"]


# Recorded 2026-12-06 in a venv with torch 2.13.0 and no NumPy (`python3 -m venv V && V/bin/pip
# install torch==2.13.0`): `V/bin/python -m torch.distributed.run --nproc-per-node 2 np_t.py`,
# where np_t.py does gloo, one all_reduce, then rank 1 raises ValueError("bad batch shape at
# step 3") while rank 0 waits in a barrier.
def test_a_python_warning_is_no_cause_over_the_exception_that_ended_the_job() -> None:
    """Every rank of a venv without NumPy prints torch's "UserWarning: Failed to initialize
    NumPy: No module named 'numpy'" and trains on; read as the missing module (dependency, no
    culprit), it outranked rank 1's ValueError. A Python warning is a line the process
    survived (signatures.SURVIVED): the ValueError, rank 1, is the verdict."""
    got = _triage(RECORDED / "torchrun-numpy-missing-raise.log")
    assert got["category"] == "user_code_error", got["verdict"]
    assert [(c["rank"], c["host"]) for c in got["culprits"]] == [(1, "localhost")], got


# PyTorch's DDP tutorial's launcher: mp.spawn(main, args=(world,), nprocs=2, join=True), where
# main(rank, world) does gloo, one all_reduce, then rank 1 fails as MODE says. Rank 0, whose
# barrier then fails, waits before it raises: mp.spawn relays only the first process it finds
# ended, and on a loaded host it found rank 0 first (its "Connection closed by peer", which
# triage rightly reads as a symptom with no culprit: then the log holds no trace of rank 1)
SPAWN = """\
import ctypes, os, sys, time
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def main(rank, world):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    dist.init_process_group("gloo", rank=rank, world_size=world)
    dist.all_reduce(torch.ones(1))
    if rank == 1:
        mode = sys.argv[1]
        if mode == "raise":
            raise ValueError("bad batch shape at step 3")
        if mode == "kill":
            os.kill(os.getpid(), 9)
        if mode == "segv":
            ctypes.string_at(0)
    try:
        dist.barrier()
    except RuntimeError:  # rank 0 loses its peer: let mp.spawn see rank 1 end first
        time.sleep(2)
        raise


if __name__ == "__main__":
    world = 2
    mp.spawn(main, args=(world,), nprocs=2, join=True)
"""

# (mode, category, what the evidence says) of mp.spawn's rank 1
SPAWNED = [
    ("raise", "user_code_error", "ValueError: bad batch shape at step 3"),
    ("kill", "unknown", "process 1 terminated with signal SIGKILL"),
    ("segv", "software_bug", "process 1 terminated with signal SIGSEGV"),
]


@pytest.mark.parametrize(("mode", "category", "said"), SPAWNED)
def test_mp_spawn_names_its_failed_process(
    tmp_path: Path, mode: str, category: str, said: str
) -> None:
    """torch.multiprocessing.spawn relays a raising process's traceback under "-- Process 1
    terminated with the following error:", and says "process 1 terminated with signal SIGKILL"
    of one a signal ended. The verdicts named no rank, and the SIGKILL matched no row ("No
    known failure signature")."""
    (tmp_path / "spawn_t.py").write_text(SPAWN)
    log = _console(
        [sys.executable, "spawn_t.py", mode], tmp_path, {"MASTER_PORT": str(free_port())}
    )
    got = _triage(log)
    assert got["category"] == category, got["verdict"]
    assert [(c["rank"], c["host"]) for c in got["culprits"]] == [(1, None)], got
    assert said in got["evidence"][0], got["evidence"]


# Recorded 2026-12-06 with torch 2.13.0+cpu (this venv), SPAWN above (before rank 0 waited) as spawn_t.py:
#   MASTER_PORT=N OMP_NUM_THREADS=1 python spawn_t.py MODE 2>&1 | tee mp-spawn-MODE.log
@pytest.mark.parametrize(("mode", "category", "said"), SPAWNED)
def test_mp_spawn_recorded(mode: str, category: str, said: str) -> None:
    """The same verdicts on mp.spawn's console as recorded (the live test's output)."""
    got = _triage(RECORDED / f"mp-spawn-{mode}.log")
    assert got["category"] == category, got["verdict"]
    assert [(c["rank"], c["host"]) for c in got["culprits"]] == [(1, None)], got
    assert said in got["evidence"][0], got["evidence"]


def test_a_large_logs_relayed_block_is_looked_for_in_its_tail_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file above MARKS_WHOLE_BYTES is searched for mp.spawn's and Ray's headers in its last
    MARKS_TAIL_BYTES only (where a launcher prints the failure it relays as the job ends): the
    big-log benchmark paid a second read of the whole file for it. Limits made small here."""
    from nonstop.diagnose import triage

    monkeypatch.setattr(triage, "MARKS_WHOLE_BYTES", 64 << 10)
    monkeypatch.setattr(triage, "MARKS_TAIL_BYTES", 16 << 10)
    console = (RECORDED / "mp-spawn-raise.log").read_bytes()
    filler = b"".join(b"step %d loss 2.5 lr 3e-4\n" % i for i in range(8000))
    assert len(filler) > 64 << 10
    late, early = tmp_path / "late.log", tmp_path / "early.log"
    late.write_bytes(filler + console)
    early.write_bytes(console + filler)
    assert triage._has_marks(str(late)) and not triage._has_marks(str(early))
    got = triage.triage_file(late)
    assert got.category == "user_code_error", got
    assert [c.rank for c in got.culprits] == [1], got


# Recorded 2026-12-06 with Ray 2.60.0 and torch 2.13.0+cpu in a venv of their own
# (`python3 -m venv V && V/bin/pip install torch==2.13.0 'ray[train]'`):
#   OMP_NUM_THREADS=1 V/bin/python ray_t.py MODE 2>&1 | tee ray-train-MODE.log; ray stop --force
# ray_t.py: TorchTrainer(train_func, train_loop_config={"mode": MODE}, scaling_config=
# ScalingConfig(num_workers=2, use_gpu=False), torch_config=TorchConfig(backend="gloo")).fit(),
# where train_func does one all_reduce, then rank 1 raises ValueError("bad batch shape at step
# 3"), SIGKILLs itself (os.kill(os.getpid(), 9)) or reads address 0 (ctypes.string_at(0)),
# and rank 0 waits in dist.barrier().
@pytest.mark.parametrize(
    ("name", "category", "rank", "said"),
    [
        ("ray-train-raise.log", "user_code_error", 1, "ValueError: bad batch shape at step 3"),
        ("ray-train-kill.log", "unknown", 1, "A worker died or was killed"),
        # the worker segfaulted before the controller listed its workers' ranks: no line says
        # which rank pid 21362 was (the ActorDiedError names its address)
        ("ray-train-segv.log", "software_bug", None, "*** SIGSEGV received at time="),
    ],
)
def test_ray_train_torch_trainer(name: str, category: str, rank: int | None, said: str) -> None:
    """Ray Train relays a worker's traceback under "[Rank 1 Error Snippet]:", lists its workers
    ("(ip=192.0.2.2, pid=19558) world_rank=1") and prefixes their lines with their pid. Ray's
    worker-died message lists possible causes ("Some common causes include: (1) the process
    was killed by the OOM killer ..., (3) ... SIGSEGV ..."): the SIGKILLed and the segfaulted
    rank were read as the host OOM killer's (out_of_memory, stop_and_page), and no verdict named
    a rank or host."""
    got = _triage(RECORDED / name)
    assert got["category"] == category, got["verdict"]
    assert [(c["rank"], c["host"]) for c in got["culprits"]] == [(rank, "192.0.2.2")], got
    assert said in got["evidence"][0], got["evidence"]


def test_a_peer_that_lost_a_spawned_process_killed_is_not_the_culprit(tmp_path: Path) -> None:
    """A rank that lost its peer ("Connection closed by peer", a row above the bare kill) and
    mp.spawn's word that the peer's process died of SIGKILL: the dead process is the culprit
    (`_dead_peer` read no "terminated with signal SIGKILL"), rank 0 only lost it."""
    log = tmp_path / "console.log"
    log.write_text(
        "[rank0]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] "
        "Connection closed by peer [127.0.0.1]:20163\n"
        "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal "
        "SIGKILL\n"
    )
    got = _triage(log)
    assert [c["rank"] for c in got["culprits"]] == [1], got
    assert "process 1 terminated with signal SIGKILL" in got["evidence"][0], got["evidence"]
