"""Live reconfiguration: `nonstop ctl RUN_DIR set KEY=VALUE ...` changes a running job, no restart.

Llama 3's team switched costlier tracing on in a live job without a code release or a restart.
The settings live in one file, run_dir/control/settings.json ({"version": N, "settings": {..}}),
written atomically under a lock. Every node's agent and every rank's watcher thread look at it
on their own clocks (a stat per tick) and apply what changed:

    key              applied by   effect
    hang_timeout     agents       seconds without progress that make a hang, or `auto`
    straggler_every  agents       steps between online straggler scores
    telemetry_s      ranks        the telemetry sampling interval (where a sampler runs)
    fr_stacks        ranks        on/off: stack traces in flight-recorder dumps
    phase_timing     ranks        on/off: per-phase seconds (data, optimizer, ...) in step events;
                                  compute stays timed: straggler detection reads it

Agents record each applied version in the ledger (action `reconfigure`); ranks emit a
`lifecycle` event `reconfigured`. A restarted attempt starts with the settings in force.

    nonstop ctl runs/RUN set hang_timeout=120 fr_stacks=on
    nonstop ctl runs/RUN show
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from nonstop import rundir
from nonstop.errors import UserError

__all__ = [
    "KEYS",
    "LiveSettings",
    "parse_assignment",
    "parse_hang_timeout",
    "read_settings",
    "write_settings",
]


def _seconds(v: str) -> float:
    x = float(v)
    if not (x > 0 and x < 1e7):  # also refuses nan and inf
        raise ValueError("a number of seconds above 0")
    return x


def parse_hang_timeout(v: str) -> float | None:
    """'auto' (None: learned from step times) or seconds; ValueError otherwise. Shared by
    `nonstop run --hang-timeout` and `nonstop ctl RUN set hang_timeout=`."""
    return None if v == "auto" else _seconds(v)


def _steps(v: str) -> int:
    n = int(v)
    if n < 1:
        raise ValueError("a whole number of steps >= 1")
    return n


def _onoff(v: str) -> bool:
    if v.lower() in ("on", "true", "1", "yes"):
        return True
    if v.lower() in ("off", "false", "0", "no"):
        return False
    raise ValueError("on or off")


KEYS: dict[str, tuple[Callable[[str], Any], str, str]] = {
    "hang_timeout": (
        parse_hang_timeout,
        "agents",
        "seconds without progress that make a hang, or auto",
    ),
    "straggler_every": (_steps, "agents", "steps between online straggler scores"),
    "telemetry_s": (_seconds, "ranks", "telemetry sampling interval in seconds"),
    "fr_stacks": (_onoff, "ranks", "on/off: stack traces in flight-recorder dumps"),
    "phase_timing": (_onoff, "ranks", "on/off: per-phase seconds in step events (compute stays)"),
}


def parse_assignment(text: str) -> tuple[str, Any]:
    """'KEY=VALUE' -> (key, parsed value); UserError naming the keys or the expected value."""
    key, sep, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    if not sep or not key:
        raise UserError(f"expected KEY=VALUE, got {text!r}")
    if key not in KEYS:
        raise UserError(f"unknown setting {key!r}; settings: {', '.join(KEYS)}")
    try:
        return key, KEYS[key][0](raw)
    except ValueError as e:
        raise UserError(f"{key}={raw!r}: expected {KEYS[key][2]} ({e})") from None


def settings_path(run_dir: str | os.PathLike[str]) -> Path:
    return rundir.RunDir(Path(run_dir)).control / "settings.json"


def read_settings(run_dir: str | os.PathLike[str]) -> tuple[int, dict[str, Any]]:
    """(version, settings) in force; (0, {}) when none were set or the file is unreadable."""
    try:
        body = json.loads(settings_path(run_dir).read_text())
        settings = body["settings"]
        known = {k: v for k, v in settings.items() if k in KEYS and _valid(k, v)}
        return int(body["version"]), known
    except (OSError, ValueError, KeyError, TypeError, AttributeError, OverflowError):
        return 0, {}  # not a settings file (tests/props/test_props_fuzz_control.py)


def _valid(key: str, value: Any) -> bool:
    """A value `nonstop ctl set` could have written: its parser gives it back from its text."""
    try:
        return bool(KEYS[key][0]("auto" if value is None else str(value)) == value)
    except (ValueError, TypeError):
        return False


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def write_settings(run_dir: str | os.PathLike[str], changes: dict[str, Any]) -> int:
    """Merge `changes` into the settings in force; the new version number."""
    path = settings_path(run_dir)
    with _locked(path):
        version, settings = read_settings(run_dir)
        settings.update(changes)
        version += 1
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps({"version": version, "settings": settings}, sort_keys=True))
        os.replace(tmp, path)
    return version


class LiveSettings:
    """What one process has applied; `poll()` returns (version, changed settings) when the file
    changed since, else None. A stat per call while nothing changes."""

    def __init__(self, run_dir: str | os.PathLike[str]) -> None:
        self.run_dir = run_dir
        self.path = settings_path(run_dir)
        self.version = 0
        self.applied: dict[str, Any] = {}
        self._mtime = 0

    def poll(self) -> tuple[int, dict[str, Any]] | None:
        try:
            mtime = self.path.stat().st_mtime_ns
        except OSError:
            return None
        if mtime == self._mtime:
            return None
        self._mtime = mtime
        version, settings = read_settings(self.run_dir)
        if version <= self.version:
            return None
        changed = {k: v for k, v in settings.items() if self.applied.get(k, object()) != v}
        self.version, self.applied = version, settings
        return version, changed


def describe(changes: dict[str, Any]) -> str:
    def show(v: Any) -> str:
        return "auto" if v is None else ("on" if v is True else "off" if v is False else str(v))

    return " ".join(f"{k}={show(v)}" for k, v in sorted(changes.items()))


def ctl_main(argv: list[str]) -> int:
    """`nonstop ctl RUN_DIR set KEY=VALUE ...` | `nonstop ctl RUN_DIR show`."""
    keys = "; ".join(f"{k} ({h}, applied by {w})" for k, (_, w, h) in KEYS.items())
    p = argparse.ArgumentParser(
        prog="nonstop ctl",
        description="change a running job's settings without a restart",
        epilog=f"settings: {keys}",
    )
    p.add_argument("run_dir", help="the run directory of a running `nonstop run`")
    p.add_argument("action", choices=("set", "show"))
    p.add_argument("assignments", nargs="*", metavar="KEY=VALUE")
    a = p.parse_args(argv)
    rd = rundir.open_existing(a.run_dir)
    if a.action == "show":
        if a.assignments:
            raise UserError("`show` takes no KEY=VALUE")
        version, settings = read_settings(rd.root)
        print(f"version {version}: {describe(settings) or '(defaults: nothing set)'}")
        return 0
    if not a.assignments:
        raise UserError("`set` needs at least one KEY=VALUE; settings: " + ", ".join(KEYS))
    changes = dict(parse_assignment(x) for x in a.assignments)
    version = write_settings(rd.root, changes)
    print(
        f"version {version}: {describe(changes)}; agents and ranks apply it within a second "
        "or two (ranks: at their watcher's next tick)"
    )
    return 0
