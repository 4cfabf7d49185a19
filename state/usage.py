"""What one model call cost: the unit of token and cost accounting."""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

Role = Literal["generator", "validator", "extractor"]
ROLES: tuple[Role, ...] = ("generator", "validator", "extractor")

StructuredMode = Literal["json_schema", "json_object", "tool", "text"]
"""How a model is asked for a reply that fits a schema (graph.llm.modes)."""
STRUCTURED_MODES: tuple[StructuredMode, ...] = ("json_schema", "json_object", "tool", "text")
AUTO_MODE = "auto"
"""Any mode the server takes: the provider's best first, the next on a refusal."""


class ModelCall(TypedDict):
    """One model request as it was paid for (or served from the cache or a recorded file)."""

    role: Role
    """Which role asked: generator, validator or extractor."""
    node: str
    """The graph node that made the call."""
    model: str
    """Model spec that answered, e.g. `google_genai:gemini-2.5-flash`."""
    input_tokens: int
    """Prompt tokens reported by the provider (0 when served without a provider call)."""
    output_tokens: int
    """Completion tokens reported by the provider, thinking tokens included (they are billed as output)."""
    cached_tokens: NotRequired[int]
    """Of the input tokens, those the provider served from its prompt cache (billed at the cached price)."""
    thinking_tokens: NotRequired[int]
    """Of the output tokens, those the model spent thinking."""
    thinking_cost_usd: NotRequired[float]
    """Of the cost, what the thinking tokens cost (at the output price)."""
    cost_usd: float
    """Cost from the price table; 0 for cached or recorded answers."""
    source: Literal["provider", "cache", "recorded"]
    """Where the answer came from."""
    attempts: int
    """Provider requests made, counting transient-error retries and schema retries."""
    seconds: float
    """Wall time of the call, waits included."""
