"""The rating table and the pure review function (no database)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from fsrs import Rating

from tests.practice.conftest import NOW
from tests.practice.factories import marking_for, strong, weak
from viva.bank import Bank, MarkingPoint, Question
from viva.practice import schedule
from viva.practice.schedule import rating_for


@pytest.fixture
def cache(bank: Bank) -> Question:
    return bank.question("study/cache")


def test_weak_answer_is_again(cache: Question) -> None:
    assert rating_for(weak(cache)) == Rating.Again


def test_partial_missing_the_heaviest_point_is_again_not_hard(cache: Question) -> None:
    three = replace(
        cache,
        points=(
            MarkingPoint("essential", "The essential idea.", weight=2),
            MarkingPoint("detail-a", "A detail.", weight=1),
            MarkingPoint("detail-b", "Another detail.", weight=1),
        ),
    )
    missed_essential = marking_for(three, ["detail-a", "detail-b"])
    assert missed_essential.verdict == "partial"
    assert rating_for(missed_essential) == Rating.Again
    recalled_with_effort = marking_for(cache, ["stores-keys-values"])
    assert recalled_with_effort.verdict == "partial"
    assert rating_for(recalled_with_effort) == Rating.Hard


def test_partial_with_equal_weights_is_hard(bank: Bank) -> None:
    norm = bank.question("study/norm")
    half = marking_for(norm, ["learned-gain"])
    assert half.verdict == "partial"
    assert rating_for(half) == Rating.Hard


def test_strong_answers(cache: Question) -> None:
    assert rating_for(strong(cache)) == Rating.Easy
    with_slip = marking_for(cache, ["stores-keys-values"], partial=["new-token-only"])
    assert with_slip.verdict == "strong"
    assert rating_for(with_slip) == Rating.Good
    wrong_claim = marking_for(cache, ["stores-keys-values", "new-token-only"], misconception=True)
    assert rating_for(wrong_claim) == Rating.Hard


def test_override_wins(cache: Question) -> None:
    assert rating_for(strong(cache), "missed") == Rating.Again
    assert rating_for(weak(cache), "right") == Rating.Good


def test_new_card_is_due_now_and_never_reviewed() -> None:
    card = schedule.new_card(NOW)
    assert schedule.due_at(card) == NOW
    assert schedule.last_review_at(card) is None
    assert schedule.retrievability(card, NOW) == 0.0


def test_review_is_pure_and_spaces_by_rating() -> None:
    card = schedule.new_card(NOW)
    again = schedule.review(card, Rating.Again, NOW)
    good = schedule.review(card, Rating.Good, NOW)
    easy = schedule.review(card, Rating.Easy, NOW)
    assert schedule.review(card, Rating.Good, NOW) == good
    assert schedule.due_at(again) - NOW <= timedelta(hours=1)
    assert schedule.due_at(good) - NOW >= timedelta(days=1)
    assert schedule.due_at(easy) > schedule.due_at(good)
    assert schedule.last_review_at(good) == NOW


def test_retrievability_fades() -> None:
    card = schedule.review(schedule.new_card(NOW), Rating.Good, NOW)
    soon = schedule.retrievability(card, NOW + timedelta(days=1))
    later = schedule.retrievability(card, NOW + timedelta(days=60))
    assert 0 < later < soon <= 1


def test_schedules_are_exact_so_a_replay_gives_the_same_card() -> None:
    """No fuzz: intervals of several days would otherwise move by a random day or two."""
    card = schedule.new_card(NOW)
    exact = {
        Rating.Again: timedelta(minutes=10),
        Rating.Hard: timedelta(minutes=15),
        Rating.Good: timedelta(days=2),
        Rating.Easy: timedelta(days=8),
    }
    assert {r: schedule.due_at(schedule.review(card, r, NOW)) - NOW for r in exact} == exact
    good = schedule.review(card, Rating.Good, NOW)
    then = schedule.due_at(good)
    assert schedule.due_at(schedule.review(good, Rating.Good, then)) - then == timedelta(days=11)


def test_a_missed_point_is_never_easy_however_high_the_score(cache: Question) -> None:
    one_missed = marking_for(cache, ["stores-keys-values"])
    high = one_missed.model_copy(update={"score": 0.95, "verdict": "strong"})
    assert high.missed and rating_for(high) == Rating.Good
    assert rating_for(strong(cache).model_copy(update={"score": 0.95})) == Rating.Easy
