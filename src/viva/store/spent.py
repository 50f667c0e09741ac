"""Single-use keys for spoken answers' check tokens. Never commits."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from viva.store.models import SpentTranscript


def spend(session: Session, nonce: str, now: datetime, lifetime: timedelta) -> bool:
    """Record ``nonce`` as used; False if it was used before (by this or any worker).

    The insert runs in a savepoint, so a second use (even a concurrent one, which waits for
    the first to commit) only loses this row and leaves the caller's transaction usable.
    Keys older than ``lifetime`` are cleared: their tokens have expired anyway.
    """
    session.execute(delete(SpentTranscript).where(SpentTranscript.spent_at < now - lifetime))
    try:
        with session.begin_nested():
            session.add(SpentTranscript(nonce=nonce, spent_at=now))
    except IntegrityError:
        return False
    return True
