"""The app builds one marker at start-up and every answer path uses that one."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine

from tests.web.conftest import NOW, answer, csrf_from, make_settings, new_client, sign_up
from viva.bank import Question
from viva.errors import NotFound
from viva.marking import Marker, build_marker
from viva.marking.result import Marking
from viva.web import create_app


class CountingMarker:
    """The settings' own marker, counting calls and signing its markings as ``counting``."""

    name = "counting"
    version = "1"

    def __init__(self, inner: Marker) -> None:
        self.inner = inner
        self.calls = 0

    def mark(self, question: Question, answer: str) -> Marking:
        self.calls += 1
        return self.inner.mark(question, answer).model_copy(update={"backend": "counting"})


def test_every_answer_path_marks_with_the_app_marker(engine: Engine, bank_dir: Path, tmp_path: Path) -> None:
    settings = make_settings(bank_dir, tmp_path)
    marker = CountingMarker(build_marker(settings))
    app = create_app(settings, engine=engine, clock=lambda: NOW, marker=marker)
    with new_client(app) as client:
        assert (
            client.post("/api/v1/mark", json={"question_id": "demo/bound", "answer": "x y"}).json()["backend"]
            == "counting"
        )
        sign_up(client)
        attempt_id = answer(client, "bound", "an answer")
        token = csrf_from(client, "/practice/demo/bound")
        api = client.post(
            "/api/v1/attempts",
            json={"question_id": "demo/bound", "answer": "another"},
            headers={"X-CSRF-Token": token},
        )
        assert api.status_code == 201 and api.json()["marking"]["backend"] == "counting"
        page = client.get(f"/api/v1/attempts/{attempt_id}").json()
        assert page["marking"]["backend"] == "counting"
    assert marker.calls == 3


def test_an_unknown_backend_fails_at_start_up_not_per_request(
    engine: Engine, bank_dir: Path, tmp_path: Path
) -> None:
    with pytest.raises(NotFound, match="no marking backend"):
        create_app(make_settings(bank_dir, tmp_path, marking_backend="nope"), engine=engine)


def test_a_marking_the_llm_could_not_make_says_so_on_the_page(
    engine: Engine, bank_dir: Path, tmp_path: Path
) -> None:
    """The llm backend with no server answering: the local marker marks, and the page and
    the stored attempt say why."""
    pytest.importorskip("httpx")
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    url = f"http://127.0.0.1:{closed}/v1"
    settings = make_settings(bank_dir, tmp_path, marking_backend="llm", llm_base_url=url, llm_timeout=2.0)
    app = create_app(settings, engine=engine, clock=lambda: NOW)
    with new_client(app) as client:
        sign_up(client)
        attempt_id = answer(client, "bound", "Decode is memory-bound.")
        page = client.get(f"/attempts/{attempt_id}")
        stored = client.get(f"/api/v1/attempts/{attempt_id}").json()["marking"]
    assert "Marked by the local marker" in page.text and "ConnectError" in page.text
    assert stored["backend"] == "lexical" and "ConnectError" in stored["fallback_reason"]
