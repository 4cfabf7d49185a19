"""Deciding with confidence on a demo run: paired comparisons in the terminal, eval-summary.json and the report,
sweeps that pay once per (setup, record), a gate that knows noise, and the same from Python."""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from pathlib import Path

import pytest

from graph.llm.offline.plausible import plausible_model
from graph.llm.offline.scripted import ScriptedChatModel
from tests.support.browser import rendered
from tests.support.commands import run_cli

SCRIPTED = "offline:plausible"
#: Every answering and judging model an evaluation builds, by role: the tests count their calls.
MODELS: dict[str, list[ScriptedChatModel]] = defaultdict(list)
ANSWERER = "import:tests.cli.test_confidence:answer_model"
JUDGES = ("--validator-model", "import:tests.cli.test_confidence:judge_model", "--extractor-model", SCRIPTED)


def answer_model() -> ScriptedChatModel:
    MODELS["answer"].append(model := plausible_model())
    return model


def judge_model() -> ScriptedChatModel:
    MODELS["judge"].append(model := plausible_model())
    return model


def calls(role: str) -> int:
    return sum(len(model.calls) for model in MODELS[role])


@pytest.fixture(scope="module")
def demo_run(pg_url: str, demo_slice: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    runs = tmp_path_factory.mktemp("runs")
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(runs)}
    made = run_cli(
        "graph.run", "--collection", demo_slice, "--count", "12", "--seed", "3", "--llm", SCRIPTED,
        "--dedup-threshold", "0", "--run-id", "sure", env=env,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    return runs / "sure", env


def fresh_copy(folder: Path, target: Path) -> Path:
    """The run's folder without the evaluations other tests wrote into it."""
    shutil.copytree(folder, target, ignore=shutil.ignore_patterns("eval*"))
    return target


def test_two_identical_setups_are_not_distinguishable_in_all_three_outputs(demo_run, tmp_path: Path) -> None:  # noqa: ANN001
    folder, env = demo_run
    folder = fresh_copy(folder, tmp_path / "sure")
    setups = ("--setup", f"a=k=4,model={ANSWERER}", "--setup", f"b=k=4,model={ANSWERER}")
    result = run_cli("graph.evaluate", str(folder), *setups, "--setup", f"c=k=1,model={ANSWERER}", *JUDGES, env=env)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # b is what a is: its rows are a's, computed once.
    assert "a: evaluating 12 samples" in out and "b: evaluating" not in out and "c: evaluating 12 samples" in out
    # Terminal: the means with their intervals and records, the pair in words, the zero variance said.
    assert "  95% interval" in out and "  records" in out
    assert "b - a  recall  +0.000 [+0.000, +0.000] n=12" in out and "not distinguishable on 12 questions" in out
    assert "identical on every question (no variance)" in out
    assert "flagged too small" in out and "comparisons made (every pair, metric and group)" in out
    summary = json.loads((folder / "eval-summary.json").read_text())
    means = summary["a"]["all"]
    assert means["counts"]["recall"] == 12 and means["intervals"]["recall"][0] <= means["recall"]
    assert summary["a"]["all"]["clusters"] >= 2
    section = summary["comparisons"]
    differences = section["differences"]
    assert section["made"] == len(differences) > 0 and section["detect"] == 0.05
    (pair,) = [d for d in differences if d["setups"] == ["a", "b"] and d["metric"] == "recall" and d["group"] == "all"]
    assert pair["verdict"] == "not distinguishable on 12 questions" and (pair["low"], pair["high"]) == (0.0, 0.0)
    assert pair["questions_needed"] == {"effect": 0.05, "questions": None, "clusters": None, "design_effect": 1.0}
    assert set(pair) >= {"setups", "metric", "group", "difference", "low", "high", "n", "clusters"}
    small = [d for d in differences if d["too_small"]]
    assert small and all(d["n"] < 10 and d["verdict"].startswith("too few questions") for d in small)
    # Every "higher" or "lower" is an interval that excludes 0.
    for d in differences:
        if " higher than " in d["verdict"]:
            assert d["low"] > 0, d
        if " lower than " in d["verdict"]:
            assert d["high"] < 0, d
    report = (folder / "eval-report.html").read_text()
    assert 'id="comparisons"' in report and "not distinguishable on 12 questions" in report
    assert "too few questions to compare" in report and "n=12" in report
    assert "http://" not in report and "https://" not in report and len(report) < 1_000_000  # one file, offline
    dom, console = rendered(folder / "eval-report.html", tmp_path / "chromium-profile")
    assert console == [] and '<section id="comparisons">' in dom and '<section id="recall">' in dom
    # a chart per metric for the means and a forest plot of its paired differences; a forest plot per pair
    assert dom.count("<svg") == 2 * len(summary["a"]["all"]["counts"]) + 3


def test_a_sweep_pays_once_per_setup_and_record_and_retrieval_only_asks_no_chat_model(  # noqa: ANN001
    demo_run, tmp_path: Path, monkeypatch
) -> None:
    from graph.llm.gateway import LLMGateway

    folder, env = demo_run
    folder = fresh_copy(folder, tmp_path / "sure")
    records = [json.loads(line) for line in (folder / "dataset.jsonl").read_text().splitlines()]
    variants = sum(record.get("unanswerable") is not None for record in records)
    MODELS.clear()
    sweep = ("--setup", f"base=model={ANSWERER}", "--sweep", "k=2,4,6")
    first = run_cli("graph.evaluate", str(folder), *sweep, *JUDGES, env=env)
    assert first.returncode == 0, first.stderr
    assert all(f"base-k{k}: evaluating 12 samples" in first.stdout for k in (2, 4, 6))
    # One answering model asked per setup (the others were built to check the spec), each once per record and once
    # per unanswerable variant.
    asked = [len(model.calls) for model in MODELS["answer"] if model.calls]
    assert asked == [12 + variants] * 3
    summary = json.loads((folder / "eval-summary.json").read_text())
    assert [summary[f"base-k{k}"]["swept"] for k in (2, 4, 6)] == [{"k": "2"}, {"k": "4"}, {"k": "6"}]
    rows = [json.loads(line) for line in (folder / "eval.jsonl").read_text().splitlines()]
    assert sorted(len(row["retrieved_ids"]) for row in rows) == [2] * 12 + [4] * 12 + [6] * 12
    report = (folder / "eval-report.html").read_text()
    assert 'id="sweep"' in report and "recall by k" in report
    # Again, and a setup that is one of them under another name: nothing is asked.
    spent = calls("answer"), calls("judge")
    again = run_cli("graph.evaluate", str(folder), *sweep, "--setup", f"four=k=4,model={ANSWERER}", *JUDGES, env=env)
    assert again.returncode == 2 and "--sweep expands one --setup" in again.stderr
    renamed = run_cli("graph.evaluate", str(folder), "--setup", f"four=k=4,model={ANSWERER}", *JUDGES, env=env)
    assert renamed.returncode == 0 and "evaluating" not in renamed.stdout
    assert (calls("answer"), calls("judge")) == spent

    def no_request(*args: object, **kwargs: object) -> None:
        raise AssertionError("a retrieval-only sweep asked a chat model")

    monkeypatch.setattr(LLMGateway, "ask", no_request)
    only = run_cli(
        "graph.evaluate", str(folder), "--setup", "base=k=1", "--sweep", "k=3,5", "--retrieval-only",
        env={**env, "GOOGLE_API_KEY": ""},
    )  # fmt: skip
    assert only.returncode == 0, only.stderr
    # The question's vector is made once, for the first setup; the second reads it.
    assert "base-k3: 12 embedding requests for its questions" in only.stdout
    assert "base-k5: 0 embedding requests for its questions" in only.stdout
    bad = run_cli("graph.evaluate", str(folder), "--setup", "base=k=1", "--sweep", "k=3", "--retrieval-only", env=env)
    assert bad.returncode == 2 and "--sweep takes KEY=VALUE,VALUE" in bad.stderr


def test_the_gate_knows_noise_against_a_run_folder(demo_run, tmp_path: Path) -> None:  # noqa: ANN001
    folder, env = demo_run
    then = fresh_copy(folder, tmp_path / "then")
    now = fresh_copy(folder, tmp_path / "now")
    gate = ("--retrieval-only", "--gate-metrics", "evidence_recall,recall")
    made = run_cli("graph.evaluate", str(then), "--setup", "base=k=6", "--retrieval-only", env=env)
    assert made.returncode == 0, made.stderr
    # The same setup against its own run: passes with --max-drop 0, the interval in the line.
    same = run_cli("graph.evaluate", str(then), "--setup", "base=k=6", *gate, "--baseline", str(then), env=env)
    assert same.returncode == 0, same.stderr
    assert "gate: 2 of 2 checks pass" in same.stdout
    # A real drop (k 6 -> 1 on every question) fails, its paired interval wholly below 0.
    junit = tmp_path / "gate.xml"
    dropped = run_cli(
        "graph.evaluate", str(now), "--setup", "base=k=1", *gate, "--baseline", str(then / "eval.jsonl"),
        "--max-drop", "0.02", "--junit", str(junit), env=env,
    )  # fmt: skip
    assert dropped.returncode == 1, dropped.stderr
    assert "base: evidence_recall" in dropped.stderr and "FAILS (paired difference -" in dropped.stderr
    assert "over 12 questions" in junit.read_text()
    # A summary alone is compared by means, and said to be.
    means = run_cli(
        "graph.evaluate", str(now), "--setup", "base=k=1", *gate, "--baseline", str(then / "eval-summary.json"),
        "--max-drop", "1", env=env,
    )  # fmt: skip
    assert means.returncode == 0 and "compared with the baseline by means" in means.stderr
    # A setup the baseline does not hold is held to nothing, and the gate says so: 0 checks, and the JUnit file.
    junit.unlink()
    other = run_cli(
        "graph.evaluate", str(now), "--setup", "other=k=2", *gate, "--baseline", str(then), "--junit", str(junit),
        env=env,
    )  # fmt: skip
    assert other.returncode == 0 and "gate: 0 of 0 checks pass" in other.stdout
    assert "the baseline has no setup 'other'" in other.stderr and junit.is_file()


def test_the_same_from_python(demo_run, tmp_path: Path, pg_url: str) -> None:  # noqa: ANN001
    from graph.config.settings import Settings
    from graph.evaluation import evaluate

    folder, _ = demo_run
    folder = fresh_copy(folder, tmp_path / "sure")
    said: list[str] = []
    result = evaluate(
        folder, ["k2=k=2", "k5=k=5"], settings=Settings(database_url=pg_url), retrieval_only=True, say=said.append
    )
    assert "k2: evaluating 12 samples (0 cached)" in said
    means = result.means.to_pandas()
    recall = means[(means.setup == "k5") & (means.group == "all") & (means.metric == "evidence_recall")]
    assert len(recall) == 1 and int(recall.n.iloc[0]) == 12
    assert float(recall["mean"].iloc[0]) == result.summaries["k5"]["all"]["evidence_recall"]
    compared = result.comparisons.to_pandas()
    assert {"setups", "metric", "group", "difference", "low", "high", "n", "clusters", "verdict"} <= set(compared)
    assert len(result.rows.to_pandas()) == 24 and result.passed and result.checks == []
    written = json.loads((folder / "eval-summary.json").read_text())
    assert written["comparisons"]["made"] == len(compared)
