"""One settings object for every command.

Values are resolved field by field, first hit wins: command-line flags, then environment variables
(`TRIAD_<FIELD>`, and `GOOGLE_API_KEY`), then an optional `triad.toml`, then the defaults below.
This module is the only place that reads the environment.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from graph.config.errors import UserError, reason
from nodes.run_context import DEFAULT_MODELS
from state.usage import ROLES, STRUCTURED_MODES, Role, StructuredMode

CONFIG_FILE_NAME = "triad.toml"

#: Chunks longer than this are never seeds or neighbours: one would flood every prompt it enters.
MAX_CHUNK_CHARS = 20_000


#: Environment variables that are not named `TRIAD_<FIELD>`.
ENV_ALIASES = {"google_api_key": "GOOGLE_API_KEY", "openai_api_key": "OPENAI_API_KEY"}

#: Settings that are TOML tables (`[prices]`, `[nodes]`, `[collections.NAME]`) rather than single values.
TABLE_FIELDS = ("prices", "nodes", "collections", "base_urls", "thinking", "structured_output", "limits")

#: How a collection's columns are read; set for every collection, or per collection in `[collections.NAME]`.
COLUMN_SETTINGS = (
    "id_column",
    "content_column",
    "embedding_column",
    "metadata_json_column",
    "metadata_columns",
    "distance",
)

#: The distances langchain-postgres offers, by the names triad takes (cosine is its default).
Distance = Literal["cosine", "l2", "ip"]

#: Names a schema of triad's own may have: plain lower-case identifiers, written alike in SQL and search_path.
SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class Settings(BaseModel):
    """Everything a command needs to know about where data lives and which models to use."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    home: Path = Field(Path(".triad"), description="Data home: embedded database, caches.")
    database_url: str | None = Field(
        None, description="PostgreSQL URL of the vector store; unset means the embedded server."
    )
    state_url: str | None = Field(
        None, description="PostgreSQL URL for checkpoints and runs; unset means the embedded database."
    )
    collection: str | None = Field(None, description="Table (PGVectorStore) or collection name.")
    schema_name: str = Field("public", description="Schema of a PGVectorStore table.")
    state_schema: str = Field(
        "triad", description="Schema of triad's own tables (runs, checkpoints, cache) in the state database."
    )
    id_column: str | None = Field(None, description="Id column of a PGVectorStore table; unset: detected.")
    content_column: str | None = Field(None, description="Text column of a PGVectorStore table; unset: detected.")
    embedding_column: str | None = Field(None, description="Vector column of a PGVectorStore table; unset: detected.")
    metadata_json_column: str | None = Field(
        None, description="JSON metadata column of a PGVectorStore table, or none; unset: detected."
    )
    metadata_columns: tuple[str, ...] | None = Field(
        None, description="Columns holding metadata keys, merged into each chunk's metadata; unset: the other columns."
    )
    distance: Distance | None = Field(None, description="The store's distance: cosine (default), l2 or ip.")
    collections: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Column settings per collection ([collections.NAME] in triad.toml)."
    )
    embedding: str = Field("minilm", description="Embedding model spec of the collection.")
    question_language: str | None = Field(
        None,
        description="ISO 639-1 code of the language every question is written in; unset: each sample's chunks' own.",
    )
    llm: str | None = Field(None, description="One model spec for all three roles.")
    generator_model: str | None = Field(None, description="Generator model spec (overrides llm).")
    validator_model: str | None = Field(None, description="Validator model spec (overrides llm).")
    extractor_model: str | None = Field(None, description="Extractor model spec (overrides llm).")
    llm_base_url: str | None = Field(
        None, description="Base URL of the models' server: Gemini's, OpenAI's (or a compatible one), Ollama's."
    )
    base_urls: dict[Role, str] = Field(default_factory=dict, description="Base URL per role, over llm_base_url.")
    thinking: dict[Role, str] = Field(
        default_factory=dict, description="Thinking per role: a token budget or a level; unset: the provider's default."
    )
    structured_output: dict[Role, Literal["auto", StructuredMode]] = Field(
        default_factory=dict,
        description="Structured-output mode per role: auto (default), json_schema, json_object, tool or text.",
    )
    google_api_key: SecretStr | None = Field(None, description="Gemini API key.")
    openai_api_key: SecretStr | None = Field(None, description="OpenAI API key.")
    requests_per_second: float = Field(10.0, gt=0, description="Provider requests started per second.")
    max_concurrent_requests: int = Field(16, gt=0, description="Provider requests in flight at once.")
    requests_per_minute: float | None = Field(
        None, gt=0, description="Requests per minute to each model, as the provider's quota says; unset: none."
    )
    tokens_per_minute: float | None = Field(
        None, gt=0, description="Prompt tokens per minute to each model, as the provider's quota says; unset: none."
    )
    limits: dict[str, dict[Literal["requests_per_minute", "tokens_per_minute"], float]] = Field(
        default_factory=dict, description="Per-minute limits by model spec, over the two above."
    )
    limit_share: float = Field(
        1.0, gt=0, le=1, description="This process's share of the per-minute limits (1/N for each of N workers)."
    )
    request_timeout_seconds: float = Field(
        120.0, gt=0, description="A provider request not answered by then is cut off and retried."
    )
    llm_cache: bool = Field(True, description="Serve identical requests from the cache in the state database.")
    max_cost_usd: float | None = Field(None, gt=0, description="Stop starting samples once this is spent.")
    prices: dict[str, tuple[float, float] | tuple[float, float, float]] = Field(
        default_factory=dict,
        description="USD per million tokens (input, output[, cached input]) by model, over the defaults.",
    )
    nodes: dict[str, str] = Field(default_factory=dict, description="Stage -> implementation overrides.")
    runs_dir: Path = Field(Path("runs"), description="Where run folders are written.")
    lease_seconds: float = Field(30.0, gt=0, description="How long a sample slot stays with a silent worker.")
    database_wait_seconds: float = Field(
        120.0, ge=0, description="How long a run waits for a database that went away before it stops."
    )
    min_chunk_chars: int = Field(
        200, ge=0, description="Chunks shorter than this are never seeds (too thin to carry a fact); the paper's 200."
    )
    max_chunk_chars: int = Field(
        MAX_CHUNK_CHARS,
        gt=0,
        description="Chunks longer than this are never seeds or neighbours (they would flood prompts).",
    )

    @field_validator("collection", "database_url", "state_url", "llm_base_url")
    @classmethod
    def _not_blank(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("metadata_columns", mode="before")
    @classmethod
    def _column_list(cls, value: Any) -> Any:
        """`a,b` as a flag or variable gives it; `none` (or nothing) for a table without metadata columns."""
        if isinstance(value, str):
            names = [name.strip() for name in value.split(",") if name.strip()]
            return () if [n.lower() for n in names] in ([], ["none"]) else tuple(names)
        return value

    @field_validator("thinking", mode="before")
    @classmethod
    def _thinking_values(cls, value: Any) -> Any:
        """`ROLE=VALUE` strings (repeated flags) or a table; budgets may be TOML integers."""
        if isinstance(value, list | tuple):
            return role_values(value, "ROLE=BUDGET|LEVEL", every_role=False)
        if isinstance(value, dict):
            return {role: str(setting) for role, setting in value.items()}
        return value

    @field_validator("structured_output", mode="before")
    @classmethod
    def _structured_output_values(cls, value: Any) -> Any:
        """`ROLE=MODE` strings (repeated flags), or `MODE` alone for every role, or a table."""
        if isinstance(value, str):  # TRIAD_STRUCTURED_OUTPUT: comma-separated
            value = [part for part in value.split(",") if part.strip()]
        if isinstance(value, list | tuple):
            value = role_values(value, "[ROLE=]MODE", every_role=True)
        if isinstance(value, dict):
            for mode in value.values():
                if mode not in ("auto", *STRUCTURED_MODES):
                    raise ValueError(f"{mode!r} is not one of auto, {', '.join(STRUCTURED_MODES)}")
        return value

    @field_validator("state_schema")
    @classmethod
    def _schema_name(cls, value: str) -> str:
        if not SCHEMA_NAME.match(value):
            raise ValueError("must be a lower-case name of letters, digits and underscores")
        return value

    @field_validator("collections")
    @classmethod
    def _collection_tables(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for name, table in value.items():
            if not isinstance(table, dict):
                raise ValueError(f"[collections.{name}] must be a table")
            unknown = sorted(set(table) - set(COLUMN_SETTINGS))
            if unknown:
                raise ValueError(f"[collections.{name}] has unknown keys {', '.join(unknown)}")
            try:
                Settings.model_validate(table)
            except ValidationError as error:
                first = error.errors()[0]
                raise ValueError(f"[collections.{name}] {'.'.join(map(str, first['loc']))}: {first['msg']}") from None
        return value

    @field_validator("database_url", "state_url")
    @classmethod
    def _libpq_url(cls, value: str | None) -> str | None:
        """A SQLAlchemy URL (`postgresql+psycopg://...`, as langchain-postgres configs hold) as libpq takes it;
        asyncpg's `ssl=` query parameter becomes libpq's `sslmode=`."""
        if not value:
            return value
        url = value.strip()
        if re.match(r"^postgres(?:ql)?\+asyncpg://", url):
            url = re.sub(r"([?&])ssl=(true|on|1)(?=&|$)", r"\1sslmode=require", url, flags=re.IGNORECASE)
            url = re.sub(r"([?&])ssl=", r"\1sslmode=", url)
        return re.sub(r"^postgres(?:ql)?\+\w+://", "postgresql://", url)

    def model_for(self, role: str) -> str:
        """A role's model spec: its own setting, else `llm`, else the paper's model."""
        own: str | None = getattr(self, f"{role}_model")
        return own or self.llm or DEFAULT_MODELS[role]

    def column_settings(self) -> dict[str, Any]:
        """How this collection's columns are read: settings given for all collections win over its
        `[collections.NAME]` table; what neither gives is detected (None), the distance is cosine."""
        chosen = dict(self.collections.get(self.collection or "", {}))
        chosen.update({name: getattr(self, name) for name in COLUMN_SETTINGS if getattr(self, name) is not None})
        merged = Settings.model_validate({**self.model_dump(include=set(COLUMN_SETTINGS)), **chosen})
        values = {name: getattr(merged, name) for name in COLUMN_SETTINGS}
        values["distance"] = values["distance"] or "cosine"
        return values

    @property
    def pg_dir(self) -> Path:
        """Data folder of the embedded PostgreSQL server."""
        return self.home / "pg"


def _read_config_file(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise UserError(f"config file {path} not found; fix the path given by --config or TRIAD_CONFIG") from None
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"{path} is not valid TOML ({error}); fix the file") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text, as a TOML file must be; fix the file") from None
    except OSError as error:
        raise UserError(
            f"cannot read the config file {path}: {reason(error)}; fix the path given by --config or TRIAD_CONFIG"
        ) from None
    return data


#: Tables an environment variable may also give, as comma-separated `ROLE=VALUE` pairs.
ENV_PAIRS = ("structured_output",)


def role_values(items: Iterable[Any], form: str, *, every_role: bool) -> dict[str, str]:
    """`ROLE=VALUE` items (repeated flags) as a table, a later item over an earlier one; with `every_role`, a
    bare `VALUE` is every role's."""
    values: dict[str, str] = {}
    for item in items:
        role, separator, value = str(item).partition("=")
        if not separator:
            if not every_role:
                raise ValueError(f"{item!r} is not {form}")
            value = role
        if not value.strip():
            raise ValueError(f"{item!r} is not {form}")
        for named in (role.strip(),) if separator else ROLES:
            values[named] = value.strip()
    return values


def _from_environment(env: Mapping[str, str]) -> dict[str, str]:
    values = {}
    for name in Settings.model_fields:
        if name in TABLE_FIELDS and name not in ENV_PAIRS:
            continue
        variable = ENV_ALIASES.get(name, f"TRIAD_{name.upper()}")
        if env.get(variable):
            values[name] = env[variable]
    return values


def resolve_settings(
    flags: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    config_path: Path | None = None,
) -> Settings:
    """Merge flags > environment > config file > defaults into a validated `Settings`.

    `flags` holds only the flags the user gave (None values are ignored). The config file is
    `config_path`, else `$TRIAD_CONFIG`, else `./triad.toml` when it exists.
    """
    env = os.environ if env is None else env
    if config_path is None and env.get("TRIAD_CONFIG"):
        config_path = Path(env["TRIAD_CONFIG"])
    if config_path is None and Path(CONFIG_FILE_NAME).is_file():
        config_path = Path(CONFIG_FILE_NAME)
    merged: dict[str, Any] = _read_config_file(config_path)
    merged.update(_from_environment(env))
    merged.update({key: value for key, value in (flags or {}).items() if value is not None})
    try:
        return Settings(**merged)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "settings"
        source = "flag, environment variable or triad.toml"
        if first["type"] == "extra_forbidden":
            raise UserError(f"unknown setting {field!r} in {config_path}; remove it or fix its name") from None
        raise UserError(f"invalid value for {field}: {first['msg']}; fix the {source}") from None


class PlatformAccess(BaseModel):
    """What the environment says of LangSmith and Langfuse: whether their keys are set (their SDKs read the keys
    themselves) and where their servers are."""

    model_config = ConfigDict(frozen=True)

    langsmith_key: bool
    langsmith_endpoint: str
    langfuse_keys: bool
    langfuse_host: str


def platform_access(env: Mapping[str, str] | None = None) -> PlatformAccess:
    env = os.environ if env is None else env
    return PlatformAccess(
        langsmith_key=bool(env.get("LANGSMITH_API_KEY") or env.get("LANGCHAIN_API_KEY")),
        langsmith_endpoint=env.get("LANGSMITH_ENDPOINT") or "https://api.smith.langchain.com",
        langfuse_keys=bool(env.get("LANGFUSE_PUBLIC_KEY") and env.get("LANGFUSE_SECRET_KEY")),
        langfuse_host=env.get("LANGFUSE_HOST") or env.get("LANGFUSE_BASE_URL") or "https://cloud.langfuse.com",
    )
