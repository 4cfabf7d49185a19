"""A run with a query-style distribution: every style filled exactly to its share, each rewrite passed its check;
a style whose rewrites keep failing falls back to the question as validated and ends short, reported."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT
from graph.llm.offline.restyles import restyle
from graph.llm.offline.scripted import ScriptedChatModel
from tests.support.commands import run_cli
from tests.support.runs import scripted_run

STYLES = "natural=0.25,keyword=0.125,short=0.125,verbose=0.125,misspelled=0.125,poor-grammar=0.125,follow-up=0.125"


def records(runs_dir: Path, run_id: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (runs_dir / run_id / "dataset.jsonl").read_text().splitlines()]


def test_every_style_is_filled_to_its_share_and_each_rewrite_passed_its_check(
    pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    model = ScriptedChatModel(script=PLAUSIBLE_SCRIPT)
    personas = tmp_path / "personas.json"
    personas.write_text(
        json.dumps(
            [
                {"name": "dba", "description": "a database administrator on call", "share": 0.75},
                {"name": "student", "description": "a student learning SQL", "share": 0.25},
            ]
        )
    )
    run_id, document, _ = scripted_run(
        model, pg_url, scale_collection, tmp_path, "--count", "24", "--unanswerable-share", "0.25",
        "--query-styles", STYLES, "--personas", str(personas), "--run-id", "styles", "--seed", "3", timeout_s=600,
    )  # fmt: skip
    wanted = {"natural": 6, "keyword": 3, "short": 3, "verbose": 3, "misspelled": 3, "poor-grammar": 3, "follow-up": 3}
    assert document["query_style_quotas"] == wanted and document["query_style_shortfall"] == {}
    written = records(tmp_path, run_id)
    assert len(written) == 24
    assert Counter(record["query_style"] for record in written) == wanted
    assert Counter(record["persona"] for record in written) == {"dba": 18, "student": 6}
    for record in written:
        if record["query_style"] == "natural":
            assert record["question"] == record["canonical_question"]
            continue
        assert record["restyle"]["kept"] and record["question"] != record["canonical_question"]
        assert not (record["binary"] and record["query_style"] == "keyword")  # yes/no questions keep their form
        if record["query_style"] == "follow-up":  # a conversation ending in the question, which leans on its opening
            roles = [turn["role"] for turn in record["turns"]]
            assert roles == ["user", "assistant", "user"] and record["turns"][-1]["content"] == record["question"]
        else:
            assert record["turns"] is None
    # Styles spread over the cells: generated unanswerable questions are restyled too.
    assert {r["query_style"] for r in written if r["question_type"] == "unanswerable"} - {"natural"}
    calls = document["funnel"]["llm"]["per_node"]
    assert calls["restyle_question"]["calls"] >= 18 and calls["check_restyle"]["calls"] >= 18
    # The export asks the question as users do, with the validated one beside it and RAGAS's names for the style.
    exported = run_cli("graph.export", run_id, "--format", "ragas", "--runs-dir", str(tmp_path))
    assert exported.returncode == 0, exported.stderr
    lines = (tmp_path / run_id / "export" / "ragas.jsonl").read_text().splitlines()
    rows = {row["id"]: row for row in map(json.loads, lines)}
    multi = (tmp_path / run_id / "export" / "ragas.multi-turn.jsonl").read_text().splitlines()
    conversations = [json.loads(line) for line in multi]
    assert all(isinstance(row["user_input"], str) for row in rows.values())  # RAGAS loads one kind per file
    assert conversations and all(
        [m["type"] for m in r["user_input"]] == ["human", "ai", "human"] for r in conversations
    )
    rows |= {row["id"]: row | {"user_input": row["user_input"][-1]["content"]} for row in conversations}
    for record in written:
        if record["id"] in rows:
            row = rows[record["id"]]
            assert (row["user_input"], row["canonical_question"]) == (record["question"], record["canonical_question"])
            assert row["query_style_name"] == record["query_style"]
    asked = {(row["query_style_name"], row["query_style"], row["query_length"]) for row in rows.values()}
    assert ("keyword", "Web search like queries", "medium") in asked and ("short", "Perfect grammar", "short") in asked
    hf = run_cli(
        "graph.export", run_id, "--format", "hf", "--runs-dir", str(tmp_path), "--output", str(tmp_path / "hf")
    )
    assert hf.returncode == 0, hf.stderr  # follow-ups and single questions side by side in one table
    # Evaluation asks the setup the styled question and breaks every metric down by query style.
    model = "offline:plausible"
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path)}
    evaluated = run_cli("graph.evaluate", run_id, "--setup", f"k5=k=5,model={model}", "--llm", model, env=env)
    assert evaluated.returncode == 0, evaluated.stderr
    by_style = json.loads((tmp_path / run_id / "eval-summary.json").read_text())["k5"]["query_style"]
    assert {name: int(means["n"]) for name, means in by_style.items()} == wanted
    printed = [line.split()[0] for line in evaluated.stdout.splitlines() if line.startswith("  ")]
    assert set(wanted) <= set(printed)


def _keyword_loses_a_title(messages: list[BaseMessage]) -> dict[str, Any]:
    """Every keyword rewrite drops the question's quoted titles: the check refuses it, twice."""
    reply = restyle(messages)
    if "Style: keyword" in str(messages[-1].content):
        reply["question"] = "PostgreSQL 15 manual section number"
    return reply


def test_a_style_whose_rewrites_change_the_question_falls_back_and_ends_short(
    pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    model = ScriptedChatModel(script={**PLAUSIBLE_SCRIPT, "RestyledQuestion": _keyword_loses_a_title})
    run_id, document, _ = scripted_run(
        model, pg_url, scale_collection, tmp_path, "--count", "6", "--query-styles", "natural=0.5,keyword=0.5",
        "--run-id", "styles-short", "--seed", "4", timeout_s=600,
    )  # fmt: skip
    written = records(tmp_path, run_id)
    assert len(written) == 6 and all(record["query_style"] == "natural" for record in written)
    fell_back = [record for record in written if record["restyle"]]
    assert fell_back and all(not r["restyle"]["kept"] and r["restyle"]["attempts"] == 2 for r in fell_back)
    assert all("drops" in r["restyle"]["reason"] or "loses" in r["restyle"]["reason"] for r in fell_back)
    assert document["query_style_shortfall"] == {"keyword": 3}
    styles = document["funnel"]["query_styles"]
    assert styles["keyword"]["fell_back"] == styles["keyword"]["asked"] >= 3
    report = (tmp_path / run_id / "report.html").read_text()
    assert "Query styles" in report and "fell back to natural" in report


def test_personas_from_a_file_ask_their_share_and_reach_the_rewrite_and_the_record(
    pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    personas = tmp_path / "personas.yaml"
    personas.write_text(
        "- name: dba\n  description: a database administrator restoring backups at night\n  share: 0.5\n"
        "- name: developer\n  description: an application developer new to PostgreSQL\n  share: 0.5\n"
    )
    model = ScriptedChatModel(script=PLAUSIBLE_SCRIPT)
    run_id, document, _ = scripted_run(
        model, pg_url, scale_collection, tmp_path, "--count", "8", "--personas", str(personas),
        "--query-styles", "natural=0.5,short=0.5", "--run-id", "personas", "--seed", "6", timeout_s=600,
    )  # fmt: skip
    written = records(tmp_path, run_id)
    assert len(written) == 8 and Counter(r["persona"] for r in written) == {"dba": 4, "developer": 4}
    for record in written:
        expected = "a database administrator" if record["persona"] == "dba" else "an application developer"
        assert record["role"].startswith(expected)
    rewrites = [messages for kind, messages in model.calls if kind == "RestyledQuestion"]
    assert rewrites and all("Asker: a database administrator" in str(m[-1].content) or
                            "Asker: an application developer" in str(m[-1].content) for m in rewrites)  # fmt: skip
    assert document["options"]["personas"][0]["name"] == "dba"


def test_personas_auto_are_derived_once_from_the_collection_and_kept_with_the_run(
    pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    model = ScriptedChatModel(script=PLAUSIBLE_SCRIPT)
    run_id, document, _ = scripted_run(
        model, pg_url, scale_collection, tmp_path, "--count", "6", "--personas", "auto", "--run-id", "auto-personas",
        "--seed", "2", timeout_s=600,
    )  # fmt: skip
    derived = document["options"]["personas"]
    assert [p["name"] for p in derived] == ["administrator", "developer", "newcomer"]
    assert document["options"]["personas_auto"] is True
    (asked,) = [messages for kind, messages in model.calls if kind == "PersonaSet"]
    assert str(asked[-1].content).count("<chunk") >= 40  # about 50 sampled chunks, their first words
    written = records(tmp_path, run_id)
    assert {r["persona"] for r in written} <= {"administrator", "developer", "newcomer"} and len(written) == 6
    assert Counter(r["persona"] for r in written) == {"administrator": 2, "developer": 2, "newcomer": 2}
