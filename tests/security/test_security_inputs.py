"""Hostile and careless input at the HTTP edge: control characters, undecodable and over-deep JSON,
empty ids, error bodies that must not leak the database's whereabouts, and the page's headers.

Every refusal is a 422 (or 413) with a message that names the problem, on every store backend, and no
5xx body carries an exception's text: only a generic message and the correlation id that finds the
details in the log.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from _databases import BACKENDS, database_url
from groundgate.api import create_app
from groundgate.api.middleware import MAX_JSON_DEPTH, json_depth_exceeds
from groundgate.apps.workspace import Workspace, load_demo, open_workspace
from groundgate.settings import Settings
from groundgate.store import Store, open_store
from groundgate.text.safety import control_character_problem, first_control_character

QUESTION = "ERR_TIMEOUT 是哪个组件返回的？含义是什么？"
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("security-inputs")


@pytest.fixture(scope="module")
def workspace(data_dir: Path) -> Iterator[Workspace]:
    with open_workspace(data_dir) as ws:
        load_demo(ws)
        yield ws


@pytest.fixture(scope="module", params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    for url in database_url(request.param, tmp_path_factory.mktemp("db")):
        opened = open_store(url)
        try:
            yield opened
        finally:
            opened.close()


@pytest.fixture(scope="module")
def client(data_dir: Path, workspace: Workspace, store: Store) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=data_dir), workspace=workspace, store=store)
    with TestClient(app) as test_client:
        yield test_client


def _assert_invalid(response: Any, *words: str) -> None:
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["error"] == "invalid_request"
    for word in words:
        assert word in body["message"], body["message"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("body", "field", "what"),
    [
        ({"question": "hi\x00there"}, "question", "U+0000 (NUL)"),
        ({"question": "ring \x07 the bell"}, "question", "U+0007"),
        ({"question": "escape \x1b[31m red"}, "question", "U+001B (ESC)"),
        ({"question": "lone \ud800 surrogate"}, "question", "unicode string"),
        ({"question": QUESTION, "sessionId": "abc\x00def"}, "sessionId", "U+0000 (NUL)"),
        ({"question": QUESTION, "sessionId": "abc\ndef"}, "sessionId", "U+000A"),
    ],
)
def test_control_characters_in_a_chat_are_a_422_naming_the_field_on_every_backend(
    client: TestClient, body: dict[str, Any], field: str, what: str
) -> None:
    # json.dumps escapes as \uXXXX, as a client would send a lone surrogate
    _assert_invalid(client.post("/api/chat", content=json.dumps(body), headers=JSON), field, what)


def test_tabs_and_newlines_in_a_question_are_fine(client: TestClient) -> None:
    response = client.post("/api/chat", json={"question": f"\t{QUESTION}\r\n"})
    assert response.status_code == 200, response.text
    assert response.json()["outputKind"] == "NORMAL"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/check", {"context": "ctx \x00", "answer": "a"}),
        ("/api/check", {"context": ["fine", "bad \x00"], "answer": "a"}),
        ("/api/check", {"context": "fine", "answer": "bad \x00"}),
        ("/api/check", {"context": "fine", "answer": "a", "question": "q\x00"}),
        ("/api/feedback", {"sessionId": "s\x00", "feedback": "useful"}),
        ("/api/feedback", {"sessionId": "s", "runId": "r\x00", "feedback": "useful"}),
    ],
)
def test_control_characters_in_check_and_feedback_bodies_are_a_422(
    client: TestClient, path: str, body: dict[str, Any]
) -> None:
    _assert_invalid(client.post(path, json=body), "U+0000 (NUL)")


@pytest.mark.parametrize(
    "url",
    [
        "/api/trace/abc%00def",
        "/api/sessions/a%00b/runs",
        "/api/runs?sessionId=x%00y",
        "/api/runs?feedback=%1b",
    ],
)
def test_control_characters_in_paths_and_queries_are_a_422(client: TestClient, url: str) -> None:
    _assert_invalid(client.get(url), "contains U+00")


def test_an_empty_run_id_is_a_422_not_the_latest_run(client: TestClient) -> None:
    chat = client.post("/api/chat", json={"question": QUESTION}).json()
    response = client.post(
        "/api/feedback", json={"sessionId": chat["sessionId"], "runId": "", "feedback": "not_useful"}
    )
    _assert_invalid(response, "runId")
    trace = client.get(f"/api/trace/{chat['runId']}").json()
    assert trace["feedback"] is None  # nothing was rated


def test_an_empty_answer_to_check_is_a_422(client: TestClient) -> None:
    _assert_invalid(client.post("/api/check", json={"context": "x", "answer": "   "}), "answer")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b'{"question": "\xff\xfe"}', ("not valid UTF-8",)),
        (b'{"question": "caf\xc3"}', ("not valid UTF-8",)),
        (b'{"question": ' + b"[" * 5000 + b"]" * 5000 + b"}", ("deeper than", str(MAX_JSON_DEPTH))),
        (b'{"question": ' + b'{"a":' * 200 + b"1" + b"}" * 200 + b"}", ("deeper than",)),
        (b'{"question": ', ("not valid JSON",)),
    ],
)
def test_undecodable_or_over_deep_json_is_a_422(
    client: TestClient, content: bytes, words: tuple[str, ...]
) -> None:
    _assert_invalid(client.post("/api/chat", content=content, headers=JSON), *words)


def test_deep_brackets_inside_a_json_string_are_text_not_nesting(client: TestClient) -> None:
    question = "[" * 500 + " " + QUESTION
    response = client.post("/api/chat", json={"question": question[:1900]})
    assert response.status_code == 200, response.text


@pytest.mark.parametrize(
    ("body", "limit", "deeper"),
    [
        (b"[[[]]]", 3, False),
        (b"[[[[]]]]", 3, True),
        (b'{"a": "[[[[[[[["}', 2, False),
        (b'{"a": "\\"[[[[[["}', 2, False),
        (b'[{"a": [{"b": 1}]}]', 4, False),
        (b'[{"a": [{"b": [1]}]}]', 4, True),
    ],
)
def test_json_depth_is_measured_outside_strings(body: bytes, limit: int, deeper: bool) -> None:
    assert json_depth_exceeds(body, limit) is deeper


@pytest.mark.parametrize(
    ("text", "whitespace_ok", "bad"),
    [
        ("plain text, 中文", True, None),
        ("tab\tand\nnewline\r", True, None),
        ("tab\t", False, "\t"),
        ("nul\x00", True, "\x00"),
        ("del\x7f", True, "\x7f"),
        ("c1\x85", True, "\x85"),
        ("surrogate\udfff", True, "\udfff"),
    ],
)
def test_the_control_character_rule(text: str, whitespace_ok: bool, bad: str | None) -> None:
    assert first_control_character(text, allow_whitespace=whitespace_ok) == bad
    assert (control_character_problem(text, allow_whitespace=whitespace_ok) is None) is (bad is None)


def test_every_response_carries_a_correlation_id_and_the_security_headers(client: TestClient) -> None:
    ids = set()
    for url in ("/", "/healthz", "/api/runs", "/static/app.js", "/api/trace/nope"):
        response = client.get(url)
        assert response.headers["x-frame-options"] == "DENY", url
        assert response.headers["x-content-type-options"] == "nosniff", url
        assert response.headers["referrer-policy"] == "no-referrer", url
        policy = response.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy, url
        assert "script-src 'self'" in policy, url
        assert "unsafe-inline" not in policy, url
        ids.add(response.headers["x-correlation-id"])
    assert len(ids) == 5  # one per request


# ---------------------------------------------------------------- errors that say too much


@pytest.fixture
def dead_store_client(data_dir: Path, workspace: Workspace) -> Iterator[TestClient]:
    """A PostgreSQL store whose server is gone: the connection error names host, port and database.

    A real psycopg connection attempt to a closed port (no mock): what a client saw before was the
    driver's message with all three in it."""
    dead = open_store(
        "postgresql+psycopg://groundgate@127.0.0.1:9/secret_payments_db?connect_timeout=2", migrate=False
    )
    app = create_app(Settings(data_dir=data_dir), workspace=workspace, store=dead)
    try:
        with TestClient(app) as test_client:
            yield test_client
    finally:
        dead.close()


def _assert_generic_5xx(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    for secret in (
        "127.0.0.1",
        "secret_payments_db",
        "psycopg",
        "OperationalError",
        "port 9",
        "SELECT",
        "INSERT",
    ):
        assert secret not in response.text, secret
    body = response.json()
    assert body["correlationId"] == response.headers["x-correlation-id"]
    cid: str = body["correlationId"]
    return cid


def test_a_lost_database_is_a_503_with_a_generic_message_and_the_details_in_the_log(
    dead_store_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR):
        response = dead_store_client.post("/api/chat", json={"question": QUESTION})
    cid = _assert_generic_5xx(response, 503)
    assert response.json()["error"] == "unavailable"
    # The record that names the correlation id carries the traceback, causes included.
    logged = [caplog.handler.format(r) for r in caplog.records if cid in r.getMessage()]
    assert logged, "the details are logged under the correlation id"
    assert any("127.0.0.1" in text and "port 9" in text for text in logged)


def test_reads_on_a_lost_database_are_a_generic_503_too(dead_store_client: TestClient) -> None:
    for url in ("/api/runs", "/api/trace/abc", "/api/cases"):
        _assert_generic_5xx(dead_store_client.get(url), 503)


def test_a_streamed_chat_on_a_lost_database_ends_with_a_generic_error_event(
    dead_store_client: TestClient,
) -> None:
    with dead_store_client.stream(
        "POST", "/api/chat", json={"question": QUESTION}, headers={"Accept": "text/event-stream"}
    ) as response:
        text = "".join(response.iter_text())
    if response.status_code == 200:
        assert "event: error" in text
        assert "event: result" not in text
        assert "secret_payments_db" not in text
        assert "127.0.0.1" not in text
        assert response.headers["x-correlation-id"] in text
    else:
        assert response.status_code == 503


def test_an_unexpected_error_is_a_generic_500_with_a_correlation_id(
    data_dir: Path, workspace: Workspace, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(Settings(data_dir=data_dir), workspace=workspace, store=store)

    @app.get("/boom")
    def boom() -> None:
        raise KeyError("secret_payments_db at 127.0.0.1")

    with TestClient(app) as test_client, caplog.at_level(logging.ERROR):
        response = test_client.get("/boom")
    cid = _assert_generic_5xx(response, 500)
    assert response.json()["error"] == "internal_error"
    assert response.headers["x-frame-options"] == "DENY"
    assert any(cid in r.getMessage() for r in caplog.records)
