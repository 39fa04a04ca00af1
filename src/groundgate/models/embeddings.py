"""`OpenAIEmbeddings`: dense vectors from any OpenAI-compatible `POST {base_url}/embeddings` endpoint.

Works with OpenAI (`text-embedding-3-small`...), DashScope compatible mode (`text-embedding-v3`), vLLM,
Ollama, Infinity, TEI's OpenAI route and anything else that answers the embeddings protocol. It is the
knowledge index's `DenseEncoder`: passages are embedded at ingestion in batches of `batch_size`, and one
query at search time with its own, shorter timeout (the knowledge tool has 5 s in all).

Vectors are asked for as `encoding_format: float` (some compatible servers know no base64), with
`dimensions` only when `send_dimensions` is set (only `text-embedding-3` and later models accept it;
others reject the field). Every answer is checked: one vector per input, in input order, each of
`dimensions` finite numbers.

Every failure is translated here into a `groundgate.errors.ModelError` subclass; no exception of the
`openai` SDK or of the HTTP client escapes: `ModelTimeoutError` (no answer in time), `ModelHTTPError`
(an HTTP error status, a refused connection), `ModelOutputError` (an answer that is not the vectors
asked for: wrong count, wrong dimension, not numbers).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

import httpx

from groundgate.errors import ConfigurationError, ModelOutputError
from groundgate.models._openai_errors import make_client, translate_openai_error

if TYPE_CHECKING:
    import httpx2


class OpenAIEmbeddings:
    """A `DenseEncoder` served by an OpenAI-compatible embeddings endpoint through the `openai` SDK.

    `http_client` is the seam for transports, proxies and tests; an injected client belongs to the
    caller and is not closed by `close()`.
    """

    def __init__(
        self,
        model_name: str,
        *,
        dimensions: int,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_seconds: float = 30.0,
        query_timeout_seconds: float = 2.0,
        batch_size: int = 64,
        send_dimensions: bool = False,
        max_retries: int = 0,
        http_client: httpx2.Client | httpx.Client | None = None,
        default_headers: Mapping[str, str] | None = None,
    ) -> None:
        """Configure the client; nothing is sent until `embed`.

        `dimensions` is the size of the vectors the model returns (the index creates its dense vector
        with it). `api_key=None` lets the SDK read `OPENAI_API_KEY`; local servers accept any key.
        `max_retries` defaults to 0: the index owns the fallback (BM25 alone).
        """
        if not model_name:
            raise ConfigurationError("OpenAIEmbeddings needs a model_name")
        if dimensions < 1:
            raise ConfigurationError("embedding dimensions must be a positive number")
        if timeout_seconds <= 0 or query_timeout_seconds <= 0:
            raise ConfigurationError("embedding timeouts must be positive")
        if batch_size < 1:
            raise ConfigurationError("embedding batch_size must be at least 1")
        self.model_name = model_name
        self._dimension = dimensions
        self.timeout_seconds = timeout_seconds
        self.query_timeout_seconds = query_timeout_seconds
        self.batch_size = batch_size
        self.send_dimensions = send_dimensions
        self._owns_http_client = http_client is None
        self._client = make_client(
            api_key=api_key,
            base_url=base_url,
            timeout_seconds=timeout_seconds,
            max_retries=max_retries,
            default_headers=default_headers,
            http_client=http_client,
            what="embeddings client",
        )

    # ------------------------------------------------------------------ DenseEncoder

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors of `texts`, in order, sent `batch_size` at a time."""
        vectors: list[list[float]] = []
        for offset in range(0, len(texts), self.batch_size):
            vectors.extend(self._request(texts[offset : offset + self.batch_size], self.timeout_seconds))
        return vectors

    def embed_query(self, text: str) -> list[float]:
        """The vector of one search query, within `query_timeout_seconds`."""
        return self._request([text], self.query_timeout_seconds)[0]

    # ------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        """Close the SDK's HTTP client (an injected `http_client` is left to its owner)."""
        if self._owns_http_client:
            self._client.close()

    def __enter__(self) -> OpenAIEmbeddings:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return (
            f"OpenAIEmbeddings(model_name={self.model_name!r}, base_url={str(self._client.base_url)!r}, "
            f"dimensions={self._dimension})"
        )

    # ------------------------------------------------------------------ the call

    def _request(self, texts: Sequence[str], timeout: float) -> list[list[float]]:
        what = f"embedding model {self.model_name!r}"
        # The API refuses empty strings; a passage is never empty, a stray query might be.
        inputs = [text if text.strip() else " " for text in texts]
        options: dict[str, Any] = {"encoding_format": "float", "timeout": timeout}
        if self.send_dimensions:
            options["dimensions"] = self._dimension
        try:
            response = self._client.embeddings.create(model=self.model_name, input=inputs, **options)
        except Exception as exc:  # never let a third-party exception escape this boundary
            raise translate_openai_error(exc, what, timeout) from exc
        return self._vectors(response, len(inputs), what)

    def _vectors(self, response: Any, expected: int, what: str) -> list[list[float]]:
        try:
            items = sorted(response.data, key=lambda item: int(item.index))
            raw = [item.embedding for item in items]
        except Exception as exc:  # the server answered something other than an embeddings list
            raise ModelOutputError(
                f"{what} returned no usable vectors ({type(exc).__name__}: {exc})"
            ) from exc
        if len(raw) != expected:
            raise ModelOutputError(f"{what} returned {len(raw)} vectors for {expected} inputs")
        vectors: list[list[float]] = []
        for number, vector in enumerate(raw):
            if not isinstance(vector, list) or not all(isinstance(v, int | float) for v in vector):
                raise ModelOutputError(f"{what} returned vector {number} that is not a list of numbers")
            if len(vector) != self._dimension:
                raise ModelOutputError(
                    f"{what} returned vectors of dimension {len(vector)}, configured {self._dimension} "
                    "(set [embedding] dimensions to the model's size)"
                )
            values = [float(v) for v in vector]
            if not all(math.isfinite(v) for v in values) or not any(values):
                raise ModelOutputError(
                    f"{what} returned vector {number} with no direction (zero, NaN or inf)"
                )
            vectors.append(values)
        return vectors


__all__ = ["OpenAIEmbeddings"]
