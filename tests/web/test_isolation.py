"""Each candidate sees and changes only their own attempts and progress, pages and API alike."""

from __future__ import annotations

import re

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.web.conftest import answer, csrf_from, new_client, sign_up

SECRET = "My private answer: decode is memory-bound because it reads all the weights."


def _token(client: TestClient) -> str:
    page = client.post("/account/tokens", data={"label": "t", "csrf_token": csrf_from(client, "/account")})
    found = re.search(r'<code class="token">([^<]+)</code>', page.text)
    assert found
    return found.group(1)


def test_a_second_user_cannot_read_or_change_the_first_ones_data(app: FastAPI) -> None:
    with new_client(app) as alice, new_client(app) as bob:
        sign_up(alice)
        sign_up(bob)
        attempt = answer(alice, "bound", SECRET)
        alice_token, bob_token = _token(alice), _token(bob)

        # pages
        assert alice.get(f"/attempts/{attempt}").status_code == 200
        assert bob.get(f"/attempts/{attempt}").status_code == 404
        bob_csrf = csrf_from(bob, "/")
        assert (
            bob.post(
                f"/attempts/{attempt}/override", data={"verdict": "right", "csrf_token": bob_csrf}
            ).status_code
            == 404
        )
        assert SECRET not in bob.get("/progress").text
        assert (
            "1 answers so far" in alice.get("/progress").text
            and "0 answers so far" in bob.get("/progress").text
        )

        # API, by token
        as_bob = {"Authorization": f"Bearer {bob_token}"}
        assert bob.get(f"/api/v1/attempts/{attempt}", headers=as_bob).status_code == 404
        assert (
            bob.post(
                f"/api/v1/attempts/{attempt}/override", json={"verdict": "right"}, headers=as_bob
            ).status_code
            == 404
        )
        assert bob.get("/api/v1/attempts", headers=as_bob).json() == []
        assert bob.get("/api/v1/progress", headers=as_bob).json()["score_history"] == []
        assert bob.get("/api/v1/due", params={"days": 30}, headers=as_bob).json() == []

        # and the first user's data is untouched
        as_alice = {"Authorization": f"Bearer {alice_token}"}
        mine = alice.get(f"/api/v1/attempts/{attempt}", headers=as_alice).json()
        assert mine["answer"] == SECRET and mine["override"] is None


def test_a_revoked_or_made_up_token_is_refused(app: FastAPI) -> None:
    with new_client(app) as c:
        sign_up(c)
        token = _token(c)
        assert c.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
        account = c.get("/account").text
        token_id = re.search(r"/account/tokens/(\d+)/delete", account)
        assert token_id
        c.post(f"/account/tokens/{token_id.group(1)}/delete", data={"csrf_token": csrf_from(c, "/account")})
        for bad in (token, "viva_made_up"):
            response = c.get("/api/v1/me", headers={"Authorization": f"Bearer {bad}"})
            assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"


def test_nobody_can_revoke_another_users_token(app: FastAPI) -> None:
    with new_client(app) as alice, new_client(app) as bob:
        sign_up(alice)
        sign_up(bob)
        token = _token(alice)
        found = re.search(r"/account/tokens/(\d+)/delete", alice.get("/account").text)
        assert found
        bob.post(f"/account/tokens/{found.group(1)}/delete", data={"csrf_token": csrf_from(bob, "/account")})
        assert alice.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
        assert f"/account/tokens/{found.group(1)}/delete" in alice.get("/account").text
