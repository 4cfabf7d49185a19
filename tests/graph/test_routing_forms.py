"""The two forms of the sample graph: a run's, whose deciding nodes return their routes, and the editable one,
whose routes are edges. On each path below they take the same steps to the same final state; a state edit
goes through the editable one and the run's graph goes on from it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT
from graph.llm.offline.scripted import ScriptedChatModel
from graph.running.runner import build_runner
from graph.services import ServicesSpec, open_services
from nodes.run_context import Context
from tests.graph.test_restyle import ANSWER_CHANGED, SAME, rewrite
from tests.graph.test_sample_paths import NO_TOPIC
from tests.support.harness import scripted_gateway
from tests.support.scripts import ACCEPT, GOOD_QUESTION, bridge, drafted, script

EDITED = GOOD_QUESTION["question"].replace("What is", "What exactly is")
QUALITY_REJECT = {**ACCEPT, "unambiguous": False, "accepted": False, "reason": "two settings fit; name the launcher"}

#: (script, spec, context): between them each route, on the paths of an accepted, a revised, a restarted, a
#: rejected, a failed, a restyled, an unanswerable and a single-hop sample.
PATHS: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = {
    "accepted": (script(), {}, {}),
    "lint then revision": (
        script(QuestionDraft=[drafted("According to the text, which setting wakes the launcher?", "x"), GOOD_QUESTION]),
        {},
        {},
    ),
    "restart": (script(BridgeProposal=[NO_TOPIC, bridge("VACUUM", ["C1", "C3"])]), {}, {}),
    "restarts spent": (script(BridgeProposal=[NO_TOPIC]), {}, {"max_restarts": 1}),
    "exact match": (script(BridgeProposal=[bridge("", [], {"C1": ["zzz_absent", "autovacuum"]})]), {}, {}),
    "quality reject, sufficiency asked": (
        script(QualityVerdict=[QUALITY_REJECT, ACCEPT]),
        {},
        {"sufficiency_after_quality_reject": True},
    ),
    "rejected": (script(QualityVerdict=[QUALITY_REJECT]), {}, {"max_revisions": 0}),
    "failed": (script(QualityVerdict=["The question looks fine to me."]), {}, {}),
    "restyled on the second try": (
        script(
            RestyledQuestion=[rewrite("x y"), rewrite("minimum autovacuum delay default")],
            RestyleVerdict=[ANSWER_CHANGED, SAME],
        ),
        {"query_style": "keyword"},
        {},
    ),
    "unanswerable": (PLAUSIBLE_SCRIPT, {"question_type": "unanswerable"}, {}),
    "single-hop": (PLAUSIBLE_SCRIPT, {"question_type": "factual"}, {}),
}


#: Keys whose values are read from the clock.
CLOCKED = frozenset({"seconds", "created_at", "validated_at"})


def comparable(value: Any, thread_id: str) -> Any:
    """`value` without what differs between two threads of one sample: their ids, clock times and call timings."""
    if isinstance(value, dict):
        return {k: comparable(v, thread_id) for k, v in value.items() if k not in CLOCKED}
    if isinstance(value, list):
        return [comparable(v, thread_id) for v in value]
    if isinstance(value, str):
        return value.replace(thread_id, "<thread>")
    return value


@pytest.mark.parametrize("path", PATHS)
def test_both_forms_take_the_same_steps_to_the_same_state(harness, seed_chunk_id, path) -> None:  # noqa: ANN001
    replies, spec, context = PATHS[path]
    spec = {"seed_id": seed_chunk_id, **spec}
    ran, _, run_visits = harness.run(replies, spec=spec, **context)
    edited, _, edge_visits = harness.run(replies, spec=spec, editable=True, **context)
    assert run_visits == edge_visits
    assert ran.outcome == edited.outcome
    assert comparable(ran.state, ran.thread_id) == comparable(edited.state, edited.thread_id)


def test_an_edit_goes_through_the_editable_form_and_the_run_goes_on_from_it(harness, seed_chunk_id) -> None:  # noqa: ANN001
    """What LangGraph Studio, replays with `--set`, refresh and calibration do to a paused thread."""
    model = ScriptedChatModel(script=script())
    sample = {"question_type": "composition", "binary": False, "seed_id": seed_chunk_id}

    async def go() -> tuple[tuple[str, ...], tuple[str, ...], dict[str, Any]]:
        async with open_services(
            ServicesSpec(harness.settings(), gateway=scripted_gateway(model, max_attempts=2))
        ) as services:
            runner = build_runner(services, services.seed_pool("edits", random_seed=0), Context(run_id="edits"))
            paused = {}
            for thread_id in ("edits/0", "edits/1"):
                config = runner.config(thread_id)
                await runner.graph.ainvoke(
                    {**sample, "thread_id": thread_id},
                    config,
                    context=runner.context,
                    interrupt_before=["judge_quality"],
                )
                paused[thread_id] = (await runner.graph.aget_state(config)).values["drafts"][-1]
            draft = {**paused["edits/0"], "question": EDITED}
            edited = await runner.edit_state(runner.config("edits/0"), {"drafts": [draft]})
            # Written through the run's own form, the same edit leaves the thread nowhere to go.
            stranded = await runner.graph.aupdate_state(runner.config("edits/1"), {"drafts": [paused["edits/1"]]})
            nexts = ((await runner.graph.aget_state(edited)).next, (await runner.graph.aget_state(stranded)).next)
            return *nexts, await runner.graph.ainvoke(None, edited, context=runner.context)

    after_edit, stranded, final = asyncio.run(go())
    assert after_edit == ("judge_quality",)
    assert stranded == ()
    assert final["outcome"] == "accepted"
    assert final["record"]["question"] == EDITED
