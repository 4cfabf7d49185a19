"""A dataset pushed to where teams keep their datasets: LangSmith or Langfuse.

One example per record: the question as input, the reference answer as output (a generated
unanswerable question's expected abstention instead), and as metadata the cell, difficulty, temporal,
language, the supporting chunk ids and the labelled context ids (so evaluators can score retrieval by
id), the run and thread ids. Each example's id is derived from the run and the record, so pushing again
updates the same examples, never duplicates them. Keys and endpoints come from each platform's usual
environment variables (LANGSMITH_API_KEY, LANGSMITH_ENDPOINT; LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY,
LANGFUSE_HOST). Langfuse's SDK is the `langfuse` extra.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from typing import Any

from graph.config.errors import UserError
from graph.config.settings import PlatformAccess
from state.location import where
from state.record import DatasetRecord

#: The namespace of the examples' ids: uuid5 of the record's id (`<run_id>/<n>`).
EXAMPLE_NAMESPACE = uuid.UUID("6f3c1a52-5d3e-4d8e-9a0b-2a7f3f0c1d11")


def example_id(record: DatasetRecord) -> str:
    return str(uuid.uuid5(EXAMPLE_NAMESPACE, record.id))


def example(record: DatasetRecord) -> dict[str, Any]:
    """One record as a dataset example."""
    outputs = {"answer": record.answer} if record.answerable else {"expected": "abstain"}
    return {
        "id": example_id(record),
        "inputs": {"question": record.question},
        "reference_outputs": outputs,
        "metadata": {
            "question_type": record.question_type,
            "binary": record.binary,
            "difficulty": record.difficulty,
            "temporal": record.temporal,
            "language": record.language,
            "canonical_question": record.canonical_question,
            "query_style": record.query_style,
            "persona": record.persona,
            "turns": record.conversation(),
            "answerable": record.answerable,
            "supporting_ids": [c.id for c in record.supporting],
            "supporting_sources": [where(c.metadata) for c in record.supporting],
            "relevant_context_ids": [c.id for c in record.contexts if c.relevant],
            "context_ids": [c.id for c in record.contexts],
            "run_id": record.provenance.run_id,
            "thread_id": record.provenance.thread_id,
            "record_id": record.id,
            "version": record.version,
        },
    }


def push_langsmith(records: Sequence[DatasetRecord], dataset_name: str, access: PlatformAccess) -> tuple[int, int]:
    """Create or update one example per record in LangSmith dataset `dataset_name`: (created, updated)."""
    if not access.langsmith_key:
        raise UserError("no LangSmith key: set LANGSMITH_API_KEY (and LANGSMITH_ENDPOINT for a self-hosted server)")
    from langsmith import Client
    from langsmith.utils import LangSmithAuthError, LangSmithConnectionError, LangSmithError

    logging.getLogger("langsmith").setLevel(logging.CRITICAL)  # its failures become the one line below
    client = Client()
    try:
        if client.has_dataset(dataset_name=dataset_name):
            dataset = client.read_dataset(dataset_name=dataset_name)
        else:
            dataset = client.create_dataset(dataset_name, description="a triad dataset")
        existing = {str(e.id) for e in client.list_examples(dataset_id=dataset.id)}
        items = [example(record) for record in records]
        new = [item for item in items if item["id"] not in existing]
        known = [item for item in items if item["id"] in existing]
        if new:
            client.create_examples(dataset_id=dataset.id, examples=new)
        if known:
            client.update_examples(dataset_id=dataset.id, updates=known)
    except LangSmithAuthError:
        raise UserError("LangSmith refused the key in LANGSMITH_API_KEY; check it and its workspace") from None
    except LangSmithConnectionError:
        raise UserError(
            f"cannot reach LangSmith at {access.langsmith_endpoint}; check LANGSMITH_ENDPOINT and the network"
        ) from None
    except LangSmithError as error:
        raise UserError(f"LangSmith answered with an error ({str(error).splitlines()[0][:200]})") from None
    return len(new), len(known)


def push_langfuse(records: Sequence[DatasetRecord], dataset_name: str, access: PlatformAccess) -> tuple[int, int]:
    """Create or update one item per record in Langfuse dataset `dataset_name`: (created, updated)."""
    if not access.langfuse_keys:
        raise UserError("no Langfuse keys: set LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY (and LANGFUSE_HOST)")
    try:
        import httpx
        from langfuse import Langfuse
        from langfuse.api import NotFoundError
        from langfuse.api.core.api_error import ApiError
    except ImportError:
        raise UserError('Langfuse needs its SDK: pip install "triad[langfuse]"') from None
    logging.getLogger("langfuse").setLevel(logging.CRITICAL)  # its failures become the one line below
    client = Langfuse(tracing_enabled=False)
    try:
        try:
            existing = {str(item.id) for item in client.get_dataset(dataset_name).items}
        except NotFoundError:
            client.create_dataset(name=dataset_name, description="a triad dataset")
            existing = set()
        items = [example(record) for record in records]
        for item in items:
            client.create_dataset_item(
                dataset_name=dataset_name,
                id=item["id"],
                input=item["inputs"],
                expected_output=item["reference_outputs"],
                metadata=item["metadata"],
            )
    except ApiError as error:
        if error.status_code in (401, 403):
            raise UserError("Langfuse refused the keys in LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY") from None
        raise UserError(f"Langfuse answered with an error (HTTP {error.status_code})") from None
    except httpx.HTTPError:
        raise UserError(
            f"cannot reach Langfuse at {access.langfuse_host}; check LANGFUSE_HOST and the network"
        ) from None
    finally:
        client.shutdown()
    updated = sum(item["id"] in existing for item in items)
    return len(items) - updated, updated
