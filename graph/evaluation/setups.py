"""RAG setups to evaluate: parsed from `--setup NAME=key=value,...`, checked before any setup runs."""

from __future__ import annotations

import hashlib
import json
import urllib.parse
from dataclasses import asdict, dataclass
from typing import Any

from graph.config.errors import UserError
from graph.config.settings import DEFAULT_MODELS, Settings
from graph.llm.models import ModelSpec, resolve_role_model
from prompts import evaluate as evaluation_prompts


@dataclass(frozen=True)
class Setup:
    """One RAG setup under evaluation."""

    name: str
    collection: str | None = None
    embedding: str | None = None
    k: int = 5
    model: str = DEFAULT_MODELS["extractor"]
    url: str | None = None

    def signature(self, judge: str, judge_unlabelled: bool) -> str:
        """What the cached rows of this setup depend on: the setup, the judge model and the evaluation's prompt
        templates (`prompts.evaluate.VERSION`), so that rows judged with other templates are judged anew."""
        payload = json.dumps(
            {
                **asdict(self),
                "judge": judge,
                "judge_unlabelled": judge_unlabelled,
                "prompts": evaluation_prompts.VERSION,
            },
            sort_keys=True,
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:16]


def parse_setup(text: str, collection: str | None, embedding: str | None) -> Setup:
    name, separator, spec = text.partition("=")
    if not separator or not name:
        raise UserError(f"--setup takes NAME=key=value,..., not {text!r}")
    fields: dict[str, Any] = {"collection": collection, "embedding": embedding}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        key, separator, value = part.partition("=")
        if not separator or key not in ("collection", "embedding", "k", "model", "url"):
            raise UserError(f"--setup {name}: {part!r} is not one of collection=, embedding=, k=, model=, url=")
        fields[key] = value
    try:
        fields["k"] = int(fields.get("k", 5))
    except ValueError:
        raise UserError(f"--setup {name}: k must be a whole number") from None
    if fields["k"] <= 0:
        raise UserError(f"--setup {name}: k must be positive")
    setup = Setup(name=name, **fields)
    if setup.url is not None and urllib.parse.urlsplit(setup.url).scheme not in ("http", "https"):
        raise UserError(f"--setup {name}: url= takes an http:// or https:// address, not {setup.url!r}")
    if setup.url is None and not setup.collection:
        raise UserError(f"--setup {name}: give collection= (the run's could not be found) or url=")
    return setup


def check_answering_model(setup: Setup, settings: Settings) -> None:
    """A setup's `model=` that cannot be used fails before any setup runs, naming the setup.

    The model is built as the run will build it (a malformed spec, a missing key, a missing provider
    package, a bad `import:` target all fail here). The fix is the setup's `model=`, not `--llm`
    (which sets the judge), so the line names the setup.
    """
    if setup.url:  # the service answers for itself
        return
    try:
        if ModelSpec.parse(setup.model).provider == "google_genai" and not settings.google_api_key:
            raise UserError(
                f"its answering model {setup.model} needs a Gemini API key: set GOOGLE_API_KEY, or give the setup "
                "another model, e.g. model=openai:MODEL with --llm-base-url"
            )
        resolve_role_model(
            "generator",
            setup.model,
            base_url=settings.llm_base_url,
            google_api_key=settings.google_api_key.get_secret_value() if settings.google_api_key else None,
            openai_api_key=settings.openai_api_key.get_secret_value() if settings.openai_api_key else None,
        )
    except UserError as error:
        raise UserError(f"--setup {setup.name}: {error}") from None
