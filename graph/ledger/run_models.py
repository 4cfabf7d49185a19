"""A run's models: asked once before anything is spent, and the structured-output mode each server answered in,
shared through the state database by every process of the run (its workers, a resume)."""

from __future__ import annotations

from graph.config.cli import tell
from graph.config.errors import RunCannotWork, UserError
from graph.ledger.ledger import RunLedger
from graph.llm.gateway import LLMGateway
from graph.llm.preflight import preflight
from state.usage import STRUCTURED_MODES, ModelCall, StructuredMode


async def check_models_answer(gateway: LLMGateway) -> list[ModelCall]:
    """The preflight (`graph.llm.preflight`) before anything is spent: a line per role, or the run stops (exit 1)
    with the one line that names the fix, before it is begun. Its calls, for the funnel."""
    try:
        checked = await preflight(gateway)
    except UserError as error:  # a refused key, an unreachable server, an unknown model, every mode refused
        raise RunCannotWork(str(error)) from None
    for each in checked:
        for line in each.lines():
            tell(f"model {line}")
    return [each.call for each in checked]


async def share_model_modes(gateway: LLMGateway, ledger: RunLedger) -> None:
    """The structured-output modes the run's servers answered in, known to this process's gateway from the start
    (another worker's, an earlier process's) and kept in the state database as this one learns them."""
    known = await ledger.model_modes()
    gateway.modes.update({server: mode for server, mode in known.items() if mode in STRUCTURED_MODES})

    async def keep(server: str, mode: StructuredMode) -> None:
        await ledger.save_model_modes({server: mode})

    gateway.modes.on_learned = keep
