"""Repositories flush but never commit: the caller owns the transaction."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from viva.errors import InvalidInput, NotFound
from viva.store import Attempt, Recording, User, get_or_create_user, session_factory
from viva.store import attempts as attempt_repo
from viva.store import reviews as review_repo

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _attempt(user: User, question_id: str = "t/q", at: datetime = NOW) -> Attempt:
    return Attempt(
        user_id=user.id,
        question_id=question_id,
        answered_at=at,
        answer_text="because",
        marking_json={"x": 1},
        backend="test",
        score=0.5,
        verdict="partial",
    )


def test_get_or_create_user(db: Session) -> None:
    first = get_or_create_user(db, " ada ", NOW)
    assert get_or_create_user(db, "ada", NOW + timedelta(days=1)) is first
    assert first.name == "ada" and first.created_at == NOW and first.password_hash is None
    with pytest.raises(InvalidInput):
        get_or_create_user(db, "  ", NOW)


def test_repositories_do_not_commit(engine: Engine, db: Session) -> None:
    user = get_or_create_user(db, "uncommitted", NOW)
    attempt_repo.add_attempt(db, _attempt(user))
    review_repo.save_review_state(db, user.id, "t/q", {"due": "x"}, NOW, None)
    with session_factory(engine)() as elsewhere:
        assert elsewhere.scalars(select(User).where(User.name == "uncommitted")).first() is None


def test_attempt_ownership(db: Session) -> None:
    ada = get_or_create_user(db, "ada", NOW)
    eve = get_or_create_user(db, "eve", NOW)
    attempt = attempt_repo.add_attempt(db, _attempt(ada))
    assert attempt_repo.attempt_for_user(db, ada.id, attempt.id) is attempt
    with pytest.raises(NotFound):
        attempt_repo.attempt_for_user(db, eve.id, attempt.id)
    with pytest.raises(NotFound):
        attempt_repo.attempt_for_user(db, ada.id, attempt.id + 1000)


def test_attempt_queries(db: Session) -> None:
    ada = get_or_create_user(db, "ada", NOW)
    later = NOW + timedelta(minutes=5)
    a = attempt_repo.add_attempt(db, _attempt(ada, "t/a"))
    b = attempt_repo.add_attempt(db, _attempt(ada, "t/b", later))
    b.session_id = "s1"
    c = attempt_repo.add_attempt(db, _attempt(ada, "t/a", later + timedelta(minutes=1)))
    c.session_id = "s1"
    db.flush()
    assert list(attempt_repo.attempts_for_user(db, ada.id)) == [a, b, c]
    assert list(attempt_repo.attempts_for_user(db, ada.id, question_id="t/a")) == [a, c]
    assert attempt_repo.latest_attempt(db, ada.id) is c
    assert attempt_repo.answered_question_ids(db, ada.id) == {"t/a", "t/b"}
    assert attempt_repo.first_answered_in_session(db, ada.id, "s1") == {"t/b"}
    assert attempt_repo.attempt_exists(db, ada.id, "t/b", later)


def test_review_state_upsert_and_due_order(db: Session) -> None:
    ada = get_or_create_user(db, "ada", NOW)
    review_repo.save_review_state(db, ada.id, "t/late", {"n": 1}, NOW + timedelta(days=2), NOW)
    review_repo.save_review_state(db, ada.id, "t/soon", {"n": 1}, NOW + timedelta(hours=1), NOW)
    updated = review_repo.save_review_state(db, ada.id, "t/late", {"n": 2}, NOW, NOW)
    assert updated.card == {"n": 2}
    assert [s.question_id for s in review_repo.review_states(db, ada.id)] == ["t/late", "t/soon"]
    assert [s.question_id for s in review_repo.review_states(db, ada.id, due_before=NOW)] == ["t/late"]


def test_recordings_belong_to_attempts(db: Session) -> None:
    ada = get_or_create_user(db, "ada", NOW)
    attempt = attempt_repo.add_attempt(db, _attempt(ada))
    db.add(
        Recording(attempt_id=attempt.id, user_id=ada.id, mime="audio/webm", data=b"\x00\x01", created_at=NOW)
    )
    db.flush()
    db.expire_all()
    assert db.get(Attempt, attempt.id).recordings[0].data == b"\x00\x01"  # type: ignore[union-attr]
