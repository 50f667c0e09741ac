"""Export and import a candidate's history: attempts and review states, losslessly.

The document is versioned JSON (``format``/``version``) validated by pydantic on the way
in, so a hand-edited or foreign file fails with a clear message instead of half-importing.
Database ids are not exported: an attempt is recognised by (user, question, answered_at),
which makes importing the same file twice harmless. Recordings (audio) are not exported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Annotated, Any, Literal

from fsrs import Card
from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)
from sqlalchemy.orm import Session

from viva.domain import Override, Verdict, as_override
from viva.errors import InvalidInput
from viva.marking.result import Marking
from viva.practice.accounts import Account
from viva.store import attempts as attempt_repo
from viva.store import interviews as interview_repo
from viva.store import reviews as review_repo
from viva.store.models import Attempt
from viva.store.users import get_or_create_user, get_user


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


# The limits are the database's: what PostgreSQL would refuse is refused here, on SQLite too.
QuestionId = Annotated[str, StringConstraints(min_length=3, max_length=200, pattern=r"^[^/\s]+/[^/\s]+$")]
Name = Annotated[str, StringConstraints(min_length=1, max_length=100)]
Short = Annotated[str, StringConstraints(max_length=100)]


class AttemptRecord(_Record):
    question_id: QuestionId
    answered_at: AwareDatetime
    answer_text: str
    transcript: dict[str, Any] | None = None
    marking: Marking
    backend: Short
    score: float = Field(ge=0, le=1)
    verdict: Verdict
    duration_ms: int | None = Field(default=None, ge=0, le=2**31 - 1)
    override: Override | None = None
    overridden_at: AwareDatetime | None = None
    delivery: dict[str, Any] | None = None
    session_id: Annotated[str, StringConstraints(max_length=64)] | None = None

    @model_validator(mode="after")
    def _agrees_with_its_marking(self) -> AttemptRecord:
        if self.marking.verdict != self.verdict or abs(self.marking.score - self.score) > 1e-6:
            raise ValueError("score and verdict differ from the attempt's own marking")
        return self


class CardRecord(_Record):
    """An FSRS card as ``fsrs.Card.to_dict`` writes it; anything else would break scheduling."""

    card_id: int = Field(ge=0)
    state: Literal[1, 2, 3]  # learning, review, relearning
    step: int | None = Field(default=None, ge=0, le=100)
    stability: float | None = Field(default=None, gt=0, le=1e6)
    difficulty: float | None = Field(default=None, ge=1, le=10)
    due: AwareDatetime
    last_review: AwareDatetime | None = None

    @model_validator(mode="after")
    def _loads(self) -> CardRecord:
        if self.last_review is not None and (self.stability is None or self.difficulty is None):
            raise ValueError("a reviewed card needs its stability and difficulty")
        if (self.state == 2) != (self.step is None):
            raise ValueError("a card in review has no learning step; a learning card has one")
        self.as_fsrs()
        return self

    def as_fsrs(self) -> dict[str, Any]:
        """The card as fsrs itself writes it, which is how the database keeps cards."""
        return dict(Card.from_dict(self.model_dump(mode="json")).to_dict())  # type: ignore[arg-type]


class ReviewStateRecord(_Record):
    question_id: QuestionId
    card: CardRecord
    due: AwareDatetime
    last_review: AwareDatetime | None = None

    @model_validator(mode="after")
    def _due_is_the_cards(self) -> ReviewStateRecord:
        if self.due != self.card.due:
            raise ValueError("due differs from the card's due")
        return self


class UserHistory(_Record):
    name: Name
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


def export_user(session: Session, user: Account) -> UserHistory:
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
                override=as_override(a.override),
                overridden_at=a.overridden_at,
                delivery=a.delivery,
                session_id=a.session_id,
            )
            for a in attempts
        ],
        review_states=[
            ReviewStateRecord(
                question_id=s.question_id,
                card=CardRecord.model_validate(s.card),
                due=s.due,
                last_review=s.last_review,
            )
            for s in states
        ],
    )


def export_document(session: Session, users: list[Account]) -> dict[str, Any]:
    """The JSON-ready export document for ``users``."""
    document = HistoryDocument(users=[export_user(session, u) for u in users])
    return document.model_dump(mode="json")


def _unstorable(data: Any, path: str = "") -> Iterator[str]:
    """Paths of strings no database column can hold: NUL characters and lone surrogates."""
    if isinstance(data, str):
        if "\x00" in data or any("\ud800" <= c <= "\udfff" for c in data):
            yield path or "file"
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _unstorable(key, path)
            yield from _unstorable(value, f"{path}.{key}" if path else str(key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _unstorable(value, f"{path}.{i}" if path else str(i))


def parse_document(data: Any) -> HistoryDocument:
    """The whole file validated before anything is written; the first problem names its path."""
    bad = next(_unstorable(data), None)
    if bad is not None:
        raise InvalidInput(f"not a viva history file: {bad}: text with a NUL or unpaired surrogate character")
    try:
        return HistoryDocument.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise InvalidInput(
            f"not a viva history file: {where}: {first['msg']}",
            hint=f"{exc.error_count()} problem(s); expected the output of `viva export`",
        ) from None


def import_document(
    session: Session,
    data: Any,
    as_user: str | None = None,
    known: Callable[[str], bool] | None = None,
) -> ImportReport:
    """Add the document's attempts and review states; the caller commits.

    Nothing is written unless the whole file is valid. ``known`` says which question ids
    this bank has: records of any other question are refused, listed, before writing.
    Without ``as_user`` the file's candidates must be new here, so a file naming "bob"
    never merges into an existing bob by accident; ``as_user`` imports a single-user
    document into that account (created if needed). An existing review state is replaced
    only by one reviewed more recently.
    """
    document = parse_document(data)
    if as_user is not None and len(document.users) != 1:
        raise InvalidInput("--user needs a history file with exactly one user")
    if known is not None:
        _refuse_unknown(document, known)
    if as_user is None:
        for history in document.users:
            if get_user(session, history.name) is not None:
                raise InvalidInput(
                    f"a candidate named {history.name!r} already exists here",
                    hint=f"add --user {history.name} to merge into that account, or --user NEW-NAME",
                )
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
            # what a mock interview presses on is rebuilt from the markings, as answering does
            interview_repo.remember_points(
                session, user.id, record.question_id, record.marking, record.answered_at
            )
            added += 1
        for state in history.review_states:
            existing = review_repo.review_state(session, user.id, state.question_id)
            if existing is not None and _later(existing.last_review, state.last_review):
                continue
            review_repo.save_review_state(
                session,
                user.id,
                state.question_id,
                state.card.as_fsrs(),
                state.due,
                state.last_review,
            )
            states += 1
    return ImportReport(users=names, attempts_added=added, attempts_skipped=skipped, review_states=states)


def _refuse_unknown(document: HistoryDocument, known: Callable[[str], bool]) -> None:
    ids = {a.question_id for h in document.users for a in h.attempts}
    ids |= {r.question_id for h in document.users for r in h.review_states}
    unknown = sorted(i for i in ids if not known(i))
    if unknown:
        shown = ", ".join(unknown[:5]) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
        raise InvalidInput(
            f"the file has history for {len(unknown)} question(s) this bank does not have: {shown}",
            hint="import with the question bank the file was exported from",
        )


def _later(mine: datetime | None, theirs: datetime | None) -> bool:
    """Whether ``mine`` is at least as recent as ``theirs`` (None is oldest)."""
    if theirs is None:
        return True
    return mine is not None and mine >= theirs
