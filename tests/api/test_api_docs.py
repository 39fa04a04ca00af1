"""`/docs` and `/redoc` work offline: the pages load nothing from outside this service, their assets
are served here (from the `fastapi-offline` package), and their security policy allows no other host."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from groundgate.api import create_app
from groundgate.settings import Settings

# src="…" / href="…" and url: '…' in the page's HTML and its inline script
_REFERENCE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url\s*:\s*["']([^"']+)["']""")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    # No `with`: the lifespan (workspace, store) is not needed to serve the documentation.
    return TestClient(create_app(Settings(data_dir=tmp_path_factory.mktemp("docs-data"))))


def _references(html: str) -> list[str]:
    return [a or b for a, b in _REFERENCE.findall(html)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("page", "assets"),
    [
        ("/docs", {"swagger-ui-bundle.js", "swagger-ui.css", "favicon.png"}),
        ("/redoc", {"redoc.standalone.js", "favicon.png"}),
    ],
)
def test_the_documentation_pages_load_only_assets_this_service_serves(
    client: TestClient, page: str, assets: set[str]
) -> None:
    response = client.get(page)
    assert response.status_code == 200
    html = response.text
    for outside in ("http://", "https://", "//cdn"):
        assert outside not in html
    references = _references(html)
    assert {Path(r).name for r in references if r.startswith("/static-docs/")} == assets
    for reference in references:
        assert reference.startswith("/"), reference
        if reference.startswith("/static-docs/"):
            asset = client.get(reference)
            assert asset.status_code == 200, reference
            assert len(asset.content) > 1000, reference


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_documentation_pages_policy_allows_no_other_host(client: TestClient, page: str) -> None:
    policy = client.get(page).headers["content-security-policy"]
    for outside in ("http", "cdn"):
        assert outside not in policy
    assert "script-src 'self' 'unsafe-inline'" in policy


@pytest.mark.slow
def test_swagger_ui_reads_this_services_openapi_document(client: TestClient) -> None:
    html = client.get("/docs").text
    assert "url: '/openapi.json'" in html
    assert client.get("/openapi.json").json()["info"]["title"] == "groundgate"
    assert client.get("/docs/oauth2-redirect").status_code == 200
