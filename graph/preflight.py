"""Check every role's model before a run spends anything: one small structured request per model.

    python -m graph.preflight                                   # the default Gemini models (GOOGLE_API_KEY)
    python -m graph.preflight --llm openai:qwen2.5-7b-instruct --llm-base-url http://localhost:8000/v1
    python -m graph.preflight --llm openai:local --llm-base-url http://localhost:8080/v1 \
        --structured-output json_object --request-timeout-seconds 300

Roles that share a model and server share the call. Per role it prints the model and its server, the
structured-output mode that worked (with `auto`, the first the server did not refuse), the call's
latency and its tokens, and exits 0. A model that cannot work is one `error:` line naming what failed
and the fix (an unreachable server, a missing or refused key, an unknown model, a server that refuses
every structured-output mode), exit code 2. `python -m graph.run` does the same before its first sample.
Recorded (`recorded:`) and imported (`import:`) models are not asked.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from graph.config.cli import add_model_server_options, command_parser, run_async, say, settings_from_args
from graph.config.errors import exit_on_user_error
from graph.config.logs import configure_logging
from graph.config.settings import DEFAULT_MODELS, Settings
from graph.llm.preflight import Checked, checked_servers, preflight
from graph.services import open_gateway
from state.usage import ROLES


def _parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.preflight", __doc__)
    models = parser.add_argument_group("models (as graph.run takes them)")
    models.add_argument("--llm", help="one model spec for all roles")
    for role in ROLES:
        models.add_argument(f"--{role}-model", help=f"{role} spec (default {DEFAULT_MODELS[role]})")
    add_model_server_options(models)
    models.add_argument("--thinking", action="append", metavar="ROLE=BUDGET|LEVEL", help="thinking of a role's model")
    parser.add_argument("--config", type=Path, help="settings file (default ./triad.toml when present; TRIAD_CONFIG)")
    return parser


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    configure_logging(level="warning")
    checks = run_async(ask_models(settings_from_args(args, llm_cache=False)))
    if checks is None:
        say("nothing to check: every role's model is recorded or imported")
        return
    for checked in checks:
        for line in checked.lines():
            say(line)


async def ask_models(settings: Settings) -> list[Checked] | None:
    """Each model server's answer to one small request; None when no role's model is one to ask."""
    async with open_gateway(settings, None) as gateway:
        return await preflight(gateway) if checked_servers(gateway) else None


if __name__ == "__main__":
    main()
