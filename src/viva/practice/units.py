"""The database as the adapters see it after start-up: units of work, and whether it answers.

A unit of work is one transaction per CLI step, web request or background read; the store
implements it (:mod:`viva.store.db`) and the adapters take it from here, so that after start-up
(where the engine is built and migrated) they call the core for everything and never hold the
engine themselves. :func:`database_status` is the readiness probe's database check.
"""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from viva.store.db import open_session, ping, session_scope

__all__ = ["database_status", "open_session", "session_scope"]


def database_status(sessions: sessionmaker[Session]) -> str:
    """``"ok"`` if the database answers a query, else ``"failing: <kind of error>"``."""
    try:
        ping(sessions)
    except Exception as exc:  # any failure means "not ready"; say which kind, not the details
        return f"failing: {type(exc).__name__}"
    return "ok"
