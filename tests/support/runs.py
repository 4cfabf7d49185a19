"""A whole run of `graph.run` in this process, with a scripted model in every role."""

from __future__ import annotations

import asyncio
from pathlib import Path

from graph.config.settings import resolve_settings
from graph.llm.from_settings import build_gateway
from graph.llm.gateway import LLMGateway
from graph.llm.limits import RetryPolicy
from graph.llm.offline.scripted import ScriptedChatModel
from graph.run import build_parser
from graph.running.flags import run_request
from graph.running.job import run_job


def scripted_run(
    model: ScriptedChatModel,
    pg_url: str,
    collection: str,
    runs_dir: Path,
    *flags: str,
    retry: RetryPolicy | None = None,
    timeout_s: float,
) -> tuple[str, dict, LLMGateway]:
    """A run of `graph.run` in this process with `model` in every role, four samples in flight: its id, run.json
    and the gateway its calls went through."""
    settings = resolve_settings(
        {"collection": collection, "database_url": pg_url, "state_url": pg_url, "runs_dir": runs_dir,
         "llm_cache": False, "requests_per_second": 1000},
        env={},
    )  # fmt: skip
    gateway = build_gateway(
        settings, models={"generator": model, "validator": model, "extractor": model}, random_seed=5
    )
    if retry is not None:
        gateway.retry = retry
    args = build_parser().parse_args(
        ["--collection", collection, "--concurrency", "4", "--dedup-threshold", "0", *flags]
    )

    async def bounded() -> tuple[str, dict]:
        return await asyncio.wait_for(run_job(run_request(args, settings), settings, gateway), timeout=timeout_s)

    run_id, document = asyncio.run(bounded())
    return run_id, document, gateway
