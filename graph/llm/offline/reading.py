"""What a scripted model reads of a request: its material, the parts inside delimiting tags, a chunk's heading and
section, and the language it asks for."""

from __future__ import annotations

import functools
import re

from langchain_core.messages import BaseMessage

from state.languages import LANGUAGE_NAMES

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


def heading(text: str) -> str:
    """A chunk's first line."""
    return text.split("\n", 1)[0].strip()


def section(text: str) -> tuple[str, str]:
    """(number, title) of a chunk's first line, e.g. ("25.1", "Routine Vacuuming")."""
    match = re.match(r"(\d+(?:\.\d+)*)\.\s+(.*)", heading(text))
    return (match.group(1), match.group(2)) if match else ("", heading(text)[:60])


#: A language's English name, as a request names it -> its ISO 639-1 code.
CODES_BY_NAME = {name: code for code, name in LANGUAGE_NAMES.items()}


def asked_language(text: str) -> str:
    """The language a request asks the question in (its English name in the prompt), as a code."""
    match = re.search(r"(?:answer|would ask it,) in ([A-Z][A-Za-z ]+?)[,(.]", text)
    return CODES_BY_NAME.get(match.group(1).strip(), "en") if match else "en"
