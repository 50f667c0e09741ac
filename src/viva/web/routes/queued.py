"""A spoken answer on the job queue (team servers): its page, its status, and health checks.

    GET /transcriptions/{id}              waiting (state, place in the queue, progress), then
                                          the "check your transcript" step, or why it failed
    GET /api/v1/transcriptions/{id}       the same state as JSON, for polling (viva.js) and API clients
    GET /healthz                          the process is up
    GET /readyz                           the database answers; with a queue, Redis too and at
                                          least one worker was seen recently

The page works without JavaScript (it refreshes itself every two seconds); viva.js polls the
JSON instead and swaps the check step in when the transcript is ready.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from viva.errors import NotFound
from viva.jobqueue import JobQueue, JobStatus
from viva.practice.units import database_status
from viva.web.deps import CurrentUser, State
from viva.web.rendering import render
from viva.web.routes.api_models import error_responses
from viva.web.routes.practice import ScopeText
from viva.web.routes.speech import check_step
from viva.web.spoken import encode_audio, heard_from
from viva.web.state import AppState

REFRESH_S = 2


def _queue(state: AppState) -> JobQueue:
    if state.transcriber.queue is None:
        raise NotFound("no such transcription", hint="this server transcribes without a queue")
    return state.transcriber.queue


async def transcription_page(
    request: Request, job_id: str, state: State, user: CurrentUser, scope: ScopeText = ""
) -> Response:
    """Where the job stands; once transcribed, the check step itself."""
    queue = _queue(state)
    job = await asyncio.to_thread(queue.queued_answer, state.sessions, user.id, job_id)
    question = state.bank.question(job.question_id)
    if job.status.state == "done" and job.transcript is not None:
        keep = job.keep and bool(job.audio)
        heard = heard_from(question, job.transcript, job.audio, job.mime, keep, nonce=f"job-{job_id}")
        audio = encode_audio(job.audio) if keep else ""
        return check_step(request, state, question, user.id, heard, audio, scope)
    settled = job.status.state == "failed"
    return render(
        request,
        "transcribing.html",
        {
            "question": question,
            "job_id": job_id,
            "job": job.status,
            "scope": scope,
            "nav": "practice",
        },
        headers={} if settled else {"Refresh": str(REFRESH_S), "Cache-Control": "no-store"},
    )


async def transcription_status(job_id: str, state: State, user: CurrentUser) -> JobStatus:
    """The state of one of your queued transcriptions: queued (with its place), running (with
    the share done), done or failed (with the reason)."""
    queue = _queue(state)
    return await asyncio.to_thread(queue.status_for, state.sessions, user.id, job_id)


def _ready(state: AppState) -> tuple[bool, dict[str, Any]]:
    checks: dict[str, Any] = {"database": database_status(state.sessions)}
    queue = state.transcriber.queue
    if queue is not None:
        try:
            queue.ping()
            checks["redis"] = "ok"
            seen = queue.workers_seen(2 * state.settings.queue_lease_seconds)
            checks["workers"] = seen
        except Exception as exc:
            checks["redis"] = f"failing: {type(exc).__name__}"
            checks["workers"] = 0
    queue_ok = queue is None or (checks["redis"] == "ok" and checks["workers"] > 0)
    ready = checks["database"] == "ok" and queue_ok
    return ready, checks


async def healthz() -> dict[str, str]:
    """The process is up (nothing else is checked)."""
    return {"status": "ok"}


async def readyz(state: State) -> JSONResponse:
    """Ready for traffic: 200, or 503 naming what is failing."""
    ready, checks = await asyncio.to_thread(_ready, state)
    return JSONResponse(
        {"status": "ready" if ready else "not ready", "checks": checks},
        status_code=200 if ready else 503,
        headers={"Cache-Control": "no-store"},
    )


page_router = APIRouter(include_in_schema=False)
page_router.add_api_route("/transcriptions/{job_id}", transcription_page, methods=["GET"])
page_router.add_api_route("/healthz", healthz, methods=["GET"])
page_router.add_api_route("/readyz", readyz, methods=["GET"])

api_router = APIRouter(tags=["api"])
api_router.add_api_route(
    "/transcriptions/{job_id}",
    transcription_status,
    methods=["GET"],
    response_model=JobStatus,
    responses=error_responses({401: "not signed in", 404: "no such transcription, or no queue"}),
)
