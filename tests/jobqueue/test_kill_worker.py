"""``kill -9`` on a real ``viva worker`` mid-job: the job is retried and finished by another
worker; with no retries left it fails, and the candidate is told so.

Two real worker processes (the packaged tiny.en Whisper model, real espeak-ng audio), real
Redis and real PostgreSQL. The worker that took the job is killed with SIGKILL while the
job is running, so it cannot clean up; only the lapsed lease tells the other worker.
"""

from __future__ import annotations

import signal
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from tests.jobqueue.processes import VIVA, environment, postgres_schema, start, stop, wait_for
from tests.speech.sounds import speak
from viva.jobqueue import JobQueue, JobStatus
from viva.settings import Settings
from viva.store import get_or_create_user, make_engine, migrate, session_factory, session_scope

pytestmark = [pytest.mark.speech, pytest.mark.postgres]
pytest.importorskip("rq", reason="the queue extra is not installed (pip install -e '.[queue]')")

LEASE_S = 3
SAID = (
    "Decode is memory bound. Every step reads all of the weights from memory and does very "
    "little arithmetic with them, so the speed is set by memory bandwidth, not by compute. "
    "Batching many requests together reuses each weight read for many tokens, which is why "
    "throughput grows with the batch until the key value cache fills the memory. "
) * 3


@pytest.fixture(scope="module")
def long_answer(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return speak(SAID, tmp_path_factory.mktemp("long") / "answer.wav").read_bytes()


@pytest.fixture
def database() -> Iterator[str]:
    try:
        with postgres_schema() as url:
            engine = make_engine(url)
            migrate(engine)
            engine.dispose()
            yield url
    except Exception as exc:  # no server: the postgres marker's usual skip (fail in CI)
        from tests.conftest import IN_CI

        if IN_CI:
            raise
        pytest.skip(f"no PostgreSQL: {exc}")


def _submit(queue: JobQueue, sessions: sessionmaker[Session], audio: bytes) -> str:
    now = datetime.now(UTC)
    with session_scope(sessions) as session:
        user_id = get_or_create_user(session, f"kill-{uuid.uuid4().hex[:8]}", now).id
    return queue.submit(
        sessions, user_id=user_id, question_id="demo/bound", hotwords=["HBM"], audio=audio,
        mime="audio/wav", keep=False, now=now,
    )  # fmt: skip


@pytest.mark.parametrize("retries", [2, 0])
def test_a_worker_killed_mid_job_hands_the_job_on(
    retries: int, long_answer: bytes, database: str, redis_queue: tuple[str, str], tmp_path: Path
) -> None:
    url, name = redis_queue
    settings = Settings(
        data_dir=tmp_path, database_url=database, queue_url=url, queue_name=name,
        queue_retries=retries, queue_lease_seconds=LEASE_S, whisper_model="tiny.en",
    )  # fmt: skip
    env = environment(
        VIVA_DATABASE_URL=database, VIVA_QUEUE_URL=url, VIVA_QUEUE_NAME=name,
        VIVA_QUEUE_LEASE_SECONDS=str(LEASE_S), VIVA_WHISPER_MODEL="tiny.en", VIVA_DATA_DIR=str(tmp_path),
    )  # fmt: skip
    names = [f"{name}-a", f"{name}-b"]
    workers = {n: start([*VIVA, "worker", "--name", n], env, tmp_path / f"{n}.log") for n in names}
    queue = JobQueue.from_settings(settings)
    engine = make_engine(database)
    try:
        wait_for("both workers to load the model", lambda: queue.workers_seen(60) == 2, timeout=120)
        job_id = _submit(queue, session_factory(engine), long_answer)
        sessions = session_factory(engine)
        wait_for("the job to start", lambda: _state(queue, sessions, job_id) == "running", 60, every=0.05)
        busy = wait_for("the busy worker", lambda: _running(queue, job_id), timeout=10)
        stop(workers[busy], signal.SIGKILL)
        assert _state(queue, sessions, job_id) != "done"  # killed mid-job, not after it
        other = next(n for n in names if n != busy)

        final = wait_for(
            "the job to settle", lambda: _settled(queue, sessions, job_id), timeout=120, every=0.2
        )
        from rq.job import Job

        rq_job = Job.fetch(job_id, connection=queue.redis)
        if retries:
            assert final.state == "done", final
            assert _transcript_text(queue, sessions, job_id).count("memory") >= 3
            assert rq_job.retries_left == retries - 1  # exactly one retry: the killed attempt
            assert rq_job.worker_name == other  # finished by the survivor
        else:
            assert final.state == "failed", final
            assert final.error == "the recording could not be transcribed after 1 try"
        assert workers[other].poll() is None  # the survivor is still taking jobs
    finally:
        for process in workers.values():
            stop(process)
        queue.close()
        engine.dispose()


def _owner(sessions: sessionmaker[Session], job_id: str) -> int:
    from viva.store.models import TranscriptionJob

    with session_scope(sessions, writes=False) as session:
        row = session.get(TranscriptionJob, job_id)
        assert row is not None
        return row.user_id


def _status(queue: JobQueue, sessions: sessionmaker[Session], job_id: str) -> JobStatus:
    return queue.status_for(sessions, _owner(sessions, job_id), job_id)


def _state(queue: JobQueue, sessions: sessionmaker[Session], job_id: str) -> str:
    return _status(queue, sessions, job_id).state


def _settled(queue: JobQueue, sessions: sessionmaker[Session], job_id: str) -> JobStatus | None:
    status = _status(queue, sessions, job_id)
    return status if status.state in ("done", "failed") else None


def _running(queue: JobQueue, job_id: str) -> str | None:
    from rq import Worker

    for worker in Worker.all(queue=queue.queue):
        if worker.get_current_job_id() == job_id:
            return worker.name
    return None


def _transcript_text(queue: JobQueue, sessions: sessionmaker[Session], job_id: str) -> str:
    return queue.transcript(sessions, _owner(sessions, job_id), job_id).text.lower()
