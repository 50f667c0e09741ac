"""Concurrent first answers to one question: no error, and the card equals a replay."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

from sqlalchemy import Engine, delete

from tests.practice.conftest import NOW
from tests.practice.factories import strong, weak
from viva.bank import Bank
from viva.practice import Practice, local_account, schedule
from viva.store import session_scope
from viva.store.models import User
from viva.store.reviews import review_state

ANSWERS = 8


def test_concurrent_first_answers_all_land_and_schedule_as_a_replay(engine: Engine, bank: Bank) -> None:
    question = next(q for q in bank.questions() if q.parent_id is None)
    name = f"race-{uuid.uuid4().hex[:8]}"
    with session_scope(engine) as session:
        user_id = local_account(session, name, NOW).id
    start = threading.Barrier(ANSWERS)
    errors: list[BaseException] = []

    def answer(i: int) -> None:
        try:
            start.wait()
            with session_scope(engine) as session:
                user = session.get(User, user_id)
                assert user is not None
                marking = strong(question) if i % 2 else weak(question)
                Practice(session, bank).record_attempt(
                    user, question.full_id, "an answer", marking, NOW + timedelta(seconds=i)
                )
        except BaseException as exc:  # collected: a thread's exception would otherwise vanish
            errors.append(exc)

    threads = [threading.Thread(target=answer, args=(i,)) for i in range(ANSWERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    try:
        assert errors == []
        with session_scope(engine) as session:
            user = session.get(User, user_id)
            assert user is not None
            practice = Practice(session, bank)
            assert len(practice.attempts(user)) == ANSWERS
            stored = review_state(session, user_id, question.full_id)
            assert stored is not None
            # the lock makes answers commit one at a time, so ids give the commit order and
            # the stored card must be every answer applied in that order: no update lost
            ordered = sorted(practice.attempts(user), key=lambda a: a.id)
            card = schedule.new_card(ordered[0].answered_at)
            for attempt in ordered:
                card = schedule.review(card, schedule.rating_for(attempt.marking), attempt.answered_at)
            assert stored.card == card
    finally:
        with session_scope(engine) as session:
            session.execute(delete(User).where(User.id == user_id))
