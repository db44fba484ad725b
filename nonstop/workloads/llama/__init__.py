"""The demo workload: a tiny Llama-3-architecture decoder and its resumable byte-level data."""

from __future__ import annotations


def tiny_args(log_every: int) -> list[str]:
    """train.py's flags for the smallest model it builds, so that an attempt costs the
    interpreter's start, not the training (the tests' and the chaos benchmarks' runs). Nothing
    is imported for it: no torch."""
    return [
        "--dim",
        "32",
        "--layers",
        "1",
        "--heads",
        "2",
        "--kv-heads",
        "1",
        "--seq-len",
        "32",
        "--batch-size",
        "2",
        "--log-every",
        str(log_every),
    ]
