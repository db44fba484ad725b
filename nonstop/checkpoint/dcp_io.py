"""torch.distributed.checkpoint's writer and reader over a `Storage` (storage.py).

`RecordingWriter` writes each file through the hashing writer (hashing.py), so each rank knows
the checksums of exactly the files it wrote, with large tensors at 4 KiB-aligned offsets
(layout.py) where the storage writes them direct (direct.py). `SafeReader` never runs
arbitrary pickle: DCP's `.metadata` is unpickled with an allow-list of DCP's own metadata
classes, its file names are checked to stay inside the checkpoint folder, and on a local
filesystem the tensors are copied straight into the live state (reading.py).
"""

from __future__ import annotations

import io
import os
import pickle
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path, PurePosixPath
from typing import IO, TYPE_CHECKING, Any

import torch
from torch.distributed.checkpoint import FileSystemReader, FileSystemWriter
from torch.distributed.checkpoint.filesystem import FileSystem
from torch.distributed.checkpoint.metadata import Metadata, StorageMeta
from torch.distributed.checkpoint.planner import LoadPlan, LoadPlanner, SavePlan, SavePlanner
from torch.distributed.checkpoint.storage import WriteResult
from torch.futures import Future

from nonstop.checkpoint import digest, direct, hashing, layout
from nonstop.checkpoint.local import LocalStorage
from nonstop.checkpoint.reading import read_into
from nonstop.errors import UserError

if TYPE_CHECKING:
    from nonstop.checkpoint.storage import Storage


class _StorageFS(FileSystem):
    """DCP's filesystem interface over a `Storage`, recording checksum and size of each write."""

    def __init__(self, storage: Storage, algorithm: str = digest.DEFAULT) -> None:
        self.storage = storage
        self.algorithm = algorithm
        self.written: dict[str, dict[str, Any]] = {}
        self.read: set[str] = set()
        self.errors: list[OSError] = []
        self._lock = threading.Lock()

    @contextmanager
    def create_stream(self, path: str | os.PathLike[str], mode: str) -> Iterator[io.IOBase]:
        key = Path(path).as_posix()
        if "w" not in mode:
            with self._lock:
                self.read.add(key)
            with self.storage.open_read(key) as f:
                yield f  # type: ignore[misc]
            return
        with self.storage.open_write(key) as raw, hashing._torch_crc_off():
            w = hashing._HashingWriter(raw, self.errors, self.algorithm)
            try:
                yield w
                w.drain()
            finally:
                layout.reset()  # the last record's alignment ends with its file
                w.discard()  # a failed write's gathered bytes are not flushed later by gc
        with self._lock:
            self.written[key] = {"digest": w.hasher.hexdigest(), "bytes": w.nbytes}

    def concat_path(self, path: str | os.PathLike[str], suffix: str) -> Path:
        return Path(path) / suffix

    def init_path(self, path: str | os.PathLike[str]) -> Path:
        return Path(path)

    def rename(self, path: str | os.PathLike[str], new_path: str | os.PathLike[str]) -> None:
        src, dst = Path(path).as_posix(), Path(new_path).as_posix()
        self.storage.rename(src, dst)
        with self._lock:
            if src in self.written:
                self.written[dst] = self.written.pop(src)

    def mkdir(self, path: str | os.PathLike[str]) -> None:
        self.storage.mkdir(Path(path).as_posix())

    def exists(self, path: str | os.PathLike[str]) -> bool:
        return self.storage.exists(Path(path).as_posix())

    def rm_file(self, path: str | os.PathLike[str]) -> None:
        self.storage.remove(Path(path).as_posix())

    def ls(self, path: str | os.PathLike[str]) -> list[str]:
        key = Path(path).as_posix()
        return [f"{key}/{n}" for n in self.storage.list_dir(key)]


def check_relative_paths(metadata: Metadata, where: str) -> None:
    """Refuse a `.metadata` that names a file outside its checkpoint folder (an absolute path,
    `..`, an empty or non-text name): DCP would open `folder / relative_path` as given, so a
    crafted checkpoint could make a rank read any file it can. UserError: not loaded."""
    for info in (getattr(metadata, "storage_data", None) or {}).values():
        rel = getattr(info, "relative_path", None)
        if not _inside(rel):
            raise UserError(
                f"{where} names data file {rel!r}, outside its checkpoint folder: refusing to "
                "load it (a crafted or corrupt checkpoint); load an older step or delete it"
            )


def _inside(rel: object) -> bool:
    if not isinstance(rel, str) or rel in ("", ".") or "\x00" in rel or rel.startswith("/"):
        return False
    return ".." not in PurePosixPath(rel).parts


class RecordingWriter(FileSystemWriter):
    """DCP's FileSystemWriter writing through a `Storage`; `checksums()` after the save."""

    def __init__(
        self, storage: Storage, key: str, *, thread_count: int = 1, algorithm: str = digest.DEFAULT
    ) -> None:
        # Durability is the storage's job (LocalStorage fsyncs on close), not DCP's.
        super().__init__(key, thread_count=thread_count, sync_files=False, overwrite=True)
        hashing._install_torch_crc_switch()
        self._sfs = _StorageFS(storage, algorithm)
        self.fs = self._sfs
        self.path = Path(key)
        self._prefix = Path(key).as_posix() + "/"
        self._aligning = None
        if _writes_direct(storage):  # large tensors at aligned offsets (layout.py)
            self._aligning = layout.aligning_transforms(direct.STAGED_DIRECT)
            if self._aligning is not None:
                self.transforms = self._aligning

    def write_data(self, plan: SavePlan, planner: SavePlanner) -> Future[list[WriteResult]]:
        written = super().write_data(plan, planner)
        if self._aligning is None:
            return written
        placed: Future[list[WriteResult]] = Future()
        placed.set_result(self._aligning.place(written.wait()))
        return placed

    def checksums(self) -> dict[str, dict[str, Any]]:
        """{file name inside the checkpoint: {"digest", "bytes"}} for what this rank wrote."""
        return {k.removeprefix(self._prefix): v for k, v in self._sfs.written.items()}

    @property
    def io_error(self) -> OSError | None:
        """The first OSError a write raised on this rank (ENOSPC, EIO), if any."""
        return self._sfs.errors[0] if self._sfs.errors else None


def _writes_direct(storage: Storage) -> bool:
    """Whether `storage` writes large files around the page cache (`_DirectWriter`)."""
    return (
        isinstance(storage, LocalStorage)
        and storage.fsync
        and storage.direct
        and direct.DIRECT_CHUNK > 0
        and bool(direct._O_DIRECT)
    )


class SafeReader(FileSystemReader):
    """DCP's FileSystemReader over a `Storage` that unpickles `.metadata` with an allow-list.

    On a local filesystem the tensors are copied from the files' pages straight into the live
    state (reading.py: one copy, no fresh tensor per item); elsewhere DCP reads them."""

    def __init__(self, storage: Storage, key: str, *, pace: digest.Pace | None = None) -> None:
        super().__init__(key)
        self.pace = pace
        """Checksums computed while this reader copies (digest.Pace), told how far it is."""
        self._sfs = _StorageFS(storage)
        self.fs = self._sfs
        self.path = Path(key)
        self._storage, self._key = storage, key
        self.direct = 0
        """Tensors the last `read_data` copied directly (the rest went through torch.load)."""
        self._read_keys: set[str] = set()

    def read_data(self, plan: LoadPlan, planner: LoadPlanner) -> Future[None]:
        infos = [self.storage_data[r.storage_index] for r in plan.items]
        if not isinstance(self._storage, LocalStorage) or any(
            getattr(i, "transform_descriptors", None) for i in infos
        ):
            return super().read_data(plan, planner)
        self.direct = read_into(self.storage_data, plan, planner, self._open_data, pace=self.pace)
        done: Future[None] = Future()
        done.set_result(None)
        return done

    def _open_data(self, rel: str) -> AbstractContextManager[IO[bytes]]:
        key = f"{self._key}/{rel}"
        self._read_keys.add(key)
        return self._storage.open_read(key)

    @property
    def read_keys(self) -> set[str]:
        """The storage keys of the data files this reader opened (its rank's share)."""
        return self._read_keys | self._sfs.read

    def read_metadata(self, *args: Any, **kwargs: Any) -> Metadata:
        rank = kwargs.get("rank")
        name = ".metadata" if rank is None else f"__{rank}.metadata"
        with self._storage.open_read(f"{self._key}/{name}") as f:
            metadata = _MetadataUnpickler(f).load()
        if not isinstance(metadata, Metadata):
            raise pickle.UnpicklingError(f"{name} holds a {type(metadata).__name__}")
        check_relative_paths(metadata, self._storage.describe(f"{self._key}/{name}"))
        if getattr(metadata, "storage_meta", None) is None:
            metadata.storage_meta = StorageMeta()
        assert metadata.storage_meta is not None
        metadata.storage_meta.load_id = self.load_id
        return metadata


_ALLOWED: dict[str, set[str] | None] = {
    # None: any class or enum defined in that module (DCP's own metadata dataclasses).
    "torch.distributed.checkpoint.metadata": None,
    "torch.distributed.checkpoint.filesystem": {"_StorageInfo"},
    "torch.serialization": {"_get_layout"},
    "collections": {"OrderedDict"},
    "pathlib": {"Path", "PosixPath", "WindowsPath", "PurePosixPath", "PureWindowsPath"},
}


class _MetadataUnpickler(pickle.Unpickler):
    """Refuses every global that is not part of DCP's metadata (weights_only in spirit)."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "torch":
            obj = getattr(torch, name, None)
            if name == "Size" or isinstance(obj, torch.dtype | torch.memory_format):
                return obj
        elif module in _ALLOWED:
            names = _ALLOWED[module]
            obj = super().find_class(module, name)
            if names is None and isinstance(obj, type) and obj.__module__ == module:
                return obj
            if names is None and name == "_MEM_FORMAT_ENCODING":
                return obj
            if names is not None and name in names:
                return obj
        raise pickle.UnpicklingError(
            f"checkpoint metadata refers to {module}.{name}, which is not DCP metadata; "
            "refusing to unpickle it"
        )
