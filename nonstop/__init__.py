"""nonstop: keep large PyTorch training runs training.

The top-level package imports nothing heavy; `import nonstop` never loads torch. The training-loop
API lives in `nonstop.runtime` (which does).
"""

from contextlib import AbstractContextManager

__version__ = "0.1.0"
__all__ = ["__version__", "section"]


def section(name: str) -> AbstractContextManager[None]:
    """`with nonstop.section("checkpoint"):` marks a slow phase, so that `nonstop run`'s hang
    watchdog allows it `--section-timeout`; a no-op until `nonstop.runtime.init()` ran."""
    from nonstop.runtime import section as _section

    return _section(name)
