"""Users: find by name or id, create on first use (CLI candidates have no password)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from viva.errors import InvalidInput, NotFound
from viva.store.models import Attempt, Interview, PointMemory, Recording, ReviewState, User

MAX_NAME = 100


def get_user(session: Session, name: str) -> User | None:
    return session.scalars(select(User).where(User.name == name)).one_or_none()


def user_by_id(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise NotFound(f"no user with id {user_id}")
    return user


def get_or_create_user(session: Session, name: str, now: datetime | None = None) -> User:
    """The user called ``name``, added to the session (not committed) if new.

    ``now`` is the creation time recorded for a new user. It defaults to the clock because
    ``created_at`` is bookkeeping only; nothing that schedules reads it.
    """
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        raise InvalidInput(f"a user name needs 1 to {MAX_NAME} characters, got {len(name)}")
    user = get_user(session, name)
    if user is None:
        user = User(name=name, created_at=now or datetime.now(UTC))
        session.add(user)
        session.flush()
    return user


def delete_history(session: Session, user_id: int) -> int:
    """Remove every attempt (and its recordings), review state, point memory and interview of
    ``user_id``; keep the account. Returns how many attempts there were."""
    count = session.scalar(select(func.count()).select_from(Attempt).where(Attempt.user_id == user_id)) or 0
    session.execute(delete(Recording).where(Recording.user_id == user_id))
    session.execute(delete(Attempt).where(Attempt.user_id == user_id))
    session.execute(delete(ReviewState).where(ReviewState.user_id == user_id))
    session.execute(delete(PointMemory).where(PointMemory.user_id == user_id))
    session.execute(delete(Interview).where(Interview.user_id == user_id))
    return count
