"""The demo Llama as one replica group of a torchft job (`train --fault-tolerant`).

Every replica group holds a whole copy of the model; torchft's Manager agrees a quorum of the
live groups at every step through the Lighthouse, averages the gradients across them (its
allreduce over a reconfigurable gloo group) and commits the step only when every
participant finished it (its Optimizer wrapper). A group that comes back after a failure heals
from a live peer: the Manager sends it the model, the optimizer state and the step, so nothing
is read from storage. The other groups never stop; they train with fewer replicas meanwhile.

    nonstop run --replica-groups 2 --nproc-per-node 1 \\
        -m nonstop.workloads.llama.train --fault-tolerant --steps 200

The environment is what torchft's own launcher sets per group (REPLICA_GROUP_ID,
NUM_REPLICA_GROUPS, TORCHFT_LIGHTHOUSE) and torchrun's (MASTER_ADDR/PORT: the group's store).
Several ranks in a group: rank r of every group forms torchft's group for the gradients, and
the group's own process group (gloo) then averages them across the group's ranks, so every rank
of every group holds the same parameters.

The step is torchft's (Manager.current_step: the number of committed steps), so a healed group
continues at its peers' step, and the data follow the step: at step s group g trains the global
batch s's slice g (ResumableLoader.seek), whatever happened before.
"""

from __future__ import annotations

import argparse
import os
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist

import nonstop.runtime as ns
from nonstop import envvars
from nonstop.errors import UserError
from nonstop.workloads.llama.data import ResumableLoader, load_corpus
from nonstop.workloads.llama.model import Llama, LlamaConfig

GROUP_ID: str = "REPLICA_GROUP_ID"
NUM_GROUPS: str = "NUM_REPLICA_GROUPS"
LIGHTHOUSE: str = "TORCHFT_LIGHTHOUSE"
FINISHED: str = "finished"  # nonstop.supervisor.replica_groups.FINISHED
QUORUM_TIMEOUT_S: float = 60.0
"""torchft's quorum timeout (its default): how long a quorum may wait on the Lighthouse."""


def main(a: argparse.Namespace) -> int:
    """Train to a.steps committed steps as this replica group's rank; 0 when done."""
    from torchft import Manager, Optimizer, ProcessGroupGloo

    if LIGHTHOUSE not in os.environ:
        raise UserError(
            "--fault-tolerant needs torchft's Lighthouse: run it under "
            "`nonstop run --replica-groups G` (or set TORCHFT_LIGHTHOUSE, REPLICA_GROUP_ID, "
            "NUM_REPLICA_GROUPS as torchft's launcher does)"
        )
    group, groups = int(os.environ.get(GROUP_ID, "0")), int(os.environ.get(NUM_GROUPS, "1"))
    rt = ns.init()
    job = os.environ.get(envvars.REPLICA_GROUPS_DIR)
    if job and (Path(job) / FINISHED).exists():  # back after the others finished: nothing to do
        print(f"[train] replica group {group}: the job finished while it was away", flush=True)
        rt.close()
        return 0
    rank = int(os.environ.get(envvars.RANK, "0"))
    world = int(os.environ.get(envvars.WORLD_SIZE, "1"))  # the group's ranks
    torch.set_num_threads(max(1, (os.cpu_count() or 1) // max(1, world * groups)))
    # the group's own ranks (gradients averaged across them after torchft's); it also starts
    # the group's store at MASTER_ADDR/PORT, which torchft's Manager keeps its keys in
    dist.init_process_group("gloo", timeout=timedelta(minutes=5))
    torch.manual_seed(a.seed)  # identical initial weights in every group
    cfg = LlamaConfig(
        dim=a.dim,
        n_layers=a.layers,
        n_heads=a.heads,
        n_kv_heads=a.kv_heads,
        max_seq_len=max(256, a.seq_len),
    )
    model = Llama(cfg)
    inner = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.1, betas=(0.9, 0.95))

    def state_dict() -> dict[str, Any]:
        return {"model": model.state_dict(), "optim": inner.state_dict()}

    def load_state_dict(state: dict[str, Any]) -> None:
        model.load_state_dict(state["model"])
        inner.load_state_dict(state["optim"])

    pg = ProcessGroupGloo(timeout=timedelta(seconds=a.ft_timeout))
    manager = Manager(
        pg=pg,
        min_replica_size=1,
        load_state_dict=load_state_dict,
        state_dict=state_dict,
        replica_id=f"nonstop_{group}",
        timeout=timedelta(seconds=a.ft_timeout),
        quorum_timeout=timedelta(seconds=QUORUM_TIMEOUT_S),
        # a synchronous quorum: the step is known (healed) before the batch is chosen
        use_async_quorum=False,
        init_sync=False,  # every group seeds the same weights
    )
    job = os.environ.get(envvars.REPLICA_GROUPS_DIR)
    if job and rank == 0 and os.environ.get(envvars.ATTEMPT, "0") == "0":
        _start_barrier(Path(job), group, groups, timeout_s=6 * a.ft_timeout)
    rt.lifecycle("pg_ready", world_size=world * groups, replica_group=group)
    opt = Optimizer(manager, inner)
    loader = ResumableLoader(
        load_corpus(a.data),
        seq_len=a.seq_len,
        batch_size=a.batch_size,
        rank=group * world + rank,
        world_size=groups * world,
        seed=a.seed,
    )
    if rank == 0:
        print(
            f"[train] replica group {group}/{groups}: {model.num_params() / 1e6:.2f} M params, "
            f"{world} rank(s), steps to {a.steps}",
            flush=True,
        )
    t_log, healed_from, away = time.perf_counter(), None, False
    try:
        while manager.current_step() < a.steps:
            t0 = time.time()
            # torchft's waits on the other groups are bounded sections: the agent's watchdog
            # allows them their own timeouts (a peer group's failure or a Lighthouse restart
            # is torchft's to ride out) and learns no pause from them; a rank stopped inside
            # one is still called hung at the usual timeout (docs/run.md, replica groups)
            with rt.section("ft_quorum", limit_s=QUORUM_TIMEOUT_S + a.ft_timeout):
                opt.zero_grad()  # the quorum; a group that comes back heals here
            step = manager.current_step()
            if healed_from is None:
                healed_from = step
                if job and (Path(job) / FINISHED).exists():  # finished while this one started
                    print(f"[train] replica group {group}: the job finished", flush=True)
                    away = True
                    break
                if step > 0:
                    rt.lifecycle("healed", step=step - 1, replica_group=group)
            for g in inner.param_groups:
                g["lr"] = a.lr * _lr(step, a)
            with rt.step(step) as st:
                st.start = t0  # the quorum is part of the step
                with st.phase("data"):
                    loader.seek(step)
                    x, y = loader.next_batch()
                with st.phase("compute"):
                    logits = model(x)
                    loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), y.flatten())
                    if rt.faults:
                        loss = rt.faults.scale_loss(loss, step, step)
                with st.phase("backward"):
                    loss.backward()
                    _average_gradients(manager, model, world, rt, a.ft_timeout)
                with st.phase("optimizer"):
                    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                    with rt.section("ft_commit", limit_s=a.ft_timeout):
                        opt.step()  # commits only if every participant finished the step
                committed = manager.current_step() == step + 1
                pad = a.min_step_s - (time.time() - t0)
                if pad > 0:
                    time.sleep(pad)
                st.record(
                    loss=loss.item(),
                    tokens=x.numel() * world * manager.num_participants(),
                    replicas=manager.num_participants(),
                    replica_groups=groups,
                    committed=committed,
                )
            if rank == 0 and committed and (step + 1) % a.log_every == 0:
                dt = (time.perf_counter() - t_log) / a.log_every
                print(
                    f"[train] group {group} step {step + 1}/{a.steps} loss {loss.item():.4f} "
                    f"replicas {manager.num_participants()}/{groups} {dt * 1000:.0f} ms/step",
                    flush=True,
                )
                t_log = time.perf_counter()
        from nonstop.runtime.fingerprint import state_sha256

        if job and not away:
            (Path(job) / FINISHED).touch()  # a group still restarting need not come back
        rt.lifecycle(
            "finished",
            step=manager.current_step() - 1,
            replica_group=group,
            **({} if away else {"state_sha256": state_sha256(model.state_dict())}),
        )
    finally:
        manager.shutdown(wait=False)
    dist.barrier()
    dist.destroy_process_group()
    rt.close()
    return 0


def _start_barrier(job: Path, group: int, groups: int, *, timeout_s: float) -> None:
    """At the job's start, wait until every group's Manager is up (heartbeating to the
    Lighthouse): else the first group to ask forms a quorum alone and the others heal from it
    at once, which is correct but not the fault-free run. A group that never comes is waited
    for `timeout_s`, then the others start without it."""
    d = job / "barrier"
    d.mkdir(exist_ok=True)
    (d / f"g{group}").touch()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if all((d / f"g{g}").exists() for g in range(groups)):
            time.sleep(0.3)  # a heartbeat interval or three: the Lighthouse has seen every one
            return
        time.sleep(0.05)


def _lr(step: int, a: argparse.Namespace) -> float:
    from nonstop.workloads.llama.train import cosine_lr

    return cosine_lr(step, warmup=a.warmup, total=a.steps)


def _average_gradients(
    manager: Any, model: torch.nn.Module, world: int, rt: ns.Runtime, limit_s: float
) -> None:
    """The gradients averaged across the group's ranks (its own process group), then across
    the live replica groups (torchft's Manager.allreduce: a peer lost mid-step marks the step
    failed, and the optimizer wrapper then does not commit it), in one flat tensor each way.

    Not torchft's DDP wrapper: in torchft 0.2.0 its comm hook fails an assertion when a peer
    group dies during the all-reduce under gloo, which takes the surviving group down too."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    flat = torch.cat([g.reshape(-1) for g in grads])
    if world > 1:
        dist.all_reduce(flat)
        flat.div_(world)
    with rt.section("ft_allreduce", limit_s=limit_s):
        manager.allreduce(flat).wait()
    at = 0
    for g in grads:
        n = g.numel()
        g.copy_(flat[at : at + n].view_as(g))
        at += n
