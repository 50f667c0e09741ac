"""Recorded answers as the adapters get them: frozen copies of the store's rows.

A copy is taken when the answer is read or written; it does not follow later changes (read
it again after an override).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from viva.marking.result import Marking
from viva.store.models import Attempt


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
