"""The database as the web app sees it after start-up: units of work, and whether it answers.

A unit of work is one transaction per web request or background read; the store implements it
(:mod:`viva.store.db`). The web app's composition root (:mod:`viva.web.app`) builds the engine
and its session factory; everything else in the web app takes its units of work from here and
asks :func:`database_status` (the readiness probe's database check) rather than holding the
engine. The CLI opens its units in its own root, :mod:`viva.cli.work`.
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
