"""Spoken answers: upload or record → check the transcript → mark it; kept recordings.

    POST /practice/{t}/{q}/audio     a recording (multipart) → the "check your transcript" step
    POST /practice/{t}/{q}/spoken    the checked (perhaps edited) text → marking, as typed answers
    GET  /recordings/{id}            a kept recording, to its owner only
    POST /recordings/{id}/delete     delete it (the attempt stays)
    POST /api/v1/questions/{t}/{q}/audio   transcript, marking and delivery as JSON; records nothing

Uploads may be far larger than typed answers, so these routes carry their own body limits
(checked from Content-Length and while streaming, before the body is read) taken from
the settings; that is why the routers are built per app rather than at import time.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict

from viva.bank import Question
from viva.errors import InvalidInput
from viva.marking.result import Marking
from viva.practice import Practice
from viva.settings import Settings
from viva.speech import Delivery, Transcript, hotwords_for, measure_delivery
from viva.web.answers import checked_answer
from viva.web.deps import DB, CurrentUser, RowId, State, verify_csrf
from viva.web.rendering import render
from viva.web.routes.api_models import error_responses
from viva.web.routes.practice import ScopeText, sitting_id
from viva.web.spoken import Heard, encode_audio, heard_from, kept_audio
from viva.web.state import AppState
from viva.web.transcription import mime_of
from viva.web.uploads import TOKEN_ROOM, Upload, upload_limit


async def upload_answer(
    request: Request,
    topic_id: str,
    question_id: str,
    state: State,
    session: DB,
    user: CurrentUser,
    audio: Upload = None,
    keep: Annotated[bool, Form()] = False,
    scope: ScopeText = "",
) -> Response:
    """Transcribe a spoken answer and show it, editable, before it is marked (with a queue:
    put it on the queue and send the browser to the job's page)."""
    question = state.bank.question(f"{topic_id}/{question_id}")
    user_id = user.id
    session.close()  # hand the connection back: the transcriber may keep us waiting a while
    data = await state.transcriber.read(audio)
    if state.transcriber.queue is not None:  # a team server: a worker transcribes; show the job
        job_id = await enqueue(state, user_id, question, data, keep)
        return RedirectResponse(f"/transcriptions/{job_id}" + (f"?scope={scope}" if scope else ""), 303)
    transcript = await state.transcriber.transcribe(data, hotwords_for(question))
    heard = heard_from(question, transcript, data, mime_of(data), keep)
    return check_step(request, state, question, user_id, heard, encode_audio(data) if keep else "", scope)


async def enqueue(state: AppState, user_id: int, question: Question, data: bytes, keep: bool) -> str:
    """Put a recording on the job queue; its id (blocking Redis and database work in a thread)."""
    assert state.transcriber.queue is not None
    return await asyncio.to_thread(
        state.transcriber.queue.submit,
        state.sessions,
        user_id=user_id,
        question_id=question.full_id,
        hotwords=list(hotwords_for(question)),
        audio=data,
        mime=mime_of(data),
        keep=keep,
        now=state.clock(),
    )


def check_step(
    request: Request,
    state: AppState,
    question: Question,
    user_id: int,
    heard: Heard,
    audio: str,
    scope: str,
    answer: str | None = None,
    problem: str = "",
    status_code: int = 200,
) -> HTMLResponse:
    return render(
        request,
        "spoken.html",
        {
            "question": question,
            "parent": state.bank.parent(question),
            "transcript": heard.transcript,
            "answer": heard.transcript.text if answer is None else answer,
            "token": state.heard.sign(user_id, heard),
            "audio": audio,
            "keep": heard.audio_sha256 is not None,
            "scope": scope,
            "problem": problem,
            "max_chars": state.settings.max_answer_chars,
            "nav": "practice",
        },
        status_code=status_code,
    )


def mark_spoken(
    request: Request,
    topic_id: str,
    question_id: str,
    state: State,
    session: DB,
    user: CurrentUser,
    token: Annotated[str, Form()],
    answer: Annotated[str, Form()] = "",
    audio: Annotated[str, Form()] = "",
    scope: ScopeText = "",
) -> Response:
    """Mark the checked transcript and record the attempt with its delivery (POST → redirect)."""
    question = state.bank.question(f"{topic_id}/{question_id}")
    heard = state.heard.open(token, user.id, question.full_id)
    kept = kept_audio(heard, audio)
    try:
        text = checked_answer(answer, state.settings.max_answer_chars)
    except InvalidInput as error:
        if error.status_code == 413:
            raise
        return check_step(request, state, question, user.id, heard, audio, scope, answer, error.message, 422)
    attempt = Practice(session, state.bank, state.marker).answer(
        user,
        question.full_id,
        text,
        state.clock(),
        heard=heard.transcript,
        audio=kept,
        session_id=sitting_id(request),
        once=heard.nonce,
    )
    return RedirectResponse(f"/attempts/{attempt.id}" + (f"?scope={scope}" if scope else ""), status_code=303)


def play_recording(recording_id: RowId, state: State, session: DB, user: CurrentUser) -> Response:
    """A kept recording, to its owner only, never cached by anything in between."""
    recording = Practice(session, state.bank).recording(user, recording_id)
    return Response(
        recording.data,
        media_type=recording.mime,
        headers={"Cache-Control": "private, no-store", "Content-Disposition": "inline"},
    )


def delete_recording(recording_id: RowId, state: State, session: DB, user: CurrentUser) -> Response:
    attempt_id = Practice(session, state.bank).delete_recording(user, recording_id)
    return RedirectResponse(f"/attempts/{attempt_id}#recording", status_code=303)


class SpokenOut(BaseModel):
    model_config = ConfigDict(frozen=True)

    transcript: Transcript
    marking: Marking
    delivery: Delivery


async def transcribe_answer(
    topic_id: str, question_id: str, state: State, session: DB, user: CurrentUser, audio: Upload = None
) -> SpokenOut:
    """Transcribe a spoken answer to a bank question, mark it and measure its delivery.

    Records nothing: to keep the attempt, post the (checked) transcript text to
    ``/api/v1/attempts``. Needs an account, since transcription is the costliest thing Viva does.
    """
    question = state.bank.question(f"{topic_id}/{question_id}")
    user_id = user.id
    session.close()  # hand the connection back before waiting for the transcriber
    data = await state.transcriber.read(audio)
    queue = state.transcriber.queue
    if queue is not None:
        job_id = await enqueue(state, user_id, question, data, keep=False)
        transcript = await queue.wait(state.sessions, user_id, job_id)
    else:
        transcript = await state.transcriber.transcribe(data, hotwords_for(question))
    marking = state.marker.mark(question, transcript.text)
    return SpokenOut(transcript=transcript, marking=marking, delivery=measure_delivery(transcript, marking))


def page_router(settings: Settings) -> APIRouter:
    router = APIRouter(include_in_schema=False, dependencies=[Depends(verify_csrf)])
    router.add_api_route(
        "/practice/{topic_id}/{question_id}/audio",
        upload_answer,
        methods=["POST"],
        response_class=HTMLResponse,
        max_body_size=upload_limit(settings),
    )
    # a kept recording comes back base64-encoded in a form field: a third larger
    kept_chars = settings.max_audio_bytes * 4 // 3 + 4
    router.add_api_route(
        "/practice/{topic_id}/{question_id}/spoken",
        mark_spoken,
        methods=["POST"],
        max_body_size=kept_chars + TOKEN_ROOM + upload_limit(settings) - settings.max_audio_bytes,
        form_limits={"max_part_size": max(kept_chars, TOKEN_ROOM)},
    )
    router.add_api_route("/recordings/{recording_id}", play_recording, methods=["GET"])
    router.add_api_route("/recordings/{recording_id}/delete", delete_recording, methods=["POST"])
    return router


def api_router(settings: Settings) -> APIRouter:
    router = APIRouter(tags=["api"])
    router.add_api_route(
        "/questions/{topic_id}/{question_id}/audio",
        transcribe_answer,
        methods=["POST"],
        response_model=SpokenOut,
        dependencies=[Depends(verify_csrf)],
        max_body_size=upload_limit(settings),
        responses=error_responses(
            {
                401: "not signed in",
                403: "cookie auth without X-CSRF-Token",
                404: "no such question",
                413: "recording over the size or length limit",
                422: "empty, silent, damaged or unsupported recording",
                503: "speech is not installed, too many uploads are waiting, or (on a team server) "
                "the queue is not answering or no worker took the job within 5 minutes",
            }
        ),
    )
    return router
