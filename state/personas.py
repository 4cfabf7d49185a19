"""Personas: who asks a run's questions, each with a share of its samples (`--personas FILE`).

A persona's description is the asker every prompt of its samples names (the generator's role and the
query-style rewrite's asker); its name goes in the record (`persona`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NotRequired, TypedDict


class Persona(TypedDict):
    """Who asks some of a run's questions."""

    name: str
    """What the record calls them (`persona`)."""
    description: str
    """Who they are and what they ask about: the asker the prompts of their samples name."""
    share: NotRequired[float]
    """Their share of the run's samples, 0 to 1; absent for every persona: equal shares."""


#: How close given shares must sum to 1.
SUM_TOLERANCE = 1e-6


def personas_problem(personas: Sequence[Mapping[str, object]]) -> str | None:
    """What is wrong with a run's personas, in one line naming the fix; None when a run can use them."""
    if not personas:
        return "--personas: the file lists no persona; give each a name and a description"
    names = []
    for index, persona in enumerate(personas, start=1):
        name, description = persona.get("name"), persona.get("description")
        if not isinstance(name, str) or not name.strip():
            return f"--personas: persona {index} has no name; give it one"
        if not isinstance(description, str) or not description.strip():
            return f"--personas: persona {name!r} has no description; say who they are and what they ask about"
        share = persona.get("share")
        if share is not None and (isinstance(share, bool) or not isinstance(share, int | float) or not 0 <= share <= 1):
            return f"--personas: the share of {name!r} is {share!r}; give a share from 0 to 1"
        names.append(name.strip())
    if len(set(names)) < len(names):
        return "--personas: two personas have the same name; name each one apart"
    shares = [persona.get("share") for persona in personas]
    if all(share is not None for share in shares) and abs(sum(shares) - 1) > SUM_TOLERANCE:  # type: ignore[arg-type]
        return f"--personas: the shares sum to {sum(shares):g}; make them sum to 1, or give none"  # type: ignore[arg-type]
    if any(share is not None for share in shares) and not all(share is not None for share in shares):
        return "--personas: give every persona a share, or none (equal shares)"
    return None


def persona_order(personas: Sequence[Persona], count: int) -> list[int]:
    """Which persona (its index) asks each of `count` places, spread so that every prefix keeps close to the shares
    (equal shares when none are given)."""
    shares = [float(share) if (share := p.get("share")) is not None else 1 / len(personas) for p in personas]
    given = [0] * len(personas)
    order = []
    for place in range(1, count + 1):
        behind = [share * place - given[index] for index, share in enumerate(shares)]
        chosen = max(range(len(personas)), key=lambda index: (behind[index], -index))
        given[chosen] += 1
        order.append(chosen)
    return order


def persona_quotas(personas: Sequence[Persona], count: int) -> dict[str, int]:
    """Samples per persona, by name: `count` split by the shares (equal when none are given), summing to it."""
    order = persona_order(personas, count)
    return {persona["name"]: order.count(index) for index, persona in enumerate(personas)}
