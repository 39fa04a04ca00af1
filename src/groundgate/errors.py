"""All groundgate exceptions.

Two roots: `UsageError` for configuration and caller mistakes (fix the input, then retry) and
`RunError` for what goes wrong while running (a model, a tool, a store). Third-party exceptions are
translated into these at the boundary that calls the third party.

    GroundgateError
    ├── UsageError              (CLI exit 2; HTTP 400)
    │   ├── ConfigurationError
    │   ├── InvalidInputError
    │   │   ├── CheckBudgetError      (HTTP 413)
    │   │   ├── NoDocumentsError      (ingest: a folder with nothing to ingest)
    │   │   └── FixtureError          (eval: a fixture or baseline file that does not parse)
    │   ├── NotFoundError             (HTTP 404)
    │   └── AuthError                 (HTTP 401 / 403)
    └── RunError                (HTTP 503)
        ├── ModelError
        │   ├── ModelTimeoutError, ModelRefusalError, ModelHTTPError
        │   └── ModelOutputError
        │       └── ModelInvalidJSONError
        ├── StoreError
        └── RegressionError     (eval: a case got worse; CLI exit 1)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    # roots
    "GroundgateError",
    "RunError",
    "UsageError",
    # usage
    "AuthError",
    "CheckBudgetError",
    "ConfigurationError",
    "FixtureError",
    "InvalidInputError",
    "NoDocumentsError",
    "NotFoundError",
    # run
    "ModelError",
    "ModelHTTPError",
    "ModelInvalidJSONError",
    "ModelOutputError",
    "ModelRefusalError",
    "ModelTimeoutError",
    "RegressionError",
    "StoreError",
    "ScriptExhaustedError",
    "OutOfTimeError",
    "KnowledgeIndexError",
    "ConnectorError",
    "ConnectorTimeoutError",
    "ConnectorUnavailableError",
    "ConnectorHTTPError",
    "ConnectorResponseError",
]


class GroundgateError(Exception):
    """Base of every groundgate exception."""


class UsageError(GroundgateError):
    """The caller or the configuration is wrong; nothing was changed."""


class ConfigurationError(UsageError):
    """Settings are missing, malformed or contradictory."""


class InvalidInputError(UsageError):
    """An input (a file, a JSON line, an argument) does not have the required shape."""


class NotFoundError(UsageError):
    """An id (run, session) the caller named does not exist, or is not the caller's; nothing changed.

    "Not yours" and "does not exist" are one error on purpose: telling them apart would reveal
    another tenant's ids."""


class AuthError(UsageError):
    """Authentication (401) or authorization (403) failed."""

    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.message = message


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


class NoDocumentsError(InvalidInputError):
    """A folder given to ingest holds no document of a supported type; nothing was changed.

    `skipped` names the files that were found and left out, each with its reason (`BadFile`)."""

    def __init__(self, message: str, *, skipped: Sequence[object] = ()) -> None:
        super().__init__(message)
        self.skipped = tuple(skipped)


class StoreError(RunError):
    """The database failed (connection, lock timeout, constraint); translated from SQLAlchemy."""


class FixtureError(InvalidInputError):
    """An eval fixture (or baseline) file is malformed; the message names the file and the field."""

    def __init__(self, message: str, *, path: str = "", field: str = "") -> None:
        super().__init__(message)
        self.path = path
        self.field = field


class RegressionError(RunError):
    """`groundgate eval run` found regressions: cases that fail their expectations or got worse than
    the baseline. `cases` names them."""

    def __init__(self, message: str, *, cases: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.cases = tuple(cases)


class ScriptExhaustedError(UsageError):
    """A `ScriptedModel` has no output left for a role and no function to ask: fix the test's script."""


class KnowledgeIndexError(RunError):
    """The search engine failed (unreachable server, corrupt shard, incompatible layout)."""


class ConnectorError(RunError):
    """A monitoring backend (Prometheus, Alertmanager, Loki) could not answer a query."""

    def __init__(self, message: str, *, system: str) -> None:
        super().__init__(message)
        self.system = system
        """`prometheus`, `alertmanager` or `loki`."""


class ConnectorTimeoutError(ConnectorError):
    """The backend did not answer within the configured timeout."""


class ConnectorUnavailableError(ConnectorError):
    """The backend could not be reached (refused, unresolvable, TLS failure, reset)."""


class ConnectorHTTPError(ConnectorError):
    """The backend answered with a non-2xx status; `detail` is its own error message when it sent one."""

    def __init__(self, message: str, *, system: str, status_code: int, detail: str = "") -> None:
        super().__init__(message, system=system)
        self.status_code = status_code
        self.detail = detail


class ConnectorResponseError(ConnectorError):
    """The backend answered 2xx with something that is not the JSON its API documents."""


class OutOfTimeError(RunError):
    """The check's deadline passed while its context was being indexed; the checker catches it and
    reports the claims it did not reach as `budget:time_exceeded` (never seen by callers)."""
