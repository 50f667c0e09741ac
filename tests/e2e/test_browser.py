"""A candidate in a real browser: sign up, take a question, read the highlighted feedback,
answer the follow-up, overrule the marker, and see progress — by keyboard where it matters."""

from __future__ import annotations

import json
import urllib.request
import uuid
from typing import Any

import pytest

from tests.e2e.conftest import shoot

pytestmark = pytest.mark.e2e


def _first_question_with_follow_up(server: str) -> tuple[str, dict[str, Any]]:
    """A topic id and its first top-level question that has a follow-up (content may change)."""
    with urllib.request.urlopen(server + "/api/v1/topics") as response:
        topics = json.load(response)
    for topic in topics:
        for section in topic["sections"]:
            url = f"{server}/api/v1/sections/{section['id']}?answers=true"
            with urllib.request.urlopen(url) as response:
                questions = json.load(response)["question_list"]
            for question in questions:
                if question["parent_id"] is None and question["follow_ups"]:
                    return topic["id"], question
    pytest.skip("no question with a follow-up in the bank")


def test_sign_up_practise_and_see_progress(page: Any, server: str) -> None:
    topic_id, question = _first_question_with_follow_up(server)
    page.goto(server + "/")
    shoot(page, "01-home")

    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Name").fill(f"e2e-{uuid.uuid4().hex[:8]}")
    page.get_by_label("Password").fill("a long enough password")
    shoot(page, "02-signup", full_page=False)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(server + "/")

    page.goto(f"{server}/topics/{topic_id}")
    page.locator("details.answer").first.locator("summary").click()
    shoot(page, "03-topic", full_page=False)
    page.get_by_role("link", name="Read the section that teaches this").first.click()
    page.wait_for_selector("article.lesson")
    shoot(page, "04-lesson", full_page=False)

    page.goto(f"{server}/practice/{question['id']}?scope={topic_id}")
    assert question["prompt"] in page.locator("h1").inner_text()
    assert question["answer"][:40] not in page.content()  # the model answer stays hidden
    shoot(page, "05-question", full_page=False)

    # Answer with the first two marking points in the candidate's words, submit by keyboard.
    typed = " ".join(p["text"] for p in question["points"][:2])
    page.locator("textarea").fill(typed)  # the answer box has focus on arrival
    page.keyboard.press("Control+Enter")
    page.wait_for_selector(".marking")
    assert page.locator(".your-answer mark.covered").count() >= 1, "evidence is highlighted in the answer"
    assert page.locator(".point-list .point").count() == len(question["points"])
    assert page.locator(".model-answer").is_visible()
    shoot(page, "06-marking")

    follow_up = page.locator(".follow-up-ask")
    assert follow_up.is_visible()
    follow_up.locator("textarea").fill("I am not sure, something about the hardware.")
    follow_up.get_by_role("button", name="Mark my answer").click()
    page.wait_for_selector(".marking")
    shoot(page, "07-follow-up-marking")

    page.locator("body").press("m")  # "I missed it", by keyboard
    page.wait_for_selector('button[value="missed"][aria-pressed="true"]')

    page.get_by_role("link", name="Progress").click()
    page.wait_for_selector("svg.plot")
    assert page.locator("svg.plot").count() == 3
    assert "2 answers so far" in page.content()
    shoot(page, "08-progress")

    page.locator("body").press("/")
    page.keyboard.type("memory")
    page.keyboard.press("Enter")
    page.wait_for_selector(".hits li")
    shoot(page, "09-search", full_page=False)

    assert not [p for p in page.problems if "Content Security Policy" in p], page.problems


def test_reading_works_without_javascript(browser: Any, server: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Name").fill(f"nojs-{uuid.uuid4().hex[:8]}")
    page.get_by_label("Password").fill("a long enough password")
    page.get_by_role("button", name="Create my account").click()
    page.goto(server + "/practice")
    page.locator("textarea").fill("An answer typed without any JavaScript at all.")
    page.get_by_role("button", name="Mark my answer").click()
    page.wait_for_selector(".marking")
    assert page.locator(".point-list .point").count() >= 1
    context.close()


def test_a_narrow_screen_gets_the_same_pages(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(server + "/")
    shoot(page, "10-home-mobile", full_page=False)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, "no horizontal scrolling on a phone"
    context.close()
