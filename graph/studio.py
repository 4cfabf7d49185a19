"""The sample graph for LangGraph Studio: `langgraph dev` loads `graph` from here (see langgraph.json).

Studio brings its own checkpointer and a context form; the corpus, the models and the seed pool
come from the environment, as for every command: TRIAD_DATABASE_URL (or the embedded database),
TRIAD_COLLECTION (default: the demo collection), TRIAD_LLM or the context form's model fields,
GOOGLE_API_KEY. The nodes' ports are built on a run's first node and reused while the models stay the same.
"""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack

from graph.config.settings import DEFAULT_MODELS, resolve_settings
from graph.demo import DEMO_COLLECTION
from graph.services import ServicesSpec, open_services
from nodes.builder import compile_graph
from nodes.ports import Ports
from nodes.run_context import Context
from state.usage import ROLES

_ports: dict[tuple[str, ...], Ports] = {}
#: Keeps every opened set of services open for the server's life.
_opened = AsyncExitStack()
_lock = asyncio.Lock()


def _models(context: Context, configured: dict[str, str]) -> dict[str, str]:
    """A model field changed in the context form wins; otherwise the configured (or default) model."""
    chosen: dict[str, str] = {}
    for role in ROLES:
        in_form = getattr(context, f"{role}_model")
        chosen[role] = in_form if in_form != DEFAULT_MODELS[role] else configured[role]
    return chosen


async def studio_ports(context: Context) -> Ports:
    settings = resolve_settings({})
    models = _models(context, {role: settings.model_for(role) for role in ROLES})
    key = tuple(models[role] for role in ROLES)
    async with _lock:
        if key not in _ports:
            settings = settings.model_copy(update={"collection": settings.collection or DEMO_COLLECTION})
            # Studio brings its own checkpointer: no state database is opened here. The embedding model
            # serves generated unanswerable samples, which search the collection as its retriever does.
            services = open_services(ServicesSpec(settings, models=dict(models), with_database=False))  # type: ignore[arg-type]
            opened = await _opened.enter_async_context(services)
            _ports[key] = opened.ports_for(opened.seed_pool())
        return _ports[key]


graph = compile_graph(ports=studio_ports)
