"""Hosted embeddings take their API key from triad's settings, a triad.toml key included."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.config.settings import resolve_settings
from graph.store.embeddings import embedding_keys, load_embeddings


@pytest.fixture(autouse=True)
def no_keys_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)


def test_a_key_in_triad_toml_reaches_openai_embeddings(tmp_path: Path) -> None:
    config = tmp_path / "triad.toml"
    config.write_text('openai_api_key = "sk-canary-from-toml"\n')
    settings = resolve_settings({}, config_path=config, env={})
    model = load_embeddings("openai:text-embedding-3-small", embedding_keys(settings))
    assert model.openai_api_key.get_secret_value() == "sk-canary-from-toml"  # type: ignore[attr-defined]


def test_a_key_in_triad_toml_reaches_gemini_embeddings(tmp_path: Path) -> None:
    config = tmp_path / "triad.toml"
    config.write_text('google_api_key = "canary-from-toml"\n')
    settings = resolve_settings({}, config_path=config, env={})
    model = load_embeddings("google_genai:text-embedding-004", embedding_keys(settings))
    assert model.google_api_key.get_secret_value() == "canary-from-toml"  # type: ignore[attr-defined]


def test_the_keys_never_show_in_their_repr() -> None:
    keys = embedding_keys(resolve_settings({}, env={"OPENAI_API_KEY": "sk-canary"}))
    assert keys.openai == "sk-canary" and "sk-canary" not in repr(keys)
