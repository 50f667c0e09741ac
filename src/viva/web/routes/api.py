"""The JSON API under ``/api/v1`` (OpenAPI at ``/api/v1/openapi.json``).

Bank routes and ``POST /mark`` need no account. Per-user routes take an API token
(``Authorization: Bearer …``) or the session cookie; with the cookie, state-changing
requests also need the ``X-CSRF-Token`` header. A user only ever sees their own attempts:
someone else's attempt id is a 404, exactly like one that does not exist.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from viva.marking.result import Marking
from viva.practice import NEW_PER_SITTING, AttemptSummary, Practice, Progress, Scope
from viva.web.answers import checked_answer
from viva.web.deps import DB, CurrentUser, RowId, State, verify_csrf
from viva.web.routes.api_models import (
    AttemptRequest,
    DueOut,
    ErrorOut,
    MarkRequest,
    MeOut,
    NextOut,
    OverrideRequest,
    QuestionOut,
    SectionOut,
    SectionSummary,
    TopicOut,
    error_responses,
)

ERRORS = error_responses(
    {400: "malformed request", 401: "not signed in", 404: "no such id", 422: "invalid input"}
)
router = APIRouter(tags=["api"], responses=ERRORS)
Answers = Annotated[bool, Query(description="include the model answer, points and misconceptions")]


@router.get("/topics", response_model=list[TopicOut])
def topics(state: State) -> list[TopicOut]:
    return [TopicOut.of(t) for t in state.bank.topics]


@router.get("/topics/{topic_id}", response_model=TopicOut)
def topic(topic_id: str, state: State) -> TopicOut:
    return TopicOut.of(state.bank.topic(topic_id))


@router.get("/sections/{topic_id}/{section_id}", response_model=SectionOut)
def section(topic_id: str, section_id: str, state: State, answers: Answers = False) -> SectionOut:
    found = state.bank.topic(topic_id).section(section_id)
    return SectionOut(
        **SectionSummary.of(found).model_dump(),
        lesson=found.lesson,
        related=list(found.related),
        question_list=[QuestionOut.of(q, state.bank.follow_ups(q), answers) for q in found.all_questions()],
    )


@router.get("/questions/{topic_id}/{question_id}", response_model=QuestionOut)
def question(topic_id: str, question_id: str, state: State, answers: Answers = False) -> QuestionOut:
    found = state.bank.question(f"{topic_id}/{question_id}")
    return QuestionOut.of(found, state.bank.follow_ups(found), answers)


@router.post(
    "/mark",
    response_model=Marking,
    responses={413: {"model": ErrorOut, "description": "answer over the size limit"}},
)
def mark_answer(body: MarkRequest, state: State) -> Marking:
    """Mark an answer to a bank question; needs no account and records nothing."""
    found = state.bank.question(body.question_id)
    return state.marker.mark(found, checked_answer(body.answer, state.settings.max_answer_chars))


@router.get("/me", response_model=MeOut)
def me(user: CurrentUser) -> MeOut:
    return MeOut(id=user.id, name=user.name)


@router.get("/attempts", response_model=list[AttemptSummary])
def attempts(
    state: State,
    session: DB,
    user: CurrentUser,
    question_id: Annotated[str | None, Query(max_length=300)] = None,
) -> list[AttemptSummary]:
    """Your attempts, oldest first, optionally for one question."""
    return Practice(session, state.bank).summaries(user, question_id)


@router.post(
    "/attempts",
    response_model=AttemptSummary,
    status_code=201,
    dependencies=[Depends(verify_csrf)],
    responses={
        413: {"model": ErrorOut, "description": "answer over the size limit"},
        403: {"model": ErrorOut, "description": "cookie auth without X-CSRF-Token"},
    },
)
def add_attempt(body: AttemptRequest, state: State, session: DB, user: CurrentUser) -> AttemptSummary:
    """Mark an answer and record it as your attempt; the question is rescheduled."""
    found = state.bank.question(body.question_id)  # an unknown id is a 404 before any 422
    text = checked_answer(body.answer, state.settings.max_answer_chars)
    practice = Practice(session, state.bank, state.marker)
    attempt = practice.answer(
        user, found.full_id, text, state.clock(), duration_ms=body.duration_ms, session_id=body.session_id
    )
    return practice.summary(user, attempt)


@router.get("/attempts/{attempt_id}", response_model=AttemptSummary)
def attempt(attempt_id: RowId, state: State, session: DB, user: CurrentUser) -> AttemptSummary:
    practice = Practice(session, state.bank)
    return practice.summary(user, practice.attempt(user, attempt_id))


@router.post(
    "/attempts/{attempt_id}/override",
    response_model=AttemptSummary,
    dependencies=[Depends(verify_csrf)],
    responses={403: {"model": ErrorOut, "description": "cookie auth without X-CSRF-Token"}},
)
def override(
    attempt_id: RowId, body: OverrideRequest, state: State, session: DB, user: CurrentUser
) -> AttemptSummary:
    """ "I was right" / "I missed it" for one of your attempts; the schedule is rebuilt."""
    practice = Practice(session, state.bank)
    return practice.summary(user, practice.override(user, attempt_id, body.verdict, state.clock()))


@router.get("/due", response_model=list[DueOut])
def due(
    state: State,
    session: DB,
    user: CurrentUser,
    days: Annotated[int, Query(ge=0, le=365, description="look this many days ahead")] = 0,
    scope: Annotated[str, Query(max_length=200)] = "",
) -> list[DueOut]:
    """Your due queue, soonest first."""
    items = Practice(session, state.bank).due(
        user, state.clock(), timedelta(days=days), Scope.parse(state.bank, scope)
    )
    return [DueOut(question_id=i.question.full_id, prompt=i.question.prompt, due=i.due) for i in items]


@router.get("/next", response_model=NextOut)
def next_question(
    state: State,
    session: DB,
    user: CurrentUser,
    scope: Annotated[str, Query(max_length=200)] = "",
    session_id: Annotated[str | None, Query(max_length=64)] = None,
) -> NextOut:
    """The question to ask next (without its answer): a follow-up, a due review, or a new one."""
    chosen = Practice(session, state.bank).next_question(
        user, Scope.parse(state.bank, scope), state.clock(), NEW_PER_SITTING, session_id=session_id
    )
    if chosen is None:
        return NextOut(question=None, reason=None)
    q = chosen.question
    return NextOut(question=QuestionOut.of(q, state.bank.follow_ups(q), False), reason=chosen.reason)


@router.get("/progress", response_model=Progress)
def progress(state: State, session: DB, user: CurrentUser) -> Progress:
    """Mastery per topic and section, reviews due per day for 30 days, weak points, scores."""
    return Practice(session, state.bank).progress(user, state.clock(), days=30, weakest=10)
