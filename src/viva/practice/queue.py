"""What comes next: the due queue and the choice of the next question.

Order, and why:

1. **the follow-up** of the question just answered in this session ("then they push
   further"), because an interviewer pushes on the answer you just gave; a due review
   slipped in between would break the thread;
2. **due reviews**, most overdue first, because they are about to be forgotten;
3. **new questions** in learning order (topic order, then section by section), at most
   ``new_limit`` introduced per session.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy.orm import Session

from viva.bank import Bank, Question
from viva.domain import Override
from viva.practice.accounts import Account
from viva.practice.follow_ups import choose_follow_up
from viva.practice.records import AttemptRecord
from viva.practice.scope import Scope
from viva.store import attempts as attempt_repo
from viva.store import reviews as review_repo
from viva.store.models import Attempt

Reason = Literal["follow-up", "due", "new"]

NEW_PER_SITTING = 10
"""New (never answered) questions introduced per sitting, on the web and in the terminal alike,
before only reviews and follow-ups remain."""

FOLLOW_UP_WINDOW = timedelta(minutes=30)
"""Without a session id, a follow-up is offered only this soon after its parent's answer."""


@dataclass(frozen=True, slots=True)
class NextQuestion:
    question: Question
    reason: Reason
    due: datetime | None = None
    """When it fell due (reason ``due``)."""
    follows: Question | None = None
    """The question it pushes further on (reason ``follow-up``)."""


@dataclass(frozen=True, slots=True)
class DueItem:
    question: Question
    due: datetime


EVERYTHING = Scope()


def due_items(
    session: Session, bank: Bank, user: Account, until: datetime, scope: Scope = EVERYTHING
) -> list[DueItem]:
    """Questions of ``scope`` due by ``until``, soonest first; ids no longer in the bank are skipped."""
    items = []
    for state in review_repo.review_states(session, user.id, due_before=until):
        if bank.has_question(state.question_id):
            question = bank.question(state.question_id)
            if scope.contains(question):
                items.append(DueItem(question, state.due))
    return items


def next_question(
    session: Session,
    bank: Bank,
    user: Account,
    scope: Scope,
    now: datetime,
    new_limit: int,
    *,
    session_id: str | None = None,
    exclude: Collection[str] = (),
) -> NextQuestion | None:
    """The next question for ``user``, or None when nothing is due and no new one is allowed.

    ``exclude`` holds ids the caller wants to pass over this time (e.g. skipped ones).
    """
    follow_up = _follow_up(session, bank, user, now, session_id, exclude)
    if follow_up is not None:
        return follow_up
    for item in due_items(session, bank, user, now, scope):
        if item.question.full_id not in exclude:
            return NextQuestion(item.question, "due", due=item.due)
    if new_limit <= 0:
        return None
    answered = attempt_repo.answered_question_ids(session, user.id)
    if session_id is not None:
        introduced = attempt_repo.first_answered_in_session(session, user.id, session_id)
        top_level = [q for q in introduced if bank.has_question(q) and bank.question(q).parent_id is None]
        if len(top_level) >= new_limit:
            return None
    known = answered | {s.question_id for s in review_repo.review_states(session, user.id)}
    for question in scope.new_questions(bank):
        if question.full_id not in known and question.full_id not in exclude:
            return NextQuestion(question, "new")
    return None


def _follow_up(
    session: Session,
    bank: Bank,
    user: Account,
    now: datetime,
    session_id: str | None,
    exclude: Collection[str],
) -> NextQuestion | None:
    last = attempt_repo.latest_attempt(session, user.id, session_id)
    if last is None or not bank.has_question(last.question_id):
        return None
    if session_id is None and now - last.answered_at > FOLLOW_UP_WINDOW:
        return None
    # Push further once per sitting: a follow-up already answered in it is not asked again.
    recent = attempt_repo.attempts_for_user(
        session, user.id, session_id=session_id, since=None if session_id else now - FOLLOW_UP_WINDOW
    )
    skip = {a.question_id for a in recent} | set(exclude)
    chosen = follow_up_of(session, bank, last, exclude=skip)
    return (
        None if chosen is None else NextQuestion(chosen, "follow-up", follows=bank.question(last.question_id))
    )


def follow_up_of(
    session: Session, bank: Bank, attempt: Attempt | AttemptRecord, exclude: Collection[str] = ()
) -> Question | None:
    """The follow-up to push with after ``attempt``: the candidate's own verdict wins over the
    marker's, and follow-ups they have never answered come first (see
    :func:`~viva.practice.follow_ups.choose_follow_up`). None if there is none, or the
    question has left the bank."""
    if not bank.has_question(attempt.question_id):
        return None
    answered = attempt_repo.answered_question_ids(session, attempt.user_id)
    override: Override | None = "right" if attempt.override == "right" else None
    return choose_follow_up(
        bank,
        bank.question(attempt.question_id),
        attempt.marking,
        override=override,
        answered=answered,
        exclude=exclude,
    )
