"""Engines and the unit of work."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import Engine, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from viva.settings import Settings
from viva.store import User, make_engine, migrate, session_scope
from viva.store.db import SQLITE_BUSY_TIMEOUT_MS

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_sqlite_pragmas(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'nested' / 'viva.sqlite3'}")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == SQLITE_BUSY_TIMEOUT_MS >= 5000
    engine.dispose()


def test_a_sqlite_writer_that_reads_first_waits_for_the_other_writer(tmp_path: Path) -> None:
    """Read-then-write while another writer holds the lock: waits its turn, never "database is locked".

    A DEFERRED transaction would take a read snapshot, then fail at once on its first
    write once the other writer has committed (the busy timeout does not apply to that).
    """
    engine = make_engine(f"sqlite:///{tmp_path / 'writers.sqlite3'}")
    migrate(engine)
    errors: list[BaseException] = []
    first_holds_lock = threading.Event()

    def second_writer() -> None:
        first_holds_lock.wait()
        try:
            with session_scope(engine) as session:
                count = len(session.scalars(select(User.name)).all())
                session.add(User(name=f"second-after-{count}", created_at=NOW))
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    thread = threading.Thread(target=second_writer)
    thread.start()
    with session_scope(engine) as session:
        session.add(User(name="first", created_at=NOW))
        session.flush()
        first_holds_lock.set()
        time.sleep(0.3)
    thread.join(timeout=20)
    assert errors == []
    with session_scope(engine, writes=False) as session:
        assert sorted(session.scalars(select(User.name)).all()) == ["first", "second-after-1"]
    engine.dispose()


def test_default_database_is_a_sqlite_file_in_the_data_dir(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    engine = make_engine(settings.resolved_database_url)
    migrate(engine)
    assert (tmp_path / "data" / "viva.sqlite3").is_file()
    engine.dispose()


def test_session_scope_commits_or_rolls_back(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'uow.sqlite3'}")
    migrate(engine)
    with session_scope(engine) as session:
        session.add(User(name="kept", created_at=NOW))
    with pytest.raises(RuntimeError), session_scope(engine) as session:
        session.add(User(name="dropped", created_at=NOW))
        session.flush()
        raise RuntimeError("boom")
    with session_scope(engine) as session:
        assert session.scalars(select(User.name)).all() == ["kept"]
    engine.dispose()


def test_times_come_back_aware_in_utc(db: Session) -> None:
    paris = timezone(timedelta(hours=1))
    db.add(User(name="tz", created_at=datetime(2026, 3, 2, 10, 0, tzinfo=paris)))
    db.flush()
    db.expire_all()
    created = db.scalars(select(User.created_at).where(User.name == "tz")).one()
    assert created == NOW
    assert created.utcoffset() == timedelta(0)


def test_naive_times_are_refused(db: Session) -> None:
    db.add(User(name="naive", created_at=datetime(2026, 3, 2)))
    with pytest.raises(Exception, match="naive datetime"):
        db.flush()


def test_foreign_keys_are_enforced(db: Session) -> None:
    with pytest.raises(IntegrityError):
        db.execute(
            text(
                "INSERT INTO review_states (user_id, question_id, card, due) "
                "VALUES (999999, 'x/y', '{}', :due)"
            ),
            {"due": NOW},
        )


def test_each_test_starts_empty(db: Session, engine: Engine) -> None:
    # the rows other tests added were rolled back
    assert db.scalars(select(User).where(User.name.in_(["tz", "ada"]))).all() == []


def test_a_url_with_percent_escapes_makes_an_alembic_config() -> None:
    # a URL-quoted password or option (``options=-csearch_path%3Dx``) has % in it
    from viva.store.db import alembic_config

    url = "postgresql+psycopg://viva:p%25ss@db.invalid/viva?options=-csearch_path%3Dx"
    engine = make_engine(url)  # never connects
    assert alembic_config(engine).get_main_option("sqlalchemy.url") == url
    engine.dispose()
