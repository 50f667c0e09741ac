"""Transcription jobs in the database: the hand-over between web and queue workers.

A web worker adds a job (the recording and what the recogniser needs), commits, and only
then puts the job's id on the Redis queue; a queue worker on any machine reads the job
here, writes the transcript or the reason there is none, and commits. Nothing here
commits: callers decide the transaction. Someone else's job is :class:`NotFound`, exactly
as one that does not exist.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import Session

from viva.errors import NotFound
from viva.store.models import TranscriptionJob

QUEUED, DONE, FAILED = "queued", "done", "failed"


def add_transcription_job(
    session: Session,
    *,
    user_id: int,
    question_id: str,
    hotwords: Sequence[str],
    audio: bytes,
    mime: str,
    keep: bool,
    now: datetime,
) -> TranscriptionJob:
    job = TranscriptionJob(
        id=secrets.token_urlsafe(16),
        user_id=user_id,
        question_id=question_id,
        hotwords=list(hotwords),
        audio=audio,
        mime=mime,
        keep=keep,
        state=QUEUED,
        created_at=now,
    )
    session.add(job)
    session.flush()
    return job


def transcription_job(session: Session, job_id: str) -> TranscriptionJob | None:
    return session.get(TranscriptionJob, job_id)


def transcription_job_for_user(session: Session, user_id: int, job_id: str) -> TranscriptionJob:
    job = session.get(TranscriptionJob, job_id)
    if job is None or job.user_id != user_id:
        raise NotFound("no such transcription", hint="it may have expired; record the answer again")
    return job


def finish_transcription_job(job: TranscriptionJob, transcript: dict[str, Any], now: datetime) -> None:
    """Keep the transcript; drop the audio unless the candidate asked to keep it."""
    job.state = DONE
    job.transcript = transcript
    job.error = None
    job.finished_at = now
    if not job.keep:
        job.audio = b""


def fail_transcription_job(job: TranscriptionJob, reason: str, now: datetime) -> None:
    job.state = FAILED
    job.error = reason
    job.finished_at = now
    job.audio = b""


def purge_transcription_jobs(session: Session, older_than: datetime) -> int:
    """Delete jobs created before ``older_than`` (their transcripts can no longer be marked)."""
    result = session.execute(delete(TranscriptionJob).where(TranscriptionJob.created_at < older_than))
    return int(getattr(result, "rowcount", 0) or 0)
