"""A filesystem that refuses O_DIRECT, for the checkpoint write path's fallback tests.

`refuse_o_direct(monkeypatch, "flag")` makes setting O_DIRECT on a file fail with EINVAL (a
filesystem without direct I/O); `"write"` lets the flag be set and fails each direct write
instead (a device with a larger alignment). Both patch what nonstop.checkpoint.direct calls.
"""

from __future__ import annotations

import errno
import fcntl
import os
from typing import Any

import pytest

from nonstop.checkpoint import direct


def refuse_o_direct(monkeypatch: pytest.MonkeyPatch, refused_at: str) -> None:
    real_fcntl, real_pwrite = fcntl.fcntl, os.pwrite

    def no_direct_flag(fd: int, cmd: int, arg: int = 0) -> int:
        if cmd == fcntl.F_SETFL and arg & os.O_DIRECT:
            raise OSError(errno.EINVAL, "Invalid argument")
        return real_fcntl(fd, cmd, arg)

    def no_direct_write(fd: int, data: Any, offset: int) -> int:
        if real_fcntl(fd, fcntl.F_GETFL) & os.O_DIRECT:
            raise OSError(errno.EINVAL, "Invalid argument")
        return real_pwrite(fd, data, offset)

    if refused_at == "flag":
        monkeypatch.setattr(direct.fcntl, "fcntl", no_direct_flag)
    elif refused_at == "write":
        monkeypatch.setattr(direct.os, "pwrite", no_direct_write)
    else:
        raise ValueError(f"refused_at must be 'flag' or 'write', not {refused_at!r}")
