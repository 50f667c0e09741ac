"""``viva worker``'s engine room: an RQ worker that keeps one recogniser loaded.

RQ's default worker forks a fresh process per job, which would either load the model for
every job or share a CTranslate2 model across ``fork()`` (its thread pool does not survive
it). So jobs run in the worker's own process (RQ's ``SimpleWorker``), and this subclass
adds what the forking worker does for free: while a job runs, a thread renews the job's
lease every third of ``queue_lease_seconds``. If the process dies, the lease lapses; the
next registry clean-up by any worker (every lease period when idle, and at start) finds the
job abandoned and retries it while it has retries left, then fails it.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from rq import Queue, SimpleWorker
from rq.job import Job
from rq.worker import WorkerStatus
from sqlalchemy import Engine

from viva.errors import Unavailable
from viva.jobqueue import tasks
from viva.settings import Settings
from viva.speech.audio import AudioLimits
from viva.speech.engines import SpeechEngine, WhisperEngine, engine_from_settings
from viva.store.db import make_engine, migrate, session_factory

log = logging.getLogger("viva.worker")


class TranscriptionWorker(SimpleWorker):
    """A SimpleWorker whose jobs hold a short, renewed lease instead of one as long as their timeout."""

    def __init__(self, queues: list[Queue], *, lease_s: int, **kwargs: Any) -> None:
        self.lease_s = max(3, lease_s)
        # idle workers wake every lease period: to heartbeat, and to clean up abandoned jobs
        super().__init__(queues, worker_ttl=self.lease_s + 15, maintenance_interval=self.lease_s, **kwargs)

    def get_heartbeat_ttl(self, job: Job, working_time: float = 0.0) -> int:
        return self.lease_s

    def execute_job(self, job: Job, queue: Queue) -> None:
        execution = self.prepare_execution(job)
        stop = threading.Event()
        renewer = threading.Thread(
            target=self._renew, args=(job, execution, stop), name="viva-lease", daemon=True
        )
        renewer.start()
        try:
            self.perform_job(job, queue, execution)
        finally:
            stop.set()
            renewer.join()
        self.set_state(WorkerStatus.IDLE)

    def _renew(self, job: Job, execution: Any, stop: threading.Event) -> None:
        while not stop.wait(self.lease_s / 3):
            try:
                self.maintain_heartbeats(job, execution)
            except Exception:  # a missed renewal is retried; the job itself must go on
                log.warning("could not renew the lease on job %s", job.id, exc_info=True)


def run_worker(
    settings: Settings,
    *,
    once: bool = False,
    speech_engine: SpeechEngine | None = None,
    database: Engine | None = None,
    name: str | None = None,
) -> bool:
    """Load the recogniser, then take jobs until stopped (or, with ``once``, until the
    queue is empty). Returns whether any job was done. Tests pass their own ``speech_engine``
    and ``database``; otherwise both come from the settings."""
    import redis

    if not settings.queue_url:
        raise Unavailable("no queue to work on", hint="pass --queue redis://… or set VIVA_QUEUE_URL")
    connection = redis.Redis.from_url(settings.queue_url)
    own_database = database is None
    try:
        try:
            connection.ping()  # before the slow start, so a wrong URL is said at once
        except redis.RedisError as exc:
            raise Unavailable(f"no Redis answers at the queue URL ({type(exc).__name__})") from None
        engine = speech_engine if speech_engine is not None else engine_from_settings(settings)
        if isinstance(engine, WhisperEngine):
            engine.prepare()  # once, before the first job, not inside it
        if database is None:
            database = make_engine(settings.resolved_database_url, pool_pre_ping=True)
        migrate(database)  # a worker may start before any web process has migrated
        limits = AudioLimits(
            max_bytes=settings.max_audio_bytes, max_seconds=float(settings.max_audio_seconds)
        )
        tasks.use_context(tasks.WorkerContext(session_factory(database), engine, limits))
        queue = Queue(settings.queue_name, connection=connection)
        worker = TranscriptionWorker(
            [queue], lease_s=settings.queue_lease_seconds, connection=connection, name=name
        )
        return bool(worker.work(burst=once, logging_level="INFO"))
    finally:
        tasks.use_context(None)
        connection.close()
        if own_database and database is not None:
            database.dispose()
