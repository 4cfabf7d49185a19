"""What a refresh does with each record of a dataset, and the sample threads that judge stale ones again.

From a record's drift (`graph.living.drift`):

    fresh                                         kept as it is
    re-pointed (chunks moved, texts unchanged)    its chunk ids re-pointed
    re-pointed or flagged by its evidence         its question, answer and verdicts kept; its supporting chunks
    (its facts in other chunks, or beside         the chunks that hold its facts now; its contexts drawn and
    changed ones)                                 labelled again (labeller calls only)
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

from graph.folder.check_file import RecordCheck
from graph.running.runner import SampleResult, SampleRunner
from nodes.common import chunk_ref
from nodes.starts import state_after
from state.draft import Draft, QuoteRef
from state.query_styles import NATURAL
from state.record import DatasetRecord, text_digest
from state.sample import UNANSWERABLE, KnownRelevance, RePointing, Restyle, RestyleCheck, SampleInput, Turn
from state.threads import ThreadId

KEEP, RE_POINT, FOLLOW, RE_JUDGE, RELABEL, DROP = "keep", "re-point", "follow", "re-judge", "relabel", "drop"


@dataclass
class RecordDecision:
    """What the refresh does with one record, and why."""

    n: int
    """The record's slot in the run (`<run_id>/<n>`)."""
    record: DatasetRecord
    drift: RecordCheck
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


def decide(record: DatasetRecord, drift: RecordCheck) -> RecordDecision:
    """What to do with `record`, from its drift."""
    n = slot_of(record)
    status = drift["status"]
    if status == "fresh":
        return RecordDecision(n, record, drift, KEEP, "unchanged")
    if "facts" in drift:
        return _decide_by_evidence(n, record, drift)
    if status == "re-pointed":
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


def _decide_by_evidence(n: int, record: DatasetRecord, drift: RecordCheck) -> RecordDecision:
    """A quoted record: re-pointed without a call where every chunk's text is unchanged under its id or another;
    followed into the chunks that hold its facts where they moved or their neighbours changed; judged again where
    a quote changed in a chunk that is still there; else dropped (its cell is filled again)."""
    status, reason = drift["status"], drift.get("reason", "")
    if status in ("re-pointed", "flagged"):
        moved_only = not drift["changed"] and not drift["gone"] and not drift["shared"]
        if moved_only and all(fact["how"] == "in place" or fact["from"] in drift["moved"] for fact in drift["facts"]):
            return RecordDecision(n, record, drift, RE_POINT, "its chunks' texts are unchanged under new ids")
        return RecordDecision(n, record, drift, FOLLOW, f"{status}: {reason}")
    supporting = {c.id for c in record.supporting}
    if (supporting & set(drift["changed"])) and not (supporting & set(drift["gone"])):
        return RecordDecision(n, record, drift, RE_JUDGE, f"stale: {reason}")
    return RecordDecision(n, record, drift, DROP, f"stale: {reason}")


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
    if decision.action == FOLLOW:
        return await _follow_start(decision, corpus, base)
    on_chunks = await _on_chunks(record, [moved.get(c.id, c.id) for c in record.supporting], corpus, base)
    if isinstance(on_chunks, str):
        return f"supporting chunk {on_chunks} is gone"
    values = on_chunks
    if decision.action == RELABEL:  # the draft stands as judged: only its contexts are extracted again
        values["drafts"] = [draft_of(record, record.validation.revisions)]
        return ThreadStart(state_after("check_duplicate", _kept_draft(record, values)), "check_duplicate")
    values |= {"drafts": [draft_of(record, 0)], "verdicts": [], "revisions": 0, "revisions_left": max_revisions}
    return ThreadStart(state_after("generate_question", values), "generate_question")


async def _on_chunks(record: DatasetRecord, ids: list[str], corpus: Any, base: dict[str, Any]) -> dict[str, Any] | str:
    """The thread's state on the chunks `ids` as the store has them now (its supporting chunks, seeded by the first),
    with the record's bridge topic and labels; or the ids that are gone, as one phrase."""
    found = {str(chunk.id): chunk for chunk in await corpus.get(ids)}
    if missing := [chunk_id for chunk_id in ids if chunk_id not in found]:
        return ", ".join(missing)
    supporting = [chunk_ref(found[chunk_id]) for chunk_id in ids]
    return base | {
        "hops": len(supporting),
        "seed": supporting[0],
        "supporting": supporting,
        "bridge_topic": record.bridge_topic,
        "known_relevance": known_relevance(record),
    }


def _kept_draft(record: DatasetRecord, values: dict[str, Any]) -> dict[str, Any]:
    """The state of a record whose draft stands as judged: its verdicts, its revisions spent, its question claimed
    by its sample, its rewrite kept."""
    revisions = record.validation.revisions
    return values | {
        "verdicts": list(record.validation.verdicts),
        "revisions": revisions,
        "revisions_left": 0,
        "temporal": record.temporal,
        "question_claimed": True,
        **kept_rewrite(record),
    }


async def _follow_start(decision: RecordDecision, corpus: Any, base: dict[str, Any]) -> ThreadStart | str:
    """A record followed into the chunks that hold its facts now: they become its supporting chunks, its quotes
    their verbatim parts; the thread starts at extract_contexts, which draws and labels its contexts there."""
    record, drift = decision.record, decision.drift
    ids = list(dict.fromkeys(chunk_id for fact in drift["facts"] for chunk_id in fact["to"]))
    values = await _on_chunks(record, ids, corpus, base)
    if isinstance(values, str):
        return f"chunk {values} that holds its facts is gone"
    draft = draft_of(record, record.validation.revisions)
    draft["evidence"] = [
        QuoteRef(chunk_id=chunk_id, quote=quote)
        for fact in drift["facts"]
        for chunk_id, quote in zip(fact["to"], fact["quotes"], strict=True)
    ]
    re_pointing = RePointing(
        collection=drift.get("collection"), supporting=drift["supporting"], shared=drift["shared"],
        reason=decision.reason,
    )  # fmt: skip
    values |= {"drafts": [draft], "re_pointing": re_pointing}
    return ThreadStart(state_after("check_duplicate", _kept_draft(record, values)), "check_duplicate")


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
    """A record judged, relabelled or followed again in its thread (`decision.action` RE_JUDGE, RELABEL or FOLLOW).
    A thread that ends without a usable model answer is followed by a new one, `NEW_ATTEMPTS` per refresh and
    `MAX_ATTEMPTS` in all; a record still unjudged comes back `failed`: neither kept nor dropped."""
    done = "contexts extracted again" if decision.action in (RELABEL, FOLLOW) else "judged again"
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
