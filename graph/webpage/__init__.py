"""What triad's three HTML pages share (the review app, report.html, eval-report.html): escaping,
tables, the page frame and the style and script files beside this module.

Every page is self-contained: its style and script are written into it, nothing is loaded from the network.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Sequence
from importlib import resources
from typing import Any


@functools.cache
def asset(name: str) -> str:
    """A style sheet or script of this package (`review.css`, `review.js`, `report.css`)."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def esc(value: Any) -> str:
    """`value` as text that cannot act as markup."""
    return html.escape(str(value))


def document(title: str, body: str, *, style: str, script: str = "") -> str:
    """A whole page: `body` under `title`, with the named style sheet and `script` written in."""
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>'
        f"<style>{asset(style)}</style></head><body>{body}"
        + (f"<script>{script}</script>" if script else "")
        + "</body></html>"
    )


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{esc(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
