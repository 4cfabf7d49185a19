"""What a scripted model reads of a request: its material, and the parts inside delimiting tags."""

from __future__ import annotations

import functools
import re

from langchain_core.messages import BaseMessage

_OPENING = re.compile(r'<(chunk|candidate|question|answer) label="([^"]+)">\n')


def prompt(messages: list[BaseMessage]) -> str:
    """The request's material: its first human message (later ones are re-asks after an unusable reply)."""
    return str(next((m.content for m in messages if m.type == "human"), messages[-1].content))


def tagged(messages: list[BaseMessage], tag: str) -> dict[str, str]:
    return {label: body for kind, label, body in _tagged_parts(prompt(messages)) if kind == tag}


@functools.lru_cache(maxsize=256)  # a reply reads several tags of one prompt
def _tagged_parts(text: str) -> tuple[tuple[str, str, str], ...]:
    """(tag, label, body) of each tagged part, in order; a tag without its closing line is skipped."""
    parts, position = [], 0
    while (opening := _OPENING.search(text, position)) is not None:
        tag = opening.group(1)
        closing = f"\n</{tag}>"
        end = text.find(closing, opening.end())
        if end < 0:
            position = opening.start() + 1
            continue
        parts.append((tag, opening.group(2), text[opening.end() : end]))
        position = end + len(closing)
    return tuple(parts)
