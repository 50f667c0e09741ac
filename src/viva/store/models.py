"""The tables, as SQLAlchemy 2 declarative models.

Alembic owns the schema (``viva.store.migrations``); these models must agree with the
migrations, and a test fails when they do not. Every constraint and index is named through
:data:`NAMING_CONVENTION` so SQLite batch migrations can find and alter them later.

Times are stored as UTC and always come back timezone-aware (:class:`UTCDateTime`), on
SQLite too, so callers never compare naive and aware datetimes.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from viva.marking.result import Marking

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware datetime stored as UTC; refuses naive values on the way in."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: pass a timezone-aware time (e.g. datetime.now(UTC))")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:  # SQLite keeps no offset; we only ever wrote UTC
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime(), dict[str, Any]: JSON()}


class User(Base):
    """A candidate. CLI users have no password; the web sets one."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime]

    def __repr__(self) -> str:
        return f"User(id={self.id!r}, name={self.name!r})"


class ApiToken(Base):
    """A bearer token for the JSON API; only its hash is stored."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(128), unique=True)
    label: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime]
    last_used_at: Mapped[datetime | None]


class Attempt(Base):
    """One answer to one question, with the full marking and the candidate's override.

    ``score`` and ``verdict`` copy the marking's so queries need not parse JSON;
    ``override`` is ``'right'`` ("I was right") or ``'missed'`` ("I missed it").
    """

    __tablename__ = "attempts"
    __table_args__ = (Index("ix_attempts_user_question_time", "user_id", "question_id", "answered_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    question_id: Mapped[str] = mapped_column(String(200))
    answered_at: Mapped[datetime]
    answer_text: Mapped[str] = mapped_column(Text)
    transcript: Mapped[dict[str, Any] | None]
    marking_json: Mapped[dict[str, Any]] = mapped_column("marking", JSON)
    backend: Mapped[str] = mapped_column(String(100))
    score: Mapped[float] = mapped_column(Float)
    verdict: Mapped[str] = mapped_column(String(20))
    duration_ms: Mapped[int | None]
    override: Mapped[str | None] = mapped_column(String(10))
    overridden_at: Mapped[datetime | None]
    delivery: Mapped[dict[str, Any] | None]
    session_id: Mapped[str | None] = mapped_column(String(64), index=True)

    recordings: Mapped[list[Recording]] = relationship(
        back_populates="attempt", cascade="all, delete-orphan", passive_deletes=True
    )

    @property
    def marking(self) -> Marking:
        return Marking.model_validate(self.marking_json)

    def __repr__(self) -> str:
        return f"Attempt(id={self.id!r}, question_id={self.question_id!r}, score={self.score!r})"


class ReviewState(Base):
    """The FSRS card for one candidate × question; ``due`` is copied out for queries."""

    __tablename__ = "review_states"
    __table_args__ = (UniqueConstraint("user_id", "question_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    question_id: Mapped[str] = mapped_column(String(200))
    card: Mapped[dict[str, Any]]
    due: Mapped[datetime] = mapped_column(index=True)
    last_review: Mapped[datetime | None]


class Recording(Base):
    """Audio of an attempt, kept only when the candidate opts in."""

    __tablename__ = "recordings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    attempt_id: Mapped[int] = mapped_column(ForeignKey("attempts.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    mime: Mapped[str] = mapped_column(String(100))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime]

    attempt: Mapped[Attempt] = relationship(back_populates="recordings")


class LoginFailure(Base):
    """One failed web login, keyed by ``name:<user>`` or ``ip:<address>``, for the rate limit.

    Kept in the database rather than process memory so every web worker sees the same count.
    """

    __tablename__ = "login_failures"
    __table_args__ = (Index("ix_login_failures_key_at", "key", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime]


class WebSession(Base):
    """A signed-in browser. The cookie carries a random secret; only its SHA-256 is kept.

    The signed cookie alone cannot be taken back, so a session is valid only while its row
    exists: logging out deletes it, "log out everywhere" and a password change delete all of
    the user's.
    """

    __tablename__ = "web_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime]


class SpentTranscript(Base):
    """A spoken answer's check token that has been marked: each may be marked only once.

    The token itself travels in the browser (see ``viva.web.spoken``); this row is what
    makes it single-use across stateless workers. Rows older than the token's own lifetime
    are cleared as new ones arrive, since an expired token is refused anyway.
    """

    __tablename__ = "spent_transcripts"

    nonce: Mapped[str] = mapped_column(String(64), primary_key=True)
    spent_at: Mapped[datetime] = mapped_column(index=True)


class Interview(Base):
    """A mock interview (or a drill of weak points): the questions planned and when it ran.

    Its answers are ordinary attempts whose ``session_id`` is :attr:`session_id`; a generated
    push (one with no place in the bank, so no schedule) keeps its answer in ``extra``.
    """

    __tablename__ = "interviews"
    __table_args__ = (Index("ix_interviews_user_started", "user_id", "started_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(32), unique=True)
    kind: Mapped[str] = mapped_column(String(20))
    topics: Mapped[list[str]] = mapped_column(JSON)
    plan: Mapped[list[str]] = mapped_column(JSON)
    minutes: Mapped[int]
    soft_limit_s: Mapped[int]
    started_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]
    extra: Mapped[dict[str, Any]] = mapped_column(JSON)

    @property
    def session_id(self) -> str:
        return f"interview-{self.key}"


class PointMemory(Base):
    """When one candidate last covered or missed one marking point of one question.

    A point made only in part counts as missed: the interviewer did not hear it in full.
    """

    __tablename__ = "point_memory"
    __table_args__ = (UniqueConstraint("user_id", "question_id", "point_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    question_id: Mapped[str] = mapped_column(String(200))
    point_id: Mapped[str] = mapped_column(String(200))
    core: Mapped[bool] = mapped_column(Boolean)
    text: Mapped[str] = mapped_column(Text)
    times_covered: Mapped[int] = mapped_column(Integer)
    times_missed: Mapped[int] = mapped_column(Integer)
    last_covered_at: Mapped[datetime | None]
    last_missed_at: Mapped[datetime | None]


class TranscriptionJob(Base):
    """A recording waiting for, or transcribed by, a ``viva worker`` (team servers only).

    The audio travels from the web worker to the queue worker through this row, never a
    local disk, so web and queue workers may run on different machines. The job queue
    (Redis) holds only the row's id; the row holds what the candidate sees at the end:
    the transcript, or the reason there is none. ``audio`` is emptied once transcribed
    unless the candidate asked to keep the recording.
    """

    __tablename__ = "transcription_jobs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    question_id: Mapped[str] = mapped_column(String(200))
    hotwords: Mapped[list[str]] = mapped_column(JSON)
    audio: Mapped[bytes] = mapped_column(LargeBinary)
    mime: Mapped[str] = mapped_column(String(100))
    keep: Mapped[bool] = mapped_column(Boolean)
    state: Mapped[str] = mapped_column(String(10))
    transcript: Mapped[dict[str, Any] | None]
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(index=True)
    finished_at: Mapped[datetime | None]
