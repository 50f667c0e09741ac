"""Accounts and safety: sign up, log in and out, cookies, CSRF, the login rate limit."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from tests.web.conftest import NOW, PASSWORD, csrf_from, make_settings, new_client, sign_up, unique_name
from viva.store.models import User
from viva.web import create_app


def test_sign_up_signs_in_and_stores_an_argon2_hash(client: TestClient, engine: Engine) -> None:
    name = sign_up(client)
    assert name in client.get("/").text
    with Session(engine) as session:
        user = session.scalars(select(User).where(User.name == name)).one()
        assert user.password_hash and user.password_hash.startswith("$argon2id$")
        assert PASSWORD not in user.password_hash


def test_invalid_sign_up_comes_back_with_messages(client: TestClient) -> None:
    token = csrf_from(client, "/signup")
    response = client.post("/signup", data={"name": "x", "password": "short", "csrf_token": token})
    assert response.status_code == 422
    assert "2 to 40 letters" in response.text and "At least 8 characters" in response.text
    assert 'aria-invalid="true"' in response.text


def test_a_taken_name_is_refused(client: TestClient, app: FastAPI) -> None:
    name = sign_up(client)
    with new_client(app) as other:
        token = csrf_from(other, "/signup")
        response = other.post("/signup", data={"name": name, "password": PASSWORD, "csrf_token": token})
        assert response.status_code == 422 and "is taken" in response.text


def test_log_out_then_log_in_again(client: TestClient) -> None:
    name = sign_up(client)
    client.post("/logout", data={"csrf_token": csrf_from(client, "/")})
    assert client.get("/progress").status_code == 303  # back to the login page
    token = csrf_from(client, "/login")
    wrong = client.post("/login", data={"name": name, "password": "not it at all", "csrf_token": token})
    assert wrong.status_code == 401 and "do not match" in wrong.text
    right = client.post(
        "/login", data={"name": name, "password": PASSWORD, "csrf_token": token, "next": "/progress"}
    )
    assert right.status_code == 303 and right.headers["location"] == "/progress"
    assert client.get("/progress").status_code == 200


def test_login_never_redirects_off_site(client: TestClient) -> None:
    name = sign_up(client)
    client.post("/logout", data={"csrf_token": csrf_from(client, "/")})
    token = csrf_from(client, "/login")
    data = {"name": name, "password": PASSWORD, "csrf_token": token, "next": "//evil.example/"}
    assert client.post("/login", data=data).headers["location"] == "/"


def test_session_cookie_is_httponly_and_samesite_and_secure_on_https(app: FastAPI) -> None:
    with new_client(app) as plain:
        cookie = plain.get("/login").headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
    with new_client(app, base_url="https://testserver") as secure:
        assert "secure" in secure.get("/login").headers["set-cookie"].lower()


def test_state_changing_forms_need_the_csrf_token(client: TestClient) -> None:
    sign_up(client)
    for path, data in [
        ("/practice/demo/bound", {"answer": "memory-bound"}),
        ("/logout", {}),
        ("/account/tokens", {"label": "x"}),
        ("/signup", {"name": unique_name(), "password": PASSWORD}),
    ]:
        response = client.post(path, data={**data, "csrf_token": "forged"})
        assert response.status_code == 403, path
        assert client.post(path, data=data).status_code == 403, path


def test_the_login_rate_limit_holds_across_app_instances(
    engine: Engine, bank_dir: Path, tmp_path: Path
) -> None:
    """Failures are counted in the database, so a second worker sees the first one's."""
    settings = make_settings(bank_dir, tmp_path, login_max_failures=3)
    first, second = (create_app(settings, engine=engine, clock=lambda: NOW) for _ in range(2))
    with new_client(first) as one:
        name = sign_up(one)
    for attempt in range(3):
        with new_client(first if attempt % 2 else second) as c:
            data = {"name": name, "password": "wrong password", "csrf_token": csrf_from(c)}
            assert c.post("/login", data=data).status_code == 401
    with new_client(second) as c:
        data = {"name": name, "password": PASSWORD, "csrf_token": csrf_from(c)}
        response = c.post("/login", data=data)
        assert response.status_code == 429
        assert "Too many" in response.text and int(response.headers["retry-after"]) > 0


def test_single_user_mode_signs_the_local_candidate_in(
    engine: Engine, bank_dir: Path, tmp_path: Path
) -> None:
    name = unique_name("local")
    app = create_app(
        make_settings(bank_dir, tmp_path, single_user=True, user=name), engine=engine, clock=lambda: NOW
    )
    with new_client(app) as c:
        page = c.get("/progress")
        assert page.status_code == 200 and name in page.text
        assert "Log out" not in page.text
