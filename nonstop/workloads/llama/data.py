"""A deterministic, resumable byte-level data pipeline for the demo.

The corpus is bytes: by default the installed Python standard library's own source text (no
download, identical on every machine with the same Python), or the user's text files
(`--data PATH`, a file or a folder). The corpus is cut into fixed windows of seq_len + 1 bytes;
each epoch visits them in a seeded permutation. The position is one global cursor
(epoch, index), so it is part of the training state, survives a restart exactly, and even
reshards to another world size: rank r of W takes its slice of each global batch.
"""

from __future__ import annotations

import hashlib
import sysconfig
from pathlib import Path
from typing import Any

import numpy as np
import torch

from nonstop.errors import UserError

TEXT_SUFFIXES = (".py", ".txt", ".md", ".rst", ".json", ".csv", ".html", ".c", ".h", "")
DEFAULT_MAX_BYTES = 8 * 1024 * 1024


def _files_under(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts
    )


def load_corpus(path: str | Path | None = None, max_bytes: int = DEFAULT_MAX_BYTES) -> np.ndarray:
    """The corpus as a uint8 array: the stdlib's sources by default, else the user's files."""
    if path is None:
        root = Path(sysconfig.get_paths()["stdlib"])
        files = sorted(p for p in root.glob("*.py"))  # top level only: stable and ~8 MB
    else:
        root = Path(path)
        if not root.exists():
            raise UserError(f"--data {path}: no such file or directory")
        files = _files_under(root)
    chunks: list[bytes] = []
    size = 0
    for f in files:
        try:
            b = f.read_bytes()
        except OSError:
            continue
        chunks.append(b)
        size += len(b)
        if size >= max_bytes:
            break
    data = b"\n".join(chunks)[:max_bytes]
    if len(data) < 4096:
        raise UserError(f"--data {path}: only {len(data)} bytes of text; need at least 4 KiB")
    return np.frombuffer(data, dtype=np.uint8)


class ResumableLoader:
    """Yields (inputs, targets) batches for one rank; `state_dict()` is its exact position."""

    def __init__(
        self,
        corpus: np.ndarray,
        *,
        seq_len: int,
        batch_size: int,
        rank: int,
        world_size: int,
        seed: int = 0,
    ) -> None:
        if seq_len <= 0 or batch_size <= 0:
            raise ValueError(f"seq_len={seq_len} and batch_size={batch_size} must be positive")
        self.corpus = corpus
        self.seq_len, self.batch_size = seq_len, batch_size
        self.rank, self.world_size, self.seed = rank, world_size, seed
        self.windows = (len(corpus) - 1) // seq_len
        if self.windows < batch_size * world_size:
            raise UserError(
                f"corpus of {len(corpus)} bytes has {self.windows} windows of {seq_len}; "
                f"a global batch needs {batch_size * world_size}"
            )
        self.fingerprint = hashlib.blake2b(corpus.tobytes(), digest_size=8).hexdigest()
        self.epoch, self.index = 0, 0
        self._perm = self._permutation(0)

    def _permutation(self, epoch: int) -> np.ndarray:
        return np.random.default_rng([self.seed, epoch]).permutation(self.windows)

    def next_batch(self) -> tuple[torch.Tensor, torch.Tensor]:
        global_batch = self.batch_size * self.world_size
        if self.index + global_batch > self.windows:
            self.epoch, self.index = self.epoch + 1, 0
            self._perm = self._permutation(self.epoch)
        lo = self.index + self.rank * self.batch_size
        starts = self._perm[lo : lo + self.batch_size] * self.seq_len
        self.index += global_batch
        rows = np.stack([self.corpus[s : s + self.seq_len + 1] for s in starts]).astype(np.int64)
        t = torch.from_numpy(rows)
        return t[:, :-1], t[:, 1:]

    @property
    def position(self) -> int:
        """Batches drawn since the start of training (epochs included): the data position. A
        run that skips nothing trains on batch b at step b."""
        per_epoch = self.windows // (self.batch_size * self.world_size)
        return self.epoch * per_epoch + self.index // (self.batch_size * self.world_size)

    def skip(self, batches: int) -> tuple[int, int]:
        """Skip `batches` global batches without reading them (after a loss spike's rollback);
        the (from, to) data positions."""
        start = self.position
        global_batch = self.batch_size * self.world_size
        for _ in range(batches):
            if self.index + global_batch > self.windows:
                self.epoch, self.index = self.epoch + 1, 0
                self._perm = self._permutation(self.epoch)
            self.index += global_batch
        return start, self.position

    def seek(self, position: int) -> None:
        """Move to data position `position` (the batch a run that skips nothing trains at that
        step), e.g. a torchft replica group that healed at its peers' step."""
        per_epoch = self.windows // (self.batch_size * self.world_size)
        epoch, within = divmod(position, per_epoch)
        if epoch != self.epoch:
            self._perm = self._permutation(epoch)
        self.epoch, self.index = epoch, within * self.batch_size * self.world_size

    def state_dict(self) -> dict[str, Any]:
        return {
            "epoch": self.epoch,
            "index": self.index,
            "seed": self.seed,
            "fingerprint": self.fingerprint,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if state.get("fingerprint") not in (None, self.fingerprint):
            raise UserError(
                "the checkpoint was trained on a different corpus (fingerprint "
                f"{state['fingerprint']} != {self.fingerprint}); pass the same --data"
            )
        self.seed = int(state.get("seed", self.seed))
        self.epoch, self.index = int(state["epoch"]), int(state["index"])
        self._perm = self._permutation(self.epoch)
