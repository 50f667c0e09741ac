"""A follow-up of a follow-up, on the real bank, through the pages a candidate uses.

ml-system-design's ``splitting-a-latency-budget`` is pushed further with
``fanout-hundred-calls``, which has its own follow-up, ``taming-fanout-tail``: answering the
first follow-up must offer the nested one, which is then marked and scheduled like any other,
and the topic page shows it (search results and weak points link to its ``#q-`` anchor).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from tests.web.conftest import NOW, csrf_from, make_settings, new_client, sign_up
from viva.bank import load_bank
from viva.web import create_app

TOPIC = Path(__file__).resolve().parents[2] / "content" / "ml-system-design"
TOP = "ml-system-design/splitting-a-latency-budget"
FIRST = "ml-system-design/fanout-hundred-calls"
NESTED = "ml-system-design/taming-fanout-tail"
NESTED_PROMPT = "So most requests hit a slow shard. What would you change?"
FANOUT_ANSWER = (
    "All hundred shards have to be fast, and 0.99 to the power 100 is about 0.37, "
    "so about 63 percent of requests wait more than 20 ms."
)
TAMING_ANSWER = (
    "I'd reduce the number of calls by batching features, put a timeout on each shard with a "
    "fallback to cached values, and send hedged requests, taking whichever answers first."
)


@pytest.fixture(scope="module")
def real_app(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    """The app over the real ml-system-design topic alone (the whole bank's search index is slow)."""
    return create_app(make_settings(TOPIC, tmp_path_factory.mktemp("data")), engine=engine, clock=lambda: NOW)


@pytest.fixture
def candidate(real_app: FastAPI) -> Iterator[TestClient]:
    with new_client(real_app) as client:
        sign_up(client)
        yield client


def _answer(client: TestClient, question_id: str, text: str, form_page: str) -> int:
    """Answer through the form on ``form_page`` (the question page, or the marking page that
    pushes further); returns the attempt id."""
    token = csrf_from(client, form_page)
    response = client.post(f"/practice/{question_id}", data={"answer": text, "csrf_token": token})
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1].split("?")[0])


def _next(client: TestClient, skip: str = "") -> str:
    response = client.get("/practice/next", params={"scope": "ml-system-design", "skip": skip})
    assert response.status_code == 303, response.text
    return str(response.headers["location"]).split("?")[0].removeprefix("/practice/")


def test_answering_a_follow_up_offers_its_own_nested_follow_up(candidate: TestClient) -> None:
    budget = "I'd give every stage a budget, with the biggest share to ranking."
    _answer(candidate, TOP, budget, f"/practice/{TOP}")
    # the queue pushes further on the budget; pass over any other follow-up to reach the fan-out one
    offered = _next(candidate)
    while offered != FIRST:
        assert candidate.get("/practice/" + offered).status_code == 200
        offered = _next(candidate, skip=offered)
    first = _answer(candidate, FIRST, FANOUT_ANSWER, f"/practice/{FIRST}")

    marking = candidate.get(f"/attempts/{first}").text
    assert 'id="push-h"' in marking, "answering the first follow-up pushes further"
    push = marking[marking.index('id="push-h"') :]
    assert NESTED_PROMPT in push
    assert re.search(rf'action="/practice/{NESTED}[?"]', push), "the nested follow-up's answer form"
    assert _next(candidate) == NESTED  # the queue offers it too

    nested = _answer(candidate, NESTED, TAMING_ANSWER, f"/attempts/{first}")
    page = candidate.get(f"/attempts/{nested}").text
    assert "Test yourself · follow-up" in page and NESTED_PROMPT in page
    assert "Then they push further" not in page  # the chain ends here
    attempt = candidate.get(f"/api/v1/attempts/{nested}").json()
    assert attempt["question_id"] == NESTED and attempt["next_due"], "scheduled like any question"


def test_the_topic_page_shows_a_nested_follow_up_inside_its_parent(candidate: TestClient) -> None:
    page = candidate.get("/topics/ml-system-design").text
    assert 'id="q-taming-fanout-tail"' in page, "the nested follow-up has its anchor"
    first = page.index('id="q-fanout-hundred-calls"')
    nested = page.index('id="q-taming-fanout-tail"')
    assert first < nested < page.index("</article>", first)  # inside the same question card
    assert NESTED_PROMPT in page and f'href="/practice/{NESTED}"' in page


def test_a_weak_point_of_a_probe_links_to_the_card_that_shows_it(candidate: TestClient) -> None:
    """A probe has no card of its own on the topic page: "What you keep missing" links a probe's
    weak point to the card of the question it presses on, not to a ``#q-`` that is not there."""
    bank, _ = load_bank(TOPIC.parent)
    probe = next(q for q in bank.topic("ml-system-design").all_questions() if q.probe_of)
    shown_on = bank.presented_with(probe)
    assert shown_on.id != probe.id
    _answer(candidate, probe.full_id, "I am not sure.", f"/practice/{probe.full_id}")
    progress = candidate.get("/progress").text
    assert f'href="/topics/ml-system-design#q-{shown_on.id}"' in progress
    assert f'id="q-{shown_on.id}"' in candidate.get("/topics/ml-system-design").text
    assert f"#q-{probe.id}" not in progress
