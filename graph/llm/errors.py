"""What a model call can end in besides a reply: errors that stop a command, and a refused structured-output mode."""

from __future__ import annotations

from graph.config.errors import UserError


class ProviderUnavailable(UserError):
    """Credentials refused, or the provider unreachable before any call succeeded: stop the run."""


class ModeRefused(Exception):
    """The server refused a request's structured-output form: the next mode is tried, no retry spent."""


class EveryModeRefused(ProviderUnavailable):
    """The server refused every structured-output mode: no call to it can work."""


class RecordingMiss(UserError):
    """A run answered from recorded calls asked something the recorded file has no answer for."""
