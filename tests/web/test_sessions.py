"""Sessions end on the server: logout, log out everywhere, and a password change."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.web.conftest import PASSWORD, csrf_from, new_client, sign_up

NEW_PASSWORD = "a much longer passphrase"


def _copy_cookies(source: TestClient, target: TestClient) -> None:
    for cookie in source.cookies.jar:
        target.cookies.set(cookie.name, cookie.value or "")


def _log_in(client: TestClient, name: str, password: str) -> int:
    data = {"name": name, "password": password, "csrf_token": csrf_from(client, "/login")}
    return client.post("/login", data=data).status_code


def test_a_cookie_kept_from_before_logout_no_longer_signs_in(app: FastAPI) -> None:
    with new_client(app) as browser, new_client(app) as thief:
        sign_up(browser)
        _copy_cookies(browser, thief)
        assert thief.get("/progress").status_code == 200  # a copied live cookie works ...
        browser.post("/logout", data={"csrf_token": csrf_from(browser, "/")})
        assert thief.get("/progress").status_code == 303  # ... and stops when its owner logs out
        assert thief.get("/account").status_code == 303


def test_log_out_everywhere_ends_every_session_of_the_account(app: FastAPI) -> None:
    with new_client(app) as laptop, new_client(app) as phone, new_client(app) as other:
        name = sign_up(laptop)
        assert _log_in(phone, name, PASSWORD) == 303
        sign_up(other)
        response = laptop.post("/account/sessions/end", data={"csrf_token": csrf_from(laptop, "/account")})
        assert response.status_code == 303 and response.headers["location"] == "/login"
        assert laptop.get("/progress").status_code == 303
        assert phone.get("/progress").status_code == 303
        assert other.get("/progress").status_code == 200  # another account is untouched


def test_changing_the_password_ends_other_sessions_and_keeps_this_one(app: FastAPI) -> None:
    with new_client(app) as here, new_client(app) as there:
        name = sign_up(here)
        assert _log_in(there, name, PASSWORD) == 303
        data = {"current": PASSWORD, "new": NEW_PASSWORD, "csrf_token": csrf_from(here, "/account")}
        response = here.post("/account/password", data=data)
        assert response.status_code == 200 and "Password changed" in response.text
        assert here.get("/progress").status_code == 200
        assert there.get("/progress").status_code == 303
        assert _log_in(there, name, PASSWORD) == 401
        assert _log_in(there, name, NEW_PASSWORD) == 303


def test_a_wrong_current_password_changes_nothing(app: FastAPI) -> None:
    with new_client(app) as here, new_client(app) as there:
        name = sign_up(here)
        assert _log_in(there, name, PASSWORD) == 303
        data = {"current": "not the password", "new": NEW_PASSWORD, "csrf_token": csrf_from(here, "/account")}
        response = here.post("/account/password", data=data)
        assert response.status_code == 422 and "current password is not right" in response.text
        short = {"current": PASSWORD, "new": "short", "csrf_token": csrf_from(here, "/account")}
        assert here.post("/account/password", data=short).status_code == 422
        assert there.get("/progress").status_code == 200
        assert _log_in(there, name, NEW_PASSWORD) == 401


def test_pages_loaded_at_once_after_sign_in_share_one_csrf_token(app: FastAPI) -> None:
    """Two tabs opened together right after signing in both get forms that submit.

    Each tab sends the cookie it had at sign-in; whichever response's cookie the browser keeps,
    the other tab's token must still match it, so the token cannot be made lazily per page.
    """
    with new_client(app) as browser, new_client(app) as other_tab:
        sign_up(browser)
        _copy_cookies(browser, other_tab)
        first, second = csrf_from(browser, "/account"), csrf_from(other_tab, "/")
        assert first == second
        assert browser.post("/logout", data={"csrf_token": second}).status_code == 303
