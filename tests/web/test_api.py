"""The JSON API: bank routes, marking without an account, per-user routes with token or session."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.conftest import csrf_from, sign_up

ANSWER = "Decode is memory-bound: each step reads all the weights."


def test_bank_routes_hide_answers_unless_asked(client: TestClient) -> None:
    topics = client.get("/api/v1/topics").json()
    assert [t["id"] for t in topics] == ["demo"]
    assert topics[0]["sections"][0] == {
        "id": "demo/basics",
        "title": "The basics",
        "position": 1,
        "questions": 2,
    }
    question = client.get("/api/v1/questions/demo/bound").json()
    assert question["prompt"] == "Is decode compute-bound or memory-bound?"
    assert question["answer"] is None and question["points"] is None
    assert question["follow_ups"] == ["demo/batching"]
    full = client.get("/api/v1/questions/demo/bound", params={"answers": "true"}).json()
    assert full["answer"].startswith("Memory-bound") and full["points"][0]["id"] == "memory-bound"
    section = client.get("/api/v1/sections/demo/basics").json()
    assert section["lesson"].startswith("# Basics") and len(section["question_list"]) == 2


def test_mark_needs_no_account_and_returns_the_marking(client: TestClient) -> None:
    response = client.post("/api/v1/mark", json={"question_id": "demo/bound", "answer": ANSWER})
    assert response.status_code == 200
    marking = response.json()
    assert marking["question_id"] == "demo/bound" and marking["verdict"] in ("strong", "partial", "weak")
    covered = [p for p in marking["points"] if p["status"] != "missed"]
    assert covered and covered[0]["evidence"], "evidence spans point into the answer"


def test_mark_errors_are_json_with_reasons(client: TestClient) -> None:
    missing = client.post("/api/v1/mark", json={"question_id": "demo/nope", "answer": "x"})
    assert missing.status_code == 404 and missing.json()["error"] == "no question 'demo/nope'"
    long = client.post("/api/v1/mark", json={"question_id": "demo/bound", "answer": "x" * 10_001})
    assert long.status_code == 413 and "limit is 10,000" in long.json()["error"]
    invalid = client.post("/api/v1/mark", json={"answer": "x"})
    assert invalid.status_code == 422 and invalid.json()["details"]
    garbage = client.post("/api/v1/mark", content=b"\xff{", headers={"content-type": "application/json"})
    assert garbage.status_code in (400, 422) and garbage.json()["error"]


def test_per_user_routes_need_a_token_or_session(client: TestClient) -> None:
    for path in ["/api/v1/attempts", "/api/v1/due", "/api/v1/progress", "/api/v1/next", "/api/v1/me"]:
        response = client.get(path)
        assert response.status_code == 401, path
        assert response.json()["status"] == 401
    body = {"question_id": "demo/bound", "answer": ANSWER}
    for path in ["/api/v1/attempts", "/api/v1/attempts/1/override"]:
        response = client.post(path, json=body if path.endswith("attempts") else {"verdict": "right"})
        assert response.status_code == 401, path  # not 403 "form expired": nobody is signed in
        assert "Bearer" in response.json()["error"]


def test_practise_through_the_api_with_the_session_and_csrf_header(client: TestClient) -> None:
    sign_up(client)
    token = csrf_from(client, "/")
    body = {"question_id": "demo/bound", "answer": ANSWER}
    assert client.post("/api/v1/attempts", json=body).status_code == 403  # cookie auth without the header
    created = client.post("/api/v1/attempts", json=body, headers={"X-CSRF-Token": token})
    assert created.status_code == 201
    attempt = created.json()
    assert attempt["marking"]["question_id"] == "demo/bound" and attempt["next_due"]
    nxt = client.get("/api/v1/next", params={"scope": "demo"}).json()
    assert nxt["reason"] in ("follow-up", "due", "new", None)
    overridden = client.post(
        f"/api/v1/attempts/{attempt['id']}/override",
        json={"verdict": "right"},
        headers={"X-CSRF-Token": token},
    )
    assert overridden.status_code == 200 and overridden.json()["override"] == "right"
    assert [a["id"] for a in client.get("/api/v1/attempts").json()] == [attempt["id"]]
    progress = client.get("/api/v1/progress").json()
    assert len(progress["forecast"]) == 30 and progress["score_history"][0]["attempt_id"] == attempt["id"]
    assert progress["mastery"][0]["id"] == "demo"
    due = client.get("/api/v1/due", params={"days": 30}).json()
    assert [d["question_id"] for d in due] == ["demo/bound"]


def test_openapi_document_is_served_under_the_api_prefix(client: TestClient) -> None:
    spec = client.get("/api/v1/openapi.json").json()
    assert "/api/v1/mark" in spec["paths"] and "/api/v1/attempts/{attempt_id}/override" in spec["paths"]
    assert not any(path.startswith("/practice") for path in spec["paths"])


def test_a_wrong_method_names_every_method_the_path_serves(client: TestClient) -> None:
    for method in ("OPTIONS", "PUT", "DELETE"):
        response = client.request(method, "/api/v1/attempts")
        assert response.status_code == 405, method
        assert response.headers["allow"] == "GET, POST"
    assert client.request("PUT", "/api/v1/mark").headers["allow"] == "POST"


def test_an_empty_answer_is_refused_by_the_documented_schema(client: TestClient) -> None:
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]["MarkRequest"]
    assert schema["properties"]["answer"]["minLength"] == 1
    for answer in ("", "   "):
        response = client.post("/api/v1/mark", json={"question_id": "demo/bound", "answer": answer})
        assert response.status_code == 422, repr(answer)


def test_the_app_marks_knowing_its_bank(client: TestClient) -> None:
    from viva.marking import InBank

    state = client.app.state.viva  # type: ignore[attr-defined]
    assert isinstance(state.marker, InBank) and state.marker.bank is state.bank
