"""Before anything is spent: one small structured request per model, so that a server that cannot work says so.

Roles that share a model and server share the call. A recorded file, a model your own code builds
(`import:`) and an injected instance are not asked: nothing of theirs can be checked this way.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from graph.config.errors import UserError
from graph.llm.gateway import LLMGateway
from graph.llm.models import PROVIDERS
from nodes.common import instructed
from nodes.ports import ModelCallFailed
from prompts import preflight as prompt
from state.schemas import PreflightReply
from state.usage import ModelCall, Role


class PreflightFailed(UserError):
    """A model did not answer the preflight: its server, its name or its key needs a fix."""


@dataclass(frozen=True)
class Checked:
    """One model's answer to the preflight."""

    roles: tuple[Role, ...]
    server: str
    """The model and the server it answered on (`RoleModel.server`)."""
    mode: str
    """The structured-output mode it answered in."""
    call: ModelCall

    def lines(self) -> list[str]:
        """A line per role: its model and server, the mode, the latency and the tokens of the call it shares."""
        call = self.call
        figures = f"{self.mode}, {call['seconds']:.1f} s, {call['input_tokens']}+{call['output_tokens']} tokens"
        shared = f" (one call for {', '.join(self.roles)})" if len(self.roles) > 1 else ""
        return [f"{role:<10} {self.server}: {figures}{shared}" for role in self.roles]


def checked_servers(gateway: LLMGateway) -> dict[tuple[str, str], list[Role]]:
    """The roles of each model server and mode the preflight asks, in role order (roles that name different modes
    for one server are asked apart); recorded and imported models left out."""
    servers: dict[tuple[str, str], list[Role]] = {}
    for role, model in gateway.roles.items():
        if model.provider in PROVIDERS:
            servers.setdefault((model.server, model.mode), []).append(role)
    return servers


async def preflight(gateway: LLMGateway) -> list[Checked]:
    """Ask every model server once, at the same time; `PreflightFailed` (or the gateway's `ProviderUnavailable`:
    a refused key, an unreachable server, every structured-output mode refused) names the first that failed."""

    async def ask(roles: list[Role]) -> Checked:
        model = gateway.roles[roles[0]]
        messages = instructed(prompt.SYSTEM, prompt.USER)
        try:  # never from the cache: the server itself must answer
            _, call = await gateway.ask(roles[0], PreflightReply, messages, node="preflight", cached=False)
        except ModelCallFailed as failed:
            raise PreflightFailed(
                f"{', '.join(roles)}: {model.server} did not answer a small structured request ({failed}); check the "
                "model's name, --llm-base-url, and that the server is serving it"
            ) from None
        return Checked(tuple(roles), model.server, gateway.modes.mode_of(model), call)

    return list(await asyncio.gather(*(ask(roles) for roles in checked_servers(gateway).values())))
