"""Export and import: a lossless, idempotent round trip of attempts and review states."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy.orm import Session

from tests.practice.conftest import NOW
from tests.practice.factories import marking_for, strong, weak
from viva.bank import Bank
from viva.errors import InvalidInput
from viva.practice import Practice, get_or_create_user
from viva.store import User


def _history(practice: Practice, bank: Bank, user: User) -> None:
    cache = bank.question("study/cache")
    first = practice.record_attempt(
        user, "study/cache", "first", weak(cache), NOW, duration_ms=1000, transcript={"text": "first"}
    )
    practice.override(user, first.id, "right", NOW + timedelta(seconds=5))
    practice.record_attempt(
        user,
        "study/cache",
        "second",
        marking_for(cache, ["stores-keys-values"], misconception=True),
        NOW + timedelta(days=2),
        delivery={"wpm": 140.5, "fillers": 2},
        session_id="abc",
    )
    practice.record_attempt(user, "later/warmup", "third", strong(bank.question("later/warmup")), NOW)


def test_round_trip_is_lossless(practice: Practice, bank: Bank, user: User, db: Session) -> None:
    _history(practice, bank, user)
    exported = practice.export_history(user)
    text = json.dumps(exported)
    assert exported["format"] == "viva-history" and exported["version"] == 1

    report = practice.import_history(json.loads(text), as_user="copy")
    assert report.attempts_added == 3 and report.attempts_skipped == 0 and report.review_states == 2
    copy = get_or_create_user(db, "copy", NOW)
    db.expire_all()
    again = practice.export_history(copy)
    again["users"][0]["name"] = user.name
    assert again == exported


def test_import_is_idempotent(practice: Practice, bank: Bank, user: User) -> None:
    _history(practice, bank, user)
    exported = practice.export_history(user)
    report = practice.import_history(exported)
    assert report.users == ["ada"] and report.attempts_added == 0 and report.attempts_skipped == 3
    assert len(practice.attempts(user)) == 3


def test_imported_states_keep_scheduling(practice: Practice, bank: Bank, user: User, db: Session) -> None:
    _history(practice, bank, user)
    practice.import_history(practice.export_history(user), as_user="copy")
    copy = get_or_create_user(db, "copy", NOW)
    original = practice.review_state(user, "study/cache")
    imported = practice.review_state(copy, "study/cache")
    assert original is not None and imported is not None
    assert (imported.due, imported.card) == (original.due, original.card)


def test_bad_files_are_refused_with_a_clear_message(practice: Practice) -> None:
    with pytest.raises(InvalidInput, match="not a viva history file"):
        practice.import_history({"format": "something-else", "users": []})
    with pytest.raises(InvalidInput, match=r"users\.0\.attempts"):
        practice.import_history(
            {"format": "viva-history", "version": 1, "users": [{"name": "x", "created_at": NOW.isoformat()}]}
        )
