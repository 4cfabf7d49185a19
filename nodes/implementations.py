"""Swappable stage implementations: a built-in name, or `package.module:function` of your own."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TypeVar

F = TypeVar("F")


class UnknownImplementation(LookupError):
    """A stage implementation that is neither built in nor importable."""


def resolve_implementation(stage: str, name: str, built_ins: Mapping[str, F]) -> F:
    """The function named `name` for `stage`: a built-in, or an importable `module:function`."""
    if name in built_ins:
        return built_ins[name]
    module_name, separator, attribute = name.partition(":")
    if separator and module_name and attribute:
        try:
            return getattr(importlib.import_module(module_name), attribute)  # type: ignore[no-any-return]
        except (ImportError, AttributeError) as error:
            raise UnknownImplementation(f"cannot import {name!r} for stage {stage} ({error})") from None
    known = ", ".join(sorted(built_ins))
    raise UnknownImplementation(
        f"unknown implementation {name!r} for stage {stage}; use {known} or package.module:function"
    )
