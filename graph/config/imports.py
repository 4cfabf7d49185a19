"""Objects named `package.module:attribute` by a user (`--llm import:...`, `--embedding import:...`)."""

from __future__ import annotations

import importlib
from typing import Any

from graph.config.errors import UserError


def import_object(target: str, form: str) -> Any:
    """The attribute `target` names; one line naming `form` (e.g. `import:package.module:factory`) when it cannot.

    A module that is found but fails as it is imported (a package it needs is missing, a variable it reads
    is unset) is named with its own error, which is the one to fix.
    """
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as missing:
        if missing.name is not None and module_name != missing.name and not module_name.startswith(missing.name + "."):
            raise UserError(f"importing {target!r} failed: {missing}; install what it needs") from None
        raise UserError(f"cannot import {target!r}; give {form} on PYTHONPATH") from None
    except (ImportError, ValueError):
        raise UserError(f"cannot import {target!r}; give {form} on PYTHONPATH") from None
    except Exception as error:  # the user's module failed as it ran: its own error says what to fix
        raise UserError(f"importing {target!r} failed: {type(error).__name__}: {error}") from None
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise UserError(f"cannot import {target!r}: {module_name} has no {attribute!r}; give {form}") from None
