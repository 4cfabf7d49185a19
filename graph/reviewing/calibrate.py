"""Judging labelled samples again with other validators: one checkpointed thread per sample and validator.

A calibration thread starts from a checkpoint that holds the sample's judged draft (its final one when
accepted, the one its rejection was for when rejected), its supporting chunks and its language, as if
lint had just passed it; it runs the run's own judge nodes, judge_quality then judge_sufficiency (when
quality accepts), and stops before anything follows. A finished thread is read back without a call,
an interrupted one continues, and the model cache serves a request asked before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from graph.config.errors import UserError
from graph.config.settings import Settings
from graph.llm.from_settings import check_models
from graph.planning.options import RunOptions
from graph.planning.request import stored_settings
from graph.reviewing.calibration import DIMENSIONS, Calibration, Judgement, Labelled, labelled_samples, score
from graph.reviewing.labels import SavedLabels
from graph.reviewing.samples import ReviewSample
from graph.running.lanes import Budget, CostLimitReached, run_in_lanes
from graph.running.runner import SampleRunner, context_for, judging_runner
from graph.services import open_gateway, open_state_database
from nodes.builder import compile_graph
from nodes.registry import AFTER_JUDGES, JUDGE_NODES
from nodes.starts import state_after
from state.usage import ROLES

#: Threads a sample's judgement may take with one model, when its replies are unusable.
ATTEMPTS = 3
#: Labelled samples a calibration wants at least, said when a run has none.
FEW_LABELS = 20


@dataclass(frozen=True)
class JudgedDraft:
    """A labelled sample as its calibration threads start from it, and how the run's own validator judged it."""

    values: dict[str, Any]
    recorded: Judgement


def judged_draft(values: dict[str, Any]) -> JudgedDraft | None:
    """The last draft of a sample's final state with the run's verdicts on it; None when no judge gave one
    (lint alone rejected it, or it never reached a draft)."""
    drafts = values.get("drafts") or []
    if not drafts or not values.get("supporting"):
        return None
    draft = drafts[-1]
    verdicts = [
        v
        for v in values.get("verdicts", [])
        if v["revision"] == draft["revision"] and v["judge"] in ("quality", "sufficiency")
    ]
    quality = next((v for v in verdicts if v["judge"] == "quality"), None)
    if quality is None:
        return None
    recorded = Judgement(
        accepted=all(v["accepted"] for v in verdicts),
        dimensions={name: bool(quality["details"][name]) for name in DIMENSIONS if name in quality["details"]},
        calls=[call for call in values.get("llm_calls", []) if call.get("node") in JUDGE_NODES],
    )
    kept = ("question_type", "binary", "role", "hops", "language", "seed", "supporting", "bridge_topic", "style_role")
    start = {key: values[key] for key in kept if key in values}
    start |= {"drafts": [draft], "revisions": draft["revision"], "revisions_left": 0}
    return JudgedDraft(state_after("lint_question", start), recorded)


def sample_thread(sample: ReviewSample) -> str:
    """The thread a sample's last state is in: an accepted record names it (a refreshed one's differs)."""
    return sample.thread_id


def calibration_thread(thread_id: str, spec: str) -> str:
    return f"{thread_id}~calibrate~{re.sub(r'[^A-Za-z0-9._:-]+', '-', spec)}"


async def judge_draft_again(runner: SampleRunner, thread_id: str, start: dict[str, Any]) -> Judgement:
    """The judges' verdict on the draft: run now, continued, or read back when finished. A thread that ended
    without a usable model answer is followed by a new one (`thread_id~2`, ...): a failed check never counts
    as a verdict."""
    reason = "no verdict"
    for attempt in range(1, ATTEMPTS + 1):
        thread = thread_id if attempt == 1 else f"{thread_id}~{attempt}"
        graph, config = runner.graph, runner.config(thread)
        snapshot = await graph.aget_state(config)
        if not snapshot.values:
            await runner.edit_state(config, start, as_node="lint_question")
            snapshot = await graph.aget_state(config)
        if snapshot.next and not set(snapshot.next) & set(AFTER_JUDGES) and "outcome" not in snapshot.values:
            await graph.ainvoke(None, config, context=runner.context, interrupt_before=AFTER_JUDGES, durability="async")
            snapshot = await graph.aget_state(config)
        if snapshot.values.get("outcome") == "failed":
            reason = snapshot.values.get("end_reason", reason)
            continue
        judged = judged_draft(snapshot.values)
        if judged is not None:
            return judged.recorded
    raise UserError(f"the validator gave no usable verdict on {thread_id} ({reason}); try again or another model")


async def calibrate(
    run_id: str,
    settings: Settings,
    samples: dict[int, ReviewSample],
    reviews: list[SavedLabels],
    specs: list[str],
    *,
    concurrency: int = 1,
    say: Callable[[str], None] = print,
) -> Calibration:
    """Every validator's figures against the reviewers: the run's own (from its recorded verdicts) and each
    of `specs` (judging again). Raises `CostLimitReached` when the budget runs out first."""
    async with open_state_database(settings, concurrency=concurrency) as database:
        stored = await database.ledger.options(run_id)
        options = RunOptions.from_stored(stored)
        # Every model resolves before any is asked: an unknown provider or a missing key fails here.
        judging = {spec: stored_settings(settings, stored, dict.fromkeys(ROLES, spec)) for spec in specs}
        for spec_settings in judging.values():
            check_models(spec_settings)
        labelled = labelled_samples(samples, reviews)
        if not labelled:
            raise UserError(
                f"no typed sample of run {run_id} is labelled yet; review at least {FEW_LABELS} first: "
                f"python -m graph.review {run_id} --sample {FEW_LABELS}"
            )
        reader = compile_graph(database.saver)
        starts: dict[int, JudgedDraft] = {}
        for sample in labelled:
            snapshot = await reader.aget_state({"configurable": {"thread_id": sample_thread(samples[sample.n])}})
            if (judged := judged_draft(snapshot.values)) is not None:
                starts[sample.n] = judged
        ours = [s for s in labelled if s.n in starts]
        validators = {
            f"{stored['settings']['validator_model']} (the run's)": score(
                ours, {n: judged.recorded for n, judged in starts.items()}
            )
        }
        spent, limit = 0.0, settings.max_cost_usd
        for spec, spec_settings in judging.items():
            say(f"judging {len(ours)} labelled samples with {spec}")
            # The judges read the sample's chunks from its state: no store is opened.
            async with open_gateway(spec_settings, database, random_seed=options.random_seed) as gateway:
                context = context_for(spec_settings, gateway, options.context(stored.get("run_id", "calibration")))
                runner = judging_runner(database.saver, gateway, context)

                async def work(sample: Labelled, runner: SampleRunner = runner, spec: str = spec) -> Judgement:
                    thread = calibration_thread(sample_thread(samples[sample.n]), spec)
                    return await judge_draft_again(runner, thread, starts[sample.n].values)

                budget = Budget.of(gateway, limit, before=spent)
                results, stopped = await run_in_lanes(ours, work, concurrency, budget)
                spent = budget.spent()
            if stopped:
                raise CostLimitReached(limit, "what was judged is kept", "run the calibration again")
            validators[spec] = score(ours, {s.n: j for s, j in zip(ours, results, strict=True)})
    return Calibration(run_id=run_id, labelled=len(ours), validators=validators)
