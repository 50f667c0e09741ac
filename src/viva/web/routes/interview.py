"""Mock interview pages: choose → question after question (spoken or typed) → the debrief.

    GET  /interview                    choose topics and length; past interviews; weak-point drill
    POST /interview                    start one → its current question
    POST /interview/drill              a drill of given questions, or of the weak points
    GET  /interview/{key}              the question being asked now (or the debrief when done)
    POST /interview/{key}/answer       a typed answer → the next question
    POST /interview/{key}/audio        a recording → "check what was heard" (as in practice)
    POST /interview/{key}/spoken       the checked transcript → the next question
    POST /interview/{key}/finish       leave now; what was answered is kept
    GET  /interview/{key}/debrief      the debrief, printable

Thin: :class:`viva.practice.interviews.Interviews` holds every rule. Nothing during the
interview shows a mark; the routers are built per app for the upload limits.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from viva.errors import InvalidInput
from viva.practice import interview as rules
from viva.practice.interviews import Interviews, MockInterview
from viva.settings import Settings
from viva.speech import hotwords_for
from viva.web.answers import checked_answer
from viva.web.deps import DB, CurrentUser, State, verify_csrf
from viva.web.rendering import render
from viva.web.spoken import heard_from
from viva.web.state import AppState
from viva.web.transcription import mime_of
from viva.web.uploads import TOKEN_ROOM, Upload, upload_limit

HEADINGS = {
    "question": "Question",
    "misconception": "They push further on what you said",
    "missed-point": "They push further on what you left out",
    "generated": "They push further on what you left out",
    "follow-up": "They push further",
}
Key = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$", description="an interview's key")]


def _service(state: AppState, session: DB) -> Interviews:
    return Interviews(session, state.bank, state.marker)


def _to(interview: MockInterview, page: str = "") -> RedirectResponse:
    return RedirectResponse(f"/interview/{interview.key}{page}", status_code=303)


def choose(request: Request, state: State, session: DB, user: CurrentUser, problem: str = "") -> HTMLResponse:
    service = _service(state, session)
    return render(
        request,
        "interview_start.html",
        {
            "topics": state.bank.topics,
            "past": service.past(user),
            "weak": service.weak_question_ids(user),
            "missed_most": service.points_missed_most(user, limit=5),
            "minutes": rules.MINUTES,
            "clock": rules.SOFT_LIMIT_S,
            "problem": problem,
            "nav": "interview",
        },
        status_code=422 if problem else 200,
    )


def start(
    request: Request,
    state: State,
    session: DB,
    user: CurrentUser,
    topic: Annotated[list[str] | None, Form()] = None,
    due: Annotated[bool, Form()] = False,
    minutes: Annotated[int, Form(ge=1, le=180)] = rules.MINUTES,
    questions: Annotated[int | None, Form(ge=1, le=50)] = None,
    clock: Annotated[int, Form(ge=10, le=1800)] = rules.SOFT_LIMIT_S,
) -> Response:
    topic_ids = [t for t in topic or [] if any(t == known.id for known in state.bank.topics)]
    try:
        started = _service(state, session).start(
            user,
            topic_ids,
            state.clock(),
            minutes=minutes,
            questions=questions,
            soft_limit_s=clock,
            due_only=due,
        )
    except InvalidInput as error:
        return choose(request, state, session, user, error.message)
    return _to(started)


def drill(
    request: Request,
    state: State,
    session: DB,
    user: CurrentUser,
    question: Annotated[list[str] | None, Form()] = None,
) -> Response:
    service = _service(state, session)
    try:
        if question:
            started = service.drill(user, question, state.clock())
        else:
            started = service.drill_weak_points(user, state.clock())
    except InvalidInput as error:
        return choose(request, state, session, user, error.message)
    return _to(started)


def asking(request: Request, key: Key, state: State, session: DB, user: CurrentUser) -> Response:
    service = _service(state, session)
    interview = service.get(user, key)
    step = service.step(interview, state.clock())
    if step is None:
        service.finish(interview, state.clock())
        return _to(interview, "/debrief")
    return _ask_page(request, state, interview, step)


def _ask_page(
    request: Request,
    state: AppState,
    interview: MockInterview,
    step: rules.Step,
    answer: str = "",
    problem: str = "",
) -> HTMLResponse:
    return render(
        request,
        "interview_ask.html",
        {
            "interview": interview,
            "step": step,
            "heading": HEADINGS[step.kind],
            "answer": answer,
            "problem": problem,
            "max_chars": state.settings.max_answer_chars,
            "nav": "interview",
        },
        status_code=422 if problem else 200,
    )


def answer_typed(
    request: Request,
    key: Key,
    state: State,
    session: DB,
    user: CurrentUser,
    question_id: Annotated[str, Form(max_length=300)],
    answer: Annotated[str, Form()] = "",
) -> Response:
    service = _service(state, session)
    interview = service.get(user, key)
    step = service.step(interview, state.clock())
    if step is None:
        return _to(interview, "/debrief")
    try:
        text = checked_answer(answer, state.settings.max_answer_chars)
    except InvalidInput as error:
        if error.status_code == 413:
            raise
        return _ask_page(request, state, interview, step, answer, error.message)
    service.answer(user, interview, question_id, text, state.clock())
    return _to(interview)


async def upload(
    request: Request, key: Key, state: State, session: DB, user: CurrentUser, audio: Upload = None
) -> HTMLResponse:
    """Transcribe the spoken answer and show it, editable, before it is given."""
    service = _service(state, session)
    interview = service.get(user, key)
    step = service.step(interview, state.clock())
    if step is None:
        raise InvalidInput("this interview has finished", hint="open its debrief")
    user_id, question = user.id, step.question
    session.close()  # hand the connection back while the transcriber works
    data = await state.transcriber.read(audio)
    transcript = await state.transcriber.transcribe(data, hotwords_for(question))
    heard = heard_from(question, transcript, data, mime_of(data), keep=False)
    return render(
        request,
        "interview_check.html",
        {
            "key": key,
            "question": question,
            "transcript": transcript,
            "token": state.heard.sign(user_id, heard),
            "max_chars": state.settings.max_answer_chars,
            "nav": "interview",
        },
    )


def answer_spoken(
    key: Key,
    state: State,
    session: DB,
    user: CurrentUser,
    question_id: Annotated[str, Form(max_length=300)],
    token: Annotated[str, Form()],
    answer: Annotated[str, Form()] = "",
) -> Response:
    service = _service(state, session)
    interview = service.get(user, key)
    heard = state.heard.open(token, user.id, question_id)
    text = checked_answer(answer, state.settings.max_answer_chars)
    service.answer(user, interview, question_id, text, state.clock(), heard=heard.transcript)
    return _to(interview)


def finish(key: Key, state: State, session: DB, user: CurrentUser) -> Response:
    service = _service(state, session)
    interview = service.get(user, key)
    service.finish(interview, state.clock())
    return _to(interview, "/debrief")


def debrief_page(request: Request, key: Key, state: State, session: DB, user: CurrentUser) -> HTMLResponse:
    """Every answer with its marking, then readiness and what to practise next; prints cleanly."""
    service = _service(state, session)
    interview = service.get(user, key)
    return render(
        request,
        "interview_debrief.html",
        {
            "interview": interview,
            "debrief": service.debrief(user, interview),
            "missed_most": service.points_missed_most(user, limit=5),
            "headings": HEADINGS,
            "nav": "interview",
        },
    )


def router_for(settings: Settings) -> APIRouter:
    router = APIRouter(include_in_schema=False, dependencies=[Depends(verify_csrf)])
    router.add_api_route("/interview", choose, methods=["GET"], response_class=HTMLResponse)
    router.add_api_route("/interview", start, methods=["POST"])
    router.add_api_route("/interview/drill", drill, methods=["POST"])
    router.add_api_route("/interview/{key}", asking, methods=["GET"])
    router.add_api_route("/interview/{key}/answer", answer_typed, methods=["POST"])
    router.add_api_route(
        "/interview/{key}/audio",
        upload,
        methods=["POST"],
        response_class=HTMLResponse,
        max_body_size=upload_limit(settings),
    )
    router.add_api_route(
        "/interview/{key}/spoken",
        answer_spoken,
        methods=["POST"],
        max_body_size=TOKEN_ROOM + upload_limit(settings) - settings.max_audio_bytes,
        form_limits={"max_part_size": TOKEN_ROOM},
    )
    router.add_api_route("/interview/{key}/finish", finish, methods=["POST"])
    router.add_api_route(
        "/interview/{key}/debrief", debrief_page, methods=["GET"], response_class=HTMLResponse
    )
    return router
