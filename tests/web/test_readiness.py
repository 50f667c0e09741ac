"""``/readyz`` without a queue: ready while the database answers, 503 naming it when not."""

from __future__ import annotations

import shutil
from pathlib import Path

from fastapi import FastAPI

from tests.web.conftest import NOW, make_settings, new_client
from viva.store import make_engine
from viva.web import create_app


def test_ready_while_the_database_answers(app: FastAPI) -> None:
    with new_client(app) as client:
        ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "checks": {"database": "ok"}}
    assert ready.headers["cache-control"] == "no-store"


def test_not_ready_when_the_database_stops_answering(bank_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    engine = make_engine(f"sqlite:///{folder / 'viva.sqlite3'}")
    try:
        app = create_app(make_settings(bank_dir, tmp_path), engine=engine, clock=lambda: NOW)
        engine.dispose()
        shutil.rmtree(folder)  # SQLite cannot open the file again
        with new_client(app) as client:
            failing = client.get("/readyz")
    finally:
        engine.dispose()
    assert failing.status_code == 503
    assert failing.json() == {"status": "not ready", "checks": {"database": "failing: OperationalError"}}
