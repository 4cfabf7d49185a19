"""`python -m graph.evaluate` end to end: two setups differing in k, caching, abstention, an external service."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

import pytest

from graph.config.settings import resolve_settings
from graph.evaluation.scoring.evidence import EVIDENCE_METRICS
from graph.evaluation.scoring.rows import METRICS
from graph.planning.options import RunOptions
from graph.running.estimate import estimate
from tests.support.commands import create_store_table, run_cli
from tests.support.stubs.rag import serve_rag

SCRIPTED = "offline:plausible"
JUDGES = ("--validator-model", SCRIPTED, "--extractor-model", SCRIPTED)


@pytest.fixture(scope="module")
def dataset_run(pg_url: str, scale_collection: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    runs = tmp_path_factory.mktemp("runs")
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(runs)}
    result = run_cli(
        "graph.run", "--collection", scale_collection, "--count", "12", "--seed", "8", "--llm", SCRIPTED,
        "--dedup-threshold", "0", "--run-id", "evalme", env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return runs / "evalme", env


def summary(folder: Path) -> dict:
    return json.loads((folder / "eval-summary.json").read_text())


def test_k3_gives_higher_precision_and_lower_recall_than_k5_and_caches(dataset_run) -> None:  # noqa: ANN001
    folder, env = dataset_run
    first = run_cli(
        "graph.evaluate",
        "evalme",
        "--setup",
        f"k3=k=3,model={SCRIPTED}",
        "--setup",
        f"k5=k=5,model={SCRIPTED}",
        *JUDGES,
        env=env,
    )
    assert first.returncode == 0, first.stderr
    results = summary(folder)
    k3, k5 = results["k3"]["all"], results["k5"]["all"]
    assert k3["precision"] > k5["precision"]
    assert k3["recall"] <= k5["recall"]
    assert k3["abstained"] == 1.0  # the scripted answerer declines on every unanswerable variant
    rows = [json.loads(line) for line in (folder / "eval.jsonl").read_text().splitlines()]
    assert len(rows) == 24 and all(len(r["retrieved_ids"]) == (3 if r["setup"] == "k3" else 5) for r in rows)
    groups = {"all", "answerable", "question_type", "binary", "language", "temporal", "difficulty", "query_style"}
    groups |= {"persona"}
    assert set(results["k3"]) == groups | {"judges", "scored_by", "unplaced_contexts"}
    assert results["k3"]["scored_by"] == {"evidence": 12} and results["k3"]["unplaced_contexts"] == 0
    for metric in EVIDENCE_METRICS:  # the run's records carry evidence: scored by it beside the chunk ids
        assert 0.0 <= k3[metric] <= 1.0, metric
    assert k3["evidence_precision"] > k5["evidence_precision"] and k3["evidence_recall"] <= k5["evidence_recall"]
    assert results["k3"]["judges"]["model"] and len(results["k3"]["judges"]["prompts"]) == 12
    assert "k3" in first.stdout and "precision" in first.stdout

    setups = ("--setup", f"k3=k=3,model={SCRIPTED}", "--setup", f"k8=k=8,model={SCRIPTED}")
    again = run_cli("graph.evaluate", "evalme", *setups, *JUDGES, env=env)
    assert again.returncode == 0, again.stderr
    assert "k3: evaluating" not in again.stdout and "k8: evaluating 12 samples" in again.stdout
    assert summary(folder)["k3"]["all"] == k3
    report = (folder / "eval-report.html").read_text()
    # One section per metric some setup has a figure of, what the figures suggest and the paired differences; no
    # generated unanswerable
    # question in this dataset, so no abstained_generated.
    shown = [metric for metric in METRICS if metric != "abstained_generated"]
    # and the paired differences
    assert report.count("<section") == len(shown) + 2 and all(f'id="{metric}"' in report for metric in shown)
    assert 'id="diagnosis"' in report and "what the figures suggest:" in first.stdout
    assert 0.0 <= k3["correctness"] <= 1.0  # graded answer correctness beside the verdict


def test_the_ci_gate_fails_a_setup_below_its_threshold_and_passes_it_above(  # noqa: ANN001
    dataset_run, tmp_path: Path
) -> None:
    folder, env = dataset_run
    setup = ("--setup", f"k3=k=3,model={SCRIPTED}", *JUDGES)
    plain = run_cli("graph.evaluate", "evalme", *setup, env=env)
    assert plain.returncode == 0, plain.stderr
    recall = summary(folder)["k3"]["all"]["recall"]
    junit = tmp_path / "gate.xml"
    above = f"recall={recall + 0.05:.3f},answerable.recall=0.01"
    failing = run_cli("graph.evaluate", "evalme", *setup, "--fail-under", above, "--junit", str(junit), env=env)
    assert failing.returncode == 1, failing.stderr
    assert f"k3: recall {recall:.3f}, wanted >= {recall + 0.05:.3f}: FAILS" in failing.stderr
    suite = ElementTree.parse(junit).getroot()
    assert (suite.get("tests"), suite.get("failures")) == ("2", "1")
    below = f"recall={recall - 0.05:.3f}"
    passing = run_cli("graph.evaluate", "evalme", *setup, "--fail-under", below, "--junit", str(junit), env=env)
    assert passing.returncode == 0, passing.stderr
    assert "gate: 1 of 1 checks pass" in passing.stdout
    assert ElementTree.parse(junit).getroot().get("failures") == "0"
    # Against a baseline where recall was higher: a drop beyond --max-drop fails, within it passes.
    baseline = tmp_path / "baseline.json"
    better = summary(folder)
    better["k3"]["all"]["recall"] = recall + 0.1
    baseline.write_text(json.dumps(better))
    dropped = run_cli("graph.evaluate", "evalme", *setup, "--baseline", str(baseline), "--max-drop", "0.05", env=env)
    assert dropped.returncode == 1 and "k3: recall" in dropped.stderr and "below" in dropped.stderr
    kept = run_cli("graph.evaluate", "evalme", *setup, "--baseline", str(baseline), "--max-drop", "0.2", env=env)
    assert kept.returncode == 0, kept.stderr
    assert "otherwise" not in kept.stderr  # judged alike: nothing to say
    # A baseline judged with other evaluation prompts is compared, and said to be.
    from nodes.versions import EVALUATION_VERSION as VERSION

    assert better["k3"]["judges"]["prompts"] == VERSION
    better["k3"]["judges"]["prompts"] = "0123456789ab"
    baseline.write_text(json.dumps(better))
    mixed = run_cli("graph.evaluate", "evalme", *setup, "--baseline", str(baseline), "--max-drop", "0.2", env=env)
    assert mixed.returncode == 0, mixed.stderr
    assert f"judged setup 'k3' otherwise (evaluation prompts 0123456789ab -> {VERSION})" in mixed.stderr
    bad = run_cli("graph.evaluate", "evalme", *setup, "--fail-under", "recal=0.5", env=env)
    assert bad.returncode == 2 and "--fail-under takes METRIC=VALUE" in bad.stderr


def test_judging_unlabelled_chunks_can_only_add_relevant_ones(dataset_run) -> None:  # noqa: ANN001
    folder, env = dataset_run
    plain = run_cli("graph.evaluate", "evalme", "--setup", f"k5=k=5,model={SCRIPTED}", *JUDGES, env=env)
    assert plain.returncode == 0, plain.stderr
    without = summary(folder)["k5"]["all"]["precision"]
    judged = run_cli(
        "graph.evaluate", "evalme", "--setup", f"k5=k=5,model={SCRIPTED}", "--judge-unlabelled", *JUDGES, env=env
    )
    assert judged.returncode == 0, judged.stderr
    assert summary(folder)["k5"]["all"]["precision"] >= without


@pytest.fixture
def rag_service(dataset_run) -> Iterator[str]:  # noqa: ANN001
    """A RAG service that answers every question of the dataset with its reference and supporting chunks."""
    folder, _ = dataset_run
    records = {r["question"]: r for r in map(json.loads, (folder / "dataset.jsonl").read_text().splitlines())}

    def reply(question: str) -> dict:
        record = records[question]
        return {
            "answer": record["answer"],
            "contexts": [{"id": c["id"], "text": c["text"]} for c in record["supporting"]],
        }

    with serve_rag(reply) as url:
        yield url


def test_an_external_rag_service_is_scored_by_chunk_id(dataset_run, rag_service: str) -> None:  # noqa: ANN001
    folder, env = dataset_run
    result = run_cli("graph.evaluate", "evalme", "--setup", f"svc=url={rag_service}", *JUDGES, env=env)
    assert result.returncode == 0, result.stderr
    overall = summary(folder)["svc"]["all"]
    assert overall["precision"] == 1.0 and overall["correct"] == 1.0
    assert overall["abstained"] is None  # the service is not given the unanswerable variant


def test_an_embedding_that_does_not_fit_the_collection_is_one_line(dataset_run, pg_url: str) -> None:  # noqa: ANN001
    import psycopg

    from tests.support.commands import assert_one_line_error

    folder, env = dataset_run
    create_store_table(pg_url, "eval_dim8", 8)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("INSERT INTO eval_dim8 VALUES (gen_random_uuid(), 'x', '[1,0,0,0,0,0,0,0]', '{}')")
    result = run_cli(
        "graph.evaluate", "evalme", "--setup", f"bad=collection=eval_dim8,model={SCRIPTED}", *JUDGES, env=env
    )
    assert_one_line_error(result, "stores 8-d embeddings", "384-d", "--embedding")


def copy_of_run(folder: Path, target: Path) -> Path:
    """The run's dataset.jsonl and run.json in a folder of their own (eval.jsonl of other tests stays apart)."""
    target.mkdir()
    for name in ("dataset.jsonl", "run.json"):
        (target / name).write_text((folder / name).read_text())
    return target / "dataset.jsonl"


def test_a_later_setup_that_fails_keeps_the_judgements_of_earlier_ones(dataset_run, tmp_path: Path) -> None:  # noqa: ANN001
    from tests.support.commands import assert_one_line_error

    folder, env = dataset_run
    dataset = copy_of_run(folder, tmp_path / "copy")
    result = run_cli(
        "graph.evaluate", str(dataset), "--setup", f"first=k=2,model={SCRIPTED}",
        "--setup", "second=url=http://127.0.0.1:1/rag", *JUDGES, env=env,
    )  # fmt: skip
    assert_one_line_error(result, "the RAG service at http://127.0.0.1:1/rag did not answer")
    kept = [json.loads(line) for line in (dataset.parent / "eval.jsonl").read_text().splitlines()]
    assert len(kept) == 12 and len({row["signature"] for row in kept}) == 1
    again = run_cli("graph.evaluate", str(dataset), "--setup", f"first=k=2,model={SCRIPTED}", *JUDGES, env=env)
    assert again.returncode == 0, again.stderr
    assert "evaluating" not in again.stdout  # all twelve came from eval.jsonl


@pytest.mark.parametrize(
    ("setup", "damage", "fragment"),
    [
        ("s=url=notaurl", None, "url= takes an http:// or https:// address"),
        (f"s=k=2,model={SCRIPTED}", ("eval.jsonl", '{"broken'), "line 1 of"),
        (f"s=k=2,model={SCRIPTED}", ("run.json", "{not json"), "is not a run.json written by triad"),
        (f"s=k=2,model={SCRIPTED}", ("eval.jsonl", None), "cannot write"),
        ("s=k=2,model=gemini", None, "--setup s: model spec 'gemini' is not provider:model"),
        ("s=k=2,model=openai:gpt-x", None, "--setup s: no OpenAI API key: set OPENAI_API_KEY"),
        ("s=k=2,model=import:no_such.module:factory", None, "--setup s: cannot import 'no_such.module:factory'"),
    ],
)
def test_bad_evaluation_input_is_one_line(dataset_run, tmp_path: Path, setup: str, damage, fragment: str) -> None:  # noqa: ANN001
    from tests.support.commands import assert_one_line_error

    folder, env = dataset_run
    dataset = copy_of_run(folder, tmp_path / "copy")
    if damage is not None:
        name, text = damage
        if text is None:
            (dataset.parent / name).mkdir()  # a folder where the file should be
        else:
            (dataset.parent / name).write_text(text)
    result = run_cli("graph.evaluate", str(dataset), "--setup", setup, *JUDGES, env=env)
    assert_one_line_error(result, fragment)


def test_a_setup_whose_answering_model_lacks_its_key_fails_before_any_setup_runs(  # noqa: ANN001
    dataset_run, tmp_path: Path
) -> None:
    from tests.support.commands import assert_one_line_error

    folder, env = dataset_run
    dataset = copy_of_run(folder, tmp_path / "copy")
    setups = ("--setup", f"first=k=2,model={SCRIPTED}", "--setup", "second=k=2")  # second: the default Gemini model
    result = run_cli("graph.evaluate", str(dataset), *setups, *JUDGES, env=env)
    assert_one_line_error(
        result,
        "--setup second: its answering model google_genai:gemini-2.5-flash-lite needs a Gemini API key",
        "model=",
    )
    assert "evaluating" not in result.stdout
    assert not (dataset.parent / "eval.jsonl").exists()


def test_an_estimate_calls_no_model_and_a_finished_runs_profile_brackets_the_next_run(  # noqa: ANN001
    dataset_run, pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    """`graph.run --estimate`, from the paper's funnel and, with `--like`, from this module's 12-sample run."""
    folder, env = dataset_run
    runs = folder.parent
    store = ("--collection", scale_collection, "--database-url", pg_url, "--runs-dir", str(runs))
    # No key for the paper's default models: an estimate asks none of them.
    printed = run_cli("graph.run", *store, "--count", "30", "--estimate", env={"GOOGLE_API_KEY": ""})
    assert printed.returncode == 0, printed.stderr
    assert "estimate from the paper's funnel" in printed.stdout and "no model was called" in printed.stdout
    for role in ("generator", "validator", "extractor", "total"):
        assert f"\n{role} " in printed.stdout
    assert "time: about" in printed.stdout
    with_like = run_cli("graph.run", *store, "--count", "6", "--estimate", "--like", "evalme")
    assert with_like.returncode == 0 and "estimate from a finished run (12 accepted)" in with_like.stdout

    like = json.loads((folder / "run.json").read_text())["funnel"]
    settings = resolve_settings({"collection": scale_collection, "llm": SCRIPTED}, env={})
    figures = estimate(RunOptions(count=6, random_seed=5, dedup_threshold=0), settings, 250.0, like=like)
    run = run_cli(
        "graph.run", *store, "--count", "6", "--seed", "5", "--llm", SCRIPTED, "--concurrency", "4",
        "--dedup-threshold", "0", "--run-id", "six",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    actual = json.loads((runs / "six" / "run.json").read_text())["funnel"]["llm"]["per_role"]
    low, high = figures["range"]
    for figure in ("calls", "input_tokens", "output_tokens"):
        counted = sum(role[figure] for role in actual.values())
        likely = figures["total"][figure]
        assert likely * low <= counted <= likely * high, (figure, likely, counted, figures["range"])

    missing = run_cli("graph.run", *store, "--estimate", "--like", "nosuch")
    assert missing.returncode == 2 and "no finished run 'nosuch'" in missing.stderr
    alone = run_cli("graph.run", *store, "--like", "evalme")
    assert alone.returncode == 2 and "add --estimate" in alone.stderr


def test_retrieval_only_scores_retrieval_as_the_full_evaluation_does_and_asks_no_chat_model(  # noqa: ANN001
    dataset_run, scale_collection: str, tmp_path: Path, monkeypatch
) -> None:
    from graph.llm.gateway import LLMGateway

    folder, env = dataset_run
    dataset = copy_of_run(folder, tmp_path / "copy")
    setups = (
        "--setup",
        f"k3=k=3,model={SCRIPTED}",
        "--setup",
        "pg=retriever=import:graph.demo.pipelines:demo_retriever",
    )
    env = {**env, "TRIAD_COLLECTION": scale_collection}  # the store the team's retriever reads
    full = run_cli("graph.evaluate", str(dataset), *setups[:2], *JUDGES, env=env)
    assert full.returncode == 0, full.stderr
    judged_rows = [json.loads(line) for line in (dataset.parent / "eval.jsonl").read_text().splitlines()]
    judged = {row["sample_id"]: row for row in judged_rows}

    def no_request(*args: object, **kwargs: object) -> None:
        raise AssertionError("a retrieval-only evaluation asked a chat model")

    monkeypatch.setattr(LLMGateway, "ask", no_request)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    # The default models are Gemini's, and no key is set: any chat model built would fail the command.
    only = run_cli("graph.evaluate", str(dataset), *setups, "--retrieval-only", env={**env, "GOOGLE_API_KEY": ""})
    assert only.returncode == 0, only.stderr
    rows = [json.loads(line) for line in (dataset.parent / "eval.jsonl").read_text().splitlines()]
    signatures = {row["signature"] for row in judged_rows}
    scored = {(row["setup"], row["sample_id"]): row for row in rows if row["signature"] not in signatures}
    k3 = {sample: row for (setup, sample), row in scored.items() if setup == "k3"}
    assert len(k3) == 12 and {setup for setup, _ in scored} == {"k3", "pg"}
    for sample, row in k3.items():
        assert (row["precision"], row["recall"], row["retrieved_ids"]) == (
            judged[sample]["precision"], judged[sample]["recall"], judged[sample]["retrieved_ids"]
        )  # fmt: skip
        assert row["faithful"] is None and row.get("answer") is None
    means = summary(dataset.parent)
    assert means["k3"]["judges"]["retrieval_only"] is True and means["k3"]["all"]["correct"] is None
    again = run_cli("graph.evaluate", str(dataset), *setups, "--retrieval-only", env={**env, "GOOGLE_API_KEY": ""})
    assert "evaluating" not in again.stdout  # cached by what the rows are: retrieval-only rows of these setups
    both = run_cli("graph.evaluate", str(dataset), *setups, "--retrieval-only", "--judge-unlabelled", env=env)
    assert both.returncode == 2 and "drop one of them" in both.stderr
