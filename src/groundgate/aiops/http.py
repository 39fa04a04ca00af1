"""One JSON-over-HTTP GET for the monitoring connectors, and the errors it translates into.

Prometheus, Alertmanager and Loki are read the same way: a GET with query parameters, an optional
bearer token, a timeout, a JSON body back. Every failure of that exchange becomes one of the
`ConnectorError`s below (all `RunError`s: the tool call is recorded as failed and the run follows
its fallback), raised `from` the httpx or JSON exception so the cause stays in the traceback:

| what happened | error |
|---|---|
| no answer within the timeout | `ConnectorTimeoutError` |
| connection refused, DNS, TLS, reset | `ConnectorUnavailableError` |
| a non-2xx answer (the server's own error message kept when it sent one) | `ConnectorHTTPError` |
| 2xx but not JSON, or JSON of the wrong shape | `ConnectorResponseError` |

A client is opened per request: tool calls are rare (a few per run) and this way nothing has to be
closed when a workspace closes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import httpx

from groundgate.errors import (
    ConnectorError,
    ConnectorHTTPError,
    ConnectorResponseError,
    ConnectorTimeoutError,
    ConnectorUnavailableError,
)

__all__ = [
    "ConnectorError",
    "ConnectorHTTPError",
    "ConnectorResponseError",
    "ConnectorTimeoutError",
    "ConnectorUnavailableError",
    "HttpEndpoint",
    "MonitoringClient",
    "QueryParams",
]

#: Query parameters: repeated names (Alertmanager's `filter`) are given as a sequence of pairs.
QueryParams = Sequence[tuple[str, str]]

_MAX_MESSAGE_CHARS = 300


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MAX_MESSAGE_CHARS else text[: _MAX_MESSAGE_CHARS - 1] + "…"


def _error_detail(response: httpx.Response) -> str:
    """The server's own error message: Prometheus/Loki `{"error": ...}`, else the plain body."""
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return _short(response.text)
    if isinstance(body, Mapping):
        kind = body.get("errorType")
        message = body.get("error") or body.get("message")
        if isinstance(message, str):
            return _short(f"{kind}: {message}" if isinstance(kind, str) and kind else message)
    return _short(response.text)


class HttpEndpoint:
    """A base URL with its timeout, bearer token and optional test transport."""

    def __init__(
        self,
        base_url: str,
        *,
        system: str,
        timeout_seconds: float = 10.0,
        bearer_token: str | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.system = system
        self.timeout_seconds = timeout_seconds
        self._bearer_token = bearer_token
        self._transport = transport

    def get_json(
        self, path: str, params: QueryParams = (), *, headers: Mapping[str, str] | None = None
    ) -> Any:
        """GET `path` with `params` and return the decoded JSON body (see the module table)."""
        sent = {"Accept": "application/json", **(headers or {})}
        if self._bearer_token:
            sent["Authorization"] = f"Bearer {self._bearer_token}"
        url = self.base_url + path
        try:
            with httpx.Client(timeout=self.timeout_seconds, transport=self._transport) as client:
                response = client.get(url, params=list(params), headers=sent)
        except httpx.TimeoutException as exc:
            raise ConnectorTimeoutError(
                f"{self.system} did not answer {path} within {self.timeout_seconds:g} s", system=self.system
            ) from exc
        except httpx.HTTPError as exc:  # connect errors, protocol errors, invalid URLs
            raise ConnectorUnavailableError(
                f"{self.system} at {self.base_url} is unreachable: {type(exc).__name__}: {_short(str(exc))}",
                system=self.system,
            ) from exc
        if not response.is_success:
            detail = _error_detail(response)
            raise ConnectorHTTPError(
                f"{self.system} answered {path} with HTTP {response.status_code}"
                + (f": {detail}" if detail else ""),
                system=self.system,
                status_code=response.status_code,
                detail=detail,
            )
        try:
            return response.json()
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ConnectorResponseError(
                f"{self.system} answered {path} with a body that is not JSON: {_short(response.text)}",
                system=self.system,
            ) from exc


class MonitoringClient:
    """What the Prometheus, Alertmanager and Loki clients share: one server's endpoint, named by
    `system` in every error it raises."""

    system: ClassVar[str]

    def __init__(
        self,
        url: str,
        *,
        timeout_seconds: float = 10.0,
        bearer_token: str | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.endpoint = HttpEndpoint(
            url,
            system=self.system,
            timeout_seconds=timeout_seconds,
            bearer_token=bearer_token,
            transport=transport,
        )

    @property
    def url(self) -> str:
        return self.endpoint.base_url
