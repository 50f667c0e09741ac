"""Whether the database answers, as the readiness probe asks it through the core."""

from __future__ import annotations

import shutil
from pathlib import Path

from sqlalchemy import Engine

from viva.practice.units import database_status
from viva.store import make_engine, session_factory


def test_a_database_that_answers_is_ok(engine: Engine) -> None:
    assert database_status(session_factory(engine)) == "ok"


def test_a_database_that_does_not_answer_says_which_kind_of_failure(tmp_path: Path) -> None:
    folder = tmp_path / "gone"
    gone = make_engine(f"sqlite:///{folder / 'viva.sqlite3'}")  # makes the folder
    shutil.rmtree(folder)
    try:
        assert database_status(session_factory(gone)) == "failing: OperationalError"
    finally:
        gone.dispose()
