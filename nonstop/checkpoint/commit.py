"""The commit marker, verification, discovery and retention of checkpoints.

Layout under the checkpoint root (run_dir/checkpoints/):

    step-120.tmp/     being written: DCP files, no marker yet (ignored by loaders, removed at start)
    step-120/         committed: DCP files + .metadata + COMMIT.json
    step-80.corrupt/  failed verification when loading; kept aside for a human, never loaded

A checkpoint is committed when rank 0, after every rank has reported its files and their
checksums (digest.py; the marker's `hash` names the algorithm, sha256 when it names none),
writes COMMIT.json into `step-N.tmp/` (atomically: temporary file, fsync, rename) and then
renames the folder to `step-N/`. Loaders consider only folders with a readable marker whose
files all exist with the recorded sizes and checksums.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, Final

import torch

from nonstop.checkpoint import digest
from nonstop.checkpoint.storage import CHUNK, LocalStorage, Storage

MARKER: Final = "COMMIT.json"
FORMAT: Final = "nonstop-checkpoint"
VERSION: Final = 2
"""2: files carry a `digest` under the marker's `hash`; 1: a `sha256` each (still loaded)."""
_STEP_DIR = re.compile(r"^step-(\d+)$")
_LEFTOVER = re.compile(r"^step-(\d+)\.(tmp|old)$")


def step_key(step: int) -> str:
    """The committed folder of `step`; the same name as RunDir.checkpoint(step)."""
    return f"step-{step}"


def tmp_key(step: int) -> str:
    return f"step-{step}.tmp"


@dataclass(frozen=True, kw_only=True)
class Marker:
    """The content of COMMIT.json."""

    step: int
    world_size: int
    time: float
    config_hash: str | None
    files: dict[str, dict[str, Any]]
    entries: list[str]
    torch_version: str
    fingerprint: str | None = None
    """The replicas' agreed parameter fingerprint at this step (nonstop.runtime.guards), when
    the save verified it; a checkpoint of disagreeing replicas is never committed."""
    attempt: int | None = None
    """The attempt that wrote it (a rollback never loads one its own anomaly made suspect)."""
    hash: str = digest.DEFAULT
    """The checksum algorithm of the files' digests (digest.py)."""
    format: str = FORMAT
    version: int = VERSION

    @property
    def bytes(self) -> int:
        return sum(int(f["bytes"]) for f in self.files.values())

    def to_json(self) -> str:
        return json.dumps({**asdict(self), "bytes": self.bytes}, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Marker:
        d = json.loads(text)
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} marker")
        if int(d.get("version", 0)) > VERSION:
            raise ValueError(f"marker version {d['version']} is newer than this nonstop's")
        algorithm = digest.known(str(d.get("hash", digest.LEGACY)))
        files = d["files"]
        if isinstance(files, dict) and "hash" not in d:  # version 1: {sha256, bytes} each
            files = {
                k: {"digest": v.get("sha256"), "bytes": v.get("bytes")}
                if isinstance(v, dict)
                else v
                for k, v in files.items()
            }
        if not isinstance(files, dict) or not all(
            isinstance(v, dict)
            and isinstance(v.get("digest"), str)
            and isinstance(v.get("bytes"), int)
            for v in files.values()
        ):
            raise ValueError("marker 'files' must map names to {digest, bytes}")
        return cls(
            step=int(d["step"]),
            world_size=int(d["world_size"]),
            time=float(d["time"]),
            config_hash=d.get("config_hash"),
            files=files,
            entries=list(d.get("entries", [])),
            torch_version=str(d.get("torch_version", "")),
            fingerprint=d.get("fingerprint") if isinstance(d.get("fingerprint"), str) else None,
            attempt=d.get("attempt") if isinstance(d.get("attempt"), int) else None,
            hash=algorithm,
        )


def config_hash(config: Mapping[str, Any] | None) -> str | None:
    """sha256 of the run configuration as canonical JSON (None when there is none)."""
    if config is None:
        return None
    text = json.dumps(config, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def commit(
    storage: Storage,
    *,
    step: int,
    per_rank_files: Iterable[Mapping[str, dict[str, Any]]],
    world_size: int,
    cfg_hash: str | None,
    entries: list[str],
    fingerprint: str | None = None,
    attempt: int | None = None,
    algorithm: str = digest.DEFAULT,
) -> Marker:
    """Write the marker for the files every rank reported, then publish `step-N/` (rank 0)."""
    files: dict[str, dict[str, Any]] = {}
    for reported in per_rank_files:
        files.update(reported)
    tmp = tmp_key(step)
    on_disk = set(storage.list_dir(tmp))
    missing = sorted(set(files) - on_disk)
    if missing or ".metadata" not in files:
        raise OSError(f"cannot commit {tmp}: files missing {missing or ['.metadata']}")
    for name, f in files.items():
        size = storage.size(f"{tmp}/{name}")
        if size != f["bytes"]:  # the writer hashed what it wrote; a mismatch means a rewrite
            raise OSError(f"cannot commit {tmp}: {name} is {size} bytes, {f['bytes']} written")
    marker = Marker(
        step=step,
        world_size=world_size,
        time=time.time(),
        config_hash=cfg_hash,
        files=dict(sorted(files.items())),
        entries=entries,
        torch_version=torch.__version__,
        fingerprint=fingerprint,
        attempt=attempt,
        hash=algorithm,
    )
    storage.write_atomic(f"{tmp}/{MARKER}", marker.to_json().encode())
    final = step_key(step)
    if storage.exists(final):  # an older attempt's save of the same step: set it aside first
        old = f"{final}.old"
        storage.remove(old)
        storage.rename(final, old)
        storage.rename(tmp, final)
        storage.remove(old)
    else:
        storage.rename(tmp, final)
    return marker


def read_marker(storage: Storage, step: int) -> Marker:
    with storage.open_read(f"{step_key(step)}/{MARKER}") as f:
        return Marker.from_json(f.read().decode())


def committed_steps(storage: Storage) -> list[int]:
    """Steps of folders that carry a marker, newest first (their content is not yet verified)."""
    steps = []
    for name in storage.list_dir(""):
        m = _STEP_DIR.match(name)
        if m and storage.exists(f"{name}/{MARKER}"):
            steps.append(int(m.group(1)))
    return sorted(steps, reverse=True)


def torn_steps(storage: Storage) -> list[str]:
    """Folders that look like checkpoints but never committed (no marker)."""
    out = []
    for name in storage.list_dir(""):
        if _LEFTOVER.match(name) or (
            _STEP_DIR.match(name) and not storage.exists(f"{name}/{MARKER}")
        ):
            out.append(name)
    return out


def verify(
    storage: Storage,
    step: int,
    *,
    hashes: bool = True,
    shard: tuple[int, int] = (0, 1),
    forward: bool = False,
    pace: digest.Pace | None = None,
) -> str | None:
    """None when `step-N/` is intact, else why not. `shard=(i, n)`: hash only every n-th file
    starting at i, so that n ranks verify a checkpoint together; sizes are always checked.
    `forward`: hash each file from its start (ahead of a load reading it at the same time,
    by no more than `pace`'s lead)."""
    key = step_key(step)
    try:
        marker = read_marker(storage, step)
    except FileNotFoundError:
        return f"{key} has no {MARKER}: the save never finished (torn)"
    except (OSError, ValueError, KeyError, TypeError) as e:
        return f"{key}/{MARKER} is unreadable: {e}"
    if marker.step != step:
        return f"{key}/{MARKER} says step {marker.step}"
    for i, (name, f) in enumerate(sorted(marker.files.items())):
        path = f"{key}/{name}"
        try:
            size = storage.size(path)
        except FileNotFoundError:
            return f"{path} is missing"
        except OSError as e:
            return f"{path} cannot be read: {e}"
        if size != f["bytes"]:
            return f"{path} is {size} bytes, the marker says {f['bytes']} (truncated or rewritten)"
        if hashes and i % shard[1] == shard[0]:
            try:
                found = digest_of(storage, path, marker.hash, forward=forward, pace=pace)
            except OSError as e:  # a bad sector: EIO, from a read or a mapped page (digest.py)
                return f"{path} cannot be read: {e}"
            if found != f["digest"]:
                return (
                    f"{path} fails its {marker.hash} check "
                    f"(corrupt: {found[:17]} != {f['digest'][:17]})"
                )
    return None


def digest_of(
    storage: Storage,
    key: str,
    algorithm: str,
    *,
    forward: bool = False,
    pace: digest.Pace | None = None,
) -> str:
    """The checksum of `key`: on a local filesystem chunks on every core (digest.of_file; from
    the file's end unless `forward`), elsewhere read in order."""
    if isinstance(storage, LocalStorage):
        return digest.of_file(
            storage.path(key), algorithm, backward=False if forward else None, pace=pace
        )
    with storage.open_read(key) as f:
        return digest.of_stream(iter(lambda: f.read(CHUNK), b""), algorithm)


def to_delete(
    steps: Iterable[int], *, keep_last: int, keep_every: int | None, newest: int
) -> list[int]:
    """Committed steps retention removes: all but the newest `keep_last`, the multiples of
    `keep_every`, and `newest` (the checkpoint just committed, whatever its rank in `steps`)."""
    ordered = sorted(set(steps), reverse=True)
    keep = set(ordered[:keep_last]) | {newest}
    if keep_every:
        keep |= {s for s in ordered if s % keep_every == 0}
    return sorted(s for s in ordered if s not in keep)


def quarantine(storage: Storage, step: int) -> str:
    """Move a checkpoint that failed verification out of the loaders' way; returns its key."""
    key = step_key(step)
    dst = f"{key}.corrupt"
    n = 1
    while storage.exists(dst):
        n += 1
        dst = f"{key}.corrupt{n}"
    storage.rename(key, dst)
    return dst
