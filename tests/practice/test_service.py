"""Recording attempts, overrides and their effect on the schedule."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy.orm import Session

from tests.practice.conftest import NOW
from tests.practice.factories import marking_for, strong, weak
from viva.bank import Bank
from viva.errors import InvalidInput, NotFound
from viva.practice import Practice
from viva.practice.accounts import Account


def _due(practice: Practice, user: Account, question_id: str) -> datetime:
    state = practice.review_state(user, question_id)
    assert state is not None
    return state.due


def test_record_attempt_stores_everything(practice: Practice, bank: Bank, user: Account, db: Session) -> None:
    cache = bank.question("study/cache")
    marking = strong(cache)
    attempt = practice.record_attempt(
        user,
        "study/cache",
        "an answer",
        marking,
        NOW,
        duration_ms=4200,
        transcript={"text": "an answer", "words": []},
        delivery={"wpm": 150},
        session_id="s1",
    )
    db.expire_all()
    stored = practice.attempt(user, attempt.id)
    assert stored.marking == marking
    assert (stored.score, stored.verdict, stored.backend) == (marking.score, "strong", "test")
    assert stored.answered_at == NOW and stored.duration_ms == 4200
    assert stored.transcript == {"text": "an answer", "words": []}
    assert stored.delivery == {"wpm": 150} and stored.session_id == "s1"
    assert stored.override is None


def test_strong_answer_pushes_the_review_days_out(practice: Practice, bank: Bank, user: Account) -> None:
    practice.record_attempt(user, "study/cache", "a", strong(bank.question("study/cache")), NOW)
    state = practice.review_state(user, "study/cache")
    assert state is not None and state.due - NOW >= timedelta(days=2)


def test_weak_answer_comes_back_within_a_day(practice: Practice, bank: Bank, user: Account) -> None:
    cache = bank.question("study/cache")
    practice.record_attempt(user, "study/cache", "a", strong(cache), NOW)
    first_due = _due(practice, user, "study/cache")
    practice.record_attempt(user, "study/cache", "b", weak(cache), first_due)
    state = practice.review_state(user, "study/cache")
    assert state is not None and state.due - first_due <= timedelta(days=1)


def test_repeated_strong_answers_grow_the_interval(practice: Practice, bank: Bank, user: Account) -> None:
    cache = bank.question("study/cache")
    when, gaps = NOW, []
    for _ in range(3):
        practice.record_attempt(user, "study/cache", "a", strong(cache), when)
        due = _due(practice, user, "study/cache")
        gaps.append(due - when)
        when = due
    assert gaps[0] < gaps[1] < gaps[2]


def test_override_changes_the_outcome(practice: Practice, bank: Bank, user: Account) -> None:
    cache = bank.question("study/cache")
    attempt = practice.record_attempt(user, "study/cache", "a", weak(cache), NOW)
    assert _due(practice, user, "study/cache") - NOW < timedelta(hours=1)

    overridden = practice.override(user, attempt.id, "right", NOW + timedelta(minutes=1))
    assert overridden.override == "right" and overridden.overridden_at == NOW + timedelta(minutes=1)
    assert practice.attempt(user, attempt.id) == overridden
    assert _due(practice, user, "study/cache") - NOW >= timedelta(days=1)

    practice.override(user, attempt.id, None, NOW + timedelta(minutes=2))
    assert _due(practice, user, "study/cache") - NOW < timedelta(hours=1)


def test_missed_it_override_brings_a_strong_answer_back(
    practice: Practice, bank: Bank, user: Account
) -> None:
    attempt = practice.record_attempt(user, "study/norm", "a", strong(bank.question("study/norm")), NOW)
    practice.override(user, attempt.id, "missed", NOW)
    assert _due(practice, user, "study/norm") - NOW < timedelta(hours=1)


def test_override_of_someone_elses_attempt_is_not_found(
    practice: Practice, bank: Bank, user: Account, other_user: Account
) -> None:
    attempt = practice.record_attempt(user, "study/cache", "a", weak(bank.question("study/cache")), NOW)
    with pytest.raises(NotFound):
        practice.override(other_user, attempt.id, "right", NOW)
    with pytest.raises(NotFound):
        practice.attempt(other_user, attempt.id)
    assert attempt.override is None


def test_bad_input_is_refused(practice: Practice, bank: Bank, user: Account) -> None:
    cache = bank.question("study/cache")
    with pytest.raises(NotFound):
        practice.record_attempt(user, "study/nope", "a", strong(cache), NOW)
    with pytest.raises(InvalidInput):
        practice.record_attempt(user, "study/norm", "a", strong(cache), NOW)
    with pytest.raises(InvalidInput):
        practice.record_attempt(user, "study/cache", "a", strong(cache), NOW.replace(tzinfo=None))
    attempt = practice.record_attempt(user, "study/cache", "a", strong(cache), NOW)
    with pytest.raises(InvalidInput):
        practice.override(user, attempt.id, "maybe", NOW)  # type: ignore[arg-type]  # deliberately not an Override


def test_score_history(practice: Practice, bank: Bank, user: Account) -> None:
    cache = bank.question("study/cache")
    practice.record_attempt(user, "study/cache", "a", weak(cache), NOW)
    practice.record_attempt(
        user, "study/cache", "b", marking_for(cache, ["stores-keys-values"]), NOW + timedelta(1)
    )
    history = practice.score_history(user)
    assert [p.verdict for p in history] == ["weak", "partial"]
    assert history[0].answered_at == NOW


def test_summary_shows_the_attempt_without_its_row(practice: Practice, bank: Bank, user: Account) -> None:
    cache = bank.question("study/cache")
    first = practice.record_attempt(user, "study/cache", "a", weak(cache), NOW)
    second = practice.override(user, first.id, "right", NOW + timedelta(minutes=1))
    (summary,) = practice.summaries(user)
    assert summary == practice.summary(user, second)
    assert (summary.id, summary.answer, summary.verdict, summary.override) == (first.id, "a", "weak", "right")
    assert summary.marking == weak(cache) and summary.next_due == _due(practice, user, "study/cache")


def test_progress_gathers_what_the_progress_views_show(practice: Practice, bank: Bank, user: Account) -> None:
    practice.record_attempt(user, "study/cache", "a", weak(bank.question("study/cache")), NOW)
    found = practice.progress(user, NOW, days=7, weakest=3)
    assert found.mastery == practice.mastery(user, NOW)
    assert found.forecast == practice.forecast(user, NOW, 7) and len(found.forecast) == 7
    assert found.weakest_points == practice.weakest_points(user, 3)
    assert found.score_history == practice.score_history(user)
