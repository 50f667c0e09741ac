"""Which question comes next: follow-up, then due reviews, then new in learning order."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tests.practice.conftest import NOW
from tests.practice.factories import marking_for, strong, weak
from viva.bank import Bank
from viva.errors import NotFound
from viva.practice import Practice, Scope
from viva.practice.accounts import Account

EVERYTHING = Scope()


def _answer(
    practice: Practice,
    bank: Bank,
    user: Account,
    qid: str,
    good: bool = True,
    at: datetime = NOW,
    session_id: str | None = None,
) -> None:
    question = bank.question(qid)
    marking = strong(question) if good else weak(question)
    practice.record_attempt(user, qid, "a", marking, at, session_id=session_id)


def test_new_questions_in_learning_order(practice: Practice, bank: Bank, user: Account) -> None:
    order = []
    exclude: list[str] = []
    while (nxt := practice.next_question(user, EVERYTHING, NOW, new_limit=10, exclude=exclude)) is not None:
        assert nxt.reason == "new"
        order.append(nxt.question.full_id)
        exclude.append(nxt.question.full_id)
    # follow-ups are not introduced on their own; sections then topics in order
    assert order == ["study/cache", "study/norm", "study/clip", "later/warmup"]


def test_scope_topic_and_section(practice: Practice, bank: Bank, user: Account) -> None:
    second = Scope.parse(bank, "study/second")
    first = practice.next_question(user, second, NOW, 5)
    assert first is not None and first.question.full_id == "study/clip"
    later = Scope.parse(bank, "later")
    other = practice.next_question(user, later, NOW, 5)
    assert other is not None and other.question.full_id == "later/warmup"
    with pytest.raises(NotFound):
        Scope.parse(bank, "study/nowhere")
    with pytest.raises(NotFound):
        Scope.parse(bank, "nowhere")
    assert str(second) == "study/second" and str(EVERYTHING) == "everything"


def test_follow_up_comes_right_after_its_parent(practice: Practice, bank: Bank, user: Account) -> None:
    _answer(practice, bank, user, "study/cache", session_id="s")
    nxt = practice.next_question(user, EVERYTHING, NOW + timedelta(seconds=30), 5, session_id="s")
    assert nxt is not None and nxt.reason == "follow-up"
    assert nxt.follows is not None and nxt.follows.full_id == "study/cache"
    # nothing was missed: the first follow-up the author wrote
    assert nxt.question.full_id == "study/cache-batching"
    _answer(practice, bank, user, "study/cache-batching", session_id="s", at=NOW + timedelta(minutes=1))
    after = practice.next_question(user, EVERYTHING, NOW + timedelta(minutes=2), 5, session_id="s")
    assert after is not None and after.reason == "new" and after.question.full_id == "study/norm"


def test_follow_up_probing_the_missed_points_is_preferred(
    practice: Practice, bank: Bank, user: Account
) -> None:
    cache = bank.question("study/cache")
    # missed "stores the keys and values of earlier tokens": the bandwidth follow-up reads them
    practice.record_attempt(user, "study/cache", "a", marking_for(cache, ["new-token-only"]), NOW)
    nxt = practice.next_question(user, EVERYTHING, NOW, 5)
    assert nxt is not None and nxt.question.full_id == "study/cache-bandwidth"


def test_i_was_right_override_drops_the_probe_preference(
    practice: Practice, bank: Bank, user: Account
) -> None:
    cache = bank.question("study/cache")
    attempt = practice.record_attempt(user, "study/cache", "a", marking_for(cache, ["new-token-only"]), NOW)
    practice.override(user, attempt.id, "right", NOW)
    nxt = practice.next_question(user, EVERYTHING, NOW, 5)
    assert nxt is not None and nxt.question.full_id == "study/cache-batching"


def test_no_stale_follow_up_without_a_session(practice: Practice, bank: Bank, user: Account) -> None:
    _answer(practice, bank, user, "study/cache")
    nxt = practice.next_question(user, EVERYTHING, NOW + timedelta(hours=3), 5)
    assert nxt is not None and nxt.reason == "new"


def test_due_reviews_come_before_new_ones(practice: Practice, bank: Bank, user: Account) -> None:
    _answer(practice, bank, user, "study/norm", good=False)
    _answer(practice, bank, user, "later/warmup", good=False, at=NOW + timedelta(minutes=1))
    later = NOW + timedelta(hours=2)
    nxt = practice.next_question(user, EVERYTHING, later, 5)
    assert nxt is not None and nxt.reason == "due" and nxt.question.full_id == "study/norm"
    assert nxt.due is not None and nxt.due <= later
    scoped = practice.next_question(user, Scope.parse(bank, "later"), later, 5)
    assert scoped is not None and scoped.question.full_id == "later/warmup"


def test_a_weak_answer_returns_later_in_the_sitting(practice: Practice, bank: Bank, user: Account) -> None:
    _answer(practice, bank, user, "study/norm", good=False, session_id="s")
    assert practice.next_question(user, EVERYTHING, NOW, 0, session_id="s") is None
    nxt = practice.next_question(user, EVERYTHING, NOW + timedelta(minutes=11), 0, session_id="s")
    assert nxt is not None and nxt.reason == "due" and nxt.question.full_id == "study/norm"


def test_new_limit_counts_per_session(practice: Practice, bank: Bank, user: Account) -> None:
    _answer(practice, bank, user, "study/norm", session_id="s")
    assert practice.next_question(user, EVERYTHING, NOW, 1, session_id="s") is None
    nxt = practice.next_question(user, EVERYTHING, NOW, 2, session_id="s")
    assert nxt is not None and nxt.question.full_id == "study/cache"
    fresh = practice.next_question(user, EVERYTHING, NOW, 1, session_id="other")
    assert fresh is not None and fresh.reason == "new"
    assert practice.next_question(user, EVERYTHING, NOW, 0) is None


def test_due_and_forecast(practice: Practice, bank: Bank, user: Account) -> None:
    _answer(practice, bank, user, "study/norm", good=False)
    _answer(practice, bank, user, "study/clip")
    assert [d.question.full_id for d in practice.due(user, NOW)] == []
    soon = practice.due(user, NOW, horizon=timedelta(days=10))
    assert [d.question.full_id for d in soon] == ["study/norm", "study/clip"]
    assert soon[0].due < soon[1].due
    forecast = practice.forecast(user, NOW, days=30)
    assert len(forecast) == 30 and forecast[0].day == NOW.date()
    assert forecast[0].reviews == 1 and sum(d.reviews for d in forecast) == 2
