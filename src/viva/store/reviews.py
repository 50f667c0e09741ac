"""Review states: one FSRS card per candidate × question. Never commits."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from viva.store.models import ReviewState


def lock_review_state(session: Session, user_id: int, question_id: str) -> None:
    """Hold ``user_id`` × ``question_id`` until the transaction ends, so two answers to one
    question are scheduled one after the other and the card stays equal to a replay.

    PostgreSQL takes a transaction-level advisory lock; SQLite needs none, since a writing
    unit of work begins IMMEDIATE and already holds the one write lock (:mod:`viva.store.db`).
    """
    if session.get_bind().dialect.name == "postgresql":
        key = f"review:{user_id}:{question_id}"
        session.execute(select(func.pg_advisory_xact_lock(func.hashtext(key))))


def review_state(session: Session, user_id: int, question_id: str) -> ReviewState | None:
    query = select(ReviewState).where(ReviewState.user_id == user_id, ReviewState.question_id == question_id)
    return session.scalars(query).one_or_none()


def review_states(
    session: Session, user_id: int, due_before: datetime | None = None
) -> Sequence[ReviewState]:
    """The user's review states, soonest due first; only those due by ``due_before`` if given."""
    query = select(ReviewState).where(ReviewState.user_id == user_id)
    if due_before is not None:
        query = query.where(ReviewState.due <= due_before)
    return session.scalars(query.order_by(ReviewState.due, ReviewState.question_id)).all()


def save_review_state(
    session: Session,
    user_id: int,
    question_id: str,
    card: dict[str, Any],
    due: datetime,
    last_review: datetime | None,
) -> ReviewState:
    """Insert or update the state for ``user_id`` × ``question_id`` and flush."""
    state = review_state(session, user_id, question_id)
    if state is None:
        state = ReviewState(user_id=user_id, question_id=question_id)
        session.add(state)
    state.card = card
    state.due = due
    state.last_review = last_review
    session.flush()
    return state
