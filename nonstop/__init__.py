"""nonstop: keep large PyTorch training runs training.

The top-level package imports nothing heavy; `import nonstop` never loads torch. The training-loop
API lives in `nonstop.runtime` (which does).
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
