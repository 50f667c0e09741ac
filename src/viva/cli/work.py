"""The database for a command: a migrated store, and one unit of work per step.

Commands that record answers (``practice``, ``answer``, ``interview``, …) open the store
once and a unit of work per step, committed when the step ends, so an answer is saved
before its marking is printed. They read the clock here: the core never does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Annotated

import typer
from sqlalchemy.orm import Session, sessionmaker

from viva.bank import Bank
from viva.cli.common import settings
from viva.marking import Marker
from viva.practice import Practice
from viva.practice.accounts import Account, local_account
from viva.store import make_engine, migrate, session_factory, session_scope

UserOption = Annotated[
    str | None, typer.Option("--user", help="Candidate name (default: VIVA_USER or 'me').")
]


def utc_now() -> datetime:
    """The wall clock, timezone-aware: read here, passed into the core."""
    return datetime.now(UTC)


@contextmanager
def database(ctx: typer.Context) -> Iterator[sessionmaker[Session]]:
    """A migrated database for this command (the app migrates on start)."""
    engine = make_engine(settings(ctx).resolved_database_url)
    try:
        migrate(engine)
        yield session_factory(engine)
    finally:
        engine.dispose()


@contextmanager
def practice_unit(
    factory: sessionmaker[Session], bank: Bank, marker: Marker | None = None
) -> Iterator[Practice]:
    """Practice in one unit of work, committed on leaving (rolled back if the block raises)."""
    with session_scope(factory) as session:
        yield Practice(session, bank, marker)


@contextmanager
def unit_of_work(
    factory: sessionmaker[Session], bank: Bank, name: str, marker: Marker | None = None
) -> Iterator[tuple[Practice, Account]]:
    """Practice for the candidate ``name`` (created on first use), committed on leaving."""
    with practice_unit(factory, bank, marker) as practice:
        yield practice, local_account(practice.session, name, utc_now())
