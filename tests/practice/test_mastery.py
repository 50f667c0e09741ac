"""Mastery per section and topic, and the weakest marking points."""

from __future__ import annotations

from datetime import timedelta

from tests.practice.conftest import NOW
from tests.practice.factories import marking_for, strong, weak
from viva.bank import Bank
from viva.practice import Practice
from viva.practice.accounts import Account


def test_nothing_answered_is_zero_mastery(practice: Practice, user: Account) -> None:
    topics = practice.mastery(user, NOW)
    assert [t.id for t in topics] == ["study", "later"]
    study = topics[0]
    assert [s.id for s in study.sections] == ["study/first", "study/second"]
    assert study.questions == 5 and study.attempted == 0 and study.mastery == 0.0


def test_mastery_rises_with_coverage_and_fades_with_time(
    practice: Practice, bank: Bank, user: Account
) -> None:
    practice.record_attempt(user, "study/clip", "a", strong(bank.question("study/clip")), NOW)
    now = practice.mastery(user, NOW + timedelta(hours=1))[0]
    second = now.sections[1]
    assert second.attempted == 1 and second.coverage == 1.0
    assert 0.9 < second.mastery <= 1.0
    assert now.mastery == second.mastery / 5
    months_later = practice.mastery(user, NOW + timedelta(days=120))[0].sections[1]
    assert months_later.mastery < second.mastery
    assert months_later.retrievability < second.retrievability


def test_override_counts_in_coverage(practice: Practice, bank: Bank, user: Account) -> None:
    attempt = practice.record_attempt(user, "study/clip", "a", weak(bank.question("study/clip")), NOW)
    assert practice.mastery(user, NOW)[0].sections[1].coverage == 0.0
    practice.override(user, attempt.id, "right", NOW)
    assert practice.mastery(user, NOW)[0].sections[1].coverage == 1.0


def test_weakest_points(practice: Practice, bank: Bank, user: Account) -> None:
    cache, norm = bank.question("study/cache"), bank.question("study/norm")
    practice.record_attempt(user, "study/cache", "a", marking_for(cache, ["new-token-only"]), NOW)
    practice.record_attempt(user, "study/cache", "b", marking_for(cache, ["new-token-only"]), NOW)
    practice.record_attempt(user, "study/norm", "c", marking_for(norm, ["learned-gain"]), NOW)
    practice.record_attempt(user, "study/clip", "d", strong(bank.question("study/clip")), NOW)
    weakest = practice.weakest_points(user, limit=5)
    assert [(w.question_id, w.point_id) for w in weakest] == [
        ("study/cache", "stores-keys-values"),
        ("study/norm", "zero-mean-unit-variance"),
    ]
    assert weakest[0].attempts == 2 and weakest[0].coverage == 0.0
    assert weakest[0].text.startswith("The cache stores")
    assert practice.weakest_points(user, limit=1) == weakest[:1]
