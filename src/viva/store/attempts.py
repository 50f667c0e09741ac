"""Attempts: add and read a candidate's answers. Never commits; the caller owns the transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from viva.errors import NotFound
from viva.store.models import Attempt


def add_attempt(session: Session, attempt: Attempt) -> Attempt:
    """Add ``attempt`` and flush so it has an id."""
    session.add(attempt)
    session.flush()
    return attempt


def attempt_for_user(session: Session, user_id: int, attempt_id: int) -> Attempt:
    """The attempt, only if it belongs to ``user_id``; otherwise NotFound (no hint it exists)."""
    attempt = session.get(Attempt, attempt_id)
    if attempt is None or attempt.user_id != user_id:
        raise NotFound(f"no attempt {attempt_id}")
    return attempt


def attempts_for_user(
    session: Session,
    user_id: int,
    *,
    question_id: str | None = None,
    session_id: str | None = None,
    since: datetime | None = None,
) -> Sequence[Attempt]:
    """The user's attempts, oldest first, optionally for one question, session or period."""
    query = select(Attempt).where(Attempt.user_id == user_id)
    if question_id is not None:
        query = query.where(Attempt.question_id == question_id)
    if session_id is not None:
        query = query.where(Attempt.session_id == session_id)
    if since is not None:
        query = query.where(Attempt.answered_at >= since)
    return session.scalars(query.order_by(Attempt.answered_at, Attempt.id)).all()


def latest_attempt(session: Session, user_id: int, session_id: str | None = None) -> Attempt | None:
    query = select(Attempt).where(Attempt.user_id == user_id)
    if session_id is not None:
        query = query.where(Attempt.session_id == session_id)
    query = query.order_by(Attempt.answered_at.desc(), Attempt.id.desc()).limit(1)
    return session.scalars(query).first()


def answered_question_ids(session: Session, user_id: int) -> set[str]:
    query = select(Attempt.question_id).where(Attempt.user_id == user_id).distinct()
    return set(session.scalars(query).all())


def attempt_exists(session: Session, user_id: int, question_id: str, answered_at: datetime) -> bool:
    """Whether this exact attempt is already stored (how an import recognises duplicates)."""
    query = select(Attempt.id).where(
        Attempt.user_id == user_id,
        Attempt.question_id == question_id,
        Attempt.answered_at == answered_at,
    )
    return session.scalars(query.limit(1)).first() is not None


def first_answered_in_session(session: Session, user_id: int, session_id: str) -> set[str]:
    """Question ids whose first-ever attempt by the user was in ``session_id``.

    This is how a stateless caller (a web worker) knows how many new questions a session
    has introduced.
    """
    first = (
        select(Attempt.question_id, func.min(Attempt.answered_at).label("first_at"))
        .where(Attempt.user_id == user_id)
        .group_by(Attempt.question_id)
        .subquery()
    )
    query = (
        select(Attempt.question_id)
        .join(first, (Attempt.question_id == first.c.question_id) & (Attempt.answered_at == first.c.first_at))
        .where(Attempt.user_id == user_id, Attempt.session_id == session_id)
        .distinct()
    )
    return set(session.scalars(query).all())
