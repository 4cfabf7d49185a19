"""A run's dataset as other tools read it: rows in the export formats.

Formats: `ragas` (JSONL with user_input, reference, reference_contexts, reference_context_ids and
reference_context_sources, where each context comes from: "guide.pdf, p. 12, 3.2 Backups"; reference_evidence,
each fact the answer needs with its quote and where it stands, none in the unanswerable split; the question as asked
in `user_input`, the validated one in `canonical_question`, its query style as triad names it in
`query_style_name` and as RAGAS does in `query_style` and `query_length`; follow-ups go to a second file,
`<name>.multi-turn.jsonl`, whose `user_input` is the conversation as RAGAS's multi-turn samples hold it, since
RAGAS loads the two kinds apart; every format carries a follow-up's `turns`),
`hf` (a folder `datasets.load_from_disk` reads), `csv`, `hotpotqa` (question, answer, supporting
facts by chunk id, context list). The answerable split holds the answerable questions. The
unanswerable split holds, where the expected behaviour is to abstain, each answerable record's
simulated variant (`variant` "simulated": the question with only non-relevant contexts given) and
the generated unanswerable questions (`variant` "generated": no contexts given, the system under
test retrieves for itself; `checked_context_ids` are the chunks the collection's retriever returned
when the question was checked, none answering it).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from graph.config.errors import UserError, writing
from graph.folder.files import write_atomically
from nodes.question_types import type_spec
from state.record import DatasetRecord
from state.reviewed import ReviewedRecord

ABSTAIN = "abstain"


def hotpotqa_type(question_type: str) -> str:
    """HotpotQA's name of a question type (`QuestionTypeSpec.hotpotqa`); a type it lacks, and a generated
    unanswerable question, keep their own."""
    spec = type_spec(question_type)
    return (spec.hotpotqa if spec else None) or question_type


def answerable_rows(records: list[DatasetRecord]) -> list[dict[str, Any]]:
    rows = []
    for record in records:
        if not record.answerable:
            continue
        relevant = [c for c in record.contexts if c.relevant]
        rows.append(
            {
                "id": record.id,
                "user_input": record.question,
                "reference": record.answer,
                "reference_contexts": [c.text for c in relevant],
                "reference_context_ids": [c.id for c in relevant],
                "reference_context_sources": record.places(relevant),
                "reference_evidence": evidence_column(record),
                "evidence_status": record.evidence_status,
                "question_type": record.question_type,
                "binary": record.binary,
                "language": record.language,
                "temporal": record.temporal,
                "difficulty": record.difficulty,
                **construction_columns(record),
                **style_columns(record),
                **(review_columns(record) if isinstance(record, ReviewedRecord) else {}),
            }
        )
    return rows


def review_columns(record: ReviewedRecord) -> dict[str, Any]:
    """Who reviewed a record, and the quotes they corrected (their majority's) or left tied."""
    return {"reviewers": record.review.reviewers, "requoted": record.review.requoted,
            "quote_ties": record.review.quote_ties}  # fmt: skip


#: RAGAS's names (its testset samples' `query_style` and `query_length`) for each query style.
RAGAS_STYLES = {
    "natural": ("Perfect grammar", "medium"),
    "keyword": ("Web search like queries", "medium"),
    "short": ("Perfect grammar", "short"),
    "verbose": ("Perfect grammar", "long"),
    "misspelled": ("Misspelled queries", "medium"),
    "poor-grammar": ("Poor grammar", "medium"),
    "follow-up": ("Perfect grammar", "short"),
}
#: RAGAS's message types (its multi-turn samples' `user_input`) for a conversation's roles.
RAGAS_MESSAGE_TYPES = {"user": "human", "assistant": "ai"}


def multi_turn(row: dict[str, Any]) -> dict[str, Any]:
    """A follow-up's row as a RAGAS multi-turn sample: `user_input` is its conversation, as RAGAS's messages."""
    messages = [{"content": turn["content"], "type": RAGAS_MESSAGE_TYPES[turn["role"]]} for turn in row["turns"]]
    return row | {"user_input": messages}


def multi_turn_path(output: Path) -> Path:
    """Where a RAGAS export puts its follow-ups: RAGAS loads single-turn and multi-turn samples apart."""
    return output.with_name(f"{output.stem}.multi-turn{output.suffix}")


def style_columns(record: DatasetRecord) -> dict[str, Any]:
    """How the question is asked (`user_input` is a follow-up's last turn, its conversation in `turns`): the
    canonical question beside it, triad's query style and RAGAS's names for it."""
    ragas_style, ragas_length = RAGAS_STYLES.get(record.query_style, RAGAS_STYLES["natural"])
    return {
        "canonical_question": record.canonical_question,
        "query_style_name": record.query_style,
        "query_style": ragas_style,
        "query_length": ragas_length,
        "persona_name": record.persona,
        "turns": record.conversation(),
    }


def evidence_column(record: DatasetRecord) -> list[dict[str, Any]]:
    """Each fact the answer needs: its quote and where it stands (chunk and its offsets; document and its offsets
    where known), then its other locations."""
    return [
        {"quote": fact.quote, **fact.location.model_dump(), "also_in": [place.model_dump() for place in fact.also_in]}
        for fact in record.facts()
    ]


def construction_columns(record: DatasetRecord) -> dict[str, list[str]]:
    """What the generator declared: the compared entities, and the hidden entities of a composition."""
    return {
        "compared_entities": list(record.construction["compared_entities"]),
        "hidden_entities": [hidden["entity"] for hidden in record.construction["hidden_entities"]],
    }


def unanswerable_rows(records: list[DatasetRecord]) -> list[dict[str, Any]]:
    rows = []
    for record in records:
        if not record.answerable:
            checked = record.retrieval_check.chunk_ids if record.retrieval_check is not None else []
            rows.append(
                {
                    "id": record.id,
                    "user_input": record.question,
                    "reference": ABSTAIN,
                    "retrieved_contexts": [],
                    "retrieved_context_ids": [],
                    "retrieved_context_sources": [],
                    "checked_context_ids": list(checked),
                    "reference_evidence": [],  # no fact answers it
                    "expected": ABSTAIN,
                    "variant": "generated",
                    "question_type": record.question_type,
                    "binary": record.binary,
                    "language": record.language,
                    **style_columns(record),
                }
            )
            continue
        if record.unanswerable is None:
            continue
        shown = [record.context(i) for i in record.unanswerable.contexts]
        rows.append(
            {
                "id": f"{record.id}#unanswerable",
                "user_input": record.question,
                "reference": ABSTAIN,
                "retrieved_contexts": [c.text for c in shown],
                "retrieved_context_ids": [c.id for c in shown],
                "retrieved_context_sources": record.places(shown),
                "checked_context_ids": [],
                "reference_evidence": [],  # its contexts state no fact the answer needs
                "expected": ABSTAIN,
                "variant": "simulated",
                "question_type": record.question_type,
                "binary": record.binary,
                "language": record.language,
                **style_columns(record),
            }
        )
    return rows


def to_jsonl(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def _cell(value: Any) -> Any:
    """A CSV cell: a list of names as `a|b`, a list of objects (a follow-up's turns) as JSON."""
    if isinstance(value, list) and any(isinstance(item, dict) for item in value):
        return json.dumps(value, ensure_ascii=False)
    return "|".join(map(str, value)) if isinstance(value, list) else value


def to_csv(rows: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(v) for k, v in row.items()})
    return buffer.getvalue()


def to_hotpotqa(records: list[DatasetRecord], unanswerable: bool) -> str:
    items = []
    for record in records:
        generated = not record.answerable
        wanted = (generated or record.unanswerable is not None) if unanswerable else not generated
        if not wanted:
            continue
        shown = (
            [record.context(i) for i in record.unanswerable.contexts]
            if unanswerable and record.unanswerable is not None
            else record.contexts
        )
        items.append(
            {
                "_id": record.id,
                "question": record.question,
                "canonical_question": record.canonical_question,
                "query_style": record.query_style,
                "persona": record.persona,
                "turns": record.conversation(),
                "answer": ABSTAIN if unanswerable else record.answer,
                "type": hotpotqa_type(record.question_type),
                "level": record.difficulty,
                "language": record.language,
                "supporting_facts": [] if unanswerable else [[c.id, 0] for c in record.supporting],
                "context": [[c.id, [c.text]] for c in shown],
            }
        )
    return json.dumps(items, ensure_ascii=False, indent=1) + "\n"


def save_hf(rows: list[dict[str, Any]], folder: Path) -> None:
    try:
        import datasets  # type: ignore[import-not-found]
    except ImportError:
        raise UserError(
            "--format hf needs the Hugging Face datasets package; install it with `pip install datasets`"
        ) from None
    datasets.Dataset.from_list(rows).save_to_disk(str(folder))


EXTENSIONS = {"ragas": ".jsonl", "csv": ".csv", "hotpotqa": ".json", "hf": ""}


def export(records: list[DatasetRecord], fmt: str, unanswerable: bool, output: Path) -> int:
    """Write the export; the number of items written."""
    rows = unanswerable_rows(records) if unanswerable else answerable_rows(records)
    conversations = [multi_turn(row) for row in rows if row["turns"]]
    writers: dict[str, Callable[[], str]] = {
        "ragas": lambda: to_jsonl([row for row in rows if not row["turns"]]),
        "csv": lambda: to_csv(rows),
        "hotpotqa": lambda: to_hotpotqa(records, unanswerable),
    }
    with writing(output, "choose another --output"):
        output.parent.mkdir(parents=True, exist_ok=True)
        if fmt == "hf":
            save_hf(rows, output)
        else:
            write_atomically(output, writers[fmt]())
        if fmt == "ragas" and conversations:
            write_atomically(multi_turn_path(output), to_jsonl(conversations))
    return len(rows)
