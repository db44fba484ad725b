"""User-facing errors. A `UserError` is printed as one line and exits non-zero; never a traceback.

Standard library only.
"""

from __future__ import annotations


class UserError(Exception):
    """A mistake the user can fix: bad flag, missing path, corrupt input.

    The message names what was wrong and how to fix it. `exit_code` is what the CLI returns.
    """

    def __init__(self, message: str, *, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code
