"""A PyTorch Lightning script: LightningModule, Trainer(strategy="ddp") on 2 CPU processes with
gloo, a ModelCheckpoint every few steps and `fit(ckpt_path="last")` to resume, synthetic data.
Written for these tests; it knows nothing of nonstop.

    torchrun --standalone --nproc-per-node 2 lightning_ddp.py MAX_STEPS OUT_DIR
"""

import os
import sys
import time

import lightning as L
import torch
import torch.nn.functional as F
from client_fault import maybe_fault
from torch.utils.data import DataLoader, TensorDataset


class Regressor(L.LightningModule):
    def __init__(self) -> None:
        super().__init__()
        self.net = torch.nn.Sequential(
            torch.nn.Linear(20, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)
        )
        self.last_loss = float("nan")

    def training_step(self, batch, batch_idx):
        maybe_fault(self.global_step)
        x, y = batch
        loss = F.mse_loss(self.net(x), y)
        self.last_loss = float(self.all_gather(loss.detach()).mean())
        time.sleep(0.01)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)


def main(max_steps: int, out: str) -> None:
    L.seed_everything(0, workers=True)
    g = torch.Generator().manual_seed(1234)
    x = torch.randn(512, 20, generator=g)
    y = x @ torch.linspace(-1, 1, 20).unsqueeze(1)
    data = DataLoader(TensorDataset(x, y), batch_size=16)
    ckpt = L.pytorch.callbacks.ModelCheckpoint(
        dirpath=out, every_n_train_steps=5, save_last=True, save_top_k=-1
    )
    trainer = L.Trainer(
        accelerator="cpu",
        devices=2,
        strategy="ddp",
        max_steps=max_steps,
        default_root_dir=out,
        logger=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        callbacks=[ckpt],
        deterministic=True,
    )
    model = Regressor()
    last = os.path.join(out, "last.ckpt")
    trainer.fit(model, data, ckpt_path=last if os.path.exists(last) else None)
    if trainer.global_rank == 0:
        print(f"final loss {model.last_loss:.6f} at step {trainer.global_step}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
