"""`python -m graph.export` in every format, the unanswerable split, and a corrupt dataset."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.support.commands import assert_one_line_error, run_cli, run_process
from tests.support.stubs.langfuse import serve_langfuse
from tests.support.stubs.langsmith import serve_langsmith


@pytest.fixture(scope="module")
def finished_run(pg_url: str, scale_collection: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    runs = tmp_path_factory.mktemp("runs")
    result = run_cli(
        "graph.run",
        "--collection",
        scale_collection,
        "--count",
        "3",
        "--llm",
        "offline:plausible",
        "--dedup-threshold",
        "0",
        # Reproducible seeds, and the types whose cells rarely hit their attempt caps on this small
        # collection (as in test_scale): an unseeded run sometimes ended one sample short.
        "--types",
        "comparison,intersection",
        "--seed",
        "7",
        "--run-id",
        "export-me",
        "--database-url",
        pg_url,
        "--runs-dir",
        str(runs),
    )
    assert result.returncode == 0, result.stderr
    return runs


def records(runs: Path) -> list[dict]:
    return [json.loads(line) for line in (runs / "export-me" / "dataset.jsonl").read_text().splitlines()]


def test_ragas_jsonl_has_the_reference_contexts_by_id(finished_run: Path) -> None:
    result = run_cli("graph.export", "export-me", "--format", "ragas", "--runs-dir", str(finished_run))
    assert result.returncode == 0, result.stderr
    rows = [
        json.loads(line) for line in (finished_run / "export-me" / "export" / "ragas.jsonl").read_text().splitlines()
    ]
    source = records(finished_run)
    assert len(rows) == len(source) == 3
    for row, record in zip(rows, source, strict=True):
        assert row["user_input"] == record["question"] and row["reference"] == record["answer"]
        assert row["reference_context_ids"] == [c["id"] for c in record["contexts"] if c["relevant"]]
        assert len(row["reference_contexts"]) == record["n_relevant"]
        declared = record["construction"]
        assert row["compared_entities"] == declared["compared_entities"]
        assert row["hidden_entities"] == [hidden["entity"] for hidden in declared["hidden_entities"]]


def test_unanswerable_split_holds_only_non_relevant_contexts(finished_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "u.jsonl"
    result = run_cli(
        "graph.export",
        "export-me",
        "--format",
        "ragas",
        "--split",
        "unanswerable",
        "--output",
        str(out),
        "--runs-dir",
        str(finished_run),
    )
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    by_id = {r["id"]: r for r in records(finished_run)}
    assert len(rows) == sum(1 for r in by_id.values() if r["unanswerable"])
    for row in rows:
        record = by_id[row["id"].removesuffix("#unanswerable")]
        relevant = {c["id"] for c in record["contexts"] if c["relevant"]}
        assert row["expected"] == "abstain" and not set(row["retrieved_context_ids"]) & relevant


def test_csv_and_hotpotqa(finished_run: Path, tmp_path: Path) -> None:
    assert (
        run_cli(
            "graph.export",
            "export-me",
            "--format",
            "csv",
            "--output",
            str(tmp_path / "d.csv"),
            "--runs-dir",
            str(finished_run),
        ).returncode
        == 0
    )
    table = list(csv.DictReader((tmp_path / "d.csv").open()))
    assert len(table) == 3 and {"user_input", "reference", "reference_context_ids"} <= set(table[0])
    # Records of a run without query styles read as asked in the canonical form, by no persona.
    assert {"canonical_question", "query_style_name", "query_style", "query_length", "persona_name"} <= set(table[0])
    assert all(row["canonical_question"] == row["user_input"] and row["query_style_name"] == "natural" for row in table)
    assert (
        run_cli(
            "graph.export",
            "export-me",
            "--format",
            "hotpotqa",
            "--output",
            str(tmp_path / "h.json"),
            "--runs-dir",
            str(finished_run),
        ).returncode
        == 0
    )
    items = json.loads((tmp_path / "h.json").read_text())
    source = {r["id"]: r for r in records(finished_run)}
    for item in items:
        record = source[item["_id"]]
        assert [fact[0] for fact in item["supporting_facts"]] == [c["id"] for c in record["supporting"]]
        assert [ctx[0] for ctx in item["context"]] == [c["id"] for c in record["contexts"]]
        assert (item["canonical_question"], item["query_style"], item["persona"], item["turns"]) == (
            item["question"],
            "natural",
            None,
            [],
        )


def test_hf_folder_loads_with_datasets(finished_run: Path, tmp_path: Path) -> None:
    import datasets

    result = run_cli("graph.export", "export-me", "--format", "hf", "--output", str(tmp_path / "hf"),
                     "--runs-dir", str(finished_run))  # fmt: skip
    assert result.returncode == 0, result.stderr
    loaded = datasets.load_from_disk(str(tmp_path / "hf"))
    source = records(finished_run)
    assert loaded.num_rows == len(source) == 3
    assert {"user_input", "reference", "reference_contexts", "reference_context_ids"} <= set(loaded.column_names)
    assert sorted(loaded["user_input"]) == sorted(r["question"] for r in source)


def test_hf_without_datasets_gives_the_install_hint(finished_run: Path, tmp_path: Path) -> None:
    # A `datasets` module that fails to import stands in for a machine without the package.
    (tmp_path / "datasets.py").write_text("raise ImportError('No module named datasets')\n")
    result = run_process(  # a process of its own: this one may have imported the real `datasets` already
        "graph.export", "export-me", "--format", "hf", "--runs-dir", str(finished_run),
        env={"PYTHONPATH": str(tmp_path)},
    )  # fmt: skip
    assert_one_line_error(result, "pip install datasets")


def test_a_corrupt_dataset_line_is_named_and_skipped(tmp_path: Path, finished_run: Path) -> None:
    lines = (finished_run / "export-me" / "dataset.jsonl").read_text().splitlines()
    broken = tmp_path / "dataset.jsonl"
    broken.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2] + "\n")
    result = run_cli("graph.export", str(broken), "--format", "csv", "--output", str(tmp_path / "out.csv"))
    assert result.returncode == 0, result.stderr
    assert "line 2 is not a valid record" in result.stderr and "skipped" in result.stderr
    with (tmp_path / "out.csv").open(newline="") as exported:
        rows = list(csv.DictReader(exported))
    assert [row["id"] for row in rows] == [json.loads(lines[0])["id"]]  # the one valid record


@pytest.mark.parametrize("fmt", ["ragas", "hf"])
def test_an_output_that_cannot_be_written_is_one_line(fmt: str, finished_run: Path, tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    cases = [(tmp_path / "a-file" / "out", "a file is in the way")]
    if fmt == "ragas":
        cases.append((tmp_path, "Is a directory"))  # hf writes a folder, an existing one included
    for output, cause in cases:
        result = run_cli(
            "graph.export", "export-me", "--format", fmt, "--runs-dir", str(finished_run), "--output", str(output)
        )
        assert_one_line_error(result, f"cannot write {output}", cause, "choose another --output")


def test_langsmith_examples_are_created_then_updated_in_place(finished_run: Path) -> None:
    """The real LangSmith SDK pointed at a local stand-in of its API: a second push updates, never duplicates."""
    found = records(finished_run)
    push = ("graph.export", "export-me", "--runs-dir", str(finished_run), "--to", "langsmith", "--dataset", "triad")
    with serve_langsmith() as (url, state):
        env = {"LANGSMITH_ENDPOINT": url, "LANGSMITH_API_KEY": state.key}
        first = run_cli(*push, env=env)
        assert first.returncode == 0, first.stderr
        assert f"{len(found)} examples created, 0 updated" in first.stdout
        assert len(state.datasets) == 1 and len(state.examples) == len(found)
        by_record = {e["metadata"]["record_id"]: e for e in state.examples.values()}
        record = found[0]
        sent = by_record[record["id"]]
        assert sent["inputs"] == {"question": record["question"]} and sent["outputs"] == {"answer": record["answer"]}
        assert sent["metadata"]["supporting_ids"] == [c["id"] for c in record["supporting"]]
        assert sent["metadata"]["relevant_context_ids"] == [c["id"] for c in record["contexts"] if c["relevant"]]
        assert sent["metadata"]["thread_id"] == record["provenance"]["thread_id"]
        again = run_cli(*push, env=env)
        assert again.returncode == 0 and f"0 examples created, {len(found)} updated" in again.stdout
        assert len(state.examples) == len(found) and ("PATCH", "/examples/bulk") in state.requests
        refused = run_cli(*push, env={**env, "LANGSMITH_API_KEY": "wrong"})
        assert_one_line_error(refused, "LangSmith refused the key")
    missing = run_cli(*push, env={"LANGSMITH_API_KEY": "", "LANGCHAIN_API_KEY": ""})
    assert_one_line_error(missing, "no LangSmith key: set LANGSMITH_API_KEY")
    unreachable = run_cli(*push, env={"LANGSMITH_ENDPOINT": "http://127.0.0.1:9", "LANGSMITH_API_KEY": "k"})
    assert_one_line_error(unreachable, "cannot reach LangSmith at http://127.0.0.1:9")
    neither = run_cli("graph.export", "export-me", "--runs-dir", str(finished_run), "--to", "langsmith")
    assert_one_line_error(neither, "needs --dataset NAME")


def test_langfuse_items_are_created_then_updated_in_place(finished_run: Path) -> None:
    """The real Langfuse SDK pointed at a local stand-in of its API: items are upserted by their ids."""
    found = records(finished_run)
    push = ("graph.export", "export-me", "--runs-dir", str(finished_run), "--to", "langfuse", "--dataset", "triad")
    with serve_langfuse() as (url, state):
        env = {"LANGFUSE_HOST": url, "LANGFUSE_PUBLIC_KEY": state.public_key, "LANGFUSE_SECRET_KEY": state.secret_key}
        first = run_cli(*push, env=env)
        assert first.returncode == 0, first.stderr
        assert f"{len(found)} examples created, 0 updated" in first.stdout
        assert list(state.datasets) == ["triad"] and len(state.items) == len(found)
        by_record = {item["metadata"]["record_id"]: item for item in state.items.values()}
        record = found[0]
        assert by_record[record["id"]]["input"] == {"question": record["question"]}
        assert by_record[record["id"]]["expectedOutput"] == {"answer": record["answer"]}
        again = run_cli(*push, env=env)
        assert again.returncode == 0 and f"0 examples created, {len(found)} updated" in again.stdout
        assert len(state.items) == len(found) and list(state.datasets) == ["triad"]
        # (Langfuse's SDK keeps one client per public key in a process: another key pair is another client.)
        refused = run_cli(*push, env={**env, "LANGFUSE_PUBLIC_KEY": "pk-other", "LANGFUSE_SECRET_KEY": "wrong"})
        assert_one_line_error(refused, "Langfuse refused the keys")
    missing = run_cli(*push, env={"LANGFUSE_PUBLIC_KEY": "", "LANGFUSE_SECRET_KEY": ""})
    assert_one_line_error(missing, "no Langfuse keys")
    unreachable = run_cli(
        *push, env={"LANGFUSE_HOST": "http://127.0.0.1:9", "LANGFUSE_PUBLIC_KEY": "pk-far", "LANGFUSE_SECRET_KEY": "sk"}
    )
    assert_one_line_error(unreachable, "cannot reach Langfuse at http://127.0.0.1:9")
