"""Export and import: a lossless, idempotent round trip of attempts and review states."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tests.practice.conftest import NOW
from tests.practice.factories import marking_for, strong, weak
from viva.bank import Bank
from viva.errors import InvalidInput
from viva.practice import Practice, local_account
from viva.practice.accounts import Account
from viva.store import User


def _history(practice: Practice, bank: Bank, user: Account) -> None:
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


def test_round_trip_is_lossless(practice: Practice, bank: Bank, user: Account, db: Session) -> None:
    _history(practice, bank, user)
    exported = practice.export_history(user)
    text = json.dumps(exported)
    assert exported["format"] == "viva-history" and exported["version"] == 1

    report = practice.import_history(json.loads(text), as_user="copy")
    assert report.attempts_added == 3 and report.attempts_skipped == 0 and report.review_states == 2
    copy = local_account(db, "copy", NOW)
    db.expire_all()
    again = practice.export_history(copy)
    again["users"][0]["name"] = user.name
    assert again == exported


def _memory(db: Session, user: Account) -> list[tuple[object, ...]]:
    from viva.store.interviews import point_memory

    fields = ("question_id", "point_id", "core", "times_covered", "times_missed")
    seen = ("last_covered_at", "last_missed_at")
    return [tuple(getattr(r, name) for name in fields + seen) for r in point_memory(db, user.id)]


def test_import_rebuilds_what_a_mock_interview_presses_on(
    practice: Practice, bank: Bank, user: Account, db: Session
) -> None:
    """Point memory is not in the file: it is rebuilt from the imported markings, equal to
    what answering built in the source account, and a repeated import counts nothing twice."""
    _history(practice, bank, user)
    source = _memory(db, user)
    assert source and any(row[3] for row in source) and any(row[4] for row in source)
    exported = practice.export_history(user)
    practice.import_history(copy.deepcopy(exported), as_user="copy")
    twin = local_account(db, "copy", NOW)
    assert _memory(db, twin) == source
    practice.import_history(exported, as_user="copy")
    assert _memory(db, twin) == source


def test_import_is_idempotent(practice: Practice, bank: Bank, user: Account) -> None:
    _history(practice, bank, user)
    exported = practice.export_history(user)
    report = practice.import_history(exported, as_user="ada")
    assert report.users == ["ada"] and report.attempts_added == 0 and report.attempts_skipped == 3
    assert len(practice.attempts(user)) == 3


def test_imported_states_keep_scheduling(practice: Practice, bank: Bank, user: Account, db: Session) -> None:
    _history(practice, bank, user)
    practice.import_history(practice.export_history(user), as_user="copy")
    copy = local_account(db, "copy", NOW)
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


def test_export_writes_what_the_database_holds(practice: Practice, bank: Bank, user: Account) -> None:
    """Compared with a record written by hand, not with another export."""
    _history(practice, bank, user)
    [first, *_] = practice.export_history(user)["users"][0]["attempts"]
    assert {k: first[k] for k in ("question_id", "answer_text", "duration_ms", "transcript")} == {
        "question_id": "study/cache",
        "answer_text": "first",
        "duration_ms": 1000,
        "transcript": {"text": "first"},
    }
    assert (first["verdict"], first["override"]) == ("weak", "right")
    assert datetime.fromisoformat(first["overridden_at"]) == NOW + timedelta(seconds=5)


def _broken(exported: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = copy.deepcopy(exported)
    change(data["users"][0])
    return data


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(user: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = user
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        target[last] = value

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set("review_states.0.card", {}), r"review_states\.0\.card\.card_id"),
        (_set("attempts.0.score", 7), r"attempts\.0\.score"),
        (_set("attempts.0.score", float("inf")), r"attempts\.0\.score"),
        (_set("attempts.0.score", float("nan")), r"attempts\.0\.score"),
        (_set("attempts.0.verdict", "pwned"), r"attempts\.0\.verdict"),
        (_set("attempts.1.backend", "b" * 101), r"attempts\.1\.backend"),
        (_set("attempts.0.answer_text", "nul\x00here"), r"attempts\.0\.answer_text: text with a NUL"),
        (_set("review_states.0.card.stability", -1.0), r"review_states\.0\.card\.stability"),
        (
            _set("attempts.2.question_id", "later/gone"),
            r"1 question\(s\) this bank does not have: later/gone",
        ),
    ],
)
def test_a_bad_record_refuses_the_whole_file_and_writes_nothing(
    practice: Practice,
    bank: Bank,
    user: Account,
    db: Session,
    change: Callable[[dict[str, Any]], None],
    message: str,
) -> None:
    _history(practice, bank, user)
    data = _broken(practice.export_history(user), change)
    with pytest.raises(InvalidInput, match=message):
        practice.import_history(data, as_user="fresh")
    assert db.scalar(select(func.count()).select_from(User).where(User.name == "fresh")) == 0


def test_a_file_naming_an_existing_candidate_needs_an_explicit_user(
    practice: Practice, bank: Bank, user: Account
) -> None:
    _history(practice, bank, user)
    exported = practice.export_history(user)
    with pytest.raises(InvalidInput, match="'ada' already exists") as refused:
        practice.import_history(exported)
    assert "--user ada" in (refused.value.hint or "")
