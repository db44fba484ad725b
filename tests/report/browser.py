"""Load a page in real headless Chromium: the DOM after its scripts ran, and its console lines.

Chromium is not a Python package: CI installs it (`apt-get install -y chromium`). Without it
the browser tests skip with the reason, except under CI=1, where they fail.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
# With --enable-logging=stderr Chromium writes every console message (errors included) and
# every uncaught exception as an INFO:CONSOLE line.
CONSOLE = re.compile(r":CONSOLE[:(]|Uncaught")


def chromium() -> str:
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    msg = "headless Chromium is not installed (apt-get install -y chromium)"
    if os.environ.get("CI") == "1":
        pytest.fail(msg + "; CI=1 requires it")
    pytest.skip(msg)


def load(
    page: Path, profile: Path, *, screenshot: Path | None = None, size: str = "1366,768"
) -> tuple[str, list[str]]:
    """(DOM after scripts ran, console lines). With `screenshot`, also save a PNG."""
    args = [
        chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        f"--window-size={size}",
        "--hide-scrollbars",
    ]
    target = page.resolve().as_uri()
    done = subprocess.run(
        [*args, "--dump-dom", target], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    if screenshot is not None:
        shot = subprocess.run(
            [*args, f"--screenshot={screenshot}", target],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert shot.returncode == 0 and screenshot.exists(), shot.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if CONSOLE.search(line)]
    return done.stdout, console


CHARTS = {
    "waterfall",
    "timeline",
    "failures",
    "loss",
    "heatmap",
    "power",
    "temperature",
    "checkpoints",
}


class Charts(HTMLParser):
    """Collects the attributes of every chart container and counts SVG elements in each."""

    def __init__(self) -> None:
        super().__init__()
        self.charts: dict[str, dict[str, str | None]] = {}
        self.shapes: dict[str, int] = {}
        self.body: dict[str, str | None] = {}
        self._current: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if tag == "div" and a.get("class") == "chart":
            self._current = str(a["id"]).removeprefix("chart-")
            self.charts[self._current] = a
            self.shapes[self._current] = 0
        elif self._current and tag in ("rect", "polyline", "path", "line"):
            self.shapes[self._current] += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self._current = None


def parse(page: str) -> Charts:
    p = Charts()
    p.feed(page)
    return p
