"""JSON for jsonb parameters: orjson (a dataset record is tens of kilobytes)."""

from __future__ import annotations

import json
from typing import Any

import orjson
from psycopg.types.json import Jsonb


def json_bytes(value: Any) -> bytes:
    """`value` as JSON, keys that are not strings made strings as `json` makes them; what orjson refuses
    (an integer beyond 64 bits) is written by `json`, which raises for what it cannot write either."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(value).encode()


def jsonb(value: Any) -> Jsonb:
    """`value` as a jsonb parameter, encoded with `json_bytes`."""
    return Jsonb(value, dumps=json_bytes)
