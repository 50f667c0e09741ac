"""Mock interview through the pages, on the real app and database (SQLite and PostgreSQL):
choose → questions with pushes and no marks → the debrief → a drill of what was missed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from tests.practice.interview_bank import write_interview_bank
from tests.web.conftest import NOW, csrf_from, make_settings, new_client, sign_up
from viva.web import create_app

PLANTED = "Activations in 16 bits and tensor cores, and it halves all the memory."
PROBE = "No, the moments stay in FP32."  # leaves out the 12 bytes: a core point missed
BARE = "HBM is stacked DRAM beside the die with terabytes per second of bandwidth."


@pytest.fixture(scope="module")
def interview_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_interview_bank(tmp_path_factory.mktemp("interview-web"))


@pytest.fixture
def client(engine: Engine, interview_dir: Path, tmp_path: Path) -> Iterator[TestClient]:
    app: FastAPI = create_app(make_settings(interview_dir, tmp_path), engine=engine, clock=lambda: NOW)
    with new_client(app) as c:
        sign_up(c)
        yield c


def _give(client: TestClient, location: str, text: str) -> str:
    page = client.get(location).text
    question_id = re.search(r'name="question_id" value="([^"]+)"', page)
    assert question_id, page
    response = client.post(
        f"{location}/answer",
        data={"answer": text, "question_id": question_id.group(1), "csrf_token": csrf_from(client, location)},
    )
    assert response.status_code == 303, response.text
    return str(response.headers["location"])


def test_an_interview_pushes_on_the_planted_misconception_and_ends_in_a_debrief(client: TestClient) -> None:
    choose = client.get("/interview").text
    assert 'href="/interview" aria-current="page">Mock interview' in choose
    started = client.post(
        "/interview", data={"topic": "gpu", "questions": "2", "csrf_token": csrf_from(client, "/interview")}
    )
    assert started.status_code == 303
    location = started.headers["location"]
    first = client.get(location).text
    assert "What does mixed precision training save?" in first and "Question 1 of 2" in first
    assert 'data-clock="120"' in first

    assert _give(client, location, PLANTED) == location
    pushed = client.get(location).text
    assert "You said mixed precision halves memory. Does it halve Adam&#39;s optimizer state?" in pushed
    assert 'data-push="misconception"' in pushed
    assert not any(word in pushed for word in ("STRONG", "PARTIAL", "WEAK", "score", "✓")), (
        "no marks during it"
    )

    _give(client, location, PROBE)
    assert "What is HBM?" in client.get(location).text
    assert _give(client, location, BARE) == location  # strong, no follow-up: the interview ends
    done = client.get(location)
    assert done.status_code == 303 and done.headers["location"] == f"{location}/debrief"

    debrief = client.get(f"{location}/debrief").text
    assert debrief.index("What does mixed precision training save?") < debrief.index("Does it halve Adam")
    assert "Misconception: Mixed precision halves all training memory." in debrief
    assert "<q>halves all the memory</q>" in debrief
    assert "GPUs: readiness" in debrief and "Ready means 80% or more" in debrief
    assert 'name="question" value="gpu/mp"' in debrief, "the one-click drill of what was missed"
    assert "@media print" in client.get("/static/viva.css").text

    drill = client.post(
        "/interview/drill",
        data={"question": "gpu/mp", "csrf_token": csrf_from(client, f"{location}/debrief")},
    )
    assert drill.status_code == 303 and drill.headers["location"] != location
    assert "What does mixed precision training save?" in client.get(drill.headers["location"]).text
    listed = client.get("/interview").text
    assert f'href="{location}/debrief"' in listed and "Drill my weak points" in listed  # the 12 bytes


def test_leaving_midway_keeps_the_answer_and_a_stranger_sees_nothing(
    client: TestClient, engine: Engine, interview_dir: Path, tmp_path: Path
) -> None:
    form = {"topic": "net", "questions": "", "minutes": "20", "clock": "120"}  # as a browser sends it
    started = client.post("/interview", data={**form, "csrf_token": csrf_from(client, "/interview")}).headers[
        "location"
    ]
    _give(client, started, "Each GPU sends a chunk to its neighbour, a reduce-scatter then an all-gather.")
    token = csrf_from(client, started)
    assert (
        client.post(f"{started}/finish", data={"csrf_token": token}).headers["location"]
        == f"{started}/debrief"
    )
    debrief = client.get(f"{started}/debrief").text
    assert "How does ring all-reduce work?" in debrief and "ring all-reduce cost" not in debrief

    app = create_app(make_settings(interview_dir, tmp_path), engine=engine, clock=lambda: NOW)
    with new_client(app) as stranger:
        sign_up(stranger)
        assert stranger.get(f"{started}/debrief").status_code == 404


def test_progress_plots_readiness_per_interview_and_the_points_missed_most(client: TestClient) -> None:
    assert "No mock interview yet" in client.get("/progress").text
    # the first interview asks mp (answered strong), the second bare (mp is no longer new)
    for text in ("Activations in 16 bits and tensor cores.", "HBM is stacked DRAM beside the die."):
        location = client.post(
            "/interview",
            data={"topic": "gpu", "questions": "1", "csrf_token": csrf_from(client, "/interview")},
        ).headers["location"]
        _give(client, location, text)
        client.post(f"{location}/finish", data={"csrf_token": csrf_from(client, f"{location}/debrief")})
    page = client.get("/progress").text
    section = page[page.index('id="readiness-h"') : page.index('id="missed-most-h"')]
    assert section.count("<circle") == 2, "one dot per interview"
    assert 'GPUs <span class="meta">latest 50%' in section, "the second made 1 of its 2 core points"
    assert 'It gives terabytes per second of bandwidth. <span class="meta">missed 1 of 1' in page
    assert "Drill my weak points" in page
