"""What a team's pipeline returns, read: the answer and the documents of a chain's or graph's output, the
documents its retrievers returned (as LangChain's callbacks report them), each document as a context.

Read in the shapes common chains return: a dict with the answer and documents (`{"answer", "context"}`,
`{"result", "source_documents"}`, or the keys the setup names), or an answer alone (a string, an
`AIMessage`) with the documents the run's outermost retrievers returned.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.messages import BaseMessage

from graph.config.errors import UserError
from graph.evaluation.setups import Setup
from state.evidence import Passage, document_place

#: Output keys read for the answer and for the documents when the setup names none, in this order.
ANSWER_KEYS = ("answer", "result", "output", "generation", "messages")
DOCUMENT_KEYS = ("context", "source_documents", "documents")


def described(found: Any) -> str:
    """What an object is, for a line that names a wrong one: a dict's keys, else its type."""
    if isinstance(found, Mapping):
        return f"a dict with keys {', '.join(map(str, found)) or 'none'}"
    return f"a {type(found).__module__}.{type(found).__qualname__}"


class RetrievedDocuments(BaseCallbackHandler):
    """The documents the outermost retrievers of one call returned, as LangChain's callbacks report them.

    A retriever that wraps others (re-ranking, compression, several queries) reports what it returns; the
    documents of the retrievers inside it are not the call's.
    """

    run_inline = True

    def __init__(self) -> None:
        self.documents: list[Document] = []
        self.retrievers_ran = False
        self._parents: dict[UUID, UUID | None] = {}
        self._retrievers: set[UUID] = set()

    def _started(self, run_id: UUID, parent_run_id: UUID | None) -> None:
        self._parents[run_id] = parent_run_id

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
                       **kwargs: Any) -> None:  # fmt: skip
        self._started(run_id, parent_run_id)

    def on_tool_start(self, serialized: Any, input_str: str, *, run_id: UUID, parent_run_id: UUID | None = None,
                      **kwargs: Any) -> None:  # fmt: skip
        self._started(run_id, parent_run_id)

    def on_retriever_start(self, serialized: Any, query: str, *, run_id: UUID, parent_run_id: UUID | None = None,
                           **kwargs: Any) -> None:  # fmt: skip
        self._started(run_id, parent_run_id)
        self._retrievers.add(run_id)

    def on_retriever_end(self, documents: Sequence[Document], *, run_id: UUID, **kwargs: Any) -> None:
        self.retrievers_ran = True
        if not self._inside_retriever(run_id):
            self.documents.extend(documents)

    def _inside_retriever(self, run_id: UUID) -> bool:
        parent = self._parents.get(run_id)
        while parent is not None:
            if parent in self._retrievers:
                return True
            parent = self._parents.get(parent)
        return False


def read_output(
    setup: Setup, output: Any, seen: RetrievedDocuments, gave_documents: bool
) -> tuple[str, list[Any] | None]:
    """The answer and the documents of one output; documents None when the call neither returned any nor ran a
    retriever, which is an error until a call of the setup has shown where its documents are."""
    answer: str | None
    documents: Any = None
    if isinstance(output, Mapping):
        answer_key = setup.answer_key or next((k for k in ANSWER_KEYS if k in output), None)
        answer = answer_text(output.get(answer_key)) if answer_key is not None else None
        documents_key = setup.documents_key or next((k for k in DOCUMENT_KEYS if k in output), None)
        if documents_key is not None:
            documents = output.get(documents_key)
            if not isinstance(documents, Sequence) or isinstance(documents, (str, bytes)):
                if setup.documents_key is not None or not seen.retrievers_ran:
                    raise UserError(
                        f"--setup {setup.name}: its {setup.kind}'s {documents_key!r} holds {described(documents)}, "
                        "not a list of documents; name the key that holds them with documents_key="
                    )
                documents = None  # formatted text under a usual key: the retrievers' documents are the call's
    else:
        answer = answer_text(output)
    if answer is None:
        raise UserError(
            f"--setup {setup.name}: its {setup.kind} returned {described(output)} with no answer found; "
            "name the output key that holds it with answer_key="
        )
    if documents is None and seen.retrievers_ran:
        documents = seen.documents
    if documents is None and not gave_documents:
        raise UserError(
            f"--setup {setup.name}: its {setup.kind} returned {described(output)} with no documents and "
            "ran no retriever that LangChain's callbacks report; return them and name their key with "
            "documents_key="
        )
    return answer, None if documents is None else list(documents)


def answer_text(value: Any) -> str | None:
    """The answer in a string, a chat message, or a list of messages (the last one's); None for anything else."""
    if isinstance(value, str):
        return value
    if isinstance(value, BaseMessage):
        if isinstance(value.content, str):
            return value.content
        return "".join(
            str(block.get("text", "")) if isinstance(block, Mapping) else str(block) for block in value.content
        )
    if isinstance(value, Sequence) and value and isinstance(value[-1], BaseMessage):
        return answer_text(value[-1])
    return None


def as_context(setup: Setup, item: Any) -> Passage:
    """A returned document as a context: its chunk id (the document's id, or `id_key` of its metadata), text, and
    its place in its document where its metadata gives it (`source`, `start_index`).

    A document without an id keeps `id` None and is matched by its text.
    """
    if isinstance(item, Document):
        text, metadata, own_id = item.page_content, item.metadata, item.id
    elif isinstance(item, Mapping):
        text = item.get("page_content", item.get("text", item.get("content")))
        metadata, own_id = item.get("metadata") or {}, item.get("id")
        if setup.id_key and setup.id_key in item:
            own_id = item[setup.id_key]
    elif isinstance(item, str):
        text, metadata, own_id = item, {}, None
    else:
        text = None
    if not isinstance(text, str):
        raise UserError(
            f"--setup {setup.name}: its {setup.kind} returned a document that is {described(item)}; return "
            "LangChain Documents, dicts with page_content or text, or strings"
        )
    chunk_id = metadata.get(setup.id_key, own_id) if setup.id_key and isinstance(metadata, Mapping) else own_id
    return Passage(id=None if chunk_id in (None, "") else str(chunk_id), text=text, **document_place(metadata))
