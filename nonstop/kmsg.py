"""Writing a line to a node's kernel log, in the format nonstop.diagnose.kernel_log reads back
(part of the contract: standard library only). The fault injector writes an Xid line here as the
driver would (nonstop.faults), the tests write the lines they triage; the agent reads them.

    write_kmsg("NVRM: Xid (PCI:0000:3b:00): 79, ...")      # /dev/kmsg: root only; False if not
    write_file_line(path, "NVRM: Xid ...")                 # $NONSTOP_KERNEL_LOG, the fallback
"""

from __future__ import annotations

import datetime as _dt
import os
import time
from typing import Final

KMSG: Final = "/dev/kmsg"


def write_file_line(path: str | os.PathLike[str], text: str, time_s: float | None = None) -> None:
    """Append one line to a file-backed kernel log in the format `KernelLog` reads back."""
    stamp = time.time() if time_s is None else time_s
    ts = _dt.datetime.fromtimestamp(stamp, _dt.UTC).isoformat()
    with open(path, "a") as f:
        f.write(f"{ts} kernel: {text}\n")


def write_kmsg(text: str, path: str = KMSG) -> bool:
    """Write one record to the kernel log (root only). False when not writable."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        os.write(fd, text.encode()[:1000].rstrip(b"\n") + b"\n")  # a newline ends the record
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
