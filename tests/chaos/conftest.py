"""The chaos harness lives in benchmarks/ (a package at the repository root): import it from there."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
