"""Embedding models load their weights only when they embed, and `import:` brings a model of your own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding

from graph.config.errors import UserError
from graph.store.embeddings import (
    DeferredEmbeddings,
    SentenceTransformerEmbeddings,
    configured_dimension,
    embedding_dimension,
    load_embeddings,
)

#: An embedding model of the tests' own, for `import:tests.unit.test_embeddings:FAKE`.
FAKE = DeterministicFakeEmbedding(size=12)


def fake_factory() -> DeterministicFakeEmbedding:
    return DeterministicFakeEmbedding(size=7)


def test_the_bundled_model_knows_its_dimension_without_loading_its_weights() -> None:
    model = load_embeddings("minilm")
    assert isinstance(model, SentenceTransformerEmbeddings)
    fresh = SentenceTransformerEmbeddings(model.model_dir)
    assert embedding_dimension(fresh) == 384
    assert fresh._model is None  # nothing embedded, nothing loaded


def test_a_dense_layer_or_several_pooling_modes_set_the_dimension(tmp_path: Path) -> None:
    (tmp_path / "1_Pooling").mkdir()
    (tmp_path / "2_Dense").mkdir()
    modules = [
        {"path": "", "type": "sentence_transformers.models.Transformer"},
        {"path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
    ]
    (tmp_path / "modules.json").write_text(json.dumps(modules))
    (tmp_path / "config.json").write_text("{}")
    pooling = {"word_embedding_dimension": 256, "pooling_mode_mean_tokens": True, "pooling_mode_max_tokens": True}
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    assert configured_dimension(tmp_path) == 512
    modules.append({"path": "2_Dense", "type": "sentence_transformers.models.Dense"})
    (tmp_path / "modules.json").write_text(json.dumps(modules))
    (tmp_path / "2_Dense" / "config.json").write_text(json.dumps({"out_features": 128}))
    assert configured_dimension(tmp_path) == 128
    assert configured_dimension(tmp_path / "missing") is None


def test_an_imported_model_is_an_object_or_built_by_a_factory() -> None:
    assert load_embeddings("import:tests.unit.test_embeddings:FAKE") is FAKE
    assert embedding_dimension(load_embeddings("import:tests.unit.test_embeddings:fake_factory")) == 7
    with pytest.raises(UserError, match="cannot import 'tests.unit.nowhere:FAKE'"):
        load_embeddings("import:tests.unit.nowhere:FAKE")
    with pytest.raises(UserError, match="did not give a LangChain Embeddings"):
        load_embeddings("import:tests.unit.test_embeddings:__doc__")


def test_a_deferred_model_is_built_on_its_first_use_and_says_what_is_wrong_then() -> None:
    deferred = DeferredEmbeddings("import:tests.unit.test_embeddings:FAKE")
    assert deferred._model is None
    assert deferred.embed_query("autovacuum") == FAKE.embed_query("autovacuum")
    assert deferred.dimension == 12
    broken = DeferredEmbeddings("nonsense:model")  # no error until something is embedded
    with pytest.raises(UserError, match="unknown embedding 'nonsense:model'"):
        broken.embed_query("autovacuum")
