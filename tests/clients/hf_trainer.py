"""A Hugging Face transformers.Trainer script: a tiny GPT-2 built from a config (no download),
synthetic token data, TrainingArguments(ddp_backend="gloo", use_cpu=True), a checkpoint every
few steps and `train(resume_from_checkpoint=...)` to resume. Written for these tests; it knows
nothing of nonstop. Rank 0 prints the median step time it measured (a TrainerCallback).

    HF_HUB_OFFLINE=1 torchrun --standalone --nproc-per-node 2 hf_trainer.py MAX_STEPS OUT_DIR
"""

import os
import statistics
import sys
import time

import torch
from client_fault import maybe_fault
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainerCallback, TrainingArguments
from transformers.trainer_utils import get_last_checkpoint


class Tokens(torch.utils.data.Dataset):
    def __init__(self, n: int, seq: int = 32, vocab: int = 64) -> None:
        g = torch.Generator().manual_seed(1234)
        self.ids = torch.randint(0, vocab, (n, seq), generator=g)

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, i: int):
        return {"input_ids": self.ids[i], "labels": self.ids[i]}


class Timing(TrainerCallback):
    def __init__(self) -> None:
        self.t, self.times, self.loss = None, [], float("nan")

    def on_step_begin(self, args, state, control, **kw):
        maybe_fault(state.global_step)
        self.t = time.perf_counter()

    def on_step_end(self, args, state, control, **kw):
        self.times.append(time.perf_counter() - self.t)

    def on_log(self, args, state, control, logs=None, **kw):
        if logs and "loss" in logs:
            self.loss = logs["loss"]


def main(max_steps: int, out: str) -> None:
    cfg = GPT2Config(vocab_size=64, n_positions=32, n_embd=32, n_layer=2, n_head=2)
    torch.manual_seed(0)
    model = GPT2LMHeadModel(cfg)
    args = TrainingArguments(
        output_dir=out,
        per_device_train_batch_size=8,
        max_steps=max_steps,
        logging_steps=1,
        save_steps=5,
        save_strategy="steps",
        seed=0,
        ddp_backend="gloo",
        use_cpu=True,
        report_to=[],
        disable_tqdm=True,
        dataloader_num_workers=0,
        learning_rate=1e-3,
    )
    timing = Timing()
    trainer = Trainer(model=model, args=args, train_dataset=Tokens(1024), callbacks=[timing])
    last = get_last_checkpoint(out) if os.path.isdir(out) else None
    if last and int(os.environ["RANK"]) == 0:
        print(f"resuming from {os.path.basename(last)}", flush=True)
    trainer.train(resume_from_checkpoint=last)
    if trainer.is_world_process_zero():
        steady = timing.times[2:] or timing.times
        print(
            f"final loss {timing.loss:.4f} at step {trainer.state.global_step}; median step "
            f"{statistics.median(steady) * 1000:.1f} ms over {len(steady)} steps",
            flush=True,
        )


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
