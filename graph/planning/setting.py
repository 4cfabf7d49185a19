"""A run setting defined once: a dataclass field whose `Flag` says its flag, type, help, how a given value is
read and checked, whether the run context takes it, whether only a new run takes it, its stored key and the
`Settings` field it falls back to; and, from such fields, a command's arguments and the values its flags give."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any

from graph.config.settings import Settings
from nodes.run_context import field_problem


@dataclass(frozen=True)
class Flag:
    """How a setting is asked for on the command line, and checked: the metadata of its field, so a setting's
    name, type, default (the field's), help and check are written once and the parser, the options, run.json and
    the run context all read them."""

    help: str
    """The flag's help; `%(default)s` is the field's default."""
    group: str = "run"
    """The help section: run, queries (and unanswerable questions), weights."""
    flag: str | None = None
    """The flag where it is not the field's name with dashes (`--seed` for `random_seed`)."""
    type: Callable[[str], Any] | None = None
    choices: Sequence[Any] | None = None
    metavar: str | None = None
    switch: bool = False
    """A flag without a value: given, the setting is True."""
    repeat: bool = False
    """A flag given once per value (a list)."""
    read: Callable[[Any], Any] | None = None
    """What the flag's value becomes (a file read, a key checked); with `spread`, a dict of fields."""
    spread: bool = False
    check: Callable[[Any], str | None] | None = None
    """What is wrong with a value, said after the flag ("must be ..."); None when it is fine."""
    context: bool = False
    """The run context (`nodes.run_context.Context`) has a field of this name: it takes the value, and its
    check (`field_problem`) is this setting's."""
    new_run_only: bool = False
    """A continued run keeps its own: asking for it again is refused."""
    stored_as: str | None = None
    """The key a run keeps it under where it is not the field's name."""
    fallback: str | None = None
    """The `Settings` field (triad.toml, environment) a new run takes when the flag is not given; a table is
    merged under the flag's."""

    def name_for(self, field_name: str) -> str:
        return self.flag or "--" + field_name.replace("_", "-")

    def dest_for(self, field_name: str) -> str:
        """Where the parsed flag is: its name (`args.seed`, `args.node`), apart from the settings' fields."""
        return self.name_for(field_name).removeprefix("--").replace("-", "_")

    def problem(self, field_name: str, value: Any) -> str | None:
        """What is wrong with `value`, in one line naming the flag; None when it is fine."""
        wrong = field_problem(field_name, value) if self.context else None
        wrong = wrong or (self.check(value) if self.check is not None else None)
        return f"{self.name_for(field_name)} {wrong}" if wrong else None


def option(default: Any = None, *, factory: Callable[[], Any] | None = None, **flag: Any) -> Any:
    """A field of run options: its default, and with flag arguments its `Flag`."""
    metadata = {"flag": Flag(**flag)} if flag else {}
    if factory is not None:
        return field(default_factory=factory, metadata=metadata)
    return field(default=default, metadata=metadata)


def flag_of(item: Field[Any]) -> Flag | None:
    flag = item.metadata.get("flag")
    return flag if isinstance(flag, Flag) else None


def field_default(item: Field[Any]) -> Any:
    """A field's default value (made afresh for a field with a default factory)."""
    if item.default_factory is not MISSING:
        return item.default_factory()
    return item.default


def flagged(cls: type) -> list[tuple[Field[Any], Flag]]:
    """The fields of a dataclass that a flag sets, with their flags, in field order."""
    return [(item, flag) for item in fields(cls) if (flag := flag_of(item)) is not None]


def fields_problem(instance: Any) -> str | None:
    """What is wrong with the flagged fields of a dataclass instance: the first one's problem, in one line naming
    its flag; None when every one is fine."""
    for item, flag in flagged(type(instance)):
        if wrong := flag.problem(item.name, getattr(instance, item.name)):
            return wrong
    return None


def add_flags(cls: type, groups: dict[str, argparse._ArgumentGroup]) -> None:
    """One `add_argument` per flagged field of `cls` (`RunOptions`, `RunRequest`), in the group its flag names:
    the flag's name, type, help and choices from the field's `Flag`. A flag not given reads None, so the field's
    default (or the setting it falls back to) applies."""
    for item, flag in flagged(cls):
        shown = flag.help % {"default": field_default(item)}
        name = flag.name_for(item.name)
        if flag.switch:
            groups[flag.group].add_argument(
                name, dest=flag.dest_for(item.name), action="store_true", default=None, help=shown
            )
            continue
        typed: dict[str, Any] = {"type": flag.type} if flag.type is not None else {}
        groups[flag.group].add_argument(
            name,
            dest=flag.dest_for(item.name),
            action="append" if flag.repeat else "store",
            choices=flag.choices,
            metavar=flag.metavar,
            help=shown,
            **typed,
        )


def flag_values(cls: type, args: argparse.Namespace, settings: Settings | None = None) -> dict[str, Any]:
    """The fields of `cls` the flags give, read as their `Flag` says; with `settings`, a flag not given takes the
    setting it falls back to (a table is merged under the flag's)."""
    values: dict[str, Any] = {}
    for item, flag in flagged(cls):
        given = getattr(args, flag.dest_for(item.name), None)
        if given is not None and flag.read is not None:
            given = flag.read(given)
        if flag.spread and given is not None:
            values.update(given)
            continue
        if settings is not None and flag.fallback is not None:
            kept = getattr(settings, flag.fallback)
            if isinstance(kept, dict):
                given = {**kept, **(given or {})}
            elif given is None and kept is not None:
                given = flag.read(kept) if flag.read is not None else kept
        if given is not None:
            values[item.name] = given
    return values
