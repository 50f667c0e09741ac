"""Reading pages: home, topic, lesson, search, errors, fragments and headers."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from tests.factories import QUESTIONS, write_bank
from tests.web.conftest import NOW, make_settings, new_client, sign_up
from viva.web import create_app


def test_home_lists_every_topic_with_a_test_yourself_link(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "Demo topic" in page.text
    assert 'href="/topics/demo"' in page.text
    assert 'href="/practice?scope=demo"' in page.text


def test_home_shows_progress_once_signed_in(signed_in: TestClient) -> None:
    page = signed_in.get("/")
    assert "0/2 answered" in page.text  # the demo topic has a question and its follow-up


def test_topic_page_is_an_interview_prep_page(client: TestClient) -> None:
    page = client.get("/topics/demo").text
    assert page.index("The basics") < page.index("More")  # sections in learning order
    assert "Is decode compute-bound or memory-bound?" in page
    assert "If this comes up in an interview</h3>" in page
    assert "Read the section that teaches this" in page
    assert "Then they push further" in page and "What does batching do about it?" in page
    assert "Test yourself on this topic" in page
    assert "2 questions across 2 sections, in the order you would learn them" in page


MARKED_UP = QUESTIONS.replace(
    "    misconceptions:\n",
    "    marked_up:\n      - id: roofline\n        text: Places decode on the roofline, left of the ridge.\n"
    "    misconceptions:\n",
)


def test_topic_page_asks_you_to_answer_before_you_read(engine: Engine, tmp_path: Path) -> None:
    """Per section: the lesson link first, then each question with Test yourself before its
    answer, the answer folded away, then the push further and what gets marked up."""
    bank = write_bank(tmp_path / "bank", {"01-basics.yaml": MARKED_UP})
    app = create_app(make_settings(bank, tmp_path / "data"), engine=engine, clock=lambda: NOW)
    with new_client(app) as client:
        page = client.get("/topics/demo").text
    section = page[page.index('id="s-basics"') : page.index('id="s-more"')]
    order = [
        'href="/topics/demo/basics">Read the section that teaches this',
        "If this comes up in an interview",
        "Is decode compute-bound or memory-bound?",
        'href="/practice/demo/bound">Test yourself',
        '<details class="answer">',
        "Memory-bound: each step reads all the weights",
        "Then they push further",
        "What does batching do about it?",
        'href="/practice/demo/batching">Test yourself',
        "What gets marked up",
        "Places decode on the roofline, left of the ridge.",
    ]
    places = [section.find(text) for text in order]
    assert -1 not in places, [t for t, p in zip(order, places, strict=True) if p == -1]
    found_order = [t for _, t in sorted(zip(places, order, strict=True))]
    assert places == sorted(places), found_order
    assert "<details class=\"answer\" open" not in section, "answers stay folded until opened"
    marked = section[section.index("What gets marked up") :]
    assert "Decode is limited by memory bandwidth." not in marked, "core points are the answer, not extras"


def test_lesson_page_renders_markdown_and_links_back_to_its_questions(client: TestClient) -> None:
    page = client.get("/topics/demo/basics").text
    assert '<h1 id="basics">Basics</h1>' in page
    assert 'href="/topics/demo#q-bound"' in page
    assert 'href="/topics/demo/more"' in page  # the related section and the next lesson


def test_unknown_ids_give_a_404_page_not_a_500(client: TestClient) -> None:
    for path in ["/topics/nope", "/topics/demo/nope", "/no/such/page"]:
        response = client.get(path)
        assert response.status_code == 404, path
        assert "Not found" in response.text and "<html" in response.text
    # a practice page first asks who is practising, then says the question does not exist
    assert client.get("/practice/demo/nope").status_code == 303
    sign_up(client)
    missing = client.get("/practice/demo/nope")
    assert missing.status_code == 404 and "Not found" in missing.text


def test_an_htmx_swap_gets_a_fragment_and_a_boosted_link_the_whole_page(client: TestClient) -> None:
    fragment = client.get("/topics/demo", headers={"HX-Request": "true"}).text
    assert "<html" not in fragment and "Demo topic" in fragment
    boosted = client.get("/topics/demo", headers={"HX-Request": "true", "HX-Boosted": "true"}).text
    assert "<html" in boosted
    error = client.get("/topics/nope", headers={"HX-Request": "true"})
    assert error.status_code == 404 and "<html" not in error.text and "No topic" in error.text


def test_search_finds_questions_and_lessons_and_highlights_words(client: TestClient) -> None:
    page = client.get("/search", params={"q": "memory bandwidth"}).text
    assert "Is decode compute-bound or memory-bound?" in page
    assert "<mark>" in page
    lesson = client.get("/search", params={"q": "small-batch"}).text
    assert "The basics" in lesson
    prefix = client.get("/search", params={"q": "batc"}).text
    assert "What does batching do about it?" in prefix
    assert "No question or lesson" in client.get("/search", params={"q": "zebra"}).text


def test_overlong_search_is_refused_politely(client: TestClient) -> None:
    response = client.get("/search", params={"q": "x" * 500})
    assert response.status_code == 422
    assert "Please check what you entered" in response.text


def test_security_headers_and_csp_without_inline_scripts(client: TestClient) -> None:
    response = client.get("/")
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert "<script>" not in response.text and " on" + "click=" not in response.text
    assert "strict-transport-security" not in response.headers


def test_hsts_only_over_https(app: object) -> None:
    from tests.web.conftest import new_client

    with new_client(app, base_url="https://testserver") as secure:  # type: ignore[arg-type]
        assert "strict-transport-security" in secure.get("/").headers


def test_an_unexpected_error_is_a_plain_500_with_the_security_headers(app: FastAPI) -> None:
    def broken() -> None:
        raise RuntimeError("secret detail")

    app.add_api_route("/broken-for-test", broken)
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/broken-for-test")
    assert response.status_code == 500
    assert "secret detail" not in response.text
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-frame-options"] == "DENY"


def test_static_files_are_served(client: TestClient) -> None:
    assert client.get("/static/htmx.min.js").status_code == 200
    assert client.get("/static/viva.css").status_code == 200


def test_the_topic_page_fetches_the_candidates_progress_separately(signed_in: TestClient) -> None:
    page = signed_in.get("/topics/demo").text
    assert 'hx-get="/topics/demo/progress"' in page
    progress = signed_in.get("/topics/demo/progress", headers={"HX-Request": "true"}).text
    assert "0/2 answered" in progress and "The basics" in progress
