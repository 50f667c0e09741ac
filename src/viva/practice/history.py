"""Export and import a candidate's history: attempts and review states, losslessly.

The document is versioned JSON (``format``/``version``) validated by pydantic on the way
in, so a hand-edited or foreign file fails with a clear message instead of half-importing.
Database ids are not exported: an attempt is recognised by (user, question, answered_at),
which makes importing the same file twice harmless. Recordings (audio) are not exported.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, ValidationError
from sqlalchemy.orm import Session

from viva.errors import InvalidInput
from viva.marking.result import Marking
from viva.store import attempts as attempt_repo
from viva.store import reviews as review_repo
from viva.store.models import Attempt, User
from viva.store.users import get_or_create_user


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AttemptRecord(_Record):
    question_id: str
    answered_at: AwareDatetime
    answer_text: str
    transcript: dict[str, Any] | None = None
    marking: Marking
    backend: str
    score: float
    verdict: str
    duration_ms: int | None = None
    override: Literal["right", "missed"] | None = None
    overridden_at: AwareDatetime | None = None
    delivery: dict[str, Any] | None = None
    session_id: str | None = None


class ReviewStateRecord(_Record):
    question_id: str
    card: dict[str, Any]
    due: AwareDatetime
    last_review: AwareDatetime | None = None


class UserHistory(_Record):
    name: str
    created_at: AwareDatetime
    attempts: list[AttemptRecord]
    review_states: list[ReviewStateRecord]


class HistoryDocument(_Record):
    format: Literal["viva-history"] = "viva-history"
    version: Literal[1] = 1
    users: list[UserHistory]


class ImportReport(BaseModel):
    users: list[str]
    attempts_added: int
    attempts_skipped: int
    review_states: int


def export_user(session: Session, user: User) -> UserHistory:
    attempts = attempt_repo.attempts_for_user(session, user.id)
    states = review_repo.review_states(session, user.id)
    return UserHistory(
        name=user.name,
        created_at=user.created_at,
        attempts=[
            AttemptRecord(
                question_id=a.question_id,
                answered_at=a.answered_at,
                answer_text=a.answer_text,
                transcript=a.transcript,
                marking=a.marking,
                backend=a.backend,
                score=a.score,
                verdict=a.verdict,
                duration_ms=a.duration_ms,
                override=_override(a.override),
                overridden_at=a.overridden_at,
                delivery=a.delivery,
                session_id=a.session_id,
            )
            for a in attempts
        ],
        review_states=[
            ReviewStateRecord(question_id=s.question_id, card=s.card, due=s.due, last_review=s.last_review)
            for s in states
        ],
    )


def export_document(session: Session, users: list[User]) -> dict[str, Any]:
    """The JSON-ready export document for ``users``."""
    document = HistoryDocument(users=[export_user(session, u) for u in users])
    return document.model_dump(mode="json")


def parse_document(data: Any) -> HistoryDocument:
    try:
        return HistoryDocument.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise InvalidInput(
            f"not a viva history file: {where}: {first['msg']}",
            hint=f"{exc.error_count()} problem(s); expected the output of `viva export`",
        ) from None


def import_document(session: Session, data: Any, as_user: str | None = None) -> ImportReport:
    """Add the document's attempts and review states; the caller commits.

    ``as_user`` imports a single-user document under another name. An existing review
    state is replaced only by one reviewed more recently.
    """
    document = parse_document(data)
    if as_user is not None and len(document.users) != 1:
        raise InvalidInput("--user needs a history file with exactly one user")
    added = skipped = states = 0
    names = []
    for history in document.users:
        user = get_or_create_user(session, as_user or history.name, history.created_at)
        names.append(user.name)
        for record in history.attempts:
            if attempt_repo.attempt_exists(session, user.id, record.question_id, record.answered_at):
                skipped += 1
                continue
            fields = record.model_dump(exclude={"marking"})
            attempt_repo.add_attempt(
                session,
                Attempt(user_id=user.id, marking_json=record.marking.model_dump(mode="json"), **fields),
            )
            added += 1
        for state in history.review_states:
            existing = review_repo.review_state(session, user.id, state.question_id)
            if existing is not None and _later(existing.last_review, state.last_review):
                continue
            review_repo.save_review_state(
                session, user.id, state.question_id, state.card, state.due, state.last_review
            )
            states += 1
    return ImportReport(users=names, attempts_added=added, attempts_skipped=skipped, review_states=states)


def _later(mine: datetime | None, theirs: datetime | None) -> bool:
    """Whether ``mine`` is at least as recent as ``theirs`` (None is oldest)."""
    if theirs is None:
        return True
    return mine is not None and mine >= theirs


def _override(value: str | None) -> Literal["right", "missed"] | None:
    if value == "right":
        return "right"
    return "missed" if value == "missed" else None
