"""Back restores whole pages, and "Skip for now" keeps a question away for the sitting
(the browser side of both is in tests/e2e/test_everyday.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_a_history_restore_gets_the_whole_page_and_every_page_varies_on_hx_request(
    client: TestClient,
) -> None:
    restore = client.get("/topics/demo", headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert "<html" in restore.text and "<title>" in restore.text
    fragment = client.get("/topics/demo", headers={"HX-Request": "true"})
    assert "<html" not in fragment.text
    for response in (restore, fragment, client.get("/topics/demo"), client.get("/topics/nope")):
        assert "HX-Request" in response.headers.get("vary", "")


def test_a_skipped_question_stays_away_until_a_new_sitting(signed_in: TestClient) -> None:
    assert signed_in.get("/practice?scope=demo").headers["location"] == "/practice/demo/bound?scope=demo"
    page = signed_in.get("/practice/demo/bound?scope=demo").text
    assert 'href="/practice/next?scope=demo&amp;skip=demo/bound"' in page

    skipped = signed_in.get("/practice/next?scope=demo&skip=demo/bound")
    assert skipped.status_code == 200 and "Nothing is due right now" in skipped.text
    assert "You skipped 1 question" in skipped.text
    again = signed_in.get("/practice/next?scope=demo")
    assert again.status_code == 200, "still skipped later in the same sitting"

    fresh = signed_in.get("/practice?scope=demo")
    assert fresh.headers["location"] == "/practice/demo/bound?scope=demo", "a new sitting offers it again"


def test_an_unknown_skip_is_ignored(signed_in: TestClient) -> None:
    signed_in.get("/practice?scope=demo")
    response = signed_in.get("/practice/next?scope=demo&skip=demo/no-such-question")
    assert response.status_code == 303 and response.headers["location"] == "/practice/demo/bound?scope=demo"
