"""Objects named `package.module:attribute` by a user (`--llm import:...`, `--embedding import:...`)."""

from __future__ import annotations

import importlib
from typing import Any

from graph.config.errors import UserError


def import_object(target: str, form: str) -> Any:
    """The attribute `target` names; one line naming `form` (e.g. `import:package.module:factory`) when it cannot."""
    module_name, _, attribute = target.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError, ValueError):
        raise UserError(f"cannot import {target!r}; give {form} on PYTHONPATH") from None
