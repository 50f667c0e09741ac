"""Signed-in browsers as rows, so a session can be ended from the server. Never commits."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from viva.store.models import User, WebSession


def _key(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def open_session(session: Session, user_id: int, now: datetime, lifetime: timedelta) -> str:
    """Start a session for ``user_id`` and return its secret (for the cookie only).

    Sessions of this user older than ``lifetime`` are cleared on the way: their cookies
    have expired, so nothing can present them any more.
    """
    session.execute(
        delete(WebSession).where(WebSession.user_id == user_id, WebSession.created_at < now - lifetime)
    )
    secret = secrets.token_urlsafe(32)
    session.add(WebSession(id=_key(secret), user_id=user_id, created_at=now))
    session.flush()
    return secret


def session_user(session: Session, secret: str, now: datetime, lifetime: timedelta) -> User | None:
    """The user a live session belongs to; None once it has ended or expired."""
    row = session.get(WebSession, _key(secret))
    if row is None or row.created_at < now - lifetime:
        return None
    return session.get(User, row.user_id)


def end_session(session: Session, secret: str) -> None:
    session.execute(delete(WebSession).where(WebSession.id == _key(secret)))


def end_all_sessions(session: Session, user_id: int) -> int:
    """End every session of ``user_id``; how many there were."""
    ended = session.execute(select(WebSession.id).where(WebSession.user_id == user_id)).scalars().all()
    session.execute(delete(WebSession).where(WebSession.user_id == user_id))
    return len(ended)
