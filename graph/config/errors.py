"""Errors a user can cause and fix, and how a command reports them."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

#: Exit code of a command stopped by a user's mistake (bad flag value, unreachable database, ...).
USAGE_EXIT_CODE = 2


class UserError(Exception):
    """A mistake the user can fix; its message is one line that names the fix."""

    exit_code = USAGE_EXIT_CODE


class RunCannotWork(UserError):
    """A run stopped because no sample of it can succeed (its models do not answer): exit code 1, its finished
    samples kept, `--resume` after the fix does the rest."""

    exit_code = 1


def reason(error: OSError) -> str:
    """What the system said about a file it could not read or write, e.g. "No space left on device"."""
    if isinstance(error, FileExistsError):  # a folder was wanted where a file is
        return "a file is in the way"
    return error.strerror or str(error)


@contextmanager
def writing(path: Path, fix: str) -> Iterator[None]:
    """A failed write of `path` within the block, as one line: what the system said, then `fix`."""
    try:
        yield
    except OSError as error:
        raise UserError(f"cannot write {path}: {reason(error)}; {fix}") from None


def redact(text: str) -> str:
    """`text` with every password it holds replaced: in URLs (`//user:***@`) and in `password=...` options."""
    text = re.sub(r"(//[^:/@\s'\"]*:)[^@\s'\"]*@", r"\1***@", text)
    return re.sub(r"(password\s*=\s*)('[^']*'|[^\s'\"&]+)", r"\1***", text, flags=re.IGNORECASE)


def without_password(url: str) -> str:
    """`url` with no password at all (a redacted one included): libpq then takes it from PGPASSWORD or ~/.pgpass."""
    url = re.sub(r"(//[^:/@\s'\"]*):[^@\s'\"]*@", r"\1@", url)
    return re.sub(r"\s*password\s*=\s*('[^']*'|[^\s'\"&]+)", "", url, flags=re.IGNORECASE).strip()


def first_line(error: BaseException) -> str:
    """An exception's message cut to its first line (drivers add hints on further lines), passwords hidden."""
    text = str(error).strip()
    return redact(text.splitlines()[0]) if text else type(error).__name__


def exit_on_user_error(main: Callable[..., T]) -> Callable[..., T]:
    """Turn a `UserError` escaping a command's `main` into one stderr line and its exit code (2, or the error's own)."""

    @functools.wraps(main)
    def wrapper(*args: object, **kwargs: object) -> T:
        try:
            return main(*args, **kwargs)
        except UserError as error:
            print(f"error: {redact(str(error))}", file=sys.stderr)
            raise SystemExit(error.exit_code) from None
        except KeyboardInterrupt:
            print("interrupted; work finished so far is kept", file=sys.stderr)
            raise SystemExit(130) from None

    return wrapper


class InvalidOptions(UserError, ValueError):
    """Run options no run can use."""
