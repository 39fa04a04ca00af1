"""`POST /api/feedback` over HTTP: the case library follows the latest feedback and the reply says so;
the reply is in the caller's language (`Accept-Language`, else the rated question's)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from _databases import make_run_result
from groundgate.api import create_app
from groundgate.apps.workspace import open_workspace
from groundgate.settings import Settings
from groundgate.store import Store, open_store
from groundgate.store.recorder import persist_run

ZH_QUESTION = "支付网关 PAY-5003 是什么原因？"
EN_QUESTION = "What does PAY-5003 mean on the payment gateway?"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("feedback-api")


@pytest.fixture(scope="module")
def store(data_dir: Path) -> Iterator[Store]:
    opened = open_store(data_dir)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def client(data_dir: Path, store: Store) -> Iterator[TestClient]:
    # Local mode (no keys): the runs below are recorded for `[local]`'s tenant, acme.
    with open_workspace(data_dir) as workspace:
        app = create_app(Settings(data_dir=data_dir), workspace=workspace, store=store)
        with TestClient(app) as test_client:
            yield test_client


@pytest.fixture
def record(store: Store) -> Callable[[str], tuple[str, str]]:
    def run(question: str = ZH_QUESTION) -> tuple[str, str]:
        result = make_run_result(question=question)
        persist_run(store, result, tenant="acme")
        return result.session_id, result.run_id

    return run


def _rate(
    client: TestClient, run: tuple[str, str], value: str, language: str | None = None
) -> dict[str, object]:
    headers = {"Accept-Language": language} if language else {}
    response = client.post(
        "/api/feedback", json={"sessionId": run[0], "runId": run[1], "feedback": value}, headers=headers
    )
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


def _in_cases(client: TestClient, run_id: str) -> bool:
    return run_id in [c["diagnosisId"] for c in client.get("/api/cases").json()]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sequence", "in_library", "message"),
    [
        (["useful", "not_useful"], False, "反馈已记录：这条回答已移出案例库"),
        (["not_useful", "useful"], True, "反馈已记录：这条回答已在案例库中"),
    ],
    ids=["👍 then 👎", "👎 then 👍"],
)
def test_the_case_library_follows_the_latest_feedback(
    client: TestClient,
    record: Callable[..., tuple[str, str]],
    sequence: list[str],
    in_library: bool,
    message: str,
) -> None:
    run = record()
    for value in sequence:
        reply = _rate(client, run, value)
    assert (reply["inCaseLibrary"], reply["message"]) == (in_library, message)
    assert _in_cases(client, run[1]) == in_library
    rated = client.get("/api/runs", params={"feedback": sequence[-1]}).json()
    assert run[1] in [r["runId"] for r in rated]


@pytest.mark.parametrize(
    ("question", "accept_language", "message"),
    [
        (ZH_QUESTION, None, "反馈已记录"),
        (EN_QUESTION, None, "Feedback recorded"),
        (ZH_QUESTION, "en-US,en;q=0.9", "Feedback recorded"),
        (EN_QUESTION, "zh-CN,zh;q=0.9", "反馈已记录"),
        (EN_QUESTION, "fr-FR", "Feedback recorded"),
    ],
    ids=["zh question", "en question", "en caller", "zh caller", "neither: the question's"],
)
def test_the_feedback_reply_is_in_the_callers_language(
    client: TestClient,
    record: Callable[..., tuple[str, str]],
    question: str,
    accept_language: str | None,
    message: str,
) -> None:
    reply = _rate(client, record(question), "not_useful", accept_language)
    assert reply["message"] == message
