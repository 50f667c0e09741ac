"""Test yourself: the question alone → an answer → the marking → the follow-up → the next one.

The flow is plain links and forms (it works without JavaScript; htmx boosts them). The
practice scope travels in the ``scope`` query string, and the sitting (the follow-up and
new-question limits are per sitting) is an id in the signed session cookie, so any worker
can serve any step.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from viva.bank import Question
from viva.domain import Override
from viva.errors import InvalidInput
from viva.marking.explain import score_reasons, weight_label
from viva.practice import NEW_PER_SITTING, Practice, Scope
from viva.practice.accounts import Account
from viva.speech import Delivery
from viva.web.answers import checked_answer
from viva.web.deps import DB, CurrentUser, RowId, State, verify_csrf
from viva.web.feedback import LABEL, SYMBOL, evidence_of, highlight, quotes
from viva.web.rendering import render
from viva.web.state import AppState

router = APIRouter(include_in_schema=False, dependencies=[Depends(verify_csrf)])

SKIPS_KEPT = 20
"""Skipped questions remembered per sitting (they live in the session cookie, which is small)."""

ScopeText = Annotated[str, Query(max_length=200, pattern=r"^[a-z0-9/-]*$")]
SkipText = Annotated[str, Query(max_length=200, pattern=r"^[a-z0-9/-]*$")]


def sitting_id(request: Request, fresh: bool = False) -> str:
    sitting = request.session.get("sitting")
    if fresh or not isinstance(sitting, str):
        sitting = secrets.token_hex(8)
        request.session["sitting"] = sitting
    return sitting


def _question_url(question: Question, scope: str) -> str:
    return f"/practice/{question.topic_id}/{question.id}" + (f"?scope={scope}" if scope else "")


@router.get("/practice")
def start(request: Request, state: State, session: DB, user: CurrentUser, scope: ScopeText = "") -> Response:
    """ "Test yourself": a new sitting over ``scope``, starting with the next due question."""
    sitting_id(request, fresh=True)
    return next_question(request, state, session, user, scope)


def skipped_in_sitting(request: Request, sitting: str, skip: str = "") -> list[str]:
    """The questions skipped in this sitting, oldest first, after adding ``skip`` if given.

    Kept in the signed session next to the sitting id they belong to, so a new sitting
    ("Test yourself" again) starts with none, and at most :data:`SKIPS_KEPT` of them.
    """
    stored = request.session.get("skipped")
    ids: list[str] = []
    if isinstance(stored, dict) and stored.get("sitting") == sitting and isinstance(stored.get("ids"), list):
        ids = [i for i in stored["ids"] if isinstance(i, str)]
    if skip and skip not in ids:
        ids = [*ids, skip][-SKIPS_KEPT:]
        request.session["skipped"] = {"sitting": sitting, "ids": ids}
    return ids


@router.get("/practice/next")
def next_question(
    request: Request,
    state: State,
    session: DB,
    user: CurrentUser,
    scope: ScopeText = "",
    skip: SkipText = "",
) -> Response:
    """The next question of the sitting; ``skip`` names one passed over ("Skip for now"),
    which then stays away for the rest of the sitting."""
    sitting = sitting_id(request)
    if skip and not state.bank.has_question(skip):
        skip = ""
    skipped = skipped_in_sitting(request, sitting, skip)
    chosen = Practice(session, state.bank).next_question(
        user,
        Scope.parse(state.bank, scope),
        state.clock(),
        NEW_PER_SITTING,
        session_id=sitting,
        exclude=skipped,
    )
    if chosen is None:
        due = Practice(session, state.bank).due(user, state.clock(), scope=Scope.parse(state.bank, scope))
        return render(
            request,
            "practice_done.html",
            {"scope": scope, "due": due, "skipped": len(skipped), "nav": "practice"},
        )
    return RedirectResponse(_question_url(chosen.question, scope), status_code=303)


@router.get("/practice/{topic_id}/{question_id}", response_class=HTMLResponse)
def question_page(
    request: Request, topic_id: str, question_id: str, state: State, user: CurrentUser, scope: ScopeText = ""
) -> HTMLResponse:
    """The question alone, and a box for the answer; nothing that gives the answer away."""
    question = state.bank.question(f"{topic_id}/{question_id}")
    return _question_form(request, state, question, scope)


def _question_form(
    request: Request,
    state: State,
    question: Question,
    scope: str,
    answer: str = "",
    problem: str = "",
    status_code: int = 200,
) -> HTMLResponse:
    parent = state.bank.parent(question)
    return render(
        request,
        "question.html",
        {
            "question": question,
            "parent": parent,
            "section": state.bank.section(f"{question.topic_id}/{question.section_id}"),
            "scope": scope,
            "answer": answer,
            "problem": problem,
            "max_chars": state.settings.max_answer_chars,
            "nav": "practice",
        },
        status_code=status_code,
    )


@router.post("/practice/{topic_id}/{question_id}")
def answer_question(
    request: Request,
    topic_id: str,
    question_id: str,
    state: State,
    session: DB,
    user: CurrentUser,
    answer: Annotated[str, Form()] = "",
    scope: ScopeText = "",
) -> Response:
    """Mark the answer, record the attempt, and go to the marking (POST → redirect → GET)."""
    question = state.bank.question(f"{topic_id}/{question_id}")
    try:
        text = checked_answer(answer, state.settings.max_answer_chars)
    except InvalidInput as error:
        if error.status_code == 413:
            raise
        return _question_form(request, state, question, scope, answer, error.message, status_code=422)
    attempt = Practice(session, state.bank, state.marker).answer(
        user, question.full_id, text, state.clock(), session_id=sitting_id(request)
    )
    target = f"/attempts/{attempt.id}" + (f"?scope={scope}" if scope else "")
    return RedirectResponse(target, status_code=303)


@router.get("/attempts/{attempt_id}", response_class=HTMLResponse)
def attempt_page(
    request: Request, attempt_id: RowId, state: State, session: DB, user: CurrentUser, scope: ScopeText = ""
) -> HTMLResponse:
    """The marking: each point ✓ / ~ / ✗ with its evidence highlighted in the answer."""
    return render(request, "attempt.html", _attempt_context(request, state, session, user, attempt_id, scope))


def _attempt_context(
    request: Request, state: State, session: DB, user: Account, attempt_id: RowId, scope: str
) -> dict[str, object]:
    practice = Practice(session, state.bank)
    attempt = practice.attempt(user, attempt_id)
    marking = attempt.marking
    question = state.bank.question(attempt.question_id)
    follow_up = practice.follow_up_for(attempt)
    delivery = Delivery.model_validate(attempt.delivery) if attempt.delivery else None
    return {
        "attempt": attempt,
        "delivery": delivery,
        "guidance": {g.measure: g for g in delivery.guidance} if delivery else {},
        "heard": attempt.transcript.get("text") if attempt.transcript else None,
        "recordings": practice.recordings(user, attempt.id),
        "marking": marking,
        "question": question,
        "pieces": highlight(attempt.answer_text, evidence_of(marking)),
        "quotes": [quotes(attempt.answer_text, p.evidence) for p in marking.points],
        "wrong_quotes": [quotes(attempt.answer_text, m.evidence) for m in marking.misconceptions],
        "lesson": practice.lesson_for(question, marking),
        "follow_up": follow_up,
        "parent": state.bank.parent(question),
        "instead": _instead(state, marking.answers_instead),
        "scope": scope,
        "symbol": SYMBOL,
        "label": LABEL,
        "reasons": score_reasons(marking),
        "weight_label": weight_label,
        "max_chars": state.settings.max_answer_chars,
        "nav": "practice",
    }


def _instead(state: AppState, full_id: str | None) -> Question | None:
    """The question an answer was marked as answering instead, if the bank still has it."""
    return state.bank.question(full_id) if full_id and state.bank.has_question(full_id) else None


@router.post("/attempts/{attempt_id}/override")
def override(
    request: Request,
    attempt_id: RowId,
    state: State,
    session: DB,
    user: CurrentUser,
    verdict: Annotated[Override | Literal["clear"], Form()],
    scope: ScopeText = "",
) -> Response:
    """ "I was right" / "I missed it": the candidate overrules the marker; the schedule follows."""
    Practice(session, state.bank).override(
        user, attempt_id, None if verdict == "clear" else verdict, state.clock()
    )
    target = f"/attempts/{attempt_id}" + (f"?scope={scope}" if scope else "") + "#override"
    return RedirectResponse(target, status_code=303)
