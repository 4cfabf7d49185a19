"""The duplicate-question check: before the contexts are labelled, and a failed sample's question freed."""

from __future__ import annotations

import asyncio
import itertools

from graph.config.settings import resolve_settings
from graph.ledger.questions import RunQuestions
from graph.llm.gateway import LLMGateway
from graph.llm.limits import RetryPolicy
from graph.llm.models import resolve_roles
from graph.llm.offline.scripted import ScriptedChatModel
from graph.running.runner import SampleResult, build_runner
from graph.services import ServicesSpec, open_services, open_state_database
from nodes.run_context import Context
from tests.support.scripts import GOOD_QUESTION, script

_runs = itertools.count()


def run_samples(url: str, collection: str, seed_id: str, scripts: list[dict]) -> list[tuple[SampleResult, list[str]]]:
    """Samples 1, 2, ... of one run, one script each, all drafting the same question, with the run's registry."""
    run_id = f"dup-{next(_runs)}-{id(scripts)}"

    async def go() -> list[tuple[SampleResult, list[str]]]:
        settings = resolve_settings(
            {"database_url": url, "state_url": url, "collection": collection, "llm_cache": False}, env={}
        )
        done = []
        for n, replies in enumerate(scripts, start=1):
            model = ScriptedChatModel(script=replies)
            roles = resolve_roles({"generator": model, "validator": model, "extractor": model})
            gateway = LLMGateway(roles, requests_per_second=1000, retry=RetryPolicy(max_attempts=1))
            async with open_services(ServicesSpec(settings, gateway=gateway)) as services:
                assert services.database is not None
                questions = RunQuestions(services.database.ledger.run(run_id), threshold=0)
                runner = build_runner(services, services.seed_pool(run_id), Context(run_id=run_id), questions=questions)
                thread = f"{run_id}/{n}"
                result = await runner.run({"question_type": "composition", "binary": False, "seed_id": seed_id}, thread)
                visits = [
                    name
                    async for snapshot in runner.graph.aget_state_history(runner.config(thread))
                    for name in snapshot.next
                ]
                done.append((result, list(reversed(visits))))
        return done

    return asyncio.run(go())


def extractor_calls(result: SampleResult) -> int:
    return sum(call["role"] == "extractor" for call in result.state.get("llm_calls", []))


def test_a_duplicate_is_rejected_before_its_contexts_are_labelled(pg_url: str, demo_slice: str, seed_chunk_id: str):
    (first, _), (second, visits) = run_samples(pg_url, demo_slice, seed_chunk_id, [script(), script()])
    assert first.outcome == "accepted" and first.record["question"] == GOOD_QUESTION["question"]
    assert second.outcome == "rejected"
    assert second.rejection["end_reason"] == f"duplicate of the question of sample {first.thread_id}"
    assert visits[-1] == "check_duplicate" and "extract_contexts" not in visits
    assert extractor_calls(first) > 0 and extractor_calls(second) == 0  # no labelling paid for a duplicate


def test_a_sample_that_fails_after_the_check_frees_its_question(pg_url: str, demo_slice: str, seed_chunk_id: str):
    broken = script(RelevanceVerdict=["no verdict here, only prose"])
    (failed, visits), (later, _) = run_samples(pg_url, demo_slice, seed_chunk_id, [broken, script()])
    assert failed.outcome == "failed" and "check_duplicate" in visits and "extract_contexts" in visits
    assert later.outcome == "accepted"  # the same question, no longer held by the sample that failed


def test_only_the_sample_itself_gives_back_its_question(pg_url: str):
    """A refresh thread of sample 1 that ends without a record leaves the claim to the sample, whose record stays."""

    async def go() -> list[str | None]:
        settings = resolve_settings({"database_url": pg_url, "state_url": pg_url, "llm_cache": False}, env={})
        async with open_state_database(settings) as database:
            run_id = f"dup-release-{next(_runs)}"
            questions = RunQuestions(database.ledger.run(run_id), threshold=0)
            question = GOOD_QUESTION["question"]
            seen = [await questions.register(question, f"{run_id}/1")]
            await questions.release(question, f"{run_id}/1@v2.1")
            seen.append(await questions.register(question, f"{run_id}/2"))
            await questions.release(question, f"{run_id}/1")
            seen.append(await questions.register(question, f"{run_id}/3"))
            return seen

    first, after_refresh, after_sample = asyncio.run(go())
    assert first is None
    assert after_refresh is not None and after_refresh.endswith("/1")  # still the sample's
    assert after_sample is None  # the sample gave it back


class SameVector:
    """Embeddings that give every question the same direction: each is near every other."""

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0]


def test_a_sample_that_registers_its_question_again_is_not_its_own_duplicate(pg_url: str):
    """After a resume that repeats the check: the same sample, the same question, no duplicate; another is one."""

    async def go() -> list[str | None]:
        settings = resolve_settings({"database_url": pg_url, "state_url": pg_url, "llm_cache": False}, env={})
        async with open_state_database(settings) as database:
            run_id = f"dup-again-{next(_runs)}"
            questions = RunQuestions(database.ledger.run(run_id), threshold=0.9, embeddings=SameVector())
            question = GOOD_QUESTION["question"]
            seen = [await questions.register(question, f"{run_id}/1") for _ in range(2)]
            seen.append(await questions.register(f"{question} Briefly.", f"{run_id}/2"))
            return seen

    first, again, other = asyncio.run(go())
    assert first is None and again is None
    assert other is not None and other.endswith("/1")
