"""A dataset as its reviewers left it: only samples they accepted on every criterion, relevance corrected."""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from graph.reviewing.labels import criteria_for
from state.record import MIN_UNANSWERABLE_CONTEXTS
from state.threads import slot_number


def reviewed_records(records: list[dict[str, Any]], reviews: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records every reviewer of which passed all its criteria (the paper's four; plausible and unanswered
    for a generated unanswerable question), each with its contexts' relevance as the reviewers' majority has
    it (a tie keeps the labeller's) and a `review` entry naming them.

    A context relabelled relevant leaves the unanswerable variant, which is dropped when fewer than two
    non-relevant contexts remain; it drops a generated unanswerable question altogether.
    """
    by_sample: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for review in reviews:
        by_sample[review["n"]].append(review)
    kept = []
    for record in records:
        slot = slot_number(record["id"])
        given = None if slot is None else by_sample.get(slot)
        criteria = criteria_for(record["question_type"])
        if not given or not all(all(r["labels"].get(name) is True for name in criteria) for r in given):
            continue
        corrected = copy.deepcopy(record)
        relabelled = []
        for context in corrected["contexts"]:
            votes = [bool((r["labels"].get("relevance") or {}).get(context["id"], context["relevant"])) for r in given]
            yes, no = sum(votes), len(votes) - sum(votes)
            relevant = context["relevant"] if yes == no else yes > no
            if relevant != context["relevant"]:
                relabelled.append(context["id"])
                context["relevant"] = relevant
        if relabelled and not corrected.get("answerable", True):
            continue  # a retrieved chunk that reviewers found relevant answers a generated unanswerable question
        corrected["n_relevant"] = sum(context["relevant"] for context in corrected["contexts"])
        variant = corrected.get("unanswerable")
        if variant is not None:
            relevant_ids = {c["id"] for c in corrected["contexts"] if c["relevant"]}
            remaining = [i for i in variant["contexts"] if i not in relevant_ids]
            corrected["unanswerable"] = (
                {**variant, "contexts": remaining} if len(remaining) >= MIN_UNANSWERABLE_CONTEXTS else None
            )
        corrected["review"] = {
            "reviewers": sorted(r["reviewer"] for r in given),
            "criteria": dict.fromkeys(criteria, True),
            "relabelled": relabelled,
        }
        kept.append(corrected)
    return kept
