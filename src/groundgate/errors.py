"""All groundgate exceptions.

Two roots: `UsageError` for configuration and caller mistakes (fix the input, then retry) and
`RunError` for what goes wrong while running (a model, a tool, a store). Third-party exceptions are
translated into these at the boundary that calls the third party.
"""

from __future__ import annotations


class GroundgateError(Exception):
    """Base of every groundgate exception."""


class UsageError(GroundgateError):
    """The caller or the configuration is wrong; nothing was changed."""


class ConfigurationError(UsageError):
    """Settings are missing, malformed or contradictory."""


class InvalidInputError(UsageError):
    """An input (a file, a JSON line, an argument) does not have the required shape."""


class RunError(GroundgateError):
    """Something failed while running; the run records it and follows its fallback."""


class ModelError(RunError):
    """A model call failed. `status` is the `ParseStatus` value the caller records."""

    status: str = "ERROR"

    def __init__(self, message: str, *, raw_output: str | None = None) -> None:
        super().__init__(message)
        self.raw_output = raw_output
        """What the model returned, when it returned anything (kept for the audit trail)."""


class ModelTimeoutError(ModelError):
    """The model did not answer within its timeout."""

    status = "TIMEOUT"


class ModelRefusalError(ModelError):
    """The model refused to answer."""

    status = "REFUSED"


class ModelOutputError(ModelError):
    """The model answered, but not with JSON that fits the requested schema."""

    status = "SCHEMA_MISMATCH"


class ModelInvalidJSONError(ModelOutputError):
    """The model's answer is not JSON at all."""

    status = "INVALID_JSON"


class ModelHTTPError(ModelError):
    """The model endpoint answered with an HTTP or connection error."""

    status = "ERROR"


class CheckBudgetError(InvalidInputError):
    """A grounding check's input is larger than its `[check]` budget allows (HTTP 413, CLI exit 2)."""

    def __init__(self, message: str, *, setting: str, limit: int, actual: int) -> None:
        super().__init__(message)
        self.setting = setting
        """The setting that holds the limit (`check.max_context_chars`)."""
        self.limit = limit
        self.actual = actual
