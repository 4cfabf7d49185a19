"""Reading a pydantic object out of a model's text reply, as real models write them.

Accepted: bare JSON; JSON inside a markdown fence; JSON with prose before or commentary after it;
raw control characters (a newline, a tab) inside a JSON string, as grammar-constrained local servers
let a model write them; `null` for a list the schema allows to be empty; and, for a schema with a
single boolean field, a bare one-word verdict ("Yes", "no", "TRUE", "Relevant", "Not relevant"). The
verdict must be the whole reply: no substring tests, so "Not Relevant" can never read as relevant.
Tolerant of the form, never of the values: anything else raises `ReplyParseError`.
"""

from __future__ import annotations

import json
import re
import types
import typing
from typing import Any, TypeVar

from annotated_types import MinLen
from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)(?:```|$)", re.S)
_TRUE_WORDS = {"yes", "true", "y"}
_FALSE_WORDS = {"no", "false", "n"}


class ReplyParseError(ValueError):
    """The reply holds no object that fits the schema; the message says why, for feedback."""


def _json_candidates(text: str) -> list[str]:
    candidates = [match.group(1) for match in _FENCE.finditer(text)]
    candidates.append(text)
    return [candidate.strip() for candidate in candidates if candidate.strip()]


def _first_json_object(text: str) -> Any:
    """The first complete JSON object in `text`, ignoring text before and after it."""
    decoder = json.JSONDecoder(strict=False)  # raw control characters inside strings are read as written
    incomplete = False
    for start in (i for i, char in enumerate(text) if char == "{"):
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            incomplete = True
            continue
        if isinstance(value, dict):
            return value
    if incomplete:
        raise ReplyParseError(
            "the reply holds incomplete JSON (cut off or malformed); reply with one complete JSON object"
        )
    raise ReplyParseError("the reply holds no JSON object; reply with one JSON object")


def _single_bool_field(schema: type[BaseModel]) -> str | None:
    required = [name for name, field in schema.model_fields.items() if field.is_required()]
    if len(required) == 1 and schema.model_fields[required[0]].annotation is bool:
        return required[0]
    return None


def _verdict_word(text: str, field: str) -> bool | None:
    """A whole-reply verdict word for the boolean `field`, or None when the reply is not one."""
    word = re.sub(r"[\s.!*_`\"'-]+", " ", text).strip().casefold()
    label = field.replace("_", " ").casefold()
    if word in _TRUE_WORDS or word == label:
        return True
    if word in _FALSE_WORDS or word in {f"not {label}", f"non {label}", f"ir{label}", f"un{label}"}:
        return False
    return None


def parse_reply(text: str, schema: type[T]) -> T:
    """The schema object in a model's text reply; `ReplyParseError` says what was wrong."""
    bool_field = _single_bool_field(schema)
    if bool_field is not None:
        verdict = _verdict_word(text, bool_field)
        if verdict is not None:
            return schema.model_validate({bool_field: verdict})
    error: ReplyParseError | None = None
    for candidate in _json_candidates(text):
        try:
            data = _first_json_object(candidate)
        except ReplyParseError as problem:
            error = error or problem
            continue
        return validate(data, schema)
    raise error or ReplyParseError("the reply is empty; reply with one JSON object")


def validate(data: Any, schema: type[T]) -> T:
    """`schema.model_validate` (a `null` list that may be empty read as empty), a failure turned into one
    feedback sentence."""
    try:
        return schema.model_validate(_null_lists_emptied(data, schema))
    except ValidationError as invalid:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in issue['loc']) or 'object'}: {issue['msg']}" for issue in invalid.errors()[:5]
        )
        raise ReplyParseError(f"the JSON does not fit the schema ({problems})") from None


def _null_lists_emptied(data: Any, schema: type[BaseModel]) -> Any:
    """`data` with `null` in place of a list read as `[]`, where the schema's field is a list that may be empty;
    nested objects likewise. A list that must hold something stays `null`, and fails as it should."""
    if not isinstance(data, dict):
        return data
    fixed = dict(data)
    for name, field in schema.model_fields.items():
        key = field.alias or name
        if key not in fixed:
            continue
        value, annotation = fixed[key], field.annotation
        if value is None and typing.get_origin(annotation) is list:
            if not any(isinstance(m, MinLen) and m.min_length > 0 for m in field.metadata):
                fixed[key] = []
            continue
        model = _model_in(annotation)
        if model is not None and isinstance(value, dict):
            fixed[key] = _null_lists_emptied(value, model)
        elif model is not None and isinstance(value, list):
            fixed[key] = [_null_lists_emptied(item, model) for item in value]
    return fixed


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model an annotation holds: itself, a list's items, an optional's value."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (list, typing.Union, types.UnionType):
        return next((m for arg in typing.get_args(annotation) if (m := _model_in(arg)) is not None), None)
    return None
