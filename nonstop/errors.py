"""User-facing errors. A `UserError` is printed as one line and exits non-zero; never a traceback.

Standard library only.
"""

from __future__ import annotations

import json
import sys
from typing import Any


class UserError(Exception):
    """A mistake the user can fix: bad flag, missing path, corrupt input.

    The message names what was wrong and how to fix it. `exit_code` is what the CLI returns.
    """

    def __init__(self, message: str, *, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def _named(obj: Any, seen: list[str]) -> Any:
    if isinstance(obj, str):
        try:
            obj.encode("utf-8")
        except UnicodeEncodeError:
            try:  # a file name's bytes, as os.fsdecode holds them: \xff, as `ls -b` shows them
                fixed = obj.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            except UnicodeEncodeError:  # a lone surrogate of another origin: \ud800
                fixed = obj.encode("utf-8", "backslashreplace").decode("utf-8")
            seen.append(fixed)
            return fixed
        return obj
    if isinstance(obj, dict):
        return {_named(k, seen): _named(v, seen) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_named(v, seen) for v in obj]
    return obj


def json_text(obj: Any, *, who: str, **kwargs: Any) -> str:
    """`json.dumps(obj, **kwargs)` that a strict JSON reader accepts. A file name that is not
    UTF-8 is held by Python as lone surrogates (os.fsdecode), which json.dumps wrote as
    `\\udcff`: no character, refused by strict readers (Rust's serde_json). Such a name is
    written with its odd bytes as `\\xff` text, as `ls -b` shows it, and that is said once on
    standard error, beginning with `who` (the verb)."""
    text = json.dumps(obj, **kwargs)
    if "\\ud" not in text:  # the usual case: no surrogate escape, nothing to walk
        return text
    seen: list[str] = []
    # from the text, not `obj`: what `default=str` made of a Path is a string there
    named = _named(json.loads(text), seen)
    if not seen:  # only characters outside the BMP, escaped as valid pairs
        return text
    print(
        f"{who}: warning: a name that is not UTF-8 is written with its odd bytes as \\xNN "
        f"({min(seen, key=len)[:120]})",
        file=sys.stderr,
    )
    kwargs.pop("default", None)
    return json.dumps(named, **kwargs)
