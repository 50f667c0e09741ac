"""Recorded answers, their schedules and recordings as the adapters get them: frozen copies
of the store's rows.

A copy is taken when the answer is read or written; it does not follow later changes (read
it again after an override).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from viva.marking.result import Marking
from viva.store.models import Attempt, ReviewState


@dataclass(frozen=True, slots=True)
class AttemptRecord:
    """One recorded answer: what was said, how it was marked, and the candidate's override."""

    id: int
    user_id: int
    question_id: str
    answered_at: datetime
    answer_text: str
    marking: Marking
    backend: str
    score: float
    verdict: str
    override: str | None
    overridden_at: datetime | None
    duration_ms: int | None
    transcript: dict[str, Any] | None
    """The speech part's transcript JSON (words and timings) of a spoken answer."""
    delivery: dict[str, Any] | None
    """The speech part's delivery JSON (pace, fillers, pauses) of a spoken answer."""
    session_id: str | None

    @classmethod
    def of(cls, row: Attempt) -> AttemptRecord:
        """A copy of ``row``: every field here is the row's attribute of the same name."""
        return cls(**{f.name: getattr(row, f.name) for f in fields(cls)})


@dataclass(frozen=True, slots=True)
class ReviewSchedule:
    """When a question comes back for one candidate: its FSRS card and the review it is due."""

    question_id: str
    card: dict[str, Any]
    """The card as fsrs writes it (``fsrs.Card.to_dict``); a copy of the row's."""
    due: datetime
    last_review: datetime | None

    @classmethod
    def of(cls, row: ReviewState) -> ReviewSchedule:
        return cls(row.question_id, dict(row.card), row.due, row.last_review)


@dataclass(frozen=True, slots=True)
class RecordingInfo:
    """A recording without its bytes, for listing."""

    id: int
    attempt_id: int
    mime: str
    size: int
    created_at: datetime
