"""`python -m graph.review RUN --calibrate`: validators of known behaviour scored against two reviewers' labels."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import graph.reviewing.calibrate
from graph.config.settings import Settings
from graph.llm.gateway import MAX_SCHEMA_RETRIES
from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT
from graph.llm.offline.scripted import ScriptedChatModel
from graph.reviewing.labels import CRITERIA
from graph.reviewing.session import open_labels
from tests.support.commands import assert_one_line_error, run_cli
from tests.support.scripts import ACCEPT

AGREEING = "import:tests.cli.test_calibrate:agreeing_validator"
REJECTS_ALL = "import:tests.support.scripts:strict_model"
ACCEPTS_ALL = "import:tests.support.scripts:accepting_validator"

#: The questions the run's reviewers reject: the agreeing validator rejects exactly these.
PEOPLE_REJECT: set[str] = set()
#: Every agreeing validator built, to count the calls each was asked.
BUILT: list[ScriptedChatModel] = []


def question_of(messages: list[Any]) -> str:
    return str(messages[-1].content).split('<question label="Q">\n', 1)[1].split("\n</question>", 1)[0]


def agreeing_validator() -> ScriptedChatModel:
    """A quality judge that rejects the questions people reject, and accepts the others."""

    def judge(messages: list[Any]) -> dict[str, Any]:
        if question_of(messages) in PEOPLE_REJECT:
            return {**ACCEPT, "unambiguous": False, "accepted": False, "reason": "two readings"}
        return ACCEPT

    model = ScriptedChatModel(script={**PLAUSIBLE_SCRIPT, "QualityVerdict": judge})
    BUILT.append(model)
    return model


def flaky_validator() -> ScriptedChatModel:
    """The agreeing judge, whose first replies are prose: the first sample's thread ends without a verdict."""
    model = agreeing_validator()
    judge, asked = model.script["QualityVerdict"], []

    def first_unusable(messages: list[Any]) -> Any:
        asked.append(1)
        return "It reads well to me." if len(asked) <= MAX_SCHEMA_RETRIES + 1 else judge(messages)

    model.script["QualityVerdict"] = first_unusable
    return model


def binary_rejecting() -> ScriptedChatModel:
    """The run's own validator: it rejects every yes/no question."""

    def judge(messages: list[Any]) -> dict[str, Any]:
        if "Yes/no question: yes" in str(messages[-1].content):
            return {**ACCEPT, "quality": False, "accepted": False, "reason": "the answer is not in the chunks"}
        return ACCEPT

    return ScriptedChatModel(script={**PLAUSIBLE_SCRIPT, "QualityVerdict": judge})


def label(url: str, run_id: str, labels: list[tuple[int, str, dict[str, Any]]]) -> None:
    async def save() -> None:
        store, pool = await open_labels(Settings(state_url=url))
        try:
            for n, reviewer, given in labels:
                await store.save(run_id, n, reviewer, given)
        finally:
            await pool.close()

    asyncio.run(save())


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_validators_of_known_behaviour_against_two_reviewers(
    pg_url: str, demo_slice: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = tmp_path / "runs"
    run = run_cli(
        "graph.run", "--collection", demo_slice, "--count", "8", "--types", "comparison,composition",
        "--llm", "offline:plausible",
        "--validator-model", "import:tests.cli.test_calibrate:binary_rejecting", "--max-revisions", "0",
        "--dedup-threshold", "0", "--seed", "2", "--database-url", pg_url, "--runs-dir", str(runs),
        "--run-id", "calibrated",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    accepted = lines(runs / "calibrated" / "dataset.jsonl")
    rejected = [r for r in lines(runs / "calibrated" / "rejected.jsonl") if r["outcome"] == "rejected"]
    assert len(accepted) >= 4 and len(rejected) >= 4
    calibrate = ("graph.review", "calibrated", "--runs-dir", str(runs), "--calibrate")
    unlabelled = run_cli(*calibrate, "--validator-model", AGREEING)
    assert_one_line_error(unlabelled, "is labelled yet; review at least 20 first: python -m graph.review calibrated")
    unknown = run_cli(*calibrate, "--validator-model", "nosuch:model")
    assert_one_line_error(unknown, "nosuch")
    slot = {r["id"]: int(r["id"].rpartition("/")[2]) for r in [*accepted, *rejected]}
    a0, a1, a2, a3 = (slot[r["id"]] for r in accepted[:4])
    r0, r1, r2, r3 = (slot[r["id"]] for r in rejected[:4])
    good = dict.fromkeys(CRITERIA, True)
    label(pg_url, "calibrated", [
        (a0, "ann", {**good, "unambiguous": False}), (a0, "bob", good),  # ann alone finds it ambiguous
        (a1, "ann", {**good, "correct": False}), (a1, "bob", {**good, "correct": False}),
        (a2, "ann", good), (a2, "bob", good), (a3, "ann", good), (a3, "bob", good),
        *[(n, who, {"rejection_right": True}) for n in (r0, r1, r2) for who in ("ann", "bob")],
        (r3, "ann", {"rejection_right": False}), (r3, "bob", {"rejection_right": False}),
    ])  # fmt: skip
    questions = {slot[r["id"]]: r["question"] for r in accepted} | {
        slot[r["id"]]: r["drafts"][-1]["question"] for r in rejected
    }
    PEOPLE_REJECT.update(questions[n] for n in (a0, a1, r0, r1, r2))

    # Interrupted after three samples were judged: the next calibration judges only the other five.
    judged: list[int] = []
    original = graph.reviewing.calibrate.judge_draft_again

    async def interrupted(*args: Any) -> Any:
        if len(judged) == 3:
            raise RuntimeError("the machine went down")
        judged.append(1)
        return await original(*args)

    monkeypatch.setattr(graph.reviewing.calibrate, "judge_draft_again", interrupted)
    with pytest.raises(RuntimeError, match="went down"):
        run_cli(*calibrate, "--validator-model", AGREEING)
    monkeypatch.undo()

    built = len(BUILT)
    result = run_cli(
        *calibrate, "--validator-model", AGREEING, "--validator-model", REJECTS_ALL, "--validator-model", ACCEPTS_ALL
    )
    assert result.returncode == 0, result.stderr
    assert sum(name == "QualityVerdict" for model in BUILT[built:] for name, _ in model.calls) == 5
    figures = json.loads((runs / "calibrated" / "calibration.json").read_text())["validators"]
    assert figures.keys() == {"import:tests.cli.test_calibrate:binary_rejecting (the run's)", AGREEING, REJECTS_ALL,
                              ACCEPTS_ALL}  # fmt: skip
    ours, agree, rejects, accepts = (
        figures[name]
        for name in ("import:tests.cli.test_calibrate:binary_rejecting (the run's)", AGREEING, REJECTS_ALL, ACCEPTS_ALL)
    )
    # People accept a2, a3 and r3; they reject a0 (ann), a1, r0, r1 and r2.
    assert all(f["samples"] == 8 for f in figures.values())
    assert (agree["accuracy"]["passed"], agree["kappa"], agree["rejections_right"]["passed"]) == (8, 1.0, 5)
    assert agree["reviewers"]["bob"]["accuracy"]["passed"] == 7  # bob accepted a0
    assert agree["reviewers"]["ann"]["accuracy"]["passed"] == 8
    assert (rejects["accuracy"]["passed"], rejects["kappa"]) == (5, 0.0)
    assert (rejects["rejections_right"]["passed"], rejects["rejections_right"]["total"]) == (5, 8)
    assert rejects["dimensions"]["multi_hop/multi_hop"]["accuracy"]["passed"] == 0  # it says no single-hop question
    assert (accepts["accuracy"]["passed"], accepts["kappa"], accepts["rejections_right"]["total"]) == (3, 0.0, 0)
    # The run's own verdicts: a0-a3 accepted, r0-r3 rejected, scored without a call.
    assert ours["accuracy"]["passed"] == 5 and (
        ours["rejections_right"]["passed"],
        ours["rejections_right"]["total"],
    ) == (3, 4)
    assert "no rejections" in result.stdout and "85-90%" in result.stdout
    report = (runs / "calibrated" / "report.html").read_text()
    assert 'id="calibration"' in report and AGREEING in report

    # A validator whose first answers are unusable: that sample is judged again in a new thread, and the figures
    # are those of the agreeing judge.
    flaky = run_cli(*calibrate, "--validator-model", "import:tests.cli.test_calibrate:flaky_validator")
    assert flaky.returncode == 0, flaky.stderr
    flaky_figures = json.loads((runs / "calibrated" / "calibration.json").read_text())["validators"]
    assert flaky_figures["import:tests.cli.test_calibrate:flaky_validator"]["accuracy"]["passed"] == 8

    # Again: every thread is read back, no model is asked.
    built = len(BUILT)
    again = run_cli(*calibrate, "--validator-model", AGREEING)
    assert again.returncode == 0, again.stderr
    assert len(BUILT) > built and all(model.calls == [] for model in BUILT[built:])


def test_calibration_bad_input_is_one_line(pg_url: str, tmp_path: Path) -> None:
    missing = run_cli("graph.review", "nosuch", "--runs-dir", str(tmp_path), "--calibrate")
    assert_one_line_error(missing, "no run folder")
    alone = run_cli("graph.review", "nosuch", "--runs-dir", str(tmp_path), "--validator-model", AGREEING)
    assert_one_line_error(alone, "add --calibrate")
