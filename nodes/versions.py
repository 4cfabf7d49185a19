"""The versions that records and cached verdicts carry, each a digest of everything its requests send: the
prompt templates and the JSON schemas (with their field descriptions) that reach the provider.

`PROMPT_VERSION` stands in every record's provenance and the run's manifest: the label `prompts.PROMPT_VERSION`
and a digest of the generation side (every prompt module but the evaluation's own, the texts of `prompts` itself,
every schema a sample's graph asks for). `EVALUATION_VERSION` keys the evaluation's cached rows: a digest of the
prompt modules and the schemas its requests send. An edit of a template or of a schema's description changes the
version it belongs to.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import pkgutil
from collections.abc import Iterable, Iterator
from typing import get_args

from pydantic import BaseModel

import prompts
from nodes.steps.generate import draft_schema
from state import schemas
from state.sample import QuestionType

#: The schemas only the evaluation sends: its answerer and its judges.
_EVALUATION_ONLY_SCHEMAS: tuple[type[BaseModel], ...] = (
    schemas.RagAnswer,
    schemas.CorrectnessVerdict,
    schemas.FaithfulnessVerdict,
    schemas.AbstentionVerdict,
)
#: Every schema the evaluation's requests send: those, the CARE labeller's of `--judge-unlabelled` and the
#: unanswerable judge's (for retrieved chunks the run's check never read).
EVALUATION_SCHEMAS: tuple[type[BaseModel], ...] = (
    *_EVALUATION_ONLY_SCHEMAS,
    schemas.RelevanceVerdict,
    schemas.UnanswerableVerdict,
)
#: The prompt modules whose templates the evaluation's requests send (a criterion they state stands inlined in them).
EVALUATION_PROMPTS = ("evaluate", "relevance", "unanswerable")
#: The prompt modules only the evaluation quotes: the generation side's digest leaves them out.
_EVALUATION_ONLY = ("evaluate",)


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in sorted(value.items(), key=lambda pair: str(pair[0])):
            yield str(key)
            yield from _texts(item)
    elif isinstance(value, tuple):
        for item in value:
            yield from _texts(item)


def template_texts(module_names: Iterable[str]) -> Iterator[str]:
    """Every UPPER_SNAKE text of the named prompt modules (strings, and the strings inside dicts and tuples)."""
    for name in sorted(module_names):
        module = importlib.import_module(f"prompts.{name}")
        for attribute, value in sorted(vars(module).items()):
            if attribute.isupper():
                yield f"{name}.{attribute}"
                yield from _texts(value)


def package_texts() -> Iterator[str]:
    """The texts `prompts` itself holds beside its label (the untrusted-text note, the evidence block)."""
    for attribute, value in sorted(vars(prompts).items()):
        if attribute.isupper() and attribute != "PROMPT_VERSION" and isinstance(value, str):
            yield f"prompts.{attribute}"
            yield value


def schema_texts(models: Iterable[type[BaseModel]]) -> Iterator[str]:
    """Each schema as the provider receives it: its JSON schema, descriptions included."""
    for model in models:
        yield json.dumps(model.model_json_schema(), sort_keys=True, ensure_ascii=False)


def digest(texts: Iterable[str]) -> str:
    return hashlib.sha256("\n\x00".join(texts).encode()).hexdigest()[:12]


def _generation_schemas() -> list[type[BaseModel]]:
    """Every schema but the evaluation's own answerer and judges, with each question type's draft schema."""
    models = [
        value
        for _, value in sorted(vars(schemas).items())
        if isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == schemas.__name__
    ]
    drafts = [draft_schema(kind) for kind in get_args(QuestionType)]
    return [model for model in models if model not in _EVALUATION_ONLY_SCHEMAS] + drafts


def _generation_prompts() -> list[str]:
    return [info.name for info in pkgutil.iter_modules(prompts.__path__) if info.name not in _EVALUATION_ONLY]


PROMPT_VERSION = f"{prompts.PROMPT_VERSION}+" + digest(
    [*template_texts(_generation_prompts()), *package_texts(), *schema_texts(_generation_schemas())]
)
EVALUATION_VERSION = digest(
    [*template_texts(EVALUATION_PROMPTS), prompts.UNTRUSTED_NOTE, *schema_texts(EVALUATION_SCHEMAS)]
)
