"""Spoken answers on the job queue, through the real app, real Redis and a real RQ worker.

The web app (on SQLite and PostgreSQL) puts uploads on the queue; the test then runs the
worker as ``viva worker --once`` would (in this process, with the deterministic
ScriptedEngine) and checks what the candidate sees at each step: the job's place in the
queue, then the check step, or a clear failure.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select

from tests.speech.sounds import speak
from tests.web.conftest import NOW, csrf_from, make_settings, new_client, sign_up
from viva.settings import Settings
from viva.speech import Audio, ScriptedEngine, Transcript
from viva.speech.engines import Progress
from viva.store.models import Attempt, TranscriptionJob
from viva.web import create_app

HEARD = "decode is memory bound every step reads all the weights for very little arithmetic"
TOKEN = re.compile(r'name="token" value="([^"]+)"')
AUDIO = re.compile(r'name="audio" value="([^"]+)"')


class Crashing:
    """An engine that fails the way a bug or a lost GPU does: not the candidate's fault."""

    name = "crashing"

    def transcribe(
        self, audio: Audio, hotwords: Sequence[str] | None = None, on_progress: Progress | None = None
    ) -> Transcript:
        raise RuntimeError("the recogniser fell over")


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return speak(HEARD, tmp_path_factory.mktemp("clip") / "said.wav").read_bytes()


@pytest.fixture
def settings(bank_dir: Path, tmp_path: Path, redis_queue: tuple[str, str]) -> Settings:
    url, name = redis_queue
    return make_settings(
        bank_dir, tmp_path, queue_url=url, queue_name=name, queue_retries=2, queue_lease_seconds=5
    )


@pytest.fixture
def candidate(engine: Engine, settings: Settings) -> Iterator[TestClient]:
    with new_client(create_app(settings, engine=engine, clock=lambda: NOW)) as client:
        sign_up(client)
        yield client


def upload(client: TestClient, data: bytes, *, keep: bool = False) -> str:
    """Post a recording as the page's form does; the job's id from the redirect."""
    form = {"csrf_token": csrf_from(client, "/practice/demo/bound")}
    if keep:
        form["keep"] = "true"
    response = client.post(
        "/practice/demo/bound/audio?scope=demo", data=form, files={"audio": ("a.wav", data, "audio/wav")}
    )
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    assert location.startswith("/transcriptions/") and location.endswith("?scope=demo")
    return location.split("/")[2].split("?")[0]


def status(client: TestClient, job_id: str) -> dict[str, object]:
    response = client.get(f"/api/v1/transcriptions/{job_id}")
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


def work(settings: Settings, engine: Engine, speech: object) -> bool:
    from viva.jobqueue.worker import run_worker  # needs rq: the queue extra

    return run_worker(settings, once=True, speech_engine=speech, database=engine)  # type: ignore[arg-type]


def test_uploads_wait_in_order_then_a_worker_transcribes_them(
    candidate: TestClient, settings: Settings, engine: Engine, clip: bytes
) -> None:
    first, second = upload(candidate, clip), upload(candidate, clip, keep=True)
    assert status(candidate, first) | {"id": ""} == {
        "id": "", "state": "queued", "position": 1, "progress": 0.0, "attempt": 1, "tries": 3, "error": None,
    }  # fmt: skip
    assert status(candidate, second)["position"] == 2
    waiting = candidate.get(f"/transcriptions/{second}?scope=demo")
    assert waiting.status_code == 200
    assert "2 in the queue" in waiting.text
    assert waiting.headers["refresh"] == "2"  # the page polls itself without JavaScript

    assert work(settings, engine, ScriptedEngine(HEARD)) is True

    assert status(candidate, first)["state"] == "done"
    check = candidate.get(f"/transcriptions/{first}?scope=demo")
    assert HEARD in check.text and "data-spoken" in check.text
    assert "refresh" not in check.headers
    token = TOKEN.search(check.text)
    assert token is not None and AUDIO.search(check.text) is None  # not kept: no audio in the form
    marked = candidate.post(
        "/practice/demo/bound/spoken?scope=demo",
        data={"csrf_token": csrf_from(candidate, "/practice/demo/bound"), "token": token.group(1),
              "answer": HEARD},
    )  # fmt: skip
    assert marked.status_code == 303 and marked.headers["location"].startswith("/attempts/")
    attempt_id = int(marked.headers["location"].split("/")[2].split("?")[0])
    with engine.connect() as connection:
        attempt = connection.execute(select(Attempt).where(Attempt.id == attempt_id)).one()
        assert attempt.answer_text == HEARD and attempt.transcript is not None
        rows = dict(connection.execute(select(TranscriptionJob.id, TranscriptionJob.audio)).all())
    assert rows[first] == b""  # the audio is dropped once transcribed unless the candidate keeps it
    assert rows[second] == clip

    kept = candidate.get(f"/transcriptions/{second}?scope=demo")
    audio = AUDIO.search(kept.text)
    assert audio is not None and base64.b64decode(audio.group(1)) == clip


def test_a_recording_that_cannot_be_used_fails_at_once_with_the_reason(
    candidate: TestClient, settings: Settings, engine: Engine
) -> None:
    job = upload(candidate, b"this is not audio at all " * 200)
    work(settings, engine, ScriptedEngine(HEARD))
    result = status(candidate, job)
    assert result["state"] == "failed" and result["attempt"] == 1  # the candidate's problem: no retry
    assert str(result["error"]).startswith("this is not a recording Viva can read\nuse WebM/Opus")
    page = candidate.get(f"/transcriptions/{job}")
    assert "could not be transcribed: this is not a recording Viva can read — use WebM/Opus" in page.text
    assert "Record again" in page.text
    assert "refresh" not in page.headers


def test_a_crashing_worker_is_retried_a_bounded_number_of_times_then_fails_clearly(
    candidate: TestClient, settings: Settings, engine: Engine, clip: bytes
) -> None:
    job = upload(candidate, clip)
    work(settings, engine, Crashing())
    result = status(candidate, job)
    assert result["state"] == "failed"
    assert result["error"] == "the recording could not be transcribed after 3 tries"
    from rq.job import Job

    from viva.jobqueue import JobQueue

    rq_job = Job.fetch(job, connection=JobQueue.from_settings(settings).redis)
    assert rq_job.retries_left == 0


def test_someone_elses_job_is_not_found(
    candidate: TestClient, engine: Engine, settings: Settings, clip: bytes
) -> None:
    job = upload(candidate, clip)
    with new_client(create_app(settings, engine=engine, clock=lambda: NOW)) as other:
        sign_up(other)
        assert other.get(f"/api/v1/transcriptions/{job}").status_code == 404
        assert other.get(f"/transcriptions/{job}").status_code == 404
    assert status(candidate, job)["state"] == "queued"


def test_readyz_wants_a_worker_when_a_queue_is_configured(
    candidate: TestClient, engine: Engine, bank_dir: Path, tmp_path: Path
) -> None:
    assert candidate.get("/healthz").json() == {"status": "ok"}
    waiting = candidate.get("/readyz")
    assert waiting.status_code == 503
    assert waiting.json()["checks"] == {"database": "ok", "redis": "ok", "workers": 0}
    alone = create_app(make_settings(bank_dir, tmp_path), engine=engine, clock=lambda: NOW)
    with new_client(alone) as client:
        ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["checks"] == {"database": "ok"}


def test_uploads_past_the_queue_limit_get_503(engine: Engine, settings: Settings, clip: bytes) -> None:
    small = settings.with_(queue_max_waiting=1)
    with new_client(create_app(small, engine=engine, clock=lambda: NOW)) as client:
        sign_up(client)
        upload(client, clip)
        form = {"csrf_token": csrf_from(client, "/practice/demo/bound")}
        refused = client.post(
            "/practice/demo/bound/audio", data=form, files={"audio": ("a.wav", clip, "audio/wav")}
        )
    assert refused.status_code == 503
    assert "busy transcribing other answers" in refused.text


def test_the_json_api_waits_for_a_worker_only_so_long_then_says_where_to_poll(
    engine: Engine, settings: Settings, clip: bytes
) -> None:
    import asyncio

    from viva.errors import Unavailable
    from viva.jobqueue import JobQueue
    from viva.store import get_or_create_user, session_factory, session_scope

    queue = JobQueue.from_settings(settings)
    sessions = session_factory(engine)
    with session_scope(sessions) as session:
        user_id = get_or_create_user(session, f"api-{NOW.timestamp()}-{id(queue)}", NOW).id
    job = queue.submit(sessions, user_id=user_id, question_id="demo/bound", hotwords=[], audio=clip,
                       mime="audio/wav", keep=False, now=NOW)  # fmt: skip
    with pytest.raises(Unavailable) as waited:
        asyncio.run(queue.wait(sessions, user_id, job, limit_s=0.5))
    assert waited.value.hint == f"poll GET /api/v1/transcriptions/{job}"
    work(settings, engine, ScriptedEngine(HEARD))
    assert asyncio.run(queue.wait(sessions, user_id, job, limit_s=0.5)).text == HEARD
    queue.close()
