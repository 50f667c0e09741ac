"""Every candidate's own data on /account: where it lives, export, import, reset."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from tests.web.conftest import NOW, answer, csrf_from, make_settings, new_client, sign_up
from viva.web import create_app

GOOD = "Decode is memory-bound: every step reads all the weights from memory for very little arithmetic."


def _attempts(client: TestClient) -> list[dict[str, object]]:
    response = client.get("/api/v1/attempts")
    assert response.status_code == 200
    attempts: list[dict[str, object]] = response.json()
    return attempts


def test_export_then_import_into_another_account(app: FastAPI) -> None:
    with new_client(app) as first, new_client(app) as second:
        sign_up(first)
        answer(first, "bound", GOOD)
        exported = first.get("/account/export")
        assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
        document = exported.json()
        assert [a["answer_text"] for a in document["users"][0]["attempts"]] == [GOOD]

        sign_up(second)
        files = {"file": ("history.json", exported.content, "application/json")}
        imported = second.post(
            "/account/import", data={"csrf_token": csrf_from(second, "/account")}, files=files
        )
        assert imported.status_code == 200, imported.text[imported.text.find("<main"):][:1500]
        assert "Imported 1 answer(s)" in imported.text
        assert [a["answer"] for a in _attempts(second)] == [GOOD]
        assert [a["answer"] for a in _attempts(first)] == [GOOD]  # the source account is untouched


def test_a_broken_file_is_refused_and_nothing_is_written(signed_in: TestClient) -> None:
    token = csrf_from(signed_in, "/account")
    for content, reason in [(b"{not json", "not JSON"), (b'{"format": "nope"}', "not a viva history file")]:
        files = {"file": ("history.json", content, "application/json")}
        response = signed_in.post("/account/import", data={"csrf_token": token}, files=files)
        assert response.status_code == 422 and reason.lower() in response.text.lower()
    assert _attempts(signed_in) == []


def test_reset_needs_the_name_typed_then_forgets_everything(app: FastAPI) -> None:
    with new_client(app) as client:
        name = sign_up(client)
        answer(client, "bound", GOOD)
        token = csrf_from(client, "/account")
        refused = client.post("/account/reset", data={"csrf_token": token, "confirm": "yes"})
        assert refused.status_code == 422 and len(_attempts(client)) == 1
        done = client.post("/account/reset", data={"csrf_token": token, "confirm": name})
        assert done.status_code == 200 and "1 answer(s) and every schedule removed" in done.text
        assert _attempts(client) == []
        assert client.get("/api/v1/due").json() == []


def test_single_user_mode_has_no_log_in_and_says_where_the_data_is(
    engine: Engine, bank_dir: Path, tmp_path: Path
) -> None:
    settings = make_settings(bank_dir, tmp_path, single_user=True, database_url=f"sqlite:///{tmp_path}/me.db")
    with new_client(create_app(settings, engine=engine, clock=lambda: NOW)) as client:
        for path in ("/login", "/signup"):
            response = client.get(path)
            assert response.status_code == 303 and response.headers["location"] == "/", path
        home = client.get("/").text
        assert 'href="/login"' not in home and 'href="/signup"' not in home
        account = client.get("/account").text
        assert str(tmp_path / "me.db") in account and "Export my history" in account
        assert "Change password" not in account  # the local candidate has no password
        assert json.loads(client.get("/account/export").text)["format"] == "viva-history"
