"""The web side of the job queue: put a recording on it, and say where a job stands."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Literal

from sqlalchemy.orm import Session, sessionmaker

from viva.errors import InvalidInput, NotFound, Unavailable
from viva.settings import Settings
from viva.speech.transcript import Transcript
from viva.store.db import session_scope
from viva.store.models import TranscriptionJob
from viva.store.transcriptions import (
    DONE,
    FAILED,
    add_transcription_job,
    purge_transcription_jobs,
    transcription_job_for_user,
)

if TYPE_CHECKING:
    from redis import Redis
    from rq import Queue

TASK = "viva.jobqueue.tasks.transcribe"
KEEP_JOBS = timedelta(hours=12)
"""How long a job's row lives: as long as a signed transcript may wait to be marked."""
INSTALL_HINT = "pip install 'viva[queue]'"
MAX_WAIT_S = 300.0
"""How long the JSON API holds a request open for a queued transcript."""

State = Literal["queued", "running", "done", "failed"]


@dataclass(frozen=True)
class JobStatus:
    """Where one job stands, as its page shows it and ``GET /api/v1/transcriptions/{id}`` returns it."""

    id: str
    state: State
    position: int = 0
    """1 for the next job a worker takes, 2 after that…; 0 unless queued."""
    progress: float = 0.0
    attempt: int = 1
    tries: int = 1
    error: str | None = None


@dataclass(frozen=True)
class QueuedAnswer:
    """One of a candidate's queued recordings, as its page needs it: where the job stands,
    the question, the transcript once there is one, and the audio while it is kept."""

    status: JobStatus
    question_id: str
    transcript: Transcript | None
    audio: bytes
    mime: str
    keep: bool


class JobQueue:
    """RQ over the Redis at ``settings.queue_url``; the database carries audio and results."""

    def __init__(self, settings: Settings, connection: Redis) -> None:
        from rq import Queue

        self.settings = settings
        self.redis = connection
        self.queue: Queue = Queue(settings.queue_name, connection=connection)

    @classmethod
    def from_settings(cls, settings: Settings) -> JobQueue:
        try:
            import redis
        except ImportError:
            raise Unavailable("the job queue needs the queue extra", hint=INSTALL_HINT) from None
        return cls(settings, redis.Redis.from_url(settings.queue_url, socket_timeout=5))

    @property
    def tries(self) -> int:
        return 1 + max(0, self.settings.queue_retries)

    def submit(
        self,
        sessions: sessionmaker[Session],
        *,
        user_id: int,
        question_id: str,
        hotwords: Sequence[str],
        audio: bytes,
        mime: str,
        keep: bool,
        now: datetime,
    ) -> str:
        """Store the recording, then queue its id; blocking (call from a thread)."""
        from redis import RedisError
        from rq import Retry

        try:
            if self.queue.count >= self.settings.queue_max_waiting:
                raise Unavailable("Viva is busy transcribing other answers", hint="try again in a minute")
        except RedisError as exc:
            raise _queue_down(exc) from None
        with session_scope(sessions) as session:
            purge_transcription_jobs(session, now - KEEP_JOBS)
            job_id = add_transcription_job(
                session,
                user_id=user_id,
                question_id=question_id,
                hotwords=hotwords,
                audio=audio,
                mime=mime,
                keep=keep,
                now=now,
            ).id
        try:
            self.queue.enqueue(
                TASK,
                job_id,
                job_id=job_id,
                retry=Retry(max=max(0, self.settings.queue_retries)) if self.settings.queue_retries else None,
                job_timeout=self.settings.max_audio_seconds * 4 + 60,
                result_ttl=int(KEEP_JOBS.total_seconds()),
                failure_ttl=int(KEEP_JOBS.total_seconds()),
                description=f"transcribe {question_id}",
            )
        except RedisError as exc:
            with session_scope(sessions) as session:
                session.query(TranscriptionJob).filter_by(id=job_id).delete()
            raise _queue_down(exc) from None
        return job_id

    def status(self, row: TranscriptionJob) -> JobStatus:
        """The job's state: the row when it is settled, else the queue's live view."""
        from redis import RedisError
        from rq.exceptions import NoSuchJobError
        from rq.job import Job
        from rq.job import JobStatus as RQStatus

        if row.state == DONE:
            return JobStatus(row.id, "done", progress=1.0, tries=self.tries)
        if row.state == FAILED:
            return JobStatus(row.id, "failed", tries=self.tries, error=row.error)
        try:
            job = Job.fetch(row.id, connection=self.redis)
            state = job.get_status()
            retried = self.tries - 1 - job.retries_left if job.retries_left is not None else 0
            attempt = 1 + retried
            if state in (RQStatus.QUEUED, RQStatus.SCHEDULED, RQStatus.DEFERRED, RQStatus.CREATED):
                position = job.get_position()
                place = (position or 0) + 1
                return JobStatus(row.id, "queued", position=place, attempt=attempt, tries=self.tries)
            if state in (RQStatus.STARTED, RQStatus.FINISHED):
                # FINISHED before the row says so: the row was read just before the worker's commit
                progress = float(job.get_meta(refresh=True).get("progress", 0.0))
                return JobStatus(row.id, "running", progress=progress, attempt=attempt, tries=self.tries)
        except NoSuchJobError:
            return JobStatus(row.id, "failed", tries=self.tries, error="the job was lost from the queue")
        except RedisError as exc:
            raise _queue_down(exc) from None
        return JobStatus(
            row.id,
            "failed",
            attempt=self.tries,
            tries=self.tries,
            error=f"the recording could not be transcribed after {self.tries} "
            + ("try" if self.tries == 1 else "tries"),
        )

    def status_for(self, sessions: sessionmaker[Session], user_id: int, job_id: str) -> JobStatus:
        """The status of one of ``user_id``'s jobs (NotFound for anyone else's); blocking."""
        with session_scope(sessions, writes=False) as session:
            row = transcription_job_for_user(session, user_id, job_id)
            return self.status(row)

    def queued_answer(self, sessions: sessionmaker[Session], user_id: int, job_id: str) -> QueuedAnswer:
        """One of ``user_id``'s jobs with its recording (NotFound for anyone else's); blocking."""
        with session_scope(sessions, writes=False) as session:
            row = transcription_job_for_user(session, user_id, job_id)
            transcript = Transcript.model_validate(row.transcript) if row.transcript is not None else None
            return QueuedAnswer(self.status(row), row.question_id, transcript, row.audio, row.mime, row.keep)

    async def wait(
        self,
        sessions: sessionmaker[Session],
        user_id: int,
        job_id: str,
        *,
        poll_s: float = 0.2,
        limit_s: float = MAX_WAIT_S,
    ) -> Transcript:
        """Wait for a job's transcript without blocking the event loop (the JSON API's path);
        past ``limit_s`` say where to poll instead of holding the request open for ever."""
        deadline = time.monotonic() + limit_s
        while True:
            status = await asyncio.to_thread(self.status_for, sessions, user_id, job_id)
            if status.state == "done":
                return await asyncio.to_thread(self.transcript, sessions, user_id, job_id)
            if status.state == "failed":
                raise _failure(status.error)
            if time.monotonic() > deadline:
                raise Unavailable(
                    "the transcription is still waiting for a worker",
                    hint=f"poll GET /api/v1/transcriptions/{job_id}",
                )
            await asyncio.sleep(poll_s)

    def transcript(self, sessions: sessionmaker[Session], user_id: int, job_id: str) -> Transcript:
        with session_scope(sessions, writes=False) as session:
            row = transcription_job_for_user(session, user_id, job_id)
            if row.transcript is None:
                raise NotFound("this transcription has not finished")
            return Transcript.model_validate(row.transcript)

    def workers_seen(self, within_s: float) -> int:
        """How many workers on this queue sent a heartbeat in the last ``within_s`` seconds."""
        from rq import Worker

        cutoff = datetime.now(UTC) - timedelta(seconds=within_s)
        return sum(
            1
            for worker in Worker.all(queue=self.queue)
            if worker.last_heartbeat is not None and worker.last_heartbeat >= cutoff
        )

    def ping(self) -> bool:
        return bool(self.redis.ping())

    def close(self) -> None:
        self.redis.close()


def _queue_down(exc: Exception) -> Unavailable:
    return Unavailable("the transcription queue is not answering", hint=type(exc).__name__)


def _failure(error: str | None) -> InvalidInput:
    message, _, hint = (error or "the recording could not be transcribed").partition("\n")
    return InvalidInput(message, hint=hint or None)
