"""Settings resolution: flags, then environment, then triad.toml, then defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.config.errors import UserError
from graph.config.settings import DEFAULT_MODELS, resolve_settings


def test_defaults_are_the_papers_models_and_a_local_data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = resolve_settings({}, env={})
    assert settings.home == Path(".triad")
    assert settings.pg_dir == Path(".triad/pg")
    assert settings.model_for("generator") == DEFAULT_MODELS["generator"] == "google_genai:gemini-2.5-flash"
    assert settings.model_for("validator") == "google_genai:gemini-3.1-flash-lite-preview"
    assert settings.model_for("extractor") == "google_genai:gemini-2.5-flash-lite"
    assert settings.database_url is None


def test_flags_beat_environment_beat_config_file(tmp_path: Path) -> None:
    config = tmp_path / "triad.toml"
    config.write_text('collection = "from_file"\nembedding = "from_file"\nhome = "/file/home"\n[nodes]\nx = "y"\n')
    env = {"TRIAD_COLLECTION": "from_env", "TRIAD_HOME": "/env/home"}
    settings = resolve_settings({"collection": "from_flag", "embedding": None}, env=env, config_path=config)
    assert settings.collection == "from_flag"
    assert settings.home == Path("/env/home")
    assert settings.embedding == "from_file"


def test_config_file_is_found_in_the_working_folder_or_through_triad_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("triad.toml").write_text('collection = "here"\n')
    assert resolve_settings({}, env={}).collection == "here"
    other = tmp_path / "other.toml"
    other.write_text('collection = "there"\n')
    assert resolve_settings({}, env={"TRIAD_CONFIG": str(other)}).collection == "there"


def test_llm_sets_every_role_and_a_role_flag_overrides_it(tmp_path: Path) -> None:
    settings = resolve_settings({"llm": "openai:m", "validator_model": "ollama:v"}, env={}, config_path=None)
    assert [settings.model_for(r) for r in ("generator", "validator", "extractor")] == [
        "openai:m",
        "ollama:v",
        "openai:m",
    ]


def test_price_and_node_tables_come_from_the_config_file(tmp_path: Path) -> None:
    config = tmp_path / "triad.toml"
    config.write_text('[prices]\n"gemini-2.5-flash" = [1.0, 2.0]\n[nodes]\nrelevance = "direct"\n')
    settings = resolve_settings({}, env={}, config_path=config)
    assert settings.prices == {"gemini-2.5-flash": (1.0, 2.0)}
    assert settings.nodes == {"relevance": "direct"}


def test_api_key_comes_from_google_api_key_and_is_never_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = resolve_settings({}, env={"GOOGLE_API_KEY": "canary-secret-123"})
    assert settings.google_api_key is not None
    assert settings.google_api_key.get_secret_value() == "canary-secret-123"
    assert "canary-secret-123" not in repr(settings)
    assert "canary-secret-123" not in settings.model_dump_json()


@pytest.mark.parametrize(
    ("flags", "toml", "message"),
    [
        ({"collection": "  "}, "", "invalid value for collection"),
        ({}, "colection = 'typo'\n", "unknown setting 'colection'"),
        ({}, "collection = [", "is not valid TOML"),
        ({"state_schema": "Triad State"}, "", "invalid value for state_schema"),
        ({"distance": "manhattan"}, "", "invalid value for distance"),
        ({}, "[collections.docs]\ncontent = 'body'\n", "unknown keys content"),
    ],
)
def test_bad_values_are_one_line_user_errors(tmp_path: Path, flags: dict, toml: str, message: str) -> None:
    config = tmp_path / "triad.toml"
    config.write_text(toml)
    with pytest.raises(UserError, match=message) as caught:
        resolve_settings(flags, env={}, config_path=config)
    assert "\n" not in str(caught.value)


def test_missing_config_file_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="not found"):
        resolve_settings({}, env={}, config_path=tmp_path / "missing.toml")


def test_column_settings_for_all_collections_win_over_a_collections_own_table(tmp_path: Path) -> None:
    config = tmp_path / "triad.toml"
    config.write_text(
        '[collections.docs]\ncontent_column = "body"\nmetadata_columns = ["source"]\ndistance = "l2"\n'
        '[collections.other]\ncontent_column = "text"\n'
    )
    settings = resolve_settings({"collection": "docs", "metadata_columns": "source, page"}, env={}, config_path=config)
    assert settings.column_settings() == {
        "id_column": None,
        "content_column": "body",
        "embedding_column": None,
        "metadata_json_column": None,
        "metadata_columns": ("source", "page"),
        "distance": "l2",
    }
    assert resolve_settings({"metadata_columns": "none"}, env={}).metadata_columns == ()
    assert resolve_settings({"collection": "new"}, env={}, config_path=config).column_settings()["distance"] == "cosine"


@pytest.mark.parametrize(
    ("module", "positional"),
    [
        ("graph.run", []),
        ("graph.replay", ["RUN", "--list"]),
        ("graph.refresh", ["RUN"]),
        ("graph.review", ["RUN"]),
        ("graph.evaluate", ["RUN", "--setup", "k5=k=5"]),
        ("graph.preflight", []),
    ],
)
def test_every_command_that_calls_a_model_takes_its_server_mode_and_timeout(module: str, positional: list[str]) -> None:
    import importlib

    from graph.config.cli import settings_from_args

    commands = importlib.import_module(module)
    parser = commands.build_parser() if hasattr(commands, "build_parser") else commands._parser()
    args = parser.parse_args(
        [*positional, "--llm-base-url", "http://gpu-box:8000/v1", "--structured-output", "validator=text",
         "--structured-output", "json_object", "--request-timeout-seconds", "600"]
    )  # fmt: skip
    settings = settings_from_args(args)
    assert settings.llm_base_url == "http://gpu-box:8000/v1" and settings.request_timeout_seconds == 600
    # MODE alone is every role's; a later ROLE=MODE or MODE overrides an earlier one, in the order given.
    assert settings.structured_output == {
        "validator": "json_object",
        "generator": "json_object",
        "extractor": "json_object",
    }


def test_structured_output_per_role_comes_from_triad_toml_and_a_wrong_mode_is_named(tmp_path: Path) -> None:
    config = tmp_path / "triad.toml"
    config.write_text('[structured_output]\ngenerator = "json_object"\nvalidator = "tool"\n')
    assert resolve_settings({}, env={}, config_path=config).structured_output == {
        "generator": "json_object",
        "validator": "tool",
    }
    assert resolve_settings({}, env={"TRIAD_STRUCTURED_OUTPUT": "extractor=text,json_schema"}).structured_output == {
        "generator": "json_schema", "validator": "json_schema", "extractor": "json_schema"
    }  # fmt: skip
    with pytest.raises(UserError, match="grammar"):
        resolve_settings({"structured_output": ["generator=grammar"]}, env={})
