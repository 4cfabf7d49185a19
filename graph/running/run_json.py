"""run.json, the document a finished run writes beside its files, and the lines the terminal shows of it."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from graph.config.cli import say, tell
from graph.config.errors import redact
from graph.config.settings import Settings
from graph.figures.coverage import coverage_lines
from graph.figures.funnel import cell_name, format_funnel
from graph.figures.style_figures import style_document
from graph.folder.files import RunFolder
from graph.folder.run_document import Funnel, RunDocument
from graph.ledger.slots import CellQuota
from graph.planning.request import Run, RunRequest
from graph.running.worker import WorkResult
from state.usage import ROLES


def public_settings(settings: Settings) -> dict[str, Any]:
    """Settings as run.json keeps them: no secrets, URLs without passwords."""
    data = settings.model_dump(mode="json", exclude={"google_api_key", "openai_api_key"})
    for key in ("database_url", "state_url"):
        if data.get(key):
            data[key] = redact(data[key])
    return data


def run_document(
    run: Run, cells: list[CellQuota], summary: Funnel, started: float, stopped_by_cost: bool
) -> RunDocument:
    """run.json: options, settings without secrets, models, quotas, shortfall and the funnel."""
    quotas = {cell_name(c.question_type, c.binary): c.quota for c in cells}
    accepted = {name: summary["cells"].get(name, {}).get("accepted", 0) for name in quotas}
    options = run.options.stored(run.settings)
    document: RunDocument = {
        "run_id": run.run_id,
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds_this_process": round(time.monotonic() - started, 1),
        "options": {k: v for k, v in options.items() if k != "settings"},
        "settings": public_settings(run.settings),
        "models": {role: run.settings.model_for(role) for role in ROLES},
        "quotas": quotas,
        "shortfall": {name: quota - accepted[name] for name, quota in quotas.items() if accepted[name] < quota},
    }
    document.update(style_document(run.options.style_quotas(), summary))
    document["stopped_by_cost_limit"] = stopped_by_cost
    document["funnel"] = summary
    return document


def print_run_summary(
    run: Run,
    request: RunRequest,
    folder: RunFolder,
    document: RunDocument,
    summary: Funnel,
    work: WorkResult,
) -> None:
    """The funnel on stdout; the cost stop, any shortfall and the files written on stderr."""
    if not request.worker:
        say(format_funnel(summary, document["quotas"], document.get("query_style_quotas")))
    if work.stopped_by_cost:
        tell(f"stopped starting samples: the cost limit of {run.settings.max_cost_usd} USD was reached")
    if document["shortfall"]:
        shortfall = ", ".join(f"{name} {n}" for name, n in document["shortfall"].items())
        tell(f"shortfall: {shortfall} (attempt caps reached or the run stopped early)")
    if document.get("query_style_shortfall"):
        short = ", ".join(f"{name} {n}" for name, n in document["query_style_shortfall"].items())
        tell(f"query-style shortfall: {short} (rewrites that failed their check kept the question as validated)")
    for line in coverage_lines(document.get("coverage") or {}):
        tell(line)
    tell(f"wrote {folder.dataset}, {folder.rejected}, {folder.run_json} and {folder.report}")
