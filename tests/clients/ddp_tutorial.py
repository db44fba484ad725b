"""A DDP training script in the style of the PyTorch DDP tutorial (a Trainer class, a snapshot
each epoch that a restart resumes from, DistributedSampler), on CPU with gloo. Written for these
tests; it knows nothing of nonstop.

    torchrun --standalone --nproc-per-node 2 ddp_tutorial.py EPOCHS SAVE_EVERY SNAPSHOT
"""

import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from client_fault import maybe_fault
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class Synthetic(Dataset):
    def __init__(self, n: int) -> None:
        g = torch.Generator().manual_seed(1234)
        self.x = torch.randn(n, 20, generator=g)
        self.y = self.x @ torch.linspace(-1, 1, 20).unsqueeze(1) + 0.1 * torch.randn(
            n, 1, generator=g
        )

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int):
        return self.x[i], self.y[i]


class Trainer:
    def __init__(self, model, data, optimizer, save_every: int, snapshot: str) -> None:
        self.rank = int(os.environ["RANK"])
        self.model, self.data, self.optimizer = model, data, optimizer
        self.save_every, self.snapshot, self.epochs_run, self.step = save_every, snapshot, 0, 0
        if os.path.exists(snapshot):
            self._load_snapshot()
        self.model = DDP(self.model)

    def _load_snapshot(self) -> None:
        snap = torch.load(self.snapshot, weights_only=True)
        self.model.load_state_dict(snap["model"])
        self.optimizer.load_state_dict(snap["optimizer"])
        self.epochs_run, self.step = snap["epochs_run"], snap["step"]
        print(f"Resuming training from snapshot at epoch {self.epochs_run}", flush=True)

    def _save_snapshot(self, epoch: int) -> None:
        snap = {
            "model": self.model.module.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "epochs_run": epoch + 1,
            "step": self.step,
        }
        torch.save(snap, self.snapshot + ".tmp")
        os.replace(self.snapshot + ".tmp", self.snapshot)
        print(f"Epoch {epoch} | snapshot saved at {self.snapshot}", flush=True)

    def _run_epoch(self, epoch: int) -> float:
        self.data.sampler.set_epoch(epoch)
        total = 0.0
        for x, y in self.data:
            maybe_fault(self.step)
            self.optimizer.zero_grad()
            loss = F.mse_loss(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            t = loss.detach().clone()
            dist.all_reduce(t)
            total += t.item() / dist.get_world_size()
            self.step += 1
            time.sleep(0.01)
        return total / len(self.data)

    def train(self, epochs: int) -> float:
        loss = float("nan")
        for epoch in range(self.epochs_run, epochs):
            loss = self._run_epoch(epoch)
            print(
                f"[rank{self.rank}] Epoch {epoch} | steps {len(self.data)} | loss {loss:.6f}",
                flush=True,
            )
            if self.rank == 0 and (epoch + 1) % self.save_every == 0:
                self._save_snapshot(epoch)
            dist.barrier()
        return loss


def main(epochs: int, save_every: int, snapshot: str) -> None:
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    ds = Synthetic(256)
    data = DataLoader(ds, batch_size=16, shuffle=False, sampler=DistributedSampler(ds))
    model = torch.nn.Sequential(torch.nn.Linear(20, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
    trainer = Trainer(
        model, data, torch.optim.SGD(model.parameters(), lr=0.05), save_every, snapshot
    )
    loss = trainer.train(epochs)
    if trainer.rank == 0:
        print(f"final loss {loss:.6f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
