"""NUL characters and lone surrogates are refused at the edge with 422, never a 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import csrf_from, unique_name

MARK = "/api/v1/mark"


def _json(client: TestClient, path: str, raw: str, **headers: str) -> int:
    response = client.post(
        path, content=raw.encode(), headers={"Content-Type": "application/json", **headers}
    )
    if response.status_code == 422:
        assert "NUL" in response.text or "surrogate" in response.text, response.text
    return response.status_code


@pytest.mark.parametrize("escaped", ["x \\udfff", "x \\ud800 y", "a\\u0000b"])
def test_marking_refuses_unstorable_text(client: TestClient, escaped: str) -> None:
    assert _json(client, MARK, f'{{"question_id": "demo/bound", "answer": "{escaped}"}}') == 422


def test_marking_still_takes_any_real_unicode(client: TestClient) -> None:
    raw = '{"question_id": "demo/bound", "answer": "caf\\u00e9 \\ud83d\\ude00 weights"}'
    assert _json(client, MARK, raw) == 200


def test_an_answer_with_nul_is_422_and_nothing_is_stored(signed_in: TestClient) -> None:
    token = csrf_from(signed_in, "/")
    raw = '{"question_id": "demo/bound", "answer": "reads\\u0000weights"}'
    assert _json(signed_in, "/api/v1/attempts", raw, **{"X-CSRF-Token": token}) == 422
    form = signed_in.post(
        "/practice/demo/bound",
        data={"answer": "reads\x00weights", "csrf_token": csrf_from(signed_in, "/practice/demo/bound")},
    )
    assert form.status_code == 422 and "NUL" in form.text
    assert signed_in.get("/api/v1/attempts").json() == []


def test_query_parameters_with_nul_or_bad_utf8_are_422(signed_in: TestClient) -> None:
    for query in ["question_id=demo%2Fbou%00nd", "question_id=%ff%fe"]:
        response = signed_in.get(f"/api/v1/attempts?{query}")
        assert response.status_code == 422, query
    assert signed_in.get("/search?q=memory%00bound").status_code == 422


def test_a_login_with_nul_in_the_name_is_422(client: TestClient) -> None:
    body = f"name=ali%00ce&password=whatever-it-is&csrf_token={csrf_from(client)}"
    response = client.post(
        "/login", content=body.encode(), headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 422 and "NUL" in response.text
    signup = client.post(
        "/signup",
        data={
            "name": unique_name() + "\x00",
            "password": "long enough pass",
            "csrf_token": csrf_from(client, "/signup"),
        },
    )
    assert signup.status_code == 422
