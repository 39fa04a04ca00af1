"""The `openai` SDK's exceptions, translated into groundgate's `ModelError`s in one place.

Both clients of an OpenAI-compatible endpoint (chat completions in `openai.py`, embeddings in
`embeddings.py`) call `translate_openai_error` at their boundary and raise its result `from` the
original exception, so the cause stays in the traceback while callers only ever see `ModelError`s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import httpx
import openai

from groundgate.errors import ConfigurationError, ModelError, ModelHTTPError, ModelTimeoutError

TIMEOUT_ERRORS: tuple[type[BaseException], ...]
try:  # openai >= 3 uses httpx2; the legacy httpx client is still accepted as `http_client`.
    import httpx2 as _httpx2

    TIMEOUT_ERRORS = (httpx.TimeoutException, _httpx2.TimeoutException, TimeoutError)
except ImportError:  # pragma: no cover - openai < 3
    TIMEOUT_ERRORS = (httpx.TimeoutException, TimeoutError)

BODY_SNIPPET = 300
"""Characters of an error body quoted in the message (the whole body, up to 2,000, is kept raw)."""


def make_client(
    *,
    api_key: str | None,
    base_url: str | None,
    timeout_seconds: float,
    max_retries: int,
    default_headers: Mapping[str, str] | None,
    http_client: Any,
    what: str,
) -> openai.OpenAI:
    """The SDK client both front ends use; a bad configuration is a `ConfigurationError` naming `what`."""
    try:
        return openai.OpenAI(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout_seconds,
            max_retries=max_retries,
            default_headers=default_headers,
            http_client=cast(Any, http_client),
        )
    except (openai.OpenAIError, TypeError) as exc:  # no key at all, or a wrong `http_client` type
        raise ConfigurationError(f"cannot configure the {what}: {exc}") from exc


def raw_body(exc: openai.APIStatusError) -> str | None:
    try:
        return exc.response.text[:2000]
    except Exception:
        return None


def body_snippet(exc: openai.APIStatusError) -> str:
    """The endpoint's own error message, on one line and shortened."""
    body = exc.body
    if isinstance(body, dict):
        error = body.get("error", body)
        message = error.get("message") if isinstance(error, dict) else error
        text = str(message if message is not None else body)
    elif body is None:
        text = raw_body(exc) or exc.message
    else:
        text = str(body)
    text = " ".join(text.split())
    return text[:BODY_SNIPPET] + ("…" if len(text) > BODY_SNIPPET else "")


def translate_openai_error(exc: BaseException, what: str, timeout_seconds: float) -> ModelError:
    """The `ModelError` for an exception raised while calling `what` (e.g. "model 'qwen-plus'")."""
    # APITimeoutError is an APIConnectionError: test it first.
    if isinstance(exc, (openai.APITimeoutError, *TIMEOUT_ERRORS)):
        return ModelTimeoutError(f"{what} did not answer within {timeout_seconds:g} s")
    if isinstance(exc, openai.APIStatusError):
        return ModelHTTPError(
            f"{what} answered HTTP {exc.status_code}: {body_snippet(exc)}", raw_output=raw_body(exc)
        )
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        detail = f"{exc.message} ({type(cause).__name__}: {cause})" if cause else exc.message
        return ModelHTTPError(f"{what} unreachable: {detail}")
    return ModelHTTPError(f"{what} failed: {type(exc).__name__}: {exc}")


__all__ = [
    "BODY_SNIPPET",
    "TIMEOUT_ERRORS",
    "body_snippet",
    "make_client",
    "raw_body",
    "translate_openai_error",
]
