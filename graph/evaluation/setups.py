"""RAG setups to evaluate: parsed from `--setup NAME=key=value,...`, checked before any setup runs.

A setup is triad's own retrieval (`collection`, `embedding`, `k`, answered by `model`), an external
service (`url`), or the team's own Python object named `import:package.module:object`: a `retriever`
(answered by `model`, as triad's own retrieval is), a `chain` or a `graph` (both answer for themselves).
"""

from __future__ import annotations

import hashlib
import json
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Literal

from graph.config.errors import UserError
from graph.config.settings import DEFAULT_MODELS, Settings
from graph.llm.models import ModelSpec, resolve_role_model
from nodes import versions
from state.usage import AUTO_MODE, STRUCTURED_MODES

SetupKind = Literal["builtin", "url", "retriever", "chain", "graph"]

#: Keys that say what answers: at most one per setup; none is triad's own retrieval.
SOURCE_KEYS = ("url", "retriever", "chain", "graph")

#: The keys each kind of setup takes.
KEYS_OF: dict[SetupKind, tuple[str, ...]] = {
    "builtin": ("collection", "embedding", "k", "model", "structured_output", "version"),
    # A service answers for itself; the first keys it was always given stay accepted, and unused.
    "url": ("url", "collection", "embedding", "k", "model", "id_key", "version"),
    "retriever": ("retriever", "model", "structured_output", "id_key", "version"),
    "chain": ("chain", "input_key", "answer_key", "documents_key", "history_key", "id_key", "version"),
    "graph": ("graph", "input_key", "answer_key", "documents_key", "history_key", "id_key", "version"),
}

#: The keys a setup had before the team's own objects could be named: always part of its signature, as they
#: were, so rows cached then stay valid. Every later key counts only when a setup sets it.
FIRST_KEYS = ("name", "collection", "embedding", "k", "model", "url")

#: How a row's retrieval is scored (by chunk id on the run's own collection, by evidence on any): part of every
#: signature, so that rows scored otherwise are scored anew.
RETRIEVAL_SCORING = "chunk ids and evidence spans"

#: What the fix says for a key that does not belong to a kind.
NOT_FOR = {
    "k": "set k in the retriever itself",
    "collection": "the object reads its own store",
    "embedding": "the object embeds for itself",
    "model": "a chain or graph answers for itself",
}


@dataclass(frozen=True)
class Setup:
    """One RAG setup under evaluation."""

    name: str
    collection: str | None = None
    embedding: str | None = None
    k: int = 5
    model: str = DEFAULT_MODELS["extractor"]
    url: str | None = None
    retriever: str | None = None
    """`import:package.module:object`: a LangChain retriever, a callable taking the question, or a factory of either."""
    chain: str | None = None
    """`import:package.module:object`: a Runnable or callable taking the question, or a factory of either."""
    graph: str | None = None
    """`import:package.module:object`: a compiled LangGraph graph, or a factory of one."""
    input_key: str | None = None
    """The key a chain's input dict holds the question under (unset: the question string); a graph's, default
    `question`; `messages` passes the conversation as chat messages."""
    answer_key: str | None = None
    """The output key holding the answer (unset: `answer`, `result`, `output`, `generation` or `messages`)."""
    documents_key: str | None = None
    """The output key holding the documents (unset: `context`, `source_documents` or `documents`, else the
    documents the run's retrievers returned)."""
    history_key: str | None = None
    """Where a follow-up's earlier turns go in a dict input, as chat messages (default `chat_history`)."""
    id_key: str | None = None
    """The metadata key holding a document's chunk id (unset: the document's own id)."""
    version: str | None = None
    """The team's mark of a changed pipeline: rows cached under another version are computed anew."""
    structured_output: str | None = None
    """How the answering model (`model=`) is asked for JSON: auto, json_schema, json_object, tool or text."""
    given: frozenset[str] = field(default=frozenset(), compare=False)
    """The keys the user gave (the rest are defaults or the run's)."""

    @property
    def kind(self) -> SetupKind:
        for key in SOURCE_KEYS:
            if getattr(self, key) is not None:
                return key  # type: ignore[return-value]
        return "builtin"

    @property
    def answers_for_itself(self) -> bool:
        """Whether the setup answers with its own model (a service, chain or graph), so that triad's answering
        model is never asked and the simulated unanswerable variant cannot be put to it."""
        return self.kind in ("url", "chain", "graph")

    @property
    def imported(self) -> str | None:
        """The `package.module:object` a retriever, chain or graph setup names; None for the others."""
        target = self.retriever or self.chain or self.graph
        return None if target is None else target.removeprefix("import:")

    def signature(
        self, judge: str, judge_unlabelled: bool, retrieval_only: bool = False, placed: str = "", named: bool = False
    ) -> str:
        """What the cached rows of this setup depend on: what the setup is (not its name, so a sweep or a renamed
        setup reuses what an identical one computed), the judge model and the evaluation's prompt templates and
        schemas (`nodes.versions.EVALUATION_VERSION`), so that rows judged with other ones are judged anew; a
        retrieval-only row, which no model judged, on the setup alone; and, where evidence is placed in documents
        at hand (`placed`: which), on those.

        The first keys count as they always did; a later key only when the setup sets it, so a setup that sets
        none of them keeps the signature it had before they existed. `named` gives the signature rows were kept
        under when the name was part of it, so they stay valid.
        """
        first = {key: getattr(self, key) for key in FIRST_KEYS if named or key != "name"}
        later = {key: getattr(self, key) for key in LATER_KEYS if getattr(self, key) is not None}
        scored: dict[str, Any] = (
            {"scored": f"retrieval only, {RETRIEVAL_SCORING}"}
            if retrieval_only
            else {
                "judge": judge,
                "judge_unlabelled": judge_unlabelled,
                "prompts": versions.EVALUATION_VERSION,
                "scored": RETRIEVAL_SCORING,
            }
        )
        payload = json.dumps({**first, **later, **scored} | ({"placed": placed} if placed else {}), sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:16]


LATER_KEYS = tuple(
    key for key in Setup.__dataclass_fields__ if key not in FIRST_KEYS and key != "given"
)  # fmt: skip


#: Names a setup cannot take: eval-summary.json keeps its comparisons under this key beside the setups.
RESERVED_NAMES = ("comparisons",)


def parse_setup(text: str, collection: str | None, embedding: str | None) -> Setup:
    name, separator, spec = text.partition("=")
    if not separator or not name:
        raise UserError(f"--setup takes NAME=key=value,..., not {text!r}")
    if name in RESERVED_NAMES:
        raise UserError(f"--setup {name}: the name is eval-summary.json's own key; call the setup otherwise")
    every = sorted({key for keys in KEYS_OF.values() for key in keys})
    given: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        key, separator, value = part.partition("=")
        if not separator or key not in every:
            raise UserError(f"--setup {name}: {part!r} is not one of {', '.join(k + '=' for k in every)}")
        given[key] = value
    sources = [key for key in SOURCE_KEYS if key in given]
    if len(sources) > 1:
        raise UserError(f"--setup {name}: give one of {', '.join(k + '=' for k in sources)}, not several")
    kind: SetupKind = sources[0] if sources else "builtin"  # type: ignore[assignment]
    for key in given:
        if key not in KEYS_OF[kind]:
            why = NOT_FOR.get(key, f"it takes {', '.join(k + '=' for k in KEYS_OF[kind])}")
            raise UserError(f"--setup {name}: {key}= does not apply to a {kind} setup; {why}")
    fields: dict[str, Any] = {"collection": collection, "embedding": embedding, **given}
    try:
        fields["k"] = int(fields.get("k", 5))
    except ValueError:
        raise UserError(f"--setup {name}: k must be a whole number") from None
    if fields["k"] <= 0:
        raise UserError(f"--setup {name}: k must be positive")
    if fields.get("structured_output", AUTO_MODE) not in (AUTO_MODE, *STRUCTURED_MODES):
        raise UserError(
            f"--setup {name}: structured_output= takes one of {AUTO_MODE}, {', '.join(STRUCTURED_MODES)}, not "
            f"{fields['structured_output']!r}"
        )
    setup = Setup(name=name, given=frozenset(given), **fields)
    if setup.url is not None and urllib.parse.urlsplit(setup.url).scheme not in ("http", "https"):
        raise UserError(f"--setup {name}: url= takes an http:// or https:// address, not {setup.url!r}")
    target = setup.imported
    if target is not None and not (
        given[kind].startswith("import:") and target.count(":") == 1 and all(target.split(":"))
    ):
        raise UserError(f"--setup {name}: {kind}= takes import:package.module:object, not {given[kind]!r}")
    if kind == "builtin" and not setup.collection:
        raise UserError(
            f"--setup {name}: give collection= (the run's could not be found), url=, retriever=, chain= or graph="
        )
    return setup


def check_answering_model(setup: Setup, settings: Settings) -> None:
    """A setup's `model=` that cannot be used fails before any setup runs, naming the setup.

    The model is built as the run will build it (a malformed spec, a missing key, a missing provider
    package, a bad `import:` target all fail here). The fix is the setup's `model=`, not `--llm`
    (which sets the judge), so the line names the setup.
    """
    if setup.answers_for_itself:
        return
    try:
        if ModelSpec.parse(setup.model).provider == "google_genai" and not settings.google_api_key:
            raise UserError(
                f"its answering model {setup.model} needs a Gemini API key: set GOOGLE_API_KEY, or give the setup "
                "another model, e.g. model=openai:MODEL with --llm-base-url"
            )
        resolve_role_model(
            "generator",
            setup.model,
            base_url=settings.llm_base_url,
            google_api_key=settings.google_api_key.get_secret_value() if settings.google_api_key else None,
            openai_api_key=settings.openai_api_key.get_secret_value() if settings.openai_api_key else None,
        )
    except UserError as error:
        raise UserError(f"--setup {setup.name}: {error}") from None


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """`k=3,5,8` as the key and its values; anything else is one line naming the form."""
    key, separator, values = text.partition("=")
    swept = [value.strip() for value in values.split(",") if value.strip()]
    if not separator or not key.strip() or len(swept) < 2 or len(set(swept)) < len(swept):
        raise UserError(
            f"--sweep takes KEY=VALUE,VALUE,... with two or more different values, e.g. k=3,5,8; not {text!r}"
        )
    return key.strip(), swept


def swept_setups(text: str, sweeps: list[tuple[str, list[str]]]) -> list[tuple[str, dict[str, str]]]:
    """The one `--setup NAME=...` expanded over every combination of the swept values (several sweeps make a
    grid): each as the setup's text with the values set, named after them (`base-k3`, `base-k3-modelX`: no "="),
    with the values it was given."""
    name, separator, spec = text.partition("=")
    if not separator or not name:
        raise UserError(f"--setup takes NAME=key=value,..., not {text!r}")
    keys = [key for key, _ in sweeps]
    if any(part.strip().startswith("url=") for part in spec.split(",")):
        unused = [key for key in keys if key not in ("id_key", "version")]
        if unused:
            raise UserError(
                f"--sweep {unused[0]}= does nothing to a url= setup (the service retrieves and answers for itself); "
                "sweep a setting of triad's own retrieval or of your retriever's"
            )
    if len(set(keys)) < len(keys):
        raise UserError(f"--sweep names {', '.join(keys)}: each key once")
    if any(key in SOURCE_KEYS or key == "name" for key in keys):
        raise UserError(
            "--sweep sweeps a setting of the setup (k=, collection=, embedding=, model=...), not what it is"
        )
    grid: list[dict[str, str]] = [{}]
    for key, values in sweeps:
        grid = [{**point, key: value} for point in grid for value in values]
    kept = [part for part in spec.split(",") if part.strip() and part.partition("=")[0].strip() not in keys]
    expanded = []
    for point in grid:
        label = "-".join(f"{key}{value}" for key, value in point.items()).replace("=", "")
        parts = [*kept, *(f"{key}={value}" for key, value in point.items())]
        expanded.append((f"{name}-{label}={','.join(parts)}", point))
    return expanded
