"""A small, real OpenAI-compatible HTTP server for tests.

`OpenAICompatibleServer` listens on 127.0.0.1 (ephemeral port) in a background thread and answers
`POST /v1/chat/completions`, `POST /v1/embeddings` and `GET /v1/models`. What chat completions answer
is scripted by a handler that receives the parsed request JSON and returns a `ScriptedReply`
(content, refusal, HTTP error, delay, usage); a list of replies is served in order. Every request is
recorded, so tests can assert what really went over the wire.

    with OpenAICompatibleServer(lambda request: ScriptedReply.json({"ok": True})) as server:
        model = OpenAIModel("test-model", base_url=server.base_url, api_key="sk-test")

Embeddings are deterministic: `hashed_embedding` folds a text's character n-grams (CJK characters
and pairs, Latin words and their trigrams) into a vector of `embedding_dimensions` (or the request's
`dimensions`), L2-normalised, so texts that share words or spellings are near and unrelated ones are
not. An `embedding_handler` may answer a request with a `ScriptedReply` instead (an HTTP error, a
delay, a body of its own, such as vectors of the wrong size), or None for the default vectors.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

__all__ = [
    "EmbeddingHandler",
    "OpenAICompatibleServer",
    "ReceivedRequest",
    "ReplyHandler",
    "ScriptedReply",
    "hashed_embedding",
    "unused_base_url",
]


@dataclass(frozen=True, slots=True)
class ScriptedReply:
    """One scripted answer of the test server.

    With `status` 200 and no `body` the server answers a chat completion carrying `content` (or
    `refusal`). Otherwise it answers `status` with `body` as it is (a dict sent as JSON, a string
    sent as text; for an error status, by default an OpenAI-style error object). `delay_seconds` waits before
    answering. Usage numbers default to a characters/4 estimate; `include_usage=False` leaves
    the `usage` object out, as some compatible servers do.
    """

    content: str | None = None
    refusal: str | None = None
    status: int = 200
    body: Mapping[str, Any] | str | None = None
    delay_seconds: float = 0.0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    include_usage: bool = True
    finish_reason: str = "stop"
    model: str | None = None
    """The `model` field of the answer; by default the requested model."""

    @classmethod
    def json(cls, value: Any, **kwargs: Any) -> ScriptedReply:
        """A reply whose content is `value` serialized as JSON (pydantic models too)."""
        if hasattr(value, "model_dump_json"):
            text = value.model_dump_json()
        else:
            text = json.dumps(value, ensure_ascii=False)
        return cls(content=text, **kwargs)

    @classmethod
    def error(cls, status: int, message: str = "scripted error", **kwargs: Any) -> ScriptedReply:
        """An HTTP error with an OpenAI-style error body."""
        body = {"error": {"message": message, "type": "scripted_error", "code": str(status)}}
        return cls(status=status, body=body, **kwargs)


@dataclass(frozen=True, slots=True)
class ReceivedRequest:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    """Header names lower-cased."""
    body: dict[str, Any] = field(default_factory=dict)
    """The parsed JSON body (empty for GET)."""

    @property
    def messages(self) -> list[dict[str, Any]]:
        value = self.body.get("messages", [])
        return value if isinstance(value, list) else []

    @property
    def response_format(self) -> dict[str, Any] | None:
        value = self.body.get("response_format")
        return value if isinstance(value, dict) else None


ReplyHandler = Callable[[dict[str, Any]], ScriptedReply]
"""Receives the parsed chat-completions request body; returns what to answer."""

EmbeddingHandler = Callable[[dict[str, Any]], "ScriptedReply | None"]
"""Receives the parsed embeddings request body; returns a scripted answer, or None for the vectors."""

_CJK_RUN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_LATIN_WORD = re.compile(r"[a-z0-9]+")


def _features(text: str) -> list[str]:
    lowered = text.lower()
    features: list[str] = []
    for run in _CJK_RUN.findall(lowered):
        features.extend(run)
        features.extend(run[i : i + 2] for i in range(len(run) - 1))
    for word in _LATIN_WORD.findall(lowered):
        features.append(word)
        padded = f"#{word}#"
        features.extend(padded[i : i + 3] for i in range(len(padded) - 2))
    return features


def hashed_embedding(text: str, dimensions: int) -> list[float]:
    """A deterministic unit vector of `text`: its character n-grams hashed into `dimensions` buckets."""
    vector = [0.0] * dimensions
    for feature in _features(text) or [text or " "]:
        digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
        bucket = int.from_bytes(digest[:4], "little") % dimensions
        vector[bucket] += 1.0 if digest[4] & 1 else -1.0
    norm = math.sqrt(sum(v * v for v in vector))
    if norm == 0:  # every feature cancelled out: still a direction, never a zero vector
        vector[0], norm = 1.0, 1.0
    return [v / norm for v in vector]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = True

    def __init__(self, owner: OpenAICompatibleServer) -> None:
        self.owner = owner
        super().__init__(("127.0.0.1", 0), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gave up (timeout) closes its socket mid-answer: expected, not an error.
        return


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    timeout = 10  # socket timeout: a stuck client never holds a handler thread for long
    error_content_type = "application/json"
    error_message_format = '{"error": {"message": "%(message)s", "code": "%(code)d"}}'

    def log_message(self, format: str, *args: Any) -> None:
        return  # keep test output clean

    def do_GET(self) -> None:
        owner = self.server.owner
        if self.path.rstrip("/") != "/v1/models":
            self._send_json(404, {"error": {"message": f"no route {self.path}", "code": "404"}})
            return
        owner._record(ReceivedRequest("GET", self.path, self._headers()))
        if not self._authorized():
            return
        data = [{"id": owner.model_id, "object": "model", "created": 0, "owned_by": "groundgate-test"}]
        self._send_json(200, {"object": "list", "data": data})

    def do_POST(self) -> None:
        owner = self.server.owner
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_unparsed": raw.decode("utf-8", "replace")}
        if not isinstance(body, dict):
            body = {"_unparsed": body}
        owner._record(ReceivedRequest("POST", self.path, self._headers(), body))
        if self.path.rstrip("/") == "/v1/embeddings":
            self._embeddings(body)
            return
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send_json(404, {"error": {"message": f"no route {self.path}", "code": "404"}})
            return
        if not self._authorized():
            return
        try:
            reply = owner._reply_for(body)
        except Exception as exc:  # a handler bug: answer 500 and keep it for the test to see
            owner.handler_errors.append(exc)
            self._send_json(500, {"error": {"message": f"handler failed: {exc!r}", "code": "500"}})
            return
        if self._scripted(reply):
            return
        self._send_json(200, owner._completion(body, reply))

    def _embeddings(self, body: dict[str, Any]) -> None:
        owner = self.server.owner
        if not self._authorized():
            return
        reply: ScriptedReply | None = None
        if owner.embedding_handler is not None:
            try:
                reply = owner.embedding_handler(body)
            except Exception as exc:  # a handler bug: answer 500 and keep it for the test to see
                owner.handler_errors.append(exc)
                self._send_json(500, {"error": {"message": f"handler failed: {exc!r}", "code": "500"}})
                return
        if reply is not None and self._scripted(reply):
            return
        answer = owner._embedding_answer(body)
        self._send_json(400 if "error" in answer else 200, answer)

    def _scripted(self, reply: ScriptedReply) -> bool:
        """Wait out the reply's delay and send it when it is an error or a body of its own."""
        if reply.delay_seconds > 0 and self.server.owner._closing.wait(reply.delay_seconds):
            return True  # the server is closing: drop the answer
        if reply.status == 200 and reply.body is None:
            return False
        payload = reply.body
        if payload is None:
            payload = {"error": {"message": "scripted error", "code": str(reply.status)}}
        if isinstance(payload, str):
            self._send(reply.status, payload.encode(), "text/plain; charset=utf-8")
        else:
            self._send_json(reply.status, dict(payload))
        return True

    # ------------------------------------------------------------------ helpers

    def _headers(self) -> dict[str, str]:
        return {k.lower(): v for k, v in self.headers.items()}

    def _authorized(self) -> bool:
        expected = self.server.owner.api_key
        if expected is None or self.headers.get("Authorization") == f"Bearer {expected}":
            return True
        self._send_json(
            401,
            {
                "error": {
                    "message": "Incorrect API key provided",
                    "type": "invalid_request_error",
                    "code": "invalid_api_key",
                }
            },
        )
        return False

    def _send_json(self, status: int, payload: Mapping[str, Any]) -> None:
        self._send(status, json.dumps(payload, ensure_ascii=False).encode(), "application/json")

    def _send(self, status: int, data: bytes, content_type: str) -> None:
        self.close_connection = True
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
        except OSError:  # the client went away (e.g. it timed out): nothing to tell it
            pass


class OpenAICompatibleServer:
    """A real HTTP server speaking the OpenAI chat-completions protocol, scripted per request.

    `handler` is a `ReplyHandler`, or replies served in order (an iterable now, more through
    `enqueue`; running out answers HTTP 500 and records the error in `handler_errors`). `api_key`, when set, is
    required as `Authorization: Bearer ...` (401 otherwise). Use as a context manager; `close()`
    stops the thread, closes the socket and cuts scripted delays short.
    """

    def __init__(
        self,
        handler: ReplyHandler | Iterable[ScriptedReply] | None = None,
        *,
        api_key: str | None = None,
        model_id: str = "test-model",
        embedding_dimensions: int = 64,
        embedding_handler: EmbeddingHandler | None = None,
    ) -> None:
        self._handler: ReplyHandler | None = None
        self._queue: deque[ScriptedReply] = deque()
        if callable(handler):
            self._handler = handler
        elif handler is not None:
            self._queue.extend(handler)
        self.api_key = api_key
        self.model_id = model_id
        self.embedding_dimensions = embedding_dimensions
        """Size of the default vectors when a request names no `dimensions`."""
        self.embedding_handler = embedding_handler
        self.requests: list[ReceivedRequest] = []
        """Every request received, in order."""
        self.handler_errors: list[BaseException] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._counter = 0
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> OpenAICompatibleServer:
        if self._httpd is not None:
            return self
        self._closing.clear()
        self._httpd = _Server(self)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="openai-compatible-test-server",
            daemon=True,
        )
        self._thread.start()
        return self

    def close(self) -> None:
        httpd, thread = self._httpd, self._thread
        if httpd is None:
            return
        self._closing.set()
        httpd.shutdown()
        httpd.server_close()  # joins handler threads (block_on_close)
        if thread is not None:
            thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> OpenAICompatibleServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def enqueue(self, *replies: ScriptedReply) -> OpenAICompatibleServer:
        """Queue replies, served in order to the next requests (when no handler function is set)."""
        if self._handler is not None:
            raise RuntimeError("this server answers through its handler function")
        with self._lock:
            self._queue.extend(replies)
        return self

    # ------------------------------------------------------------------ addresses and records

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the server is not running")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:<port>/v1`, ready for `OpenAIModel(base_url=...)`."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def chat_requests(self) -> list[ReceivedRequest]:
        """The recorded `POST /v1/chat/completions` requests."""
        with self._lock:
            return [
                r
                for r in self.requests
                if r.method == "POST" and r.path.rstrip("/").endswith("/chat/completions")
            ]

    @property
    def embedding_requests(self) -> list[ReceivedRequest]:
        """The recorded `POST /v1/embeddings` requests."""
        with self._lock:
            return [
                r for r in self.requests if r.method == "POST" and r.path.rstrip("/").endswith("/embeddings")
            ]

    @property
    def last_request(self) -> ReceivedRequest:
        with self._lock:
            if not self.requests:
                raise LookupError("no request received")
            return self.requests[-1]

    # ------------------------------------------------------------------ used by the handler

    def _record(self, request: ReceivedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _reply_for(self, body: dict[str, Any]) -> ScriptedReply:
        if self._handler is not None:
            return self._handler(body)
        with self._lock:
            if not self._queue:
                raise LookupError("no scripted reply left")
            return self._queue.popleft()

    def _embedding_answer(self, body: dict[str, Any]) -> dict[str, Any]:
        """The embeddings answer for `body`, or an OpenAI-style error object for a malformed request."""

        def error(message: str) -> dict[str, Any]:
            return {"error": {"message": message, "type": "invalid_request_error", "code": "400"}}

        raw = body.get("input")
        inputs = [raw] if isinstance(raw, str) else raw
        if not isinstance(inputs, list) or not inputs or not all(isinstance(t, str) for t in inputs):
            return error("'input' must be a string or a non-empty list of strings")
        if any(not text for text in inputs):
            return error("'input' cannot contain an empty string")
        if not isinstance(body.get("model"), str) or not body["model"]:
            return error("'model' is required")
        dimensions = body.get("dimensions", self.embedding_dimensions)
        if not isinstance(dimensions, int) or dimensions < 1:
            return error("'dimensions' must be a positive integer")
        as_base64 = body.get("encoding_format") == "base64"
        data: list[dict[str, Any]] = []
        for number, text in enumerate(inputs):
            vector = hashed_embedding(text, dimensions)
            embedding: list[float] | str = (
                base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode() if as_base64 else vector
            )
            data.append({"object": "embedding", "index": number, "embedding": embedding})
        tokens = sum(math.ceil(len(text) / 4) for text in inputs)
        return {
            "object": "list",
            "data": data,
            "model": body["model"],
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }

    def _completion(self, body: dict[str, Any], reply: ScriptedReply) -> dict[str, Any]:
        with self._lock:
            self._counter += 1
            number = self._counter
        message: dict[str, Any] = {"role": "assistant", "content": reply.content, "refusal": reply.refusal}
        answer: dict[str, Any] = {
            "id": f"chatcmpl-test-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": reply.model or str(body.get("model") or self.model_id),
            "choices": [
                {"index": 0, "message": message, "finish_reason": reply.finish_reason, "logprobs": None}
            ],
        }
        if reply.include_usage:
            prompt = reply.prompt_tokens
            if prompt is None:
                chars = sum(
                    len(str(m.get("content") or "")) for m in body.get("messages", []) if isinstance(m, dict)
                )
                prompt = math.ceil(chars / 4)
            completion = reply.completion_tokens
            if completion is None:
                completion = math.ceil(len(reply.content or reply.refusal or "") / 4)
            answer["usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            }
        return answer


def unused_base_url() -> str:
    """A `/v1` base URL on a 127.0.0.1 port nobody listens on (connections are refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
