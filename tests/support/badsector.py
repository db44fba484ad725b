"""A directory with a bad sector: a FUSE passthrough whose reads of one byte range fail.

    python tests/support/badsector.py BACKING MOUNTPOINT   # serve until unmounted or killed

A disk with an unrecoverable sector answers every read that touches it with EIO, and the
kernel hands that to the process: `read`/`pread` fail with OSError(EIO), and a page of a
mapping that cannot be filled raises SIGBUS in the thread that touched it. This filesystem
gives exactly that, through the real kernel: it mirrors BACKING at MOUNTPOINT, and a read of a
file named in MOUNTPOINT's control file `.bad` (one line: `relative/path START END`) that
overlaps bytes [START, END) fails with EIO. Nothing else differs, so a checkpoint saved
through the mount and then given a bad sector reads as one on a failing disk would.

It runs in its own process (`mount_bad_sector` starts it, `unmount` stops it); the kernel
module `fuse`, libfuse 2 (Debian's libfuse2) and fusepy are needed (`available()` says which is
missing). Test-only: nonstop never imports this.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CONTROL = ".bad"


def available() -> str | None:
    """None when a bad-sector mount can be made here, else what is missing."""
    if not Path("/dev/fuse").exists():
        return "no /dev/fuse (the fuse kernel module)"
    if os.geteuid() != 0:
        return "not root (a FUSE mount without fusermount needs root)"
    try:
        import fuse  # noqa: F401
    except (ImportError, OSError) as e:  # fusepy raises OSError (EnvironmentError) without libfuse
        return f"fusepy or libfuse2 missing: {e}"
    return None


def mount_bad_sector(
    backing: Path, mountpoint: Path, timeout_s: float = 20.0
) -> subprocess.Popen[bytes]:
    """Serve `backing` at `mountpoint` (made if missing) in a child process; returns it once
    the mount is up."""
    mountpoint.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [sys.executable, __file__, str(backing), str(mountpoint)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + timeout_s
    while not os.path.ismount(mountpoint):
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise RuntimeError(f"bad-sector mount failed (exit {proc.returncode}): {err[-2000:]}")
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("bad-sector mount did not come up")
        time.sleep(0.05)
    return proc


def set_bad(mountpoint: Path, relpath: str, start: int, end: int) -> None:
    """From now on reads of `relpath` that touch bytes [start, end) fail with EIO."""
    (mountpoint / CONTROL).write_text(f"{relpath} {start} {end}\n")


@contextlib.contextmanager
def mounted(tmp_path: Path) -> Iterator[Path]:
    """A bad-sector mount of `tmp_path/disk` at `tmp_path/mnt` for the block. Where one cannot
    be made the test is skipped, and fails under CI (CI=1: .ci/run installs libfuse2)."""
    import pytest

    missing = available()
    if missing:
        if os.environ.get("CI") == "1":
            pytest.fail(f"no bad-sector mount: {missing} (.ci/run installs libfuse2)")
        pytest.skip(f"no bad-sector mount: {missing}")
    mnt, disk = tmp_path / "mnt", tmp_path / "disk"
    disk.mkdir()
    proc = mount_bad_sector(disk, mnt)
    try:
        yield mnt
    finally:
        unmount(mnt, proc)


def unmount(mountpoint: Path, proc: subprocess.Popen[bytes]) -> None:
    """Unmount (lazily: a process that still holds a file keeps it) and stop the server."""
    subprocess.run(["umount", "-l", str(mountpoint)], capture_output=True, check=False)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stderr is not None:
        proc.stderr.close()


def _serve(backing: str, mountpoint: str) -> None:
    from fuse import FUSE, FuseOSError, Operations

    root = os.path.realpath(backing)
    bad: list[tuple[str, int, int]] = []

    class BadSector(Operations):  # type: ignore[misc]
        def _full(self, path: str) -> str:
            return os.path.join(root, path.lstrip("/"))

        def getattr(self, path: str, fh: Any = None) -> dict[str, Any]:
            if path == "/" + CONTROL:
                return {"st_mode": 0o100644, "st_nlink": 1, "st_size": 0}
            try:
                st = os.lstat(self._full(path))
            except OSError as e:
                raise FuseOSError(e.errno) from e
            keys = ("st_mode", "st_nlink", "st_size", "st_uid", "st_gid")
            out = {k: getattr(st, k) for k in keys}
            out.update(st_atime=st.st_atime, st_mtime=st.st_mtime, st_ctime=st.st_ctime)
            return out

        def readdir(self, path: str, fh: Any) -> list[str]:
            return [".", "..", *os.listdir(self._full(path))]

        def open(self, path: str, flags: int) -> int:
            if path == "/" + CONTROL:
                return 0
            return os.open(
                self._full(path), flags & ~(os.O_DIRECT if hasattr(os, "O_DIRECT") else 0)
            )

        def create(self, path: str, mode: int, fi: Any = None) -> int:
            return os.open(self._full(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)

        def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
            for rel, start, end in bad:
                if path.lstrip("/") == rel and offset < end and offset + size > start:
                    raise FuseOSError(errno.EIO)
            return os.pread(fh, size, offset)

        def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
            if path == "/" + CONTROL:
                rel, start, end = data.decode().split()
                bad[:] = [(rel, int(start), int(end))]
                return len(data)
            return os.pwrite(fh, data, offset)

        def truncate(self, path: str, length: int, fh: Any = None) -> None:
            if path != "/" + CONTROL:
                os.truncate(self._full(path), length)

        def flush(self, path: str, fh: int) -> None:
            return None

        def release(self, path: str, fh: int) -> None:
            if path != "/" + CONTROL:
                os.close(fh)

        def fsync(self, path: str, datasync: int, fh: int) -> None:
            if path != "/" + CONTROL:
                os.fsync(fh)

        def mkdir(self, path: str, mode: int) -> None:
            os.mkdir(self._full(path), mode)

        def rename(self, old: str, new: str) -> None:
            os.rename(self._full(old), self._full(new))

        def unlink(self, path: str) -> None:
            os.unlink(self._full(path))

        def rmdir(self, path: str) -> None:
            os.rmdir(self._full(path))

        def utimens(self, path: str, times: Any = None) -> None:
            os.utime(self._full(path), times)

        def chmod(self, path: str, mode: int) -> None:
            os.chmod(self._full(path), mode)

        def statfs(self, path: str) -> dict[str, int]:
            sv = os.statvfs(root)
            keys = ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree")
            return {
                k: getattr(sv, k) for k in (*keys, "f_files", "f_flag", "f_frsize", "f_namemax")
            }

    # direct_io off: the page cache and mappings work as on a disk; one thread keeps `bad` simple
    FUSE(BadSector(), mountpoint, foreground=True, nothreads=True, allow_other=False)


if __name__ == "__main__":
    _serve(sys.argv[1], sys.argv[2])
