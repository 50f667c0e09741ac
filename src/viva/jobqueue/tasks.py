"""What a ``viva worker`` runs for each job: read the recording from the database,
transcribe it with the engine the worker loaded once, write the result back.

RQ calls :func:`transcribe` by its import path with the job's id. The worker process sets
its :class:`WorkerContext` before taking jobs, so the recogniser is loaded once per worker,
not once per job.

A recording the recogniser cannot use (silent, damaged, too long) is the candidate's
problem, not the worker's: it is recorded as the job's failure at once and never retried.
Anything else that goes wrong (a crash, the database away, the worker killed) leaves the
job to RQ, which retries it a bounded number of times.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.orm import Session, sessionmaker

from viva.errors import VivaError
from viva.speech.audio import AudioLimits, decode_audio
from viva.speech.engines import SpeechEngine
from viva.store.db import session_scope
from viva.store.transcriptions import (
    QUEUED,
    fail_transcription_job,
    finish_transcription_job,
    transcription_job,
)

log = logging.getLogger("viva.worker")
PROGRESS_EVERY_S = 0.5
"""Progress is written to Redis at most this often."""


@dataclass
class WorkerContext:
    sessions: sessionmaker[Session]
    engine: SpeechEngine
    limits: AudioLimits
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)


_context: WorkerContext | None = None


def use_context(context: WorkerContext | None) -> None:
    """Set (or clear) what this worker process transcribes with."""
    global _context
    _context = context


def transcribe(job_id: str) -> str:
    """Transcribe job ``job_id``; returns what became of it ("done", "failed" or "gone")."""
    if _context is None:
        raise RuntimeError("no worker context: jobs run only inside `viva worker`")
    context = _context
    with session_scope(context.sessions, writes=False) as session:
        row = transcription_job(session, job_id)
        if row is None or row.state != QUEUED:
            return "gone"  # purged, or settled by an earlier attempt
        audio, hotwords = row.audio, list(row.hotwords)
    report = _progress_reporter()
    report(0.0)
    try:
        transcript = context.engine.transcribe(
            decode_audio(audio, context.limits), hotwords, on_progress=report
        )
    except VivaError as error:
        reason = error.message + (f"\n{error.hint}" if error.hint else "")
        _settle(context, job_id, lambda row: fail_transcription_job(row, reason, context.clock()))
        log.info("job %s: %s", job_id, error.message)
        return "failed"
    result = transcript.model_dump(mode="json")
    _settle(context, job_id, lambda row: finish_transcription_job(row, result, context.clock()))
    return "done"


def _settle(context: WorkerContext, job_id: str, change: Callable[..., None]) -> None:
    with session_scope(context.sessions) as session:
        row = transcription_job(session, job_id)
        if row is not None and row.state == QUEUED:
            change(row)


def _progress_reporter() -> Callable[[float], None]:
    """Saves the share done in the RQ job's metadata, where any web worker can read it."""
    from rq import get_current_job

    job = get_current_job()
    last = [0.0]

    def report(done: float) -> None:
        now = time.monotonic()
        if job is None or (0.0 < done < 1.0 and now - last[0] < PROGRESS_EVERY_S):
            return
        last[0] = now
        job.meta["progress"] = round(done, 3)
        job.save_meta()  # type: ignore[no-untyped-call]  # rq leaves this one unannotated

    return report
