"""The Checkpointer: asynchronous, atomic, verified checkpoints on torch.distributed.checkpoint.

    ckpt = Checkpointer(run_dir, config=CheckpointConfig(every_steps=100), events=writer)
    state = {"model": model, "optimizer": opt, "lr_scheduler": sched, "data": loader}
    step = ckpt.load_latest(state)          # 0 when there is no good checkpoint
    while step < total_steps:
        train_one_step()
        step += 1
        ckpt.maybe_save(step, state)        # blocks only while staging to CPU memory
    ckpt.save(step, state, wait=True)       # optional final save
    ckpt.close()

A save: copy state to (pinned) CPU buffers on the training thread, then in one background thread
`dcp.save` into `step-N.tmp/` hashing every file, gather every rank's checksums on a dedicated
gloo group, and on rank 0 write COMMIT.json and rename to `step-N/`; then (untimed) apply retention. At
most one save is in flight (`if_busy` decides what a save that falls due meanwhile does). A
failed save (full disk, I/O error) is recorded (`checkpoint` event, phase `failed`) and
training goes on; the previous checkpoint is untouched.

With in-memory snapshots on (`memory_every_steps`, or $NONSTOP_MEMORY_CKPT_EVERY from `nonstop
run`), `maybe_save` also copies the same state to CPU every that many steps and a background
thread sends it to the nodes' replica servers (memory.py, replica.py); `load_latest` loads from
them when every rank has a verified copy of one step no older than storage's newest.

Distributed runs use two gloo groups made at construction (a collective: every rank constructs
the Checkpointer): one owned by the background thread, one for the training thread's rare
agreement votes (time-based intervals, deferred saves) and for loading. No collective ever runs
on the training process group from the background thread.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.api import CheckpointException

from nonstop.anomalies import read_anomalies
from nonstop.checkpoint import commit as cm
from nonstop.checkpoint import digest
from nonstop.checkpoint import state as st
from nonstop.checkpoint.cadence import Cadence
from nonstop.checkpoint.config import CheckpointConfig
from nonstop.checkpoint.coord import Coordinator
from nonstop.checkpoint.interval import IntervalPolicy
from nonstop.checkpoint.memory import MemoryReplicas, candidates, restore
from nonstop.checkpoint.staging import Stager
from nonstop.checkpoint.staging import nbytes as nbytes_of
from nonstop.checkpoint.storage import (
    LocalStorage,
    RecordingWriter,
    SafeReader,
    Storage,
    storage_for_faults,
)
from nonstop.errors import UserError
from nonstop.rundir import ENV_ATTEMPT, ENV_HOST, RunDir

log = logging.getLogger("nonstop.checkpoint")
_NO_DIST_WARNING = r"torch\.distributed is disabled, unavailable or uninitialized"


@dataclass(frozen=True, kw_only=True)
class SaveResult:
    """The outcome of one save, as this rank saw it."""

    step: int
    ok: bool
    bytes: int
    blocking_s: float
    total_s: float
    path: str
    error: str | None = None


@dataclass(kw_only=True)
class LoadResult:
    """What `load_latest` did: the step loaded (None: nothing), from where, what it skipped
    and why."""

    step: int | None
    source: Literal["memory", "storage"] | None = None
    path: str | None = None
    replica_from: str | None = None
    skipped: list[tuple[str, str]] = field(default_factory=list)
    saved_world_size: int | None = None
    resharded: bool = False
    not_resharded: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    load_s: float = 0.0


class Checkpointer:
    """Saves and restores a training run's state under `run_dir/checkpoints/`."""

    def __init__(
        self,
        run_dir: str | Path | RunDir,
        *,
        config: CheckpointConfig | None = None,
        events: Any | None = None,
        storage: Storage | None = None,
        run_config: Mapping[str, Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        verify: Callable[[int], str | None] | None = None,
    ) -> None:
        rd = run_dir if isinstance(run_dir, RunDir) else RunDir(Path(run_dir))
        self.run_root = rd.root
        self.verify = verify
        """Called (collectively) before every save and snapshot with the step: checks that the
        replicas agree (`rt.health.verify`, nonstop.runtime.guards) and returns their
        fingerprint; on a disagreement it rolls back and never returns, so a checkpoint of
        corrupted parameters is never taken."""
        self._verified: tuple[int, str | None] | None = None
        self.attempt = _attempt()
        self.config = config or CheckpointConfig()
        # an injected full disk (nonstop.faults) gets a storage that fails on cue
        storage = storage or storage_for_faults(rd.checkpoints, events)
        self.storage: Storage = storage or LocalStorage(
            rd.checkpoints, direct=self.config.direct_writes
        )
        self.events = events
        self._clock = clock
        self._cfg_hash = cm.config_hash(run_config)
        self.coord = Coordinator(timeout_s=self.config.timeout_s)
        self.distributed, self.rank = self.coord.distributed, self.coord.rank
        self.world_size = self.coord.world_size
        if not self.distributed:
            # DCP warns on every single-process save and load; that is our intent, and a user's
            # `-W error` must not turn it into a failed save in the background thread.
            warnings.filterwarnings("ignore", message=_NO_DIST_WARNING, category=UserWarning)
        if self.rank == 0:
            self.storage.mkdir("")
            for name in cm.torn_steps(self.storage):
                if name.endswith((".tmp", ".old")):  # a previous attempt's unfinished save
                    self.storage.remove(name)
        self.coord.barrier()  # nobody writes before the leftovers are gone
        self._stager = Stager(pin_memory=self.config.pin_memory, clock=clock)
        self._plan = st.Plan()  # DCP's state dict learned once (state.Plan)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nonstop-ckpt")
        self._inflight: Future[SaveResult] | None = None
        # keys of the files whose pages this rank dropped right before its next save writes:
        # those its last committed save wrote, or those load_latest read
        self._cached: list[str] = []
        self._pending = False
        self._closed = False
        self.policy = IntervalPolicy(self.config, start_s=clock())
        self.history: list[SaveResult] = []
        self.last_load: LoadResult | None = None
        self.memory = self._memory_replicas(rd)

    def _memory_replicas(self, rd: RunDir) -> MemoryReplicas | None:
        """This rank's in-memory snapshots, when configured (a collective: the ranks learn the
        job's nodes and share one lineage id)."""
        every = self.config.resolved_memory_every_steps()
        if not every:
            return None
        node = os.environ.get(ENV_HOST) or socket.gethostname()
        seen = self.coord.all_gather((node, secrets.token_hex(8)))
        return MemoryReplicas(
            rd.root,
            node=node,
            job_nodes=[n for n, _ in seen],
            rank=self.rank,
            world_size=self.world_size,
            lineage=f"a{self.attempt}-{seen[0][1]}",  # the attempt: see _suspect
            cadence=Cadence(every, clock=self._clock),
            replicas=self.config.resolved_replicas(),
            emit=self._emit,
            clock=self._clock,
        )

    # -- saving ----------------------------------------------------------------------------

    def maybe_save(self, step: int, state: Mapping[str, Any]) -> bool:
        """Save `state` as of the end of `step` if the interval says so; True if a save began.

        Every rank must call this at every step (decisions are collective in distributed runs).
        """
        self._reap()
        if self.memory is not None:
            self._snapshot(step, state)
        due = self._pending or self.policy.due(step, self._clock())
        busy = self._inflight is not None and not self._inflight.done()
        defer = self.config.if_busy == "defer"
        if self.policy.time_based or (due and defer):  # decisions must agree across ranks
            due, busy = self.coord.vote(due, busy)
        if not due:
            return False
        if busy and defer:
            self._pending = True  # retried at the next step, without blocking
            return False
        self.save(step, state)
        return True

    def _snapshot(self, step: int, state: Mapping[str, Any]) -> None:
        """The in-memory snapshot of `step`, when its cadence says so (cadence.py: with `auto`,
        its CPU is measured on this thread too, and the ranks agree on the interval again every
        REVIEW calls)."""
        assert self.memory is not None
        cadence = self.memory.cadence
        if cadence.tick():  # every rank at the same call: one small collective
            self.memory.wait()  # the last measured snapshot's background share is in
            chosen = cadence.settle(self.coord.all_gather(cadence.mine()), step)
            if chosen is not None:  # the first choice, or a changed one
                self._emit("cadence", **chosen)
                log.info(
                    "in-memory snapshots every %d step(s) from step %d (auto: %.2f ms of CPU "
                    "per snapshot, %.1f ms per step, budget %.0f%%)",
                    chosen["every"],
                    step,
                    1e3 * chosen["snapshot_cpu_s"],
                    1e3 * chosen["step_s"],
                    100 * chosen["budget"],
                )
        if not cadence.due(step):
            return
        c0 = cadence.cpu()
        self._fingerprint(step)  # every rank: the cadence, not this node's servers, decides
        if self.memory.due(step):
            self._check_open()
            entries = st.classify(state)
            flat = st.collect(
                entries, step=step, rank=self.rank, world_size=self.world_size, plan=self._plan
            )
            overlap = self.config.overlap_staging
            n = self.memory.snapshot(step, flat, entries.optimizers.values() if overlap else ())
            cadence.add_cpu(n, cadence.cpu() - c0, background=False)

    def save(self, step: int, state: Mapping[str, Any], *, wait: bool = False) -> SaveResult | None:
        """Save now (waiting for a save in flight first). With `wait`, or in synchronous mode,
        return once committed (or failed); otherwise return None while it writes."""
        self._check_open()
        fingerprint = self._fingerprint(step)
        t0 = self._clock()
        self._emit("begin", step=step)
        self.wait()
        entries = st.classify(state)
        flat = st.collect(
            entries, step=step, rank=self.rank, world_size=self.world_size, plan=self._plan
        )
        background = self.config.async_save and not wait
        finish = self._stager.begin(
            flat,
            entries.optimizers.values(),
            overlap=background and self.config.overlap_staging,
            background=background,
        )
        blocking_s = self._clock() - t0
        self._pending = False
        self.policy.saved(step, t0)
        names = sorted(state)

        def job() -> SaveResult:
            t1 = self._clock()
            staged = finish()
            nbytes = nbytes_of(staged)
            self._emit(
                "staged",
                step=step,
                bytes=nbytes,
                blocking_s=blocking_s,
                staging_s=self._clock() - t1,
            )
            return self._write_and_commit(step, staged, names, t0, blocking_s, nbytes, fingerprint)

        if background:
            self._inflight = self._executor.submit(job)
            return None
        return self._record(job())

    def _fingerprint(self, step: int) -> str | None:
        """The replicas' agreed fingerprint at `step` (once per step), via `verify`."""
        if self.verify is None:
            return None
        if self._verified is None or self._verified[0] != step:
            self._verified = (step, self.verify(step))
        return self._verified[1]

    def _check_open(self) -> None:
        if self._closed:
            raise UserError("this Checkpointer is closed; make a new one to save again")

    def wait(self, timeout_s: float | None = None) -> SaveResult | None:
        """Block until the save in flight (if any) has committed or failed; its result."""
        fut, self._inflight = self._inflight, None
        return None if fut is None else self._record(fut.result(timeout=timeout_s))

    def wait_for_staging(self) -> None:
        """Block until the save and the in-memory snapshot in flight have copied the state
        (optimizer steps do this themselves); call it before changing parameters in place
        outside `optimizer.step()`."""
        self._stager.wait()
        if self.memory is not None:
            self.memory.wait_for_copy()

    def _record(self, result: SaveResult) -> SaveResult:
        self.policy.measured(result.blocking_s)
        return result

    def _reap(self) -> None:
        if self._inflight is not None and self._inflight.done():
            self.wait()

    def _write_and_commit(
        self,
        step: int,
        staged: dict[str, Any],
        names: list[str],
        t0: float,
        blocking_s: float,
        nbytes: int,
        fingerprint: str | None = None,
    ) -> SaveResult:
        tmp = cm.tmp_key(step)
        report: dict[str, Any] = {"files": {}, "error": None, "local": False}
        writer = RecordingWriter(self.storage, tmp, thread_count=self.config.thread_count)
        self._drop_cached()
        try:
            dcp.save(
                staged,
                storage_writer=writer,
                process_group=self.coord.writer,
                no_dist=not self.distributed,
            )
            report["files"] = writer.checksums()
        except (Exception, CheckpointException) as e:  # DCP raises on every rank if any failed
            cause = writer.io_error
            report.update(error=_why(cause or e), local=cause is not None)
        outcome: dict[str, Any] = {"ok": False, "error": "no outcome"}
        committed: dict[str, Any] | None = None
        try:
            reports = self.coord.gather(report)
            if self.rank == 0:
                outcome = committed = self._commit(step, reports, names, fingerprint)
            outcome = self.coord.outcome(outcome)
        except Exception as e:  # a collective failed (peer died, timeout): survive it
            # rank 0's commit stands when only telling the others failed (a peer died right
            # after it): the checkpoint is complete on storage and the next start loads it
            ok = committed is not None and committed["ok"]
            outcome = committed if ok else {"ok": False, "error": _why(e)}  # type: ignore[assignment]
        blocking_s += self._stager.waited_s  # optimizer steps that waited for the copy
        result = SaveResult(
            step=step,
            ok=bool(outcome["ok"]),
            bytes=int(outcome.get("bytes", nbytes)),
            blocking_s=blocking_s,
            total_s=self._clock() - t0,
            path=self.storage.describe(cm.step_key(step)),
            error=outcome.get("error"),
        )
        self.history.append(result)
        if result.ok:
            self._cached = [f"{cm.step_key(step)}/{name}" for name in report["files"]]
            self._emit(
                "committed",
                step=step,
                bytes=result.bytes,
                blocking_s=blocking_s,
                total_s=result.total_s,
                path=result.path,
            )
            if self.rank == 0:  # after the commit is timed: deleting old ones is not saving
                self._retain(step)
        else:
            log.error("checkpoint of step %d failed, training goes on: %s", step, result.error)
            self._emit(
                "failed",
                step=step,
                error=result.error,
                blocking_s=blocking_s,
                total_s=result.total_s,
            )
        return result

    def _drop_cached(self) -> None:
        """Drop the page cache of the files this rank wrote in its previous save, right before
        writing the next one, so that the new files' pages reuse theirs (docs/checkpoint.md,
        "Page cache"). Only this rank's own files: no rank opens every file of a shared folder.
        """
        drop = getattr(self.storage, "drop_cache", None)
        keys, self._cached = self._cached, []
        if drop is None:
            return
        for key in keys:
            try:
                drop(key)
            except Exception as e:  # a hint to the kernel: never a reason to fail the save
                log.debug("dropping the page cache of %s failed: %s", key, e)

    def _commit(
        self,
        step: int,
        reports: list[dict[str, Any]],
        names: list[str],
        fingerprint: str | None = None,
    ) -> dict[str, Any]:
        # The ranks whose own writes failed say why best; DCP's summary is the fallback.
        errors = [f"rank {r}: {rep['error']}" for r, rep in enumerate(reports) if rep["local"]]
        errors = errors or [rep["error"] for rep in reports if rep["error"]]
        try:
            if errors:
                raise OSError("; ".join(errors[:4]))
            marker = cm.commit(
                self.storage,
                step=step,
                per_rank_files=[rep["files"] for rep in reports],
                world_size=self.world_size,
                cfg_hash=self._cfg_hash,
                entries=names,
                fingerprint=fingerprint,
                attempt=self.attempt,
            )
        except Exception as e:
            self.storage.remove(cm.tmp_key(step))  # give the space back; older ones untouched
            return {"ok": False, "error": _why(e) if not errors else str(e)}
        return {"ok": True, "bytes": marker.bytes}

    def _retain(self, newest: int) -> None:
        doomed = cm.to_delete(
            cm.committed_steps(self.storage),
            keep_last=self.config.keep_last,
            keep_every=self.config.keep_every,
            newest=newest,
        )
        for s in doomed:
            try:  # a failed deletion costs disk space, never the run
                self.storage.remove(cm.step_key(s))
            except OSError as e:
                log.warning("could not delete old checkpoint step %d: %s", s, e)

    # -- loading ---------------------------------------------------------------------------

    def load_latest(
        self, state: Mapping[str, Any], *, sources: Sequence[Storage] | None = None
    ) -> int:
        """Restore the newest good checkpoint into `state`; its step, or 0 if none.

        With in-memory snapshots on, a complete, verified set of replicas at least as new as
        the newest durable checkpoint is loaded from memory; otherwise storage is read. Torn
        (no marker) and corrupt (checksum) checkpoints are skipped with the reason in
        `last_load.skipped` and the log; corrupt ones are renamed `step-N.corrupt`.

        `sources`: read the newest good checkpoint of any of these storages instead of this
        Checkpointer's own (which may be one of them): the replica groups of a torchft job each
        write their own folder (nonstop.workloads.llama.ft). Nothing in another storage is
        renamed or removed (a corrupt one there is only skipped), and memory is not read.
        """
        t0 = self._clock()
        self.wait()
        entries = st.classify(state)
        info = LoadResult(step=None)
        stores = [self.storage] if sources is None else list(sources)
        found: list[tuple[int, int]] = []  # (step, index in stores), newest first
        torn: list[str] = []
        if self.rank == 0:
            for i, s in enumerate(stores):
                found += [(step, i) for step in cm.committed_steps(s)]
                torn += [_name(s, self.storage, name) for name in cm.torn_steps(s)]
            found.sort(key=lambda c: (-c[0], c[1]))
        candidates: list[tuple[int, int]] = self.coord.from_rank0(found if self.rank == 0 else None)
        for name in self.coord.from_rank0(torn if self.rank == 0 else None):
            info.skipped.append((name, "no commit marker: the save never finished (torn)"))
        own = {c[0] for c in candidates if stores[c[1]] is self.storage}
        kept = set(self._not_suspect(sorted(own, reverse=True), info))
        candidates = [c for c in candidates if stores[c[1]] is not self.storage or c[0] in kept]
        floor = max((c[0] for c in candidates), default=0)
        if (
            sources is not None
            or self.memory is None
            or not self._load_memory(entries, info, floor=floor)
        ):
            self._load_storage(entries, [(c[0], stores[c[1]]) for c in candidates], info)
        info.load_s = self._clock() - t0
        self.last_load = info
        for m in info.messages:
            loud = any(w in m for w in ("not resharded", "changed", "not used", "rejected"))
            log.warning("%s", m) if loud else log.info("%s", m)
        if info.step is not None:
            where = (
                {"replica_from": info.replica_from} if info.replica_from else {"path": info.path}
            )
            self._emit("loaded", step=info.step, source=info.source, load_s=info.load_s, **where)
        start = info.step or 0
        self.policy.saved(start, self._clock())
        return start

    def _load_storage(
        self, entries: st.Entries, candidates: list[tuple[int, Storage]], info: LoadResult
    ) -> None:
        """Load the newest of `candidates` that verifies. Where an older candidate is there to
        fall back on, the checksums of one in our own storage are computed while its tensors
        are read (one pass over the disk: "Loading" in docs/checkpoint.md); a candidate with
        nothing older, or in another's storage, is checked first, so a corrupt one never
        touches the state."""
        # a step whose corrupt tensors a one-pass load left in these live entries
        dirty: tuple[int, set[str], str] | None = None
        for i, (step, storage) in enumerate(candidates):
            # in our own storage only: a corrupt one is moved aside there, so a run that must
            # start again after a failed one-pass load does not read it again
            one_pass = (
                self.config.verify_on_load and i + 1 < len(candidates) and storage is self.storage
            )
            reason = self._verify(step, storage, hashes=not one_pass)
            if reason is None:
                failed = self._load_step(
                    step, entries, info, storage, verify_during=one_pass, dirty=dirty
                )
                if failed is None:
                    return
                reason, overwritten = failed
                dirty = (step, overwritten | (dirty[1] if dirty else set()), reason)
            info.skipped.append((_name(storage, self.storage, cm.step_key(step)), reason))
            log.warning("skipping checkpoint step %d: %s", step, reason)
            if self.rank == 0 and storage is self.storage:
                moved = cm.quarantine(self.storage, step)
                info.messages.append(f"step {step} failed verification, moved to {moved}")
        if dirty is not None:
            raise UserError(_dirty_message(dirty, "no older checkpoint verifies"))
        info.messages.append("no good checkpoint: starting from step 0")

    def _load_memory(self, entries: st.Entries, info: LoadResult, *, floor: int) -> bool:
        """Load every rank's in-memory replica of one step if all of them verify; else False
        (every rank decides the same) with the reason in `info.messages`."""
        assert self.memory is not None
        held, notes = self.memory.holdings()
        info.messages.extend(notes)
        for step, lineage in list(held):
            why = self._suspect(step, _lineage_attempt(lineage))
            if why:
                del held[(step, lineage)]
                info.messages.append(f"in-memory replica of step {step} not used: {why}")
        # every rank sees every rank's holdings: the same candidates, tried in the same order
        choices, why = candidates(self.coord.all_gather(sorted(held)), floor)
        found = choice = None
        for choice in choices:
            found, rejected = self.memory.fetch(choice, held.get(choice, []))
            info.messages.extend(f"rejected {r}" for r in rejected)
            mine = None if found else f"rank {self.rank}: no verified copy of step {choice[0]} "
            mine = mine and mine + f"({'; '.join(rejected) or 'none found'})"
            why = self.coord.first_reason(mine) or ""
            if not why:
                break
            info.messages.append(f"in-memory replica of step {choice[0]} not used: {why}")
        if choice is None or found is None or why:
            info.messages.append(f"in-memory replicas not used, loading from storage: {why}")
            return False
        node, tensors = found
        try:
            restored = restore(entries, tensors, rank=self.rank, world_size=self.world_size)
        except (RuntimeError, KeyError, ValueError) as e:
            raise UserError(
                f"the in-memory replica of step {choice[0]} on {node} verified but does not fit "
                f"this run's state (changed model or optimizer?): {_why(e)}"
            ) from e
        info.step, info.source, info.replica_from = choice[0], "memory", node
        info.saved_world_size = self.world_size
        info.messages.append(
            f"loaded step {info.step} from the in-memory replica on {node} "
            f"({', '.join(restored.loaded)})"
        )
        if restored.missing:
            info.messages.append(
                f"not in the checkpoint, left as they are: {', '.join(restored.missing)}"
            )
        return True

    def _load_step(
        self,
        step: int,
        entries: st.Entries,
        info: LoadResult,
        storage: Storage,
        *,
        verify_during: bool = False,
        dirty: tuple[int, set[str], str] | None = None,
    ) -> tuple[str, set[str]] | None:
        """Read `step` into the state; None when loaded. `verify_during`: its checksums are
        computed while the tensors are read (threads hashing each file from its start, ahead
        of the copy, so the disk is read once) and checked before anything but the live
        tensors is touched; when they fail, or the read fails for a disk error (OSError on
        any rank), why (every rank the same) and the entries whose live tensors were
        overwritten. `dirty`: an earlier step's (step, entries, why) so overwritten, which
        this one must cover."""
        marker = cm.read_marker(storage, step)
        pace = digest.Pace() if verify_during else None
        reader = SafeReader(storage, cm.step_key(step), pace=pace)
        md = reader.read_metadata()
        flat, sections, restored = st.targets(
            entries, md, rank=self.rank, saved_world=marker.world_size, world_size=self.world_size
        )
        live = {name for name in sections if name == sections[name]}  # model and optimizers
        if dirty is not None and dirty[1] - live:
            lacks = ", ".join(sorted(dirty[1] - live))
            raise UserError(_dirty_message(dirty, f"step {step}, older, lacks {lacks}"))
        with ThreadPoolExecutor(1, thread_name_prefix="nonstop-verify") as pool:
            hashing = None
            if verify_during:
                shard = (self.rank, self.world_size)
                hashing = pool.submit(
                    cm.verify, storage, step, shard=shard, forward=True, pace=pace
                )
            try:
                try:
                    dcp.load(
                        flat,
                        storage_reader=reader,
                        process_group=self.coord.main,
                        no_dist=not self.distributed,
                    )
                finally:
                    if pace is not None:
                        pace.close()  # the copy is over: the rest of the hash runs free
            except (RuntimeError, KeyError, ValueError, OSError, CheckpointException) as e:
                corrupt = None if hashing is None else self.coord.first_reason(_reason(hashing))
                if corrupt is not None:  # what could not be read is what fails its checksum
                    return corrupt, live
                if _unreadable(e):  # DCP raises on every rank when one could not read
                    return f"{cm.step_key(step)} could not be read: {_why(e)}", live
                raise _misfit(storage, step, e) from e
            if hashing is not None:
                reason = self.coord.first_reason(_reason(hashing))
                if reason is not None:
                    return reason, live
        try:
            st.apply(entries, flat, sections, restored)
        except (RuntimeError, KeyError, ValueError) as e:
            raise _misfit(storage, step, e) from e
        if storage is self.storage:  # its pages go right before the next save writes
            self._cached = sorted(reader.read_keys | self._hashed_keys(step, marker))
        info.step, info.source = step, "storage"
        info.path = storage.describe(cm.step_key(step))
        info.saved_world_size = marker.world_size
        info.resharded = marker.world_size != self.world_size
        info.not_resharded = restored.not_resharded
        info.messages.append(f"loaded step {step} from {info.path} ({', '.join(restored.loaded)})")
        if info.resharded:
            info.messages.append(
                f"saved by {marker.world_size} ranks, loaded on {self.world_size}: model and "
                f"optimizer resharded by DCP; not resharded: {', '.join(restored.not_resharded)} "
                "(per-rank state is taken from old rank 0 on every rank; RNG is left as seeded; "
                "re-derive rank-sharded data positions from the step)"
            )
        if restored.missing:
            info.messages.append(
                f"not in the checkpoint, left as they are: {', '.join(restored.missing)}"
            )
        if marker.config_hash and self._cfg_hash and marker.config_hash != self._cfg_hash:
            info.messages.append("the run configuration changed since this checkpoint was saved")
        return None

    def _hashed_keys(self, step: int, marker: cm.Marker) -> set[str]:
        """The files this rank's share of the verification hashed (commit.verify's shard)."""
        if not self.config.verify_on_load:
            return set()
        names = sorted(marker.files)
        return {
            f"{cm.step_key(step)}/{n}"
            for i, n in enumerate(names)
            if i % self.world_size == self.rank
        }

    def _not_suspect(self, steps: list[int], info: LoadResult) -> list[int]:
        """Storage's candidates less those an anomaly of their own attempt made suspect (rank 0
        reads the markers; every rank gets the same list)."""
        if not read_anomalies(self.run_root):
            return steps
        dropped: list[tuple[int, str]] = []
        if self.rank == 0:
            for s in steps:
                try:
                    written_by = cm.read_marker(self.storage, s).attempt
                except (OSError, ValueError, KeyError):
                    continue  # verification says why later
                why = self._suspect(s, written_by)
                if why:
                    dropped.append((s, why))
        dropped = self.coord.from_rank0(dropped if self.rank == 0 else None)
        for s, why in dropped:
            info.skipped.append((cm.step_key(s), why))
        gone = {s for s, _ in dropped}
        return [s for s in steps if s not in gone]

    def _suspect(self, step: int, attempt: int | None) -> str | None:
        """Why a checkpoint of `step` written in `attempt` must not be loaded, if it must not:
        its attempt detected an anomaly (nonstop.runtime.guards) and the checkpoint is newer
        than the last step known good. The guards verify before every save, so this is the
        second line of defence (a script whose Checkpointer has no `verify`)."""
        if attempt is None:
            return None
        for a in read_anomalies(self.run_root):
            if int(a.get("attempt", -1)) != attempt:
                continue
            good = a.get("last_good_step") if a["kind"] == "sdc" else a["step"] - 1
            ceiling = -1 if good is None else int(good) + 1  # checkpoint steps count steps done
            if a["kind"] == "sdc" and good is None:
                ceiling = int(a["step"])  # no agreed check in that attempt: before detection
            if step > ceiling:
                return (
                    f"taken after the {a['kind']} anomaly of attempt {attempt} began "
                    f"(step {a['step']}; newest safe checkpoint step {ceiling})"
                )
        return None

    def _verify(self, step: int, storage: Storage, *, hashes: bool = True) -> str | None:
        """Why `step` must not be loaded (every rank the same), or None: sizes always, and each
        rank's share of the checksums with `verify_on_load` and `hashes`."""
        shard = (self.rank, self.world_size)
        hashes = hashes and self.config.verify_on_load
        try:
            mine = cm.verify(storage, step, hashes=hashes, shard=shard)
        except Exception as e:  # never leave the other ranks waiting in first_reason
            log.exception("verifying step %d failed", step)
            mine = f"{cm.step_key(step)} could not be verified: {_why(e)}"
        return self.coord.first_reason(mine)

    # -- lifecycle -------------------------------------------------------------------------

    def set_mtbi_s(self, mtbi_s: float) -> None:
        """Tell `auto` a new mean time between interruptions (seconds)."""
        self.policy.set_mtbi_s(mtbi_s)

    def close(self) -> None:
        """Wait for the save in flight, then release threads, buffers and groups. Idempotent."""
        if self._closed:
            return
        try:
            self.wait()
        finally:
            self._closed = True
            self._executor.shutdown(wait=True)
            self._stager.close()
            if self.memory is not None:
                self.memory.close()
            self.coord.close()

    def __enter__(self) -> Checkpointer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _emit(self, phase: str, **payload: Any) -> None:
        if self.events is not None:
            self.events.emit("checkpoint", phase=phase, **payload)


def _attempt() -> int | None:
    text = os.environ.get(ENV_ATTEMPT, "")
    return int(text) if text.isdigit() else None


def _name(storage: Storage, own: Storage, key: str) -> str:
    """A checkpoint's name in messages: its key in our own storage, its place in another's."""
    return key if storage is own else storage.describe(key)


def _misfit(storage: Storage, step: int, e: BaseException) -> UserError:
    return UserError(
        f"checkpoint {storage.describe(cm.step_key(step))} verified but does not fit this "
        f"run's state (changed model or optimizer?): {_why(e)}"
    )


def _reason(hashing: Future[str | None]) -> str | None:
    """A one-pass load's verification outcome; an unexpected error in it is a reason too, so
    that this rank still answers the others in `first_reason` (cm.verify itself turns a
    read error into a reason)."""
    try:
        return hashing.result()
    except Exception as e:
        log.exception("verification during the load failed")
        return f"verification failed: {_why(e)}"


def _unreadable(e: BaseException) -> bool:
    """Whether a failed `dcp.load` failed to read (a disk error: OSError), not to fit."""
    if isinstance(e, CheckpointException):
        return any(isinstance(w[0], OSError) for w in e.failures.values())
    return isinstance(e, OSError)


def _dirty_message(dirty: tuple[int, set[str], str], why: str) -> str:
    step, _, reason = dirty
    return (
        f"checkpoint step {step} failed after its tensors were read into the state "
        f"({reason}), and {why}: the state is no longer what this process started with; run it "
        f"again (step {step} was moved aside, so the next load does not read it)"
    )


def _lineage_attempt(lineage: str) -> int | None:
    """The attempt a snapshot's lineage names (`a<attempt>-<token>`), None for older ones."""
    head = lineage.split("-", 1)[0]
    return int(head[1:]) if head.startswith("a") and head[1:].isdigit() else None


def _why(e: BaseException) -> str:
    """One line: the exception, or for DCP's CheckpointException each failing rank's cause."""
    if isinstance(e, CheckpointException):
        return "; ".join(f"rank {r}: {_why(w[0])}" for r, w in sorted(e.failures.items()))[:500]
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"[:500]
