"""Test yourself, through the pages: question → answer → marking → follow-up → override → next."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import Engine

from tests.factories import write_bank
from tests.web.conftest import NOW, answer, csrf_from, make_settings, new_client, sign_up
from viva.web import create_app

GOOD = "Decode is memory-bound: every step reads all the weights from memory for very little arithmetic."
WRONG = "Honestly I think decode is compute-bound."


def test_practice_needs_a_login(client: TestClient) -> None:
    response = client.get("/practice?scope=demo")
    assert response.status_code == 303 and response.headers["location"].startswith("/login")


def test_test_yourself_shows_the_question_alone(signed_in: TestClient) -> None:
    start = signed_in.get("/practice?scope=demo")
    assert start.status_code == 303 and start.headers["location"] == "/practice/demo/bound?scope=demo"
    page = signed_in.get(start.headers["location"]).text
    assert "Is decode compute-bound or memory-bound?" in page
    assert "each step reads all the weights for little arithmetic" not in page  # the model answer
    assert "Decode is limited by memory bandwidth." not in page  # the marking points
    assert '<label for="answer-bound">' in page


def test_the_marking_highlights_evidence_in_the_candidates_own_answer(signed_in: TestClient) -> None:
    attempt = answer(signed_in, "bound", GOOD)
    page = signed_in.get(f"/attempts/{attempt}").text
    assert '<mark class="covered"' in page
    assert "✓" in page
    assert "each step reads all the weights for little arithmetic" in page  # model answer revealed
    assert "Then they push further" in page and "What does batching do about it?" in page
    assert "I was right" in page and "I missed it" in page and "Next due question" in page


def test_misconceptions_come_with_corrections_and_missed_points_with_the_lesson(
    signed_in: TestClient,
) -> None:
    page = signed_in.get(f"/attempts/{answer(signed_in, 'bound', WRONG)}").text
    assert '<mark class="wrong"' in page
    assert "Correction: It does about one multiply-add per weight byte read." in page
    assert "✗" in page and 'href="/topics/demo/basics"' in page
    # the headline score says why it is what it is, in the words the terminal uses too
    assert "0 of 2 core points made." in page and "1 wrong claim(s) stated" in page


def test_a_keyword_list_shows_why_it_is_capped(signed_in: TestClient) -> None:
    page = signed_in.get(
        f"/attempts/{answer(signed_in, 'bound', 'memory-bound weights decode arithmetic')}"
    ).text
    assert "Capped at 30%: a list of the right words" in page


def test_answer_the_follow_up_then_override_then_next(signed_in: TestClient) -> None:
    answer(signed_in, "bound", GOOD)
    follow_up = answer(signed_in, "batching", "Batching reuses one weight read for many sequences.")
    page = signed_in.get(f"/attempts/{follow_up}").text
    assert "What does batching do about it?" in page
    token = csrf_from(signed_in, f"/attempts/{follow_up}")
    response = signed_in.post(
        f"/attempts/{follow_up}/override", data={"verdict": "missed", "csrf_token": token}
    )
    assert response.status_code == 303
    assert 'value="missed" data-key="m" aria-pressed="true"' in signed_in.get(f"/attempts/{follow_up}").text
    done = signed_in.get("/practice/next?scope=demo")
    # The follow-up was just missed and is not due yet (10 minutes); the only question is answered.
    assert done.status_code == 200 and "Nothing is due right now" in done.text


def test_an_empty_answer_comes_back_with_a_message(signed_in: TestClient) -> None:
    token = csrf_from(signed_in, "/practice/demo/bound")
    response = signed_in.post("/practice/demo/bound", data={"answer": "   ", "csrf_token": token})
    assert response.status_code == 422
    assert "The answer is empty" in response.text and 'aria-invalid="true"' in response.text


def test_an_overlong_answer_gets_413_with_the_reason(signed_in: TestClient) -> None:
    token = csrf_from(signed_in, "/practice/demo/bound")
    response = signed_in.post("/practice/demo/bound", data={"answer": "word " * 3000, "csrf_token": token})
    assert response.status_code == 413
    assert "the limit is 10,000" in response.text
    huge = signed_in.post("/practice/demo/bound", data={"answer": "x" * 200_000, "csrf_token": token})
    assert huge.status_code == 413


def test_unknown_question_and_attempt_ids_are_404(signed_in: TestClient) -> None:
    assert signed_in.get("/practice/demo/nope").status_code == 404
    assert signed_in.get("/attempts/999999999").status_code == 404
    assert signed_in.get("/attempts/not-a-number").status_code == 422
    assert signed_in.get("/practice?scope=nope").status_code == 404


def test_progress_draws_plots_and_links_weak_points_to_practice(signed_in: TestClient) -> None:
    answer(signed_in, "bound", WRONG)
    page = signed_in.get("/progress").text
    assert page.count("<svg") == 3
    assert (
        "Mastery per topic and section" in page and "Reviews due per day" in page and "Score history" in page
    )
    assert 'href="/practice/demo/bound"' in page  # a weak point, with a link to practise it


MORE = """\
questions:
  - id: sampling
    prompt: How does nucleus sampling choose the next token?
    answer: |
      It keeps the smallest set of tokens whose probabilities add up to p, renormalises, and samples
      from that set, so the candidate pool grows when the model is unsure.
    points:
      - id: smallest-set
        text: It keeps the smallest set of tokens whose cumulative probability reaches p.
      - id: adaptive
        text: The pool grows when the distribution is flat and shrinks when it is peaked.
"""


def test_an_answer_to_another_question_links_to_it(engine: Engine, tmp_path: Path) -> None:
    bank = write_bank(tmp_path / "content", {"02-more.yaml": MORE})
    app = create_app(make_settings(bank, tmp_path), engine=engine, clock=lambda: NOW)
    with new_client(app) as client:
        sign_up(client)
        off = "It keeps the smallest set of tokens whose probabilities add up to p and samples from it."
        page = client.get(f"/attempts/{answer(client, 'bound', off)}").text
        assert "Weak" in page and "it answers another question in the bank (demo/sampling)" in page.lower()
        assert 'This answers another question: <a href="/practice/demo/sampling">' in page
        page = client.get(f"/attempts/{answer(client, 'bound', GOOD)}").text
        assert "This answers another question" not in page
