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
