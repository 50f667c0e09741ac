"""Engines, migrations and the unit of work.

Nothing here runs at import time. The program builds one engine from
``Settings.resolved_database_url`` where it starts, calls :func:`migrate` once, and opens
a :func:`session_scope` per unit of work (a CLI answer, a web request). Repositories take
the session and never commit: the caller decides what belongs in one transaction.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, func, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = "viva.store:migrations"
SQLITE_BUSY_TIMEOUT_MS = 15000
MIGRATION_LOCK = "viva.migrate"
WRITES = "viva_writes"
"""Execution option: begin this SQLite transaction IMMEDIATE, taking the write lock up front."""


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url``; for SQLite also WAL, foreign keys, a busy timeout, BEGIN IMMEDIATE.

    WAL lets the web read while the CLI writes; foreign keys are off by default in
    SQLite. Units of work that write (:func:`session_scope`, :func:`migrate`) begin
    IMMEDIATE: they take the write lock up front, so a second writer waits in the busy
    timeout for its turn. A DEFERRED transaction that reads and then writes fails at once
    with "database is locked" when another writer got in first; the busy timeout never
    applies to it. Other connections begin DEFERRED (read snapshots that never wait).
    A SQLite file's folder is created if missing, so the default works on a fresh machine.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, **kwargs)
    database = parsed.database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, **kwargs)
    event.listen(engine, "connect", _sqlite_pragmas)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # Python's sqlite3 module issues BEGIN itself, late and not around DDL, which breaks
    # SAVEPOINTs and transactional migrations; turn that off and let SQLAlchemy emit BEGIN.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    writes = connection.get_execution_options().get(WRITES, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN DEFERRED")


def alembic_config(engine: Engine) -> Config:
    """An Alembic config pointing at the packaged migrations, with no ini file needed."""
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    # configparser treats % as interpolation: a URL-quoted password or option must be escaped
    url = engine.url.render_as_string(hide_password=False).replace("%", "%%")
    config.set_main_option("sqlalchemy.url", url)
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema up to ``revision``; safe to call on every start, from many processes
    at once (a team server's web replicas and queue workers): on PostgreSQL one migrates under
    an advisory lock while the others wait for it and then find nothing to do; on SQLite the
    IMMEDIATE transaction does the same."""
    with engine.execution_options(**{WRITES: True}).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(select(func.pg_advisory_xact_lock(func.hashtext(MIGRATION_LOCK))))
        config = alembic_config(engine)
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


def open_session(factory: sessionmaker[Session], *, writes: bool) -> Session:
    """A new session that writes (on SQLite: begins IMMEDIATE) or only reads (DEFERRED); the
    caller commits or rolls back and closes it (see :func:`session_scope` for the rules)."""
    return factory(execution_options={WRITES: writes})


@contextmanager
def session_scope(
    engine_or_factory: Engine | sessionmaker[Session], *, writes: bool = True
) -> Iterator[Session]:
    """One unit of work: commit if the block finishes, roll back if it raises.

    ``expire_on_commit=False`` so objects stay readable after the commit (the CLI prints
    an attempt after saving it). ``writes=False`` marks a unit that (almost) only reads:
    on SQLite it begins DEFERRED, so it does not queue behind writers; an occasional
    write in it still works but may fail under contention, so such writes must be optional.
    """
    factory = (
        session_factory(engine_or_factory) if isinstance(engine_or_factory, Engine) else engine_or_factory
    )
    session = open_session(factory, writes=writes)
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def ping(factory: sessionmaker[Session]) -> None:
    """Ask the database for nothing, in a unit of work that only reads: raises if it does not
    answer (it is down, unreachable, or refuses the login)."""
    with session_scope(factory, writes=False) as session:
        session.execute(select(1))


def data_location(database_url: str) -> str:
    """Where the data lives, for people: the SQLite file's path, or the URL without its password."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        database = url.database or ""
        if not database or database == ":memory:":
            return "in memory (lost when Viva stops)"
        return str(Path(database).expanduser().resolve())
    return url.render_as_string(hide_password=True)
