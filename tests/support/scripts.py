"""Training scripts the tests write into their temporary directory."""

from __future__ import annotations

import textwrap
from pathlib import Path


def unmodified(iterations: int, sleep_s: float = 0.05) -> str:
    """A gloo script that never imports nonstop: `iterations` all-reduces, `sleep_s` apart. Its
    only progress the supervisor sees is the flight recorder's completed collectives."""
    return textwrap.dedent(f"""
        import time, torch, torch.distributed as dist
        dist.init_process_group("gloo")
        x = torch.ones(8)
        for i in range({iterations}):
            dist.all_reduce(x)
            time.sleep({sleep_s})
        dist.destroy_process_group()
    """)


def write_script(directory: Path, text: str, name: str = "plain.py") -> Path:
    """`text` written to `directory/name`; its path."""
    path = directory / name
    path.write_text(text)
    return path
