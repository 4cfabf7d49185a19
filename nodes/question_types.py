"""The question types, one entry each: what the type is (as the writer and the judge read it), the shapes a request
shows, what a draft's plan and answer hold, its hop bounds, its answer's form, its own lint rules, how a seed is
drawn for it, and its names in breakdowns and exports.

Every place that lists the types reads this table: a type's texts are its block in `prompts.generate`, its lint
rules in `nodes.lint.construction`; `state.sample` names the types for the state and the dataset record (it may
import nothing), and a test holds its names to this table's. A new type is one entry here, its block of texts in
`prompts.generate` and its name in `state.sample` (in `QuestionType`, `SampleKind` and its family's tuples); and, if
it has any, its rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from nodes.lint.construction import ConstructionRule, hidden_entity_declared_and_unnamed, one_compared_entity_per_chunk
from prompts import generate, judge_quality
from state.sample import MAX_HOPS, MIN_HOPS, QuestionType

#: A type's family, the breakdown that sets single-hop questions beside the paper's multi-hop ones.
Family = Literal["multi-hop", "single-hop"]


@dataclass(frozen=True)
class QuestionTypeSpec:
    """One question type."""

    name: QuestionType
    family: Family
    definition: str
    """What the type is, as the writer is told it and the quality judge reads it."""
    shape: str
    """The one shape an open question's request shows."""
    yes_no_shape: str | None
    """The shape a yes/no question's request shows; None: the type has no yes/no form."""
    plan: str
    """What a draft's plan holds (the description of its `plan` field)."""
    answer: str
    """What a draft's answer is (the description of its `answer` field)."""
    hops: tuple[int, int]
    """The fewest and the most supporting chunks a question of the type rests on."""
    lint: tuple[ConstructionRule, ...] = ()
    """The type's own lint rules, beside the rules every draft is held to."""
    names_alternatives: bool = False
    """The question names the alternatives its answer is one of: naming them is its shape, not a leak."""
    steps_answer: bool = False
    """The answer lists steps: its length is bounded by `max_procedure_words`, not `max_answer_words`."""
    yes_no_note: str = ""
    """What a yes/no question of the type must do besides, as the judge reads it beside the definition."""
    procedure_seed: bool = False
    """Its seed chunk must hold a procedure (numbered or bulleted steps, a sequence in prose)."""
    hotpotqa: str | None = None
    """HotpotQA's name of the type, in that export; None: the type's own name."""

    @property
    def single_hop(self) -> bool:
        return self.family == "single-hop"

    def instruction(self, binary: bool) -> str:
        """The type as a cell's request states it: what it is, then the one shape the cell wants."""
        shape = self.yes_no_shape if binary and self.yes_no_shape else self.shape
        return generate.type_instruction(self.definition, shape)

    def judged_definition(self, binary: bool) -> str:
        """What the type is, as the quality judge reads it for an open or a yes/no question."""
        return judge_quality.type_definition(self.definition, self.yes_no_note if binary else "")


TYPE_SPECS: tuple[QuestionTypeSpec, ...] = (
    QuestionTypeSpec(
        "comparison", "multi-hop", generate.COMPARISON_DEFINITION,
        shape=generate.COMPARISON_SHAPE, yes_no_shape=generate.COMPARISON_YES_NO_SHAPE,
        plan=generate.COMPARISON_PLAN, answer=generate.COMPARISON_ANSWER, hops=(MIN_HOPS, MAX_HOPS),
        lint=(one_compared_entity_per_chunk,), names_alternatives=True, hotpotqa="comparison",
    ),
    QuestionTypeSpec(
        "intersection", "multi-hop", generate.INTERSECTION_DEFINITION,
        shape=generate.INTERSECTION_SHAPE, yes_no_shape=generate.INTERSECTION_YES_NO_SHAPE,
        plan=generate.INTERSECTION_PLAN, answer=generate.INTERSECTION_ANSWER, hops=(MIN_HOPS, MAX_HOPS),
        yes_no_note=generate.INTERSECTION_YES_NO_NOTE, hotpotqa="intersection",
    ),
    QuestionTypeSpec(
        "composition", "multi-hop", generate.COMPOSITION_DEFINITION,
        shape=generate.COMPOSITION_SHAPE, yes_no_shape=generate.COMPOSITION_YES_NO_SHAPE,
        plan=generate.COMPOSITION_PLAN, answer=generate.COMPOSITION_ANSWER, hops=(MIN_HOPS, MAX_HOPS),
        lint=(hidden_entity_declared_and_unnamed,), hotpotqa="bridge",
    ),
    QuestionTypeSpec(
        "factual", "single-hop", generate.FACTUAL_DEFINITION,
        shape=generate.FACTUAL_SHAPE, yes_no_shape=generate.FACTUAL_YES_NO_SHAPE,
        plan=generate.FACTUAL_PLAN, answer=generate.FACTUAL_ANSWER, hops=(1, 1),
    ),
    QuestionTypeSpec(
        "procedural", "single-hop", generate.PROCEDURAL_DEFINITION,
        shape=generate.PROCEDURAL_SHAPE, yes_no_shape=None,
        plan=generate.PROCEDURAL_PLAN, answer=generate.PROCEDURAL_ANSWER, hops=(1, 1),
        steps_answer=True, procedure_seed=True,
    ),
)  # fmt: skip

#: Every type by its name.
TYPES: dict[str, QuestionTypeSpec] = {spec.name: spec for spec in TYPE_SPECS}
QUESTION_TYPES: tuple[QuestionType, ...] = tuple(spec.name for spec in TYPE_SPECS)
#: The paper's multi-hop types: a run's default.
MULTI_HOP_TYPES: tuple[QuestionType, ...] = tuple(spec.name for spec in TYPE_SPECS if not spec.single_hop)
#: Questions written from one chunk.
SINGLE_HOP_TYPES: tuple[QuestionType, ...] = tuple(spec.name for spec in TYPE_SPECS if spec.single_hop)
#: Types with no yes/no form.
OPEN_ONLY_TYPES: tuple[QuestionType, ...] = tuple(spec.name for spec in TYPE_SPECS if spec.yes_no_shape is None)


def type_spec(question_type: str) -> QuestionTypeSpec | None:
    """The type's entry; None for a generated unanswerable question, which has no type of these."""
    return TYPES.get(question_type)


def needs_procedure(question_type: str) -> bool:
    """Whether a question of the type is written from a chunk that holds a procedure (`procedure_seed`)."""
    spec = TYPES.get(question_type)
    return spec is not None and spec.procedure_seed
