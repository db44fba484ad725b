"""Checkpoint coordination across ranks: two dedicated gloo groups, never the training group.

`writer` belongs to the background thread (DCP's save collectives, checksum gather, commit
outcome); `main` to the training thread (votes on whether to save now, loading). Two groups
because collectives issued from two threads on one group could interleave differently on
different ranks. In a single process every method is a local no-op.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import torch
import torch.distributed as dist

log = logging.getLogger("nonstop.checkpoint")


class Coordinator:
    """Rank, world size and the few collectives the checkpointer needs."""

    def __init__(self, *, timeout_s: float) -> None:
        self.distributed = dist.is_available() and dist.is_initialized()
        self.rank = dist.get_rank() if self.distributed else 0
        self.world_size = dist.get_world_size() if self.distributed else 1
        self.writer: Any = None
        self.main: Any = None
        if self.distributed:  # collective: every rank constructs its Checkpointer
            timeout = timedelta(seconds=timeout_s)
            self.writer = dist.new_group(backend="gloo", timeout=timeout)
            self.main = dist.new_group(backend="gloo", timeout=timeout)

    # -- training thread -----------------------------------------------------------------

    def barrier(self) -> None:
        if self.distributed:
            dist.barrier(group=self.main)

    def vote(self, due: bool, busy: bool) -> tuple[bool, bool]:
        """Whether any rank finds a save due, and whether any rank is still writing one."""
        if not self.distributed:
            return due, busy
        t = torch.tensor([int(due), int(busy)], dtype=torch.int32)
        dist.all_reduce(t, op=dist.ReduceOp.MAX, group=self.main)
        return bool(t[0]), bool(t[1])

    def from_rank0(self, value: Any) -> Any:
        """Rank 0's `value` on every rank."""
        if not self.distributed:
            return value
        box = [value]
        dist.broadcast_object_list(box, src=0, group=self.main)
        return box[0]

    def all_gather(self, value: Any) -> list[Any]:
        """Every rank's `value`, in rank order, on every rank."""
        if not self.distributed:
            return [value]
        out: list[Any] = [None] * self.world_size
        dist.all_gather_object(out, value, group=self.main)
        return out

    def first_reason(self, mine: str | None) -> str | None:
        """The first rank's non-None reason, the same on every rank."""
        return next((r for r in self.all_gather(mine) if r is not None), None)

    # -- writer thread -------------------------------------------------------------------

    def gather(self, report: dict[str, Any]) -> list[dict[str, Any]]:
        """Every rank's report on rank 0 ([] elsewhere)."""
        if not self.distributed:
            return [report]
        out: list[Any] = [None] * self.world_size if self.rank == 0 else []
        dist.gather_object(report, out if self.rank == 0 else None, dst=0, group=self.writer)
        return out

    def outcome(self, value: dict[str, Any]) -> dict[str, Any]:
        """Rank 0's commit outcome on every rank."""
        if not self.distributed:
            return value
        box = [value]
        dist.broadcast_object_list(box, src=0, group=self.writer)
        return box[0]

    def close(self) -> None:
        """Wait until every rank is done with the checkpoint groups."""
        if self.distributed and self.main is not None and dist.is_initialized():
            try:
                dist.barrier(group=self.main)
            except RuntimeError as e:  # a peer is gone: nothing left to wait for
                log.debug("checkpoint close barrier failed: %s", e)
        # The groups are not destroyed here: tearing down gloo subgroups while the process
        # keeps running aborted intermittently in torch 2.13 ("terminate called without an
        # active exception"); dist.destroy_process_group() at the end of training frees them.
        self.writer = self.main = None
