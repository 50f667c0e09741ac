"""What a candidate hits every day (issue 12, "Broken"): the Back button brings back whole
pages, "Skip for now" moves on, and a refused answer says why next to the answer box."""

from __future__ import annotations

import json
import time
import urllib.request
import uuid
from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def _sign_up(page: Any, server: str) -> None:
    page.goto(server + "/signup")
    page.get_by_label("Name").fill(f"daily-{uuid.uuid4().hex[:8]}")
    page.get_by_label("Password").fill("a long enough password")
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(server + "/")


def _first_topic(server: str) -> str:
    with urllib.request.urlopen(server + "/api/v1/topics") as response:
        topic_id: str = json.load(response)[0]["id"]
    return topic_id


def _until(check: Any, what: str, seconds: float = 5.0) -> None:
    """Poll ``check()`` from Python: the CSP (rightly) forbids ``wait_for_function``'s eval."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting until {what}")
        time.sleep(0.05)


def _assert_whole_page(page: Any, title: str) -> None:
    assert page.locator("header.site nav[aria-label='Main']").count() == 1, "the header and nav are back"
    assert page.locator("footer.site").count() == 1, "the footer is back"
    assert page.locator("main#main").count() == 1
    assert page.title() == title


def test_back_from_progress_shows_the_whole_topics_page(page: Any, server: str) -> None:
    _sign_up(page, server)
    home_title = page.title()
    page.get_by_role("link", name="Progress").click()
    page.wait_for_url(server + "/progress")
    page.wait_for_selector("main h1")
    assert page.title() != home_title

    page.go_back()
    page.wait_for_url(server + "/")
    _until(lambda: page.title() == home_title, "the topics page's title is back")
    _assert_whole_page(page, home_title)


def test_back_after_answering_shows_the_whole_question_page(page: Any, server: str) -> None:
    _sign_up(page, server)
    page.goto(f"{server}/practice?scope={_first_topic(server)}")
    question_url = page.url
    question_title = page.title()
    page.locator("textarea").fill("Something I would say out loud about this question.")
    page.get_by_role("button", name="Mark my answer").click()
    page.wait_for_selector(".marking")

    page.go_back()
    page.wait_for_url(question_url)
    page.wait_for_selector("textarea")
    _assert_whole_page(page, question_title)


def test_skip_moves_on_and_the_skipped_question_stays_away(page: Any, server: str) -> None:
    _sign_up(page, server)
    page.goto(f"{server}/practice?scope={_first_topic(server)}")
    seen = [page.locator("h1").inner_text()]

    page.get_by_role("link", name="Skip for now").click()
    _until(lambda: page.locator("h1").inner_text() != seen[-1], "another question is shown")
    seen.append(page.locator("h1").inner_text())

    page.locator("body").click(position={"x": 5, "y": 5})  # focus out of the answer box
    page.keyboard.press("s")
    _until(lambda: page.locator("h1").inner_text() != seen[-1], "another question is shown")
    seen.append(page.locator("h1").inner_text())
    assert len(set(seen)) == 3, f"each skip brings a question not seen in this sitting: {seen}"
    _assert_whole_page(page, page.title())

    # A fresh sitting ("Test yourself" again) may offer the skipped questions again.
    page.get_by_role("link", name="Test yourself").click()
    page.wait_for_selector("textarea")


def test_an_empty_answer_says_so_next_to_the_box(page: Any, server: str) -> None:
    _sign_up(page, server)
    page.goto(f"{server}/practice?scope={_first_topic(server)}")
    page.get_by_role("button", name="Mark my answer").click()
    problem = page.locator("form.answer-form [role=alert]")
    problem.wait_for(timeout=5000)
    assert "empty" in problem.inner_text().lower()
    assert page.locator("textarea").get_attribute("aria-invalid") == "true"
    assert not [p for p in page.problems if "Content Security Policy" in p], page.problems


def test_an_over_long_paste_is_kept_counted_and_refused_with_a_reason(page: Any, server: str) -> None:
    _sign_up(page, server)
    page.goto(f"{server}/practice?scope={_first_topic(server)}")
    box = page.locator("textarea")
    counter = page.locator("form.answer-form [data-counter]")
    limit = int(box.get_attribute("data-max-chars"))
    assert f"{limit:,}" in counter.inner_text(), "the limit is shown before it is reached"

    box.focus()
    page.keyboard.insert_text("word " * (limit // 5) + "over the limit")  # as a paste arrives
    length = len(box.input_value())
    assert length > limit, "a paste over the limit is not cut"
    assert "over" in counter.inner_text().lower()

    page.get_by_role("button", name="Mark my answer").click()
    problem = page.locator("form.answer-form [role=alert]")
    problem.wait_for(timeout=5000)
    assert "limit" in problem.inner_text().lower()
    assert len(box.input_value()) == length, "the answer is still there to shorten"


def test_error_pages_speak_to_candidates(page: Any, server: str) -> None:
    _sign_up(page, server)
    for path in ("/attempts/not-a-number", "/topics/no-such-topic", "/practice/no-such/question"):
        page.goto(server + path)
        text = page.locator("main").inner_text()
        assert "`" not in text and "viva topics" not in text, f"{path}: no commands on a page: {text}"
        assert "Input should be" not in text and "attempt_id" not in text, f"{path}: {text}"
        assert page.get_by_role("link", name="Back to the topics").count() == 1
        _assert_whole_page(page, page.title())
