"""Query-style distributions: parsed, refused with the fix, and turned into quotas that sum to the count."""

from __future__ import annotations

import pytest

from graph.config.settings import resolve_settings
from graph.figures.funnel import format_funnel, funnel
from graph.planning.options import InvalidOptions, RunOptions
from graph.running.estimate import estimate
from state.personas import persona_order, personas_problem
from state.query_styles import parse_query_styles, style_quotas


def test_shares_become_quotas_by_largest_remainder_summing_to_the_count() -> None:
    shares = parse_query_styles("natural=0.5, keyword=0.2,misspelled=0.1,short=0.1,verbose=0.1")
    assert style_quotas(shares, 24) == {"natural": 12, "keyword": 5, "short": 3, "verbose": 2, "misspelled": 2}
    assert sum(style_quotas(shares, 7).values()) == 7
    assert style_quotas({"natural": 0.29, "keyword": 0.71}, 100) == {"natural": 29, "keyword": 71}
    assert style_quotas({"natural": 1.0, "keyword": 0.0}, 5) == {"natural": 5}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("natural=0.5,keyword=0.4", "sum to 0.9"),
        ("natural=0.5,webby=0.5", "unknown style 'webby'"),
        ("natural=2,keyword=-1", "a share from 0 to 1"),
        ("natural:1", "STYLE=SHARE"),
        ("natural=half,keyword=half", "a number from 0 to 1"),
        ("", "at least one"),
    ],
)
def test_a_malformed_distribution_names_its_fix(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        parse_query_styles(text)


def test_keyword_queries_must_fit_the_open_questions() -> None:
    # 12 samples over mixed binary cells: 6 open; yes/no questions keep their form.
    RunOptions(count=12, query_styles={"natural": 0.5, "keyword": 0.5})
    with pytest.raises(InvalidOptions, match="only 6 of the 12 samples are open"):
        RunOptions(count=12, query_styles={"natural": 0.4, "keyword": 0.6})
    RunOptions(count=12, binary="no", query_styles={"keyword": 1.0})


def test_a_run_without_query_styles_has_no_style_quota_and_no_style_lines() -> None:
    options = RunOptions(count=4)
    assert options.style_quotas() == {}
    summary = funnel([{"question_type": "comparison", "binary": False, "outcome": "accepted"}])
    assert "query style" not in format_funnel(summary, {"comparison/open": 1})


def test_the_funnel_counts_wanted_got_and_fallen_back_per_style() -> None:
    states = [
        {
            "question_type": "comparison",
            "binary": False,
            "outcome": "accepted",
            "query_style": "keyword",
            "styled": "keyword",
        },
        {
            "question_type": "comparison",
            "binary": False,
            "outcome": "accepted",
            "query_style": "keyword",
            "styled": "natural",
        },
        {"question_type": "comparison", "binary": False, "outcome": "rejected", "query_style": "natural"},
        {
            "question_type": "comparison",
            "binary": False,
            "outcome": "accepted",
            "query_style": "natural",
            "styled": "natural",
        },
    ]
    summary = funnel(states)
    assert summary["query_styles"] == {
        "natural": {"asked": 2, "accepted": 2},
        "keyword": {"asked": 2, "accepted": 1, "fell_back": 1},
    }
    text = format_funnel(summary, {"comparison/open": 3}, {"natural": 1, "keyword": 2})
    keyword_line = next(line for line in text.splitlines() if line.startswith("keyword"))
    assert keyword_line.split() == ["keyword", "2", "1", "1", "short"]


def test_the_estimate_counts_the_rewrites_and_their_checks_only_when_styles_are_asked_for() -> None:
    settings = resolve_settings({"collection": "c", "llm": "recorded:none"}, env={})
    plain = estimate(RunOptions(count=10), settings, 250.0)["roles"]
    styled = estimate(RunOptions(count=10, query_styles={"natural": 0.5, "keyword": 0.5}), settings, 250.0)["roles"]
    # Half of about 10 accepted samples are rewritten (a fifth twice): about 6 calls more for each role.
    for role in ("generator", "validator"):
        assert 5 <= styled[role]["calls"] - plain[role]["calls"] <= 7
    assert styled["extractor"]["calls"] == plain["extractor"]["calls"]


def test_personas_are_spread_over_the_places_by_their_shares() -> None:
    personas = [{"name": "a", "description": "x", "share": 0.75}, {"name": "b", "description": "y", "share": 0.25}]
    order = persona_order(personas, 8)
    assert order.count(0) == 6 and order.count(1) == 2 and order[:4].count(1) == 1  # spread, not bunched
    assert persona_order([{"name": "a", "description": "x"}, {"name": "b", "description": "y"}], 4) == [0, 1, 0, 1]


@pytest.mark.parametrize(
    ("personas", "fragment"),
    [
        ([], "lists no persona"),
        ([{"name": "a", "description": ""}], "has no description"),
        ([{"name": "a", "description": "x", "share": 0.5}, {"name": "b", "description": "y", "share": 0.4}], "sum to"),
        ([{"name": "a", "description": "x", "share": 1.0}, {"name": "b", "description": "y"}], "or none"),
        ([{"name": "a", "description": "x"}, {"name": "a", "description": "y"}], "same name"),
    ],
)
def test_a_persona_list_no_run_can_use_names_its_fix(personas: list, fragment: str) -> None:
    assert fragment in (personas_problem(personas) or "")
