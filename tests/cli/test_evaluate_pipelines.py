"""`python -m graph.evaluate` on a team's own pipeline, in this process: a langchain-postgres retriever over the
store, LCEL chains built on it and a LangGraph graph (graph.demo.pipelines), beside triad's own retrieval."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_evaluate import copy_of_run
from tests.support.commands import assert_one_line_error, run_cli

SCRIPTED = "offline:plausible"
JUDGES = ("--validator-model", SCRIPTED, "--extractor-model", SCRIPTED)
PIPELINES = "import:graph.demo.pipelines"
HERE = "import:tests.cli.test_evaluate_pipelines"


@pytest.fixture(scope="module")
def pipeline_run(pg_url: str, scale_collection: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A 12-sample run over the scale collection; the env names the store, as the team's factories read it."""
    runs = tmp_path_factory.mktemp("runs")
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(runs), "TRIAD_COLLECTION": scale_collection}
    result = run_cli(
        "graph.run", "--collection", scale_collection, "--count", "12", "--seed", "8", "--llm", SCRIPTED,
        "--dedup-threshold", "0", "--run-id", "mine", env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return runs / "mine", env


def rows_by_setup(folder: Path) -> dict[str, dict[str, dict[str, Any]]]:
    rows: dict[str, dict[str, dict[str, Any]]] = {}
    for line in (folder / "eval.jsonl").read_text().splitlines():
        row = json.loads(line)
        rows.setdefault(row["setup"], {})[row["sample_id"]] = row
    return rows


def test_a_retriever_chains_and_a_graph_score_as_the_builtin_setup_with_the_same_k_and_distance(  # noqa: ANN001
    pipeline_run, tmp_path: Path
) -> None:
    folder, env = pipeline_run
    dataset = copy_of_run(folder, tmp_path / "copy")
    setups = {
        "k5": f"k=5,model={SCRIPTED}",
        "pg": f"retriever={PIPELINES}:demo_retriever,model={SCRIPTED}",
        "lcel": f"chain={PIPELINES}:demo_chain",
        "text": f"chain={PIPELINES}:demo_text_chain",
        "graph": f"graph={PIPELINES}:demo_graph",
    }
    flags = [part for name, spec in setups.items() for part in ("--setup", f"{name}={spec}")]
    result = run_cli("graph.evaluate", str(dataset), *flags, *JUDGES, env=env)
    assert result.returncode == 0, result.stderr
    rows = rows_by_setup(dataset.parent)
    builtin = rows["k5"]
    assert len(builtin) == 12
    for name in ("pg", "lcel", "text", "graph"):
        # The same k and cosine distance over the same table: the same chunk ids, sample by sample.
        assert {i: r["retrieved_ids"] for i, r in rows[name].items()} == {
            i: r["retrieved_ids"] for i, r in builtin.items()
        }, name
        assert all(len(r["retrieved_ids"]) == 5 and None not in r["retrieved_ids"] for r in rows[name].values())
    for name in ("lcel", "text", "graph"):  # they answer from the same contexts as triad's answerer does
        assert {i: r["answer"] for i, r in rows[name].items()} == {i: r["answer"] for i, r in builtin.items()}
    summaries = json.loads((dataset.parent / "eval-summary.json").read_text())
    for name in setups:
        for metric in ("precision", "recall", "correct", "faithful"):
            assert summaries[name]["all"][metric] == summaries["k5"]["all"][metric], (name, metric)
    assert summaries["pg"]["all"]["abstained"] == summaries["k5"]["all"]["abstained"] is not None
    for name in ("lcel", "text", "graph"):  # they answer for themselves: no simulated unanswerable variant
        assert summaries[name]["all"]["abstained"] is None
    assert "no chunk ids" not in result.stdout
    assert all(f"{name}:" in result.stdout for name in setups)  # a line per setup in the printed summary

    again = run_cli(
        "graph.evaluate", str(dataset), *flags, "--setup", f"graph2=graph={PIPELINES}:demo_graph,version=2", *JUDGES,
        env=env,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    evaluated = [line.split(":")[0] for line in again.stdout.splitlines() if ": evaluating" in line]
    assert evaluated == ["graph2"]  # every other setup's rows were cached
    gate = run_cli(
        "graph.evaluate", str(dataset), "--setup", f"graph={flags[-1].partition('=')[2]}", *JUDGES,
        "--fail-under", "precision=0.99", "--junit", str(tmp_path / "junit.xml"), env=env,
    )  # fmt: skip
    assert gate.returncode == 1 and "graph" in gate.stderr and (tmp_path / "junit.xml").is_file()


def documents_without_ids(question: str) -> list[str]:
    """A retriever as a plain function: the question's words back as texts without ids."""
    return [question]


async def result_and_sources(question: str) -> dict[str, Any]:
    """An async callable answering as RetrievalQA does."""
    return {"result": "42", "source_documents": [{"page_content": "forty-two", "metadata": {"chunk": "c1"}}]}


def test_documents_without_ids_are_matched_by_text_and_said_once(pipeline_run, tmp_path: Path) -> None:  # noqa: ANN001
    folder, env = pipeline_run
    dataset = copy_of_run(folder, tmp_path / "copy")
    result = run_cli(
        "graph.evaluate", str(dataset), "--setup", f"fn=retriever={HERE}:documents_without_ids,model={SCRIPTED}",
        "--setup", f"qa=chain={HERE}:result_and_sources,id_key=chunk", *JUDGES, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("no chunk ids") == 1 and "fn's documents carry no chunk ids" in result.stderr
    rows = rows_by_setup(dataset.parent)
    assert all(r["retrieved_ids"] == [None] and r["precision"] == 0.0 for r in rows["fn"].values())
    assert all(r["retrieved_ids"] == ["c1"] and r["answer"] == "42" for r in rows["qa"].values())


def no_answer(question: str) -> dict[str, Any]:
    return {"documents": [], "score": 1}


def answer_without_documents(question: str) -> str:
    return "an answer"


def raises(question: str) -> str:
    raise ConnectionError("the team's vector store is down\nmore detail")


@pytest.mark.parametrize(
    ("setup", "fragments"),
    [
        (f"s=chain={HERE}:no_such", ["cannot import 'tests.cli.test_evaluate_pipelines:no_such'"]),
        ("s=chain=import:no_such_module:chain", ["cannot import 'no_such_module:chain'"]),
        (f"s=graph={PIPELINES}:demo_chain", ["--setup s:", "returned a", "not a compiled LangGraph graph"]),
        ("s=chain=import:graph.llm.offline.plausible:PLAUSIBLE_SCRIPT", ["is a dict", "not a Runnable"]),
        (f"s=chain={HERE}:no_answer", ["returned a dict with keys documents, score", "answer_key="]),
        (f"s=chain={HERE}:answer_without_documents", ["returned a builtins.str with no documents", "documents_key="]),
        (f"s=chain={HERE}:raises", ["its chain raised ConnectionError: the team's vector store is down;"]),
        (f"s=chain={PIPELINES}:demo_chain,k=3", ["k= does not apply to a chain setup", "retriever itself"]),
        ("s=chain=graph.demo.pipelines:demo_chain", ["chain= takes import:package.module:object"]),
        (f"s=chain={PIPELINES}:demo_chain,url=http://x/rag", ["give one of url=, chain=, not several"]),
    ],
)
def test_a_pipeline_that_cannot_be_used_is_one_line_and_keeps_what_was_cached(  # noqa: ANN001
    pipeline_run, tmp_path: Path, setup: str, fragments: list[str]
) -> None:
    folder, env = pipeline_run
    dataset = copy_of_run(folder, tmp_path / "copy")
    first = run_cli("graph.evaluate", str(dataset), "--setup", f"k2=k=2,model={SCRIPTED}", *JUDGES, env=env)
    assert first.returncode == 0, first.stderr
    cached = (dataset.parent / "eval.jsonl").read_text()
    result = run_cli("graph.evaluate", str(dataset), "--setup", setup, *JUDGES, env=env)
    assert_one_line_error(result, *fragments)
    assert (dataset.parent / "eval.jsonl").read_text() == cached
