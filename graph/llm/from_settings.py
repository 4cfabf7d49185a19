"""The run's gateway from its settings: every role resolved, prices, limits and quotas."""

from __future__ import annotations

from pathlib import Path

from langchain_core.language_models import BaseChatModel

from graph.config.settings import Settings
from graph.llm.cache import LLMCache
from graph.llm.gateway import LLMGateway
from graph.llm.limits import RetryPolicy
from graph.llm.models import DEFAULT_PRICES, RoleModel, resolve_roles
from graph.llm.recording import unwritable_recording
from state.usage import ROLES, Role


def check_models(
    settings: Settings,
    *,
    models: dict[Role, str | BaseChatModel] | None = None,
    recording_path: Path | None = None,
) -> dict[Role, RoleModel]:
    """Every role's model resolved, and the recording file writable: a missing key, an unknown provider
    or an unwritable `--record-llm` fails here, before any work. `models` overrides a role's spec or
    injects a chat model instance."""
    specs = {role: (models or {}).get(role) or settings.model_for(role) for role in ROLES}
    roles = resolve_roles(
        specs,
        base_url=settings.llm_base_url,
        base_urls=settings.base_urls,
        thinking=settings.thinking,
        modes=dict(settings.structured_output),
        google_api_key=settings.google_api_key.get_secret_value() if settings.google_api_key else None,
        openai_api_key=settings.openai_api_key.get_secret_value() if settings.openai_api_key else None,
        timeout_s=settings.request_timeout_seconds,
    )
    if recording_path is not None:
        try:
            recording_path.open("a", encoding="utf-8").close()  # fails now, not at the first model call
        except OSError as error:
            raise unwritable_recording(recording_path, error) from None
    return roles


def build_gateway(
    settings: Settings,
    *,
    models: dict[Role, str | BaseChatModel] | None = None,
    recording_path: Path | None = None,
    random_seed: int | None = None,
    cache: LLMCache | None = None,
) -> LLMGateway:
    """The gateway of a run, its models checked first (`check_models`).

    Commands build theirs through `graph.services.open_services`, which gives it the state
    database's response cache. The cache serves provider models only: an injected model has no stable
    name to key answers by.
    """
    roles = check_models(settings, models=models, recording_path=recording_path)
    return LLMGateway(
        roles,
        prices={**DEFAULT_PRICES, **settings.prices},
        requests_per_second=settings.requests_per_second,
        max_concurrency=settings.max_concurrent_requests,
        retry=RetryPolicy(request_timeout_s=settings.request_timeout_seconds),
        recording_path=recording_path,
        random_seed=random_seed,
        cache=cache,
        minute_limits={model.spec: minute_limits(settings, model.spec) for model in roles.values()},
    )


def minute_limits(settings: Settings, spec: str) -> tuple[float | None, float | None]:
    """Requests and prompt tokens per minute for `spec`: its `[limits]` entry (by spec or bare name) over
    the limits for every model, times this process's share."""
    own = settings.limits.get(spec) or settings.limits.get(spec.partition(":")[2]) or {}
    rpm = own.get("requests_per_minute", settings.requests_per_minute)
    tpm = own.get("tokens_per_minute", settings.tokens_per_minute)
    share = settings.limit_share
    return (rpm * share if rpm else None, tpm * share if tpm else None)
