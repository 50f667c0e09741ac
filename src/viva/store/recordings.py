"""Recordings of spoken answers: kept only when the candidate opts in, deletable, private.

A recording belongs to one attempt and one user; anyone else asking for it gets
:class:`~viva.errors.NotFound`, exactly as for an id that does not exist. Nothing here
commits: a recording is added in the same transaction as its attempt, so an attempt is
never left without the audio the candidate asked to keep, nor audio without its attempt.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Row, func, select
from sqlalchemy.orm import Session

from viva.errors import InvalidInput, NotFound
from viva.store.models import Attempt, Recording


def add_recording(session: Session, attempt: Attempt, mime: str, data: bytes, now: datetime) -> Recording:
    if not data:
        raise InvalidInput("the recording is empty")
    recording = Recording(
        attempt_id=attempt.id, user_id=attempt.user_id, mime=mime, data=data, created_at=now
    )
    session.add(recording)
    session.flush()
    return recording


def recording_for_user(session: Session, user_id: int, recording_id: int) -> Recording:
    recording = session.get(Recording, recording_id)
    if recording is None or recording.user_id != user_id:
        raise NotFound(f"no recording {recording_id}")
    return recording


def recordings_of_attempt(
    session: Session, user_id: int, attempt_id: int
) -> Sequence[Row[tuple[int, int, str, int, datetime]]]:
    """The user's recordings of one attempt without their bytes: rows of ``id``,
    ``attempt_id``, ``mime``, ``size`` (bytes) and ``created_at``, oldest first."""
    query = (
        select(
            Recording.id,
            Recording.attempt_id,
            Recording.mime,
            func.length(Recording.data).label("size"),
            Recording.created_at,
        )
        .where(Recording.user_id == user_id, Recording.attempt_id == attempt_id)
        .order_by(Recording.id)
    )
    return session.execute(query).all()
