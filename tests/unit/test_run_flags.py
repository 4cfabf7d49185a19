"""Each run setting is defined once, as a field of `RunOptions` or `RunRequest` with its `Flag`: the parser, the
options, run.json and the run context are derived from it."""

from __future__ import annotations

import dataclasses

import pytest

from graph.config.errors import InvalidOptions
from graph.config.settings import resolve_settings
from graph.planning.options import NEW_RUN_ONLY, STORED_KEYS, RunOptions
from graph.planning.request import RunRequest
from graph.planning.setting import field_default, flagged
from graph.run import build_parser
from graph.running.flags import run_request
from graph.running.runner import run_context
from nodes.run_context import Context
from state.sample import DEFAULT_ROLE

SETTINGS = resolve_settings({"collection": "docs"}, env={})


def parser_flags() -> dict[str, object]:
    """The run command's actions by destination."""
    return {action.dest: action for action in build_parser()._actions}


@pytest.mark.parametrize("cls", [RunOptions, RunRequest])
def test_every_setting_with_a_flag_is_a_flag_of_the_run_command_with_its_own_help(cls: type) -> None:
    actions = parser_flags()
    for item, flag in flagged(cls):
        action = actions[flag.dest_for(item.name)]
        assert flag.name_for(item.name) in action.option_strings  # type: ignore[attr-defined]
        assert action.help == flag.help % {"default": field_default(item)}  # type: ignore[attr-defined]
        assert "%(default)s" not in action.help  # type: ignore[attr-defined]


def test_no_flag_given_makes_the_default_options_and_request() -> None:
    request = run_request(build_parser().parse_args([]), SETTINGS)
    assert request.options == RunOptions()
    assert (request.run_id, request.resume, request.worker, request.concurrency) == (None, None, False, 1)


def test_each_flag_reaches_its_field() -> None:
    args = build_parser().parse_args(
        ["--count", "9", "--types", "factual,comparison", "--binary", "no", "--hops", "3", "--seed", "4",
         "--max-revisions", "2", "--max-restarts", "0", "--node", "bridge=entity_overlap", "--dedup-threshold", "0.5",
         "--sufficiency-after-quality-reject", "--unanswerable-share", "0.25", "--retrieval-k", "7",
         "--question-language", " DE ", "--weight-by", "metadata.team", "--query-styles", "natural=0.5,short=0.5",
         "--concurrency", "3", "--run-id", "docs-v2"]
    )  # fmt: skip
    request = run_request(args, SETTINGS)
    options = request.options
    assert (options.count, options.types, options.binary, options.hops) == (9, ("factual", "comparison"), "no", 3)
    assert (options.random_seed, options.max_revisions, options.max_restarts) == (4, 2, 0)
    assert options.nodes == {"bridge": "entity_overlap"}
    assert (options.dedup_threshold, options.sufficiency_after_quality_reject) == (0.5, True)
    assert (options.unanswerable_share, options.retrieval_k, options.question_language) == (0.25, 7, "de")
    assert options.weight_by == "team" and options.query_styles == {"natural": 0.5, "short": 0.5}
    assert (request.concurrency, request.run_id) == (3, "docs-v2")


def test_a_new_run_takes_what_the_flags_leave_from_the_settings_and_a_continued_one_does_not() -> None:
    settings = resolve_settings(
        {"collection": "docs", "question_language": "FR", "nodes": {"bridge": "entity_overlap"}}, env={}
    )
    new = run_request(build_parser().parse_args(["--node", "relevance=direct"]), settings).options
    assert new.question_language == "fr"
    assert new.nodes == {"bridge": "entity_overlap", "relevance": "direct"}  # the flag's table over triad.toml's
    blank = run_request(build_parser().parse_args(["--question-language", " ", "--role", ""]), settings).options
    assert (blank.question_language, blank.role) == ("fr", DEFAULT_ROLE)  # an empty value is no value
    continued = run_request(build_parser().parse_args(["--resume", "docs-v1"]), settings).options
    assert continued.question_language is None and continued.nodes == {}


def test_the_run_context_takes_the_settings_it_has_a_field_for_with_its_defaults() -> None:
    context_fields = {item.name: item for item in dataclasses.fields(Context)}
    taken = [item for item, flag in flagged(RunOptions) if flag.context]
    assert {item.name for item in taken} == {
        "max_revisions", "max_restarts", "sufficiency_after_quality_reject", "retrieval_k", "question_language"
    }  # fmt: skip
    for item in taken:
        assert field_default(item) == field_default(context_fields[item.name])
    chosen = RunOptions(max_revisions=3, retrieval_k=2, nodes={"relevance": "direct"})
    context = chosen.context("flags", dataset_version=2)
    assert (context.max_revisions, context.retrieval_k, context.relevance_labeller) == (3, 2, "direct")
    assert (context.run_id, context.dataset_version, context.bridge_proposer) == ("flags", 2, "llm")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("max_revisions", -1, "--max-revisions must be a whole number of at least 0, not -1"),
        ("max_restarts", 1.5, "--max-restarts must be a whole number of at least 0, not 1.5"),
        ("retrieval_k", 0, "--retrieval-k must be a whole number of at least 1, not 0"),
        ("question_language", "xx", "--question-language takes a language code: 'xx' is not an ISO 639-1"),
    ],
)
def test_a_setting_the_context_holds_is_checked_by_the_contexts_rule_under_its_flag(
    field: str, value: object, message: str
) -> None:
    with pytest.raises(InvalidOptions, match=message):
        RunOptions(**{field: value})
    with pytest.raises(ValueError, match=f"{field} {message.split(' ', 1)[1]}"):  # the same rule, named as the field
        Context(**{field: value})


def test_what_only_a_new_run_takes_and_the_stored_keys_come_from_the_fields() -> None:
    assert NEW_RUN_ONLY == (
        "unanswerable_share", "role_from_queries", "keep_queries", "question_language", "weight_by", "weights",
        "personas", "query_styles",
    )  # fmt: skip
    assert STORED_KEYS == {"random_seed": "seed"}
    with pytest.raises(InvalidOptions, match="--unanswerable-share, .* and --query-styles apply to new runs"):
        RunRequest(RunOptions(unanswerable_share=0.2), resume="docs-v1")


@pytest.mark.parametrize(
    ("field", "where"), [("generator_model", "models="), ("embedding", "embedding"), ("min_chunk_chars", "min_chunk")]
)
def test_the_python_apis_context_refuses_what_the_runner_fills_in(field: str, where: str) -> None:
    with pytest.raises(ValueError, match=f"{field} is not a keyword of its own: the run takes it from .*{where}"):
        run_context(**{field: "x"})
    assert run_context(max_revisions=2, run_id="api").max_revisions == 2
