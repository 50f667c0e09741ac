"""Interviews and per-point memory: add and read them. Never commits; the caller owns the transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from viva.errors import NotFound
from viva.marking.result import Marking
from viva.store.models import Interview, PointMemory


def add_interview(session: Session, interview: Interview) -> Interview:
    session.add(interview)
    session.flush()
    return interview


def interview_for_user(session: Session, user_id: int, key: str) -> Interview:
    """The interview, only if it is ``user_id``'s; otherwise NotFound (no hint it exists)."""
    found = session.scalars(select(Interview).where(Interview.key == key)).first()
    if found is None or found.user_id != user_id:
        raise NotFound(f"no interview {key!r}", hint="the Mock interview page lists yours")
    return found


def interview_by_id(session: Session, interview_id: int) -> Interview:
    found = session.get(Interview, interview_id)
    if found is None:
        raise NotFound(f"no interview {interview_id}")
    return found


def interviews_for_user(session: Session, user_id: int) -> Sequence[Interview]:
    """The user's interviews, newest first."""
    query = select(Interview).where(Interview.user_id == user_id)
    return session.scalars(query.order_by(Interview.started_at.desc(), Interview.id.desc())).all()


def remember_points(
    session: Session, user_id: int, question_id: str, marking: Marking, now: datetime
) -> None:
    """Note, for each point of ``marking``, that it was covered (in full) or missed at ``now``.

    The caller holds the question's review-state lock, so two answers never race on a row.
    Answers may be noted out of order (an import), so the last-seen times only move forward.
    """
    rows = {
        row.point_id: row
        for row in session.scalars(
            select(PointMemory).where(PointMemory.user_id == user_id, PointMemory.question_id == question_id)
        )
    }
    for point in marking.points:
        row = rows.get(point.point_id)
        if row is None:
            row = PointMemory(
                user_id=user_id,
                question_id=question_id,
                point_id=point.point_id,
                core=point.core,
                text=point.text,
                times_covered=0,
                times_missed=0,
            )
            session.add(row)
        row.core, row.text = point.core, point.text
        if point.status == "covered":
            row.times_covered += 1
            row.last_covered_at = _later(row.last_covered_at, now)
        else:
            row.times_missed += 1
            row.last_missed_at = _later(row.last_missed_at, now)
    session.flush()


def _later(seen: datetime | None, now: datetime) -> datetime:
    return now if seen is None or now > seen else seen


def point_memory(session: Session, user_id: int) -> Sequence[PointMemory]:
    """Every point the user has been marked on."""
    query = select(PointMemory).where(PointMemory.user_id == user_id)
    return session.scalars(query.order_by(PointMemory.question_id, PointMemory.point_id)).all()
