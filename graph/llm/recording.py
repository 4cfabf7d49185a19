"""Recorded calls: answers read from a file a run recorded (`recorded:FILE`), and the recording a run writes
(`--record-llm FILE`), one request and its response per line."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from langchain_core.messages import BaseMessage
from langchain_core.runnables.config import var_child_runnable_config
from pydantic import BaseModel

from graph.config.errors import UserError, reason
from graph.llm.cache import StoredResponse, append_text, load_recorded_calls, message_payload
from graph.llm.errors import RecordingMiss
from graph.llm.models import RoleModel


class Recordings:
    """The recorded files a gateway answers from, each read once, and the file it records to (None: none)."""

    def __init__(self, recording_path: Path | None = None) -> None:
        self.recording_path = recording_path
        self._files: dict[Path, dict[str, StoredResponse]] = {}
        self._lock = asyncio.Lock()

    def answer(self, model: RoleModel, node: str, schema: type[BaseModel], key: str) -> StoredResponse:
        """The recorded response to the request `key` of a `recorded:FILE` model; `RecordingMiss` when it has none."""
        assert model.recorded_file is not None
        if model.recorded_file not in self._files:
            self._files[model.recorded_file] = load_recorded_calls(model.recorded_file)
        answer = self._files[model.recorded_file].get(key)
        if answer is None:
            raise RecordingMiss(
                f"{model.recorded_file} has no answer for the {model.role} request of node {node} "
                f"(schema {schema.__name__}, key {key[:12]}); record the run again with --record-llm"
            )
        return answer

    async def write(
        self,
        key: str,
        model: RoleModel,
        node: str,
        schema: type[BaseModel],
        conversation: list[BaseMessage],
        response: StoredResponse,
    ) -> None:
        """Append one request and its response, with the sample thread that asked, to the recording."""
        entry = {
            "key": key,
            "thread_id": current_thread_id(),
            "role": model.role,
            "node": node,
            "model": model.spec,
            "schema": schema.__name__,
            "messages": message_payload(conversation),
            "response": response,
        }
        line = json.dumps(entry, ensure_ascii=False) + "\n"
        assert self.recording_path is not None
        async with self._lock:  # one line at a time, in the order the answers came
            try:
                await asyncio.to_thread(append_text, self.recording_path, line)
            except OSError as error:
                raise unwritable_recording(self.recording_path, error) from None


def current_thread_id() -> str | None:
    """The sample thread whose node is asking, from the run config LangGraph hands down to its nodes."""
    config = var_child_runnable_config.get() or {}
    thread_id = (config.get("configurable") or {}).get("thread_id")
    return str(thread_id) if thread_id is not None else None


def unwritable_recording(path: Path, error: OSError) -> UserError:
    return UserError(f"cannot write the model recording {path}: {reason(error)}; fix --record-llm")
