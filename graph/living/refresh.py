"""What a refresh does with each record of a dataset, and the sample threads that judge stale ones again.

From a record's drift (`graph.living.drift`):

    fresh                                         kept as it is
    re-pointed (chunks moved, texts unchanged)    its chunk ids re-pointed
    a supporting chunk gone                       dropped
    a supporting chunk changed                    judged again on the new texts (quality, sufficiency), revised
                                                  within the run's revisions, its contexts extracted again
    only contexts changed or gone                 its contexts extracted again (labels of unchanged texts kept)
    a generated unanswerable question, stale      judged again on what its retrieval returns now, written
                                                  again within the run's revisions

A record judged again runs in a sample thread of its own, `<run_id>/<n>@v<version>` (`.2`, `.3` for a
new attempt after a model gave no usable answer), started from a
checkpoint that holds the record's draft on the store's texts as if the node before the first check
had just written it: a crash resumes it, and LangGraph Studio and `graph.replay` open it like any sample.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from graph.running.runner import SampleResult, SampleRunner
from nodes.common import chunk_ref
from nodes.starts import state_after
from state.query_styles import NATURAL
from state.record import DatasetRecord, text_digest
from state.sample import UNANSWERABLE, Draft, KnownRelevance, QuoteRef, Restyle, RestyleCheck, SampleInput, Turn
from state.threads import ThreadId

KEEP, RE_POINT, RE_JUDGE, RELABEL, DROP = "keep", "re-point", "re-judge", "relabel", "drop"


@dataclass
class RecordDecision:
    """What the refresh does with one record, and why."""

    n: int
    """The record's slot in the run (`<run_id>/<n>`)."""
    record: DatasetRecord
    drift: dict[str, Any]
    """Its entry of the check (`check_records`)."""
    action: str
    reason: str

    @property
    def chunks(self) -> list[str]:
        """The chunk ids its drift names: changed, gone, moved and unchecked."""
        drift = self.drift
        return sorted({*drift["changed"], *drift["gone"], *drift["moved"], *drift["unchecked"]})


def slot_of(record: DatasetRecord) -> int:
    """The slot number of a record of a run (`<run_id>/<n>`)."""
    return ThreadId.parse(record.id).n


def decide(record: DatasetRecord, drift: dict[str, Any]) -> RecordDecision:
    """What to do with `record`, from its drift."""
    n = slot_of(record)
    if drift["status"] == "fresh":
        return RecordDecision(n, record, drift, KEEP, "unchanged")
    if drift["status"] == "re-pointed":
        return RecordDecision(n, record, drift, RE_POINT, "its chunks' texts are unchanged under new ids")
    if not record.answerable:
        why = (
            f"chunks its judge never read are now retrieved for it: {', '.join(drift['unchecked'])}"
            if drift["unchecked"]
            else "a chunk its judge read changed or is gone"
        )
        return RecordDecision(n, record, drift, RE_JUDGE, why)
    supporting = {c.id for c in record.supporting}
    if gone := sorted(supporting & set(drift["gone"])):
        return RecordDecision(n, record, drift, DROP, f"supporting chunk {', '.join(gone)} is gone")
    if changed := sorted(supporting & set(drift["changed"])):
        return RecordDecision(n, record, drift, RE_JUDGE, f"supporting chunk {', '.join(changed)} changed")
    return RecordDecision(n, record, drift, RELABEL, "a context changed or is gone")


def re_pointed(record: DatasetRecord, moved: dict[str, str], version: int) -> DatasetRecord:
    """The record with every moved chunk id replaced by the id its text is under now."""
    new = record.model_copy(deep=True, update={"version": version})
    for supporting in new.supporting:
        supporting.id = moved.get(supporting.id, supporting.id)
        for fact in supporting.evidence:
            for place in fact.locations():
                place.chunk_id = moved.get(place.chunk_id, place.chunk_id)
    for context in new.contexts:
        context.id = moved.get(context.id, context.id)
    if new.unanswerable is not None:
        new.unanswerable.contexts = [moved.get(i, i) for i in new.unanswerable.contexts]
    if (check := new.retrieval_check) is not None:
        check.chunk_ids = [moved.get(i, i) for i in check.chunk_ids]
        check.seed_id = moved.get(check.seed_id, check.seed_id)
    return new


def thread_of(decision: RecordDecision, version: int, run_id: str, attempt: int = 1) -> str:
    """The record's refresh thread; a later attempt (after a model gave no usable answer) has its own."""
    return str(ThreadId(run_id, decision.n).refreshed(version, attempt))


@dataclass(frozen=True)
class RecordRefresh:
    """What the refresh did with a record: its new version (None: dropped), why, and the thread that judged it."""

    record: DatasetRecord | None
    reason: str
    thread_id: str | None = None
    failed: bool = False
    """No usable model answer: the record is neither kept nor dropped until a refresh judges it."""


@dataclass(frozen=True)
class ThreadStart:
    """The checkpoint a record's refresh thread starts from: its state, written as if `as_node` had just run."""

    values: dict[str, Any]
    as_node: str


def draft_of(record: DatasetRecord, revision: int) -> Draft:
    draft = Draft(
        question=record.canonical_question, answer=record.answer, origin="generate" if revision == 0 else "revise",
        revision=revision,
    )  # fmt: skip
    draft["construction"] = copy.deepcopy(record.construction)
    if record.evidence_status == "quoted":  # the quotes go with the draft, and lint holds them to the chunks as now
        draft["evidence"] = [
            QuoteRef(chunk_id=chunk.id, quote=fact.quote) for chunk in record.supporting for fact in chunk.evidence
        ]
    return draft


def known_relevance(record: DatasetRecord) -> KnownRelevance:
    """The record's distractor labels by text, for the question and answer they were given for."""
    labels = {text_digest(c.text): c.relevant for c in record.contexts if c.origin == "distractor"}
    return KnownRelevance(question=record.canonical_question, answer=record.answer, labels=labels)


def kept_rewrite(record: DatasetRecord) -> dict[str, Any]:
    """The record's rewrite in its query style, as passed: a draft that stands keeps the question as it was asked."""
    if record.query_style == NATURAL:
        return {}
    restyle = Restyle(query_style=record.query_style, question=record.question, attempt=0)
    if record.turns:
        restyle["turns"] = [Turn(role=t.role, content=t.content) for t in record.turns[:-1]]
    check = RestyleCheck(attempt=0, accepted=True, reason="", details={"kept_from": record.version})
    return {"restyles": [restyle], "restyle_checks": [check]}


async def thread_start(
    decision: RecordDecision, corpus: Any, thread_id: str, max_revisions: int, neighbours_n: int
) -> ThreadStart | str:
    """Where the record's refresh thread starts, on the store's texts as they are now; or why it cannot start
    (a chunk it needs is gone)."""
    record, moved = decision.record, decision.drift["moved"]
    base: dict[str, Any] = {
        "question_type": record.question_type,
        "binary": record.binary,
        "role": record.role,
        "thread_id": thread_id,
        **({"language": record.language} if record.language else {}),
        # A revised question is asked again in the style the record was asked in, by the same persona.
        **({"query_style": record.query_style} if record.query_style != NATURAL else {}),
        **({"persona": record.persona} if record.persona else {}),
    }
    if record.question_type == UNANSWERABLE and record.retrieval_check is not None:
        seed_id = record.retrieval_check.seed_id
        found = await corpus.get([moved.get(seed_id, seed_id)])
        if not found:
            return f"the chunk it was written from ({seed_id}) is gone"
        seed = chunk_ref(found[0])
        hits = await corpus.neighbours(seed["id"], neighbours_n)
        values = base | {
            "hops": 2,
            "seed": seed,
            "neighbours": [chunk_ref(hit.chunk) for hit in hits],
            "drafts": [draft_of(record, 0)],
            "verdicts": [],
            "revisions": 0,
            "revisions_left": max_revisions,
        }
        return ThreadStart(state_after("generate_unanswerable", values), "generate_unanswerable")
    ids = [moved.get(c.id, c.id) for c in record.supporting]
    found = {str(chunk.id): chunk for chunk in await corpus.get(ids)}
    if missing := [chunk_id for chunk_id in ids if chunk_id not in found]:
        return f"supporting chunk {', '.join(missing)} is gone"
    supporting = [chunk_ref(found[chunk_id]) for chunk_id in ids]
    values = base | {
        "hops": len(supporting),
        "seed": supporting[0],
        "supporting": supporting,
        "bridge_topic": record.bridge_topic,
        "known_relevance": known_relevance(record),
    }
    if decision.action == RELABEL:  # the draft stands as judged: only its contexts are extracted again
        revisions = record.validation.revisions
        values |= {
            "drafts": [draft_of(record, revisions)],
            "verdicts": list(record.validation.verdicts),
            "revisions": revisions,
            "revisions_left": 0,
            "temporal": record.temporal,
            "question_claimed": True,  # the record's own question, claimed by its sample
            **kept_rewrite(record),
        }
        return ThreadStart(state_after("check_duplicate", values), "check_duplicate")
    values |= {"drafts": [draft_of(record, 0)], "verdicts": [], "revisions": 0, "revisions_left": max_revisions}
    return ThreadStart(state_after("generate_question", values), "generate_question")


async def run_refresh_thread(runner: SampleRunner, thread_id: str, start: ThreadStart) -> SampleResult:
    """The record's refresh thread run to its end: started from `start` when it has no checkpoint yet, else
    continued (a finished one is read back without a model call)."""
    config = runner.config(thread_id)
    snapshot = await runner.graph.aget_state(config)
    if not snapshot.values:
        await runner.edit_state(config, start.values, as_node=start.as_node)
    spec = SampleInput(question_type=start.values["question_type"], binary=start.values["binary"])
    return await runner.run(spec, thread_id)


def refreshed_record(result: SampleResult, decision: RecordDecision) -> DatasetRecord:
    """The accepted record of a refresh thread under the record's own id, linked to the same real query."""
    assert result.record is not None
    return DatasetRecord.model_validate(
        result.record | {"id": decision.record.id, "seed_query": decision.record.seed_query}
    )


#: Threads a record may end in without a usable model answer, in all and new per refresh.
MAX_ATTEMPTS, NEW_ATTEMPTS = 6, 2


async def refresh_record(
    runner: SampleRunner, decision: RecordDecision, corpus: Any, version: int, max_revisions: int
) -> RecordRefresh:
    """A record judged or relabelled again in its thread (`decision.action` RE_JUDGE or RELABEL). A thread that ends
    without a usable model answer is followed by a new one, `NEW_ATTEMPTS` per refresh and `MAX_ATTEMPTS` in
    all; a record still unjudged comes back `failed`: neither kept nor dropped."""
    done = "contexts extracted again" if decision.action == RELABEL else "judged again"
    started = 0
    for attempt in range(1, MAX_ATTEMPTS + 1):
        thread_id = thread_of(decision, version, runner.context.run_id, attempt)
        start = await thread_start(decision, corpus, thread_id, max_revisions, runner.context.neighbours_n)
        if not isinstance(start, ThreadStart):
            return RecordRefresh(None, start)
        started += not (await runner.graph.aget_state(runner.config(thread_id))).values
        result = await run_refresh_thread(runner, thread_id, start)
        if result.outcome != "failed" or started >= NEW_ATTEMPTS:
            break
    reason = f"{decision.reason}; {done}: {result.state.get('end_reason', result.outcome)}"
    if result.outcome == "failed":
        return RecordRefresh(None, reason, thread_id, failed=True)
    if result.record is None:
        return RecordRefresh(None, reason, thread_id)
    revisions_before = start.values.get("revisions") or 0 if isinstance(start, ThreadStart) else 0
    revised = result.state.get("revisions", 0) > revisions_before
    accepted = f"{decision.reason}; {done}: accepted{', revised' if revised else ''}"
    return RecordRefresh(refreshed_record(result, decision), accepted, thread_id)
