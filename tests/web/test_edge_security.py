"""Edge cases of CSRF and the body limit: only a real token skips CSRF; a 413 has the headers too."""

from __future__ import annotations

import pytest
from fastapi import Request
from fastapi.testclient import TestClient

from tests.web.conftest import csrf_from, sign_up
from viva.web.deps import _bearer_token
from viva.web.security import HEADERS

BODY = {"question_id": "demo/bound", "answer": "it reads the weights once per token"}


@pytest.mark.parametrize("authorization", ["Bearer  ", "bearer \t", "Bearer"])
def test_a_blank_bearer_header_does_not_skip_csrf(client: TestClient, authorization: str) -> None:
    sign_up(client)
    sent = client.post("/api/v1/attempts", json=BODY, headers={"Authorization": authorization})
    assert sent.status_code == 403
    assert client.get("/api/v1/attempts").json() == []


@pytest.mark.parametrize("raw", [b"Bearer \xa0", b"Bearer \t ", b"Bearer", b"Basic abc", b""])
def test_a_blank_or_other_authorization_is_no_bearer_token(raw: bytes) -> None:
    # on the wire b"\xa0" arrives as a no-break space (headers are latin-1); the test client
    # would re-encode it as UTF-8, so this is checked on the raw header
    request = Request({"type": "http", "method": "POST", "headers": [(b"authorization", raw)]})
    assert _bearer_token(request) is None


def test_a_made_up_bearer_token_with_the_cookie_is_401_not_a_csrf_bypass(client: TestClient) -> None:
    sign_up(client)
    sent = client.post("/api/v1/attempts", json=BODY, headers={"Authorization": "Bearer viva_made-up"})
    assert sent.status_code == 401
    assert client.get("/api/v1/attempts").json() == []


def test_a_real_bearer_token_needs_no_csrf(client: TestClient) -> None:
    sign_up(client)
    page = client.post(
        "/account/tokens", data={"label": "laptop", "csrf_token": csrf_from(client, "/account")}
    )
    assert page.status_code in (200, 303), page.text
    token = _token_from(page.text if page.status_code == 200 else client.get(page.headers["location"]).text)
    sent = client.post("/api/v1/attempts", json=BODY, headers={"Authorization": f"Bearer {token}"})
    assert sent.status_code == 201


def _token_from(html: str) -> str:
    import re

    found = re.search(r"viva_[A-Za-z0-9_-]{20,}", html)
    assert found, "the new token is shown once on the page"
    return found.group(0)


def test_a_body_over_the_limit_gets_413_with_the_security_headers(client: TestClient) -> None:
    too_big = {"question_id": "demo/bound", "answer": "x" * 400_000}
    response = client.post("/api/v1/mark", json=too_big)
    assert response.status_code == 413
    assert "body" in response.text.lower() or "large" in response.text.lower(), response.text
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, name
