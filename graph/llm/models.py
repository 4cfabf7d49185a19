"""The one factory that turns model specs into chat models, per role.

A spec is `provider:model`:

    google_genai:gemini-2.5-flash     Gemini (default; needs GOOGLE_API_KEY)
    openai:gpt-4.1-mini               OpenAI, or with --llm-base-url any OpenAI-compatible server
                                      (vLLM, llama.cpp's server, LM Studio)
    ollama:llama3.1                   a local Ollama server (needs langchain-ollama)
    anthropic:claude-...              Anthropic (needs langchain-anthropic)
    recorded:FILE                     answers from a file written by --record-llm
    import:package.module:factory     a chat model your own code builds (factory() -> BaseChatModel)

Python callers and tests may pass a `BaseChatModel` instance instead of a spec.
Provider packages other than Gemini's are imported only when used.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel

from graph.config.errors import UserError, redact
from graph.config.imports import import_object
from state.usage import ROLES, Role

#: Seconds one provider request may take before it counts as a (retried) timeout, unless the settings
#: say otherwise (`request_timeout_seconds`).
REQUEST_TIMEOUT_S = 120.0

#: provider -> (module, class, distribution to install)
PROVIDERS: dict[str, tuple[str, str, str]] = {
    "google_genai": ("langchain_google_genai", "ChatGoogleGenerativeAI", "langchain-google-genai"),
    "openai": ("langchain_openai", "ChatOpenAI", "langchain-openai"),
    "ollama": ("langchain_ollama", "ChatOllama", "langchain-ollama"),
    "anthropic": ("langchain_anthropic", "ChatAnthropic", "langchain-anthropic"),
}
RECORDED_PROVIDER = "recorded"
IMPORT_PROVIDER = "import"
#: Models that answer without any server: `offline:plausible` answers every request triad makes with a plausible
#: reply made from the prompt itself (`graph.llm.offline`), for demo runs, benchmarks and tests.
OFFLINE_PROVIDER = "offline"
OFFLINE_MODELS = {"plausible": "graph.llm.offline.plausible:plausible_model"}

#: USD per million tokens (input, output[, cached input]) for SPEC's Gemini models, from Google's price
#: list; override with [prices] in triad.toml. Without a cached price, cached tokens cost the input price.
DEFAULT_PRICES: dict[str, tuple[float, ...]] = {
    "gemini-2.5-flash": (0.30, 2.50, 0.03),
    "gemini-2.5-flash-lite": (0.10, 0.40, 0.01),
    "gemini-3.1-flash-lite-preview": (0.25, 1.50),
}


@dataclass(frozen=True)
class Price:
    """USD per million tokens of one model."""

    input: float = 0.0
    output: float = 0.0
    cached_input: float = 0.0

    def cost(self, input_tokens: int, output_tokens: int, cached_tokens: int = 0) -> float:
        """USD of one call; `cached_tokens` are part of `input_tokens`, billed at the cached price."""
        fresh = max(0, input_tokens - cached_tokens)
        return (fresh * self.input + cached_tokens * self.cached_input + output_tokens * self.output) / 1e6


NO_KEY_MESSAGE = (
    "no Gemini API key: set GOOGLE_API_KEY (https://aistudio.google.com/apikey), or choose another "
    "provider with --llm, e.g. --llm openai:MODEL --llm-base-url http://localhost:8000/v1"
)


@dataclass(frozen=True)
class ModelSpec:
    """A parsed `provider:model` spec."""

    provider: str
    name: str

    @classmethod
    def parse(cls, spec: str) -> ModelSpec:
        provider, sep, name = spec.partition(":")
        if not sep or not provider or not name:
            raise UserError(f"model spec {spec!r} is not provider:model; e.g. google_genai:gemini-2.5-flash")
        if provider not in PROVIDERS and provider not in (RECORDED_PROVIDER, IMPORT_PROVIDER, OFFLINE_PROVIDER):
            known = ", ".join([*PROVIDERS, RECORDED_PROVIDER, IMPORT_PROVIDER, OFFLINE_PROVIDER])
            raise UserError(f"unknown model provider {provider!r} in {spec!r}; use one of {known}")
        return cls(provider, name)

    def __str__(self) -> str:
        return f"{self.provider}:{self.name}"


@dataclass(frozen=True)
class RoleModel:
    """The model serving one role: a chat model, or a recorded file standing in for one."""

    role: Role
    spec: str
    provider: str
    chat_model: BaseChatModel | None
    recorded_file: Path | None = None
    thinking: str | None = None
    """The thinking budget or level asked of the provider; None: its default."""
    mode: str = "auto"
    """The structured-output mode asked for (`graph.llm.modes`): one of its modes, or `auto`."""
    base_url: str | None = None
    """The server the model is asked on, when not the provider's own."""

    @property
    def server(self) -> str:
        """The model and the server it answers on: what a structured-output mode is remembered for."""
        return self.spec if not self.base_url else f"{self.spec} at {redact(self.base_url)}"


def _provider_class(provider: str) -> Any:
    module_name, class_name, distribution = PROVIDERS[provider]
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        raise UserError(
            f"provider {provider!r} needs {distribution}; install it with `pip install {distribution}`"
        ) from None
    return getattr(module, class_name)


def import_chat_model(target: str) -> BaseChatModel:
    """The chat model built by `package.module:factory` (or the module attribute itself)."""
    found = import_object(target, "import:package.module:factory")
    model = found() if callable(found) and not isinstance(found, BaseChatModel) else found
    if not isinstance(model, BaseChatModel):
        raise UserError(f"{target!r} did not give a LangChain chat model (got {type(model).__name__})")
    return model


#: JSON Schema keywords pydantic writes that Gemini's `responseJsonSchema` refuses; dropped on the way
#: there (a field's default applies when the reply is validated, all the same).
GEMINI_DROPPED_KEYWORDS = ("default",)


def gemini_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """`schema`'s JSON schema as the Gemini API takes it."""

    def clean(node: Any) -> Any:
        if isinstance(node, list):
            return [clean(item) for item in node]
        if not isinstance(node, dict):
            return node
        cleaned = {}
        for key, value in node.items():
            if key in GEMINI_DROPPED_KEYWORDS:
                continue
            if key in ("properties", "$defs") and isinstance(value, dict):
                cleaned[key] = {name: clean(sub) for name, sub in value.items()}
            else:
                cleaned[key] = clean(value)
        return cleaned

    return dict(clean(schema.model_json_schema()))


#: Thinking levels by the names triad takes; a number is a token budget (Gemini's thinking_budget).
THINKING_LEVELS = ("minimal", "low", "medium", "high")


def thinking_options(provider: str, thinking: str | None, model: str = "") -> dict[str, Any]:
    """The constructor options that ask `provider` for a thinking budget or level (none: its default)."""
    if thinking is None:
        return {}
    value = thinking.strip().lower()
    budget = int(value) if value.lstrip("-").isdigit() else None
    if budget is None and value not in THINKING_LEVELS and not (provider == "ollama" and value in ("true", "false")):
        raise UserError(f"thinking {thinking!r} is neither a token budget nor one of {', '.join(THINKING_LEVELS)}")
    if provider == "google_genai":
        if budget is None and model.startswith("gemini-2"):
            raise UserError(
                f"{model} takes a thinking budget (a number of tokens; 0 turns it off), not the level {thinking!r}"
            )
        return {"thinking_budget": budget} if budget is not None else {"thinking_level": value}
    if provider == "openai" and budget is None:
        return {"reasoning_effort": value}
    if provider == "ollama" and budget is None:
        return {"reasoning": {"true": True, "false": False}.get(value, value)}
    raise UserError(
        f"provider {provider!r} takes no thinking {thinking!r}; give "
        + ("a level (low, medium, high)" if provider in ("openai", "ollama") else "none for this role")
    )


def make_chat_model(
    spec: str,
    *,
    base_url: str | None = None,
    google_api_key: str | None = None,
    openai_api_key: str | None = None,
    timeout_s: float = REQUEST_TIMEOUT_S,
    thinking: str | None = None,
) -> BaseChatModel:
    """A chat model for `spec`. Provider clients do not retry: triad's own bounded retries do.

    Their own request timeout is `timeout_s`, the bound the gateway puts on every request too.
    `base_url` points Gemini's, OpenAI's or Ollama's client at another server (a proxy, a gateway, a
    local one); `thinking` is a token budget or a level, as the provider takes it.
    """
    parsed = ModelSpec.parse(spec)
    if parsed.provider == RECORDED_PROVIDER:
        raise UserError("recorded:FILE is not a chat model; use it as a role's model spec")
    if parsed.provider == IMPORT_PROVIDER:
        return import_chat_model(parsed.name)
    if parsed.provider == OFFLINE_PROVIDER:
        if parsed.name not in OFFLINE_MODELS:
            raise UserError(
                f"no offline model {parsed.name!r}; use {', '.join(f'offline:{n}' for n in OFFLINE_MODELS)}"
            )
        return import_chat_model(OFFLINE_MODELS[parsed.name])
    options = thinking_options(parsed.provider, thinking, parsed.name)
    cls = _provider_class(parsed.provider)
    if parsed.provider == "google_genai":
        if not google_api_key:
            raise UserError(NO_KEY_MESSAGE)
        if base_url:
            options["base_url"] = base_url
        return cls(model=parsed.name, google_api_key=google_api_key, max_retries=0, timeout=timeout_s, **options)  # type: ignore[no-any-return]
    if parsed.provider == "openai":
        # Local OpenAI-compatible servers accept any key; the client refuses to start without one.
        key = openai_api_key or ("unused" if base_url else None)
        if not key:
            raise UserError("no OpenAI API key: set OPENAI_API_KEY, or give --llm-base-url for a local server")
        return cls(model=parsed.name, base_url=base_url, api_key=key, max_retries=0, timeout=timeout_s, **options)  # type: ignore[no-any-return]
    if parsed.provider == "ollama":
        if base_url:
            options["base_url"] = base_url
        return cls(model=parsed.name, client_kwargs={"timeout": timeout_s}, **options)  # type: ignore[no-any-return]
    return cls(model=parsed.name, max_retries=0, timeout=timeout_s, **options)  # type: ignore[no-any-return]


def resolve_role_model(
    role: Role,
    model: str | BaseChatModel,
    *,
    base_url: str | None = None,
    google_api_key: str | None = None,
    openai_api_key: str | None = None,
    timeout_s: float = REQUEST_TIMEOUT_S,
    thinking: str | None = None,
    mode: str = "auto",
) -> RoleModel:
    """Resolve one role's spec or instance; a spec that cannot work is a `UserError` now, not mid-run."""
    if isinstance(model, BaseChatModel):
        return RoleModel(role, f"instance:{type(model).__name__}", "instance", model, mode=mode)
    parsed = ModelSpec.parse(model)
    if parsed.provider == RECORDED_PROVIDER:
        path = Path(parsed.name)
        if not path.is_file():
            raise UserError(f"recorded file {path} not found; record one with --record-llm FILE")
        return RoleModel(role, model, RECORDED_PROVIDER, None, recorded_file=path)
    chat_model = make_chat_model(
        model,
        base_url=base_url,
        google_api_key=google_api_key,
        openai_api_key=openai_api_key,
        timeout_s=timeout_s,
        thinking=thinking,
    )
    if parsed.provider in (IMPORT_PROVIDER, OFFLINE_PROVIDER):
        base_url = None  # no server: your own code builds the model, or it answers in this process
    return RoleModel(role, model, parsed.provider, chat_model, thinking=thinking, mode=mode, base_url=base_url)


def resolve_roles(
    models: dict[Role, str | BaseChatModel],
    *,
    base_url: str | None = None,
    google_api_key: str | None = None,
    openai_api_key: str | None = None,
    timeout_s: float = REQUEST_TIMEOUT_S,
    base_urls: dict[Role, str] | None = None,
    thinking: dict[Role, str] | None = None,
    modes: dict[Role, str] | None = None,
) -> dict[Role, RoleModel]:
    """Every role's model, checked before any work starts.

    `base_url` serves every role whose own is not in `base_urls`; `thinking` holds a budget or level
    per role (a role not named thinks as its provider does by default); `modes` a structured-output
    mode per role (a role not named: `auto`).
    """
    missing = [role for role in ROLES if role not in models]
    if missing:
        raise UserError(f"no model for role(s) {', '.join(missing)}")
    # The base URL is for the provider it is given with: Gemini's when every role is a Gemini model (a
    # proxy), else the other providers' (a local server beside Gemini roles).
    providers = {role: ModelSpec.parse(m).provider if isinstance(m, str) else "instance" for role, m in models.items()}
    all_gemini = all(provider == "google_genai" for provider in providers.values())

    def url_for(role: Role) -> str | None:
        own = (base_urls or {}).get(role)
        if own:
            return own
        return base_url if all_gemini or providers[role] != "google_genai" else None

    return {
        role: resolve_role_model(
            role,
            models[role],
            base_url=url_for(role),
            google_api_key=google_api_key,
            openai_api_key=openai_api_key,
            timeout_s=timeout_s,
            thinking=(thinking or {}).get(role),
            mode=(modes or {}).get(role, "auto"),
        )
        for role in ROLES
    }


def price_per_million(spec: str, prices: dict[str, tuple[float, ...]]) -> Price:
    """A spec's price per million tokens; unknown models cost 0 (said in the report)."""
    name = spec.partition(":")[2] or spec
    found = prices.get(spec) or prices.get(name)
    if not found:
        return Price()
    return Price(found[0], found[1], found[2] if len(found) > 2 else found[0])
