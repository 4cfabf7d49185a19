"""What a run's run.json says of its store (database, collection, schema, columns, distance, embedding), read so a
later command reads the store as the run did; a flag given now still wins."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

from graph.config.errors import UserError, without_password
from graph.config.settings import COLUMN_SETTINGS, Settings
from graph.folder.run_document import load_run_document


def run_json_settings(run_json: Path) -> dict[str, Any]:
    """The stored settings of the dataset's run (collection, embedding), or none when run.json is absent."""
    if not run_json.is_file():
        return {}
    try:
        return dict(load_run_document(run_json).get("settings") or {})
    except (ValueError, AttributeError):
        raise UserError(
            f"{run_json} is not a run.json written by triad; restore it, or name collection= and embedding= in --setup"
        ) from None


#: What a run says of its store: the database, the collection and how its columns and distance are read.
STORE_SETTINGS = ("database_url", "collection", "schema_name", "embedding", "collections", *COLUMN_SETTINGS)


def flags_given(args: object) -> frozenset[str]:
    """The store settings a command's flags set (parsed `args`), which win over what the run stored."""
    return frozenset(name for name in STORE_SETTINGS if getattr(args, name, None) is not None)


def as_the_run_read_it(settings: Settings, stored: dict[str, Any], given: Collection[str] = ()) -> Settings:
    """`settings` reading the store as the run did; a setting `given` now (a flag's name) still wins.

    The run keeps its database URL without the password: libpq takes it from PGPASSWORD or ~/.pgpass,
    or `--database-url` gives the whole URL.
    """
    kept = {name: stored[name] for name in STORE_SETTINGS if name in stored and name not in given}
    if kept.get("database_url"):
        kept["database_url"] = without_password(kept["database_url"])
    return settings.model_copy(update=kept)
