"""Database fixtures shared by every test that needs storage.

``engine`` is parametrized over SQLite (a temp file) and PostgreSQL (the server at
127.0.0.1:5432, or ``VIVA_TEST_POSTGRES_URL``). Migrations run once per test session per
backend; each test gets a ``db`` session inside a transaction that is rolled back
afterwards (the SAVEPOINT pattern), so tests never see each other's rows and may commit.

PostgreSQL runs in a fresh schema per test session, dropped at the end, so concurrent runs
on one server do not collide. Outside CI the PostgreSQL tests skip when no server answers;
with ``CI=true`` they fail instead, and the summary prints how many ran.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from viva.store import make_engine, migrate

POSTGRES_URL = os.environ.get("VIVA_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
IN_CI = os.environ.get("CI", "").lower() == "true"

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
]


def _postgres_engine() -> Iterator[Engine]:
    schema = f"viva_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    admin = make_engine(POSTGRES_URL, connect_args={"connect_timeout": 3})
    try:
        with admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    except OperationalError as exc:
        admin.dispose()
        reason = f"no PostgreSQL server answers at {POSTGRES_URL}: {str(exc.orig).strip().splitlines()[0]}"
        if IN_CI:
            pytest.fail(f"CI=true but {reason}", pytrace=False)
        pytest.skip(reason)
    engine = make_engine(POSTGRES_URL, connect_args={"options": f"-csearch_path={schema}"})
    try:
        yield engine
    finally:
        engine.dispose()
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(scope="session", params=BACKENDS)
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """A migrated engine, once per test session per backend."""
    if request.param == "sqlite":
        path: Path = tmp_path_factory.mktemp("db") / "test.sqlite3"
        sqlite = make_engine(f"sqlite:///{path}")
        migrate(sqlite)
        yield sqlite
        sqlite.dispose()
        return
    for postgres in _postgres_engine():
        migrate(postgres)
        yield postgres


@pytest.fixture
def db(engine: Engine) -> Iterator[Session]:
    """A session whose work is rolled back after the test, even if the test commits."""
    connection = engine.connect()
    outer = connection.begin()
    session = Session(bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False)
    try:
        yield session
    finally:
        session.close()
        outer.rollback()
        connection.close()


# -- report how many PostgreSQL tests ran, so the CI log proves it ------------------------

_postgres_outcomes: dict[str, int] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "postgres" not in report.keywords:
        return
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        _postgres_outcomes[report.outcome] = _postgres_outcomes.get(report.outcome, 0) + 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _postgres_outcomes:
        return
    counts = ", ".join(f"{n} {outcome}" for outcome, n in sorted(_postgres_outcomes.items()))
    terminalreporter.write_line(f"PostgreSQL tests: {counts}")


# -- in CI nothing may skip: a suite the README promises that did not run is a failure ----


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()  # type: ignore[attr-defined]
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"CI=true, and every suite must run here, but this test skipped: {reason}"
