"""Concurrent writers against a real ``viva serve --workers 2``: none fails, none is lost."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from tests.integration.serve import burst, running_server
from viva.store import make_engine
from viva.store.models import Attempt

ANSWERS = 50


def _attempts(database_url: str, user_id: int) -> int:
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            return int(connection.scalar(select(func.count()).where(Attempt.user_id == user_id)) or 0)
    finally:
        engine.dispose()


def test_fifty_concurrent_answers_on_sqlite_all_recorded(bank_dir: Path, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'viva.sqlite3'}"
    with running_server(url, bank_dir, tmp_path) as server:
        headers = {"Authorization": f"Bearer {server.token}"}
        body = {"question_id": "demo/bound", "answer": "it reads the weights once per token"}
        tally = burst(
            [("POST", "/api/v1/attempts", {"json": body, "headers": headers})] * ANSWERS, server.base_url
        )
        reads = burst([("GET", "/api/v1/me", {"headers": headers})] * 20, server.base_url)
    assert tally.statuses == {201: ANSWERS}
    assert reads.statuses == {200: 20}
    assert _attempts(url, server.user_id) == ANSWERS
