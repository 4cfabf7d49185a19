"""Scripted chat models by their short names, for `--llm import:graph.scripted:plausible_model`.

Their home is `graph.testing`.
"""

from graph.testing.plausible import plausible_model, plausible_model_200ms, plausible_model_with_faults
from graph.testing.scripted import ScriptedChatModel

__all__ = ["ScriptedChatModel", "plausible_model", "plausible_model_200ms", "plausible_model_with_faults"]
