"""The run parameters every node reads: LangGraph's `context_schema`, with the paper's defaults."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ConfigDict
from pydantic.json_schema import SkipJsonSchema

from nodes.ports import Ports
from state.languages import check_language_code
from state.record import MAX_UNANSWERABLE_CONTEXTS, MIN_UNANSWERABLE_CONTEXTS

#: The paper's model per role (SPEC section 6): the one place every default model comes from.
DEFAULT_MODELS = {
    "generator": "google_genai:gemini-2.5-flash",
    "validator": "google_genai:gemini-3.1-flash-lite-preview",
    "extractor": "google_genai:gemini-2.5-flash-lite",
}


@dataclass(kw_only=True)
class Context:
    """What a run can change. Numbers default to the TRIAD paper's settings."""

    # Each field's docstring becomes its description in the JSON schema: LangGraph Studio's form shows it.
    __pydantic_config__ = ConfigDict(use_attribute_docstrings=True)

    run_id: str = "adhoc"
    """Run the sample belongs to; repeated in its record's provenance."""
    max_restarts: int = 3
    """Fresh seeds tried after the first before a sample ends as no_bridge."""
    max_revisions: int = 1
    """Revisions of a rejected draft (1 = two validation rounds, as in the paper)."""
    neighbours_n: int = 5
    """Nearest chunks retrieved around a seed (and around each chunk in match_bridge)."""
    distractors_k: int = 10
    """Nearest chunks retrieved per supporting chunk as distractor candidates."""
    retrieval_k: int = 5
    """Chunks the collection's retriever returns per question: what judge_unanswerable reads (the paper's k)."""
    embedding: str = "minilm"
    """The collection's embedding model spec, named in a generated unanswerable record's retrieval check."""
    min_chunk_chars: int = 200
    """Chunks shorter than this are never seeds: too thin to carry a fact."""
    max_question_words: int = 40
    """Lint: a longer question is sent back for revision."""
    max_answer_words: int = 20
    """Lint: a longer answer is sent back for revision."""
    max_procedure_words: int = 80
    """Lint: the longest answer of a procedural question (its steps)."""
    hard_extra: int = 0
    """Difficulty: relevant contexts <= hops + hard_extra is hard."""
    medium_extra: int = 2
    """Difficulty: relevant contexts <= hops + medium_extra is medium; more is easy."""
    max_unanswerable_contexts: int = MAX_UNANSWERABLE_CONTEXTS
    """Non-relevant contexts kept for the unanswerable variant, 2 to 5 (fewer than 2 found: no variant)."""
    bridge_proposer: str = "llm"
    """propose_bridge implementation: llm or entity_overlap."""
    relevance_labeller: str = "care"
    """extract_contexts labeller: care, care_batched, direct or indirect."""
    sufficiency_after_quality_reject: bool = False
    """Run judge_sufficiency even after judge_quality rejected (as the reference code did; costs calls)."""
    question_language: str | None = None
    """ISO 639-1 code of the language every question and answer is written in; None: the language of each
    sample's supporting chunks (the seed's when they differ)."""
    dataset_version: int = 1
    """The dataset version the records written go into: a run writes version 1, `graph.refresh` the next."""
    replayed_from: str | None = None
    """`<thread_id>@<checkpoint_id>` when this run replays a sample from a checkpoint."""
    generator_model: str = DEFAULT_MODELS["generator"]
    """Model spec of the generator role (propose_bridge, generate_question, revise_question)."""
    validator_model: str = DEFAULT_MODELS["validator"]
    """Model spec of the validator role (judge_quality, judge_sufficiency, classify_temporal)."""
    extractor_model: str = DEFAULT_MODELS["extractor"]
    """Model spec of the extractor role (extract_contexts' relevance labels)."""
    thinking: dict[str, str] = field(default_factory=dict)
    """Thinking setting per role where one was given (a budget or a level); else the provider's default."""
    # Typed Any and left out of the JSON schema: Studio's context form cannot show live objects.
    ports: SkipJsonSchema[Any] = field(default=None, repr=False, compare=False)
    """The run's `nodes.ports.Ports` (corpus, models, seed pool); set by the runner, never checkpointed."""

    def __post_init__(self) -> None:
        """Refuse, before anything is spent, settings that could only fail once samples have run."""
        problem = self.problem()
        if problem:
            raise ValueError(problem)

    def problem(self) -> str | None:
        """What is wrong with these settings, in one line naming the fix; None when they can run."""
        for name in (*AT_LEAST, "question_language", "max_unanswerable_contexts"):
            wrong = field_problem(name, getattr(self, name))
            if wrong:
                return f"{name} {wrong}"
        if not isinstance(self.medium_extra, int) or self.medium_extra < self.hard_extra:
            return f"medium_extra must be at least hard_extra ({self.hard_extra}), not {self.medium_extra!r}"
        return None

    def require_ports(self) -> Ports:
        if self.ports is None:
            raise RuntimeError("this graph needs Context.ports (corpus, models, seeds); run it through graph.sample")
        return self.ports  # type: ignore[no-any-return]


#: The least value of each whole-number setting.
AT_LEAST = {
    "max_restarts": 0,
    "max_revisions": 0,
    "dataset_version": 1,
    "neighbours_n": 1,
    "retrieval_k": 1,
    "distractors_k": 0,
    "min_chunk_chars": 0,
    "max_question_words": 1,
    "max_answer_words": 1,
    "max_procedure_words": 1,
    "hard_extra": 0,
}


def field_problem(name: str, value: Any) -> str | None:
    """What is wrong with one setting's value, said after its name ("must be ..."); None when it is fine. The one
    check of each setting: a run's flags that set it (`graph.planning.options`) are held to it too."""
    if name in AT_LEAST:
        lowest = AT_LEAST[name]
        if not isinstance(value, int) or isinstance(value, bool) or value < lowest:
            return f"must be a whole number of at least {lowest}, not {value!r}"
    if name == "question_language" and value is not None:
        wrong = check_language_code(value) if isinstance(value, str) else f"{value!r} is not a language code"
        if wrong:
            return f"takes a language code: {wrong}"
    if name == "max_unanswerable_contexts":
        low, high = MIN_UNANSWERABLE_CONTEXTS, MAX_UNANSWERABLE_CONTEXTS
        if not isinstance(value, int) or not low <= value <= high:
            return f"must be from {low} to {high} (what a record holds), not {value!r}"
    return None
