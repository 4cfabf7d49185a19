"""A record as its reviewers left it (`graph.export --reviewed`): who reviewed it and what they changed."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from state.record import DatasetRecord


class ReviewNote(BaseModel):
    """Who reviewed a record and what they changed (`graph.export --reviewed`)."""

    model_config = ConfigDict(extra="forbid")

    reviewers: list[str]
    criteria: dict[str, bool]
    """Every criterion of the record's type, each passed by every reviewer."""
    relabelled: list[str]
    """The contexts whose relevance the reviewers' majority changed."""
    requoted: list[dict[str, str]] = Field(default_factory=list)
    """Quotes the reviewers' majority corrected: chunk_id, quote (the record's), now (theirs)."""
    quote_ties: list[dict[str, Any]] = Field(default_factory=list)
    """Quotes the reviewers corrected without a majority (kept as the record has them): chunk_id, quote, votes."""


class ReviewedRecord(DatasetRecord):
    """A record as its reviewers left it: accepted by each of them, its contexts' relevance as they have it."""

    review: ReviewNote
