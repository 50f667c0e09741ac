"""Spoken answers through the pages and the API: upload → check the transcript → mark.

Real audio made at test time (espeak-ng, see tests/speech/sounds.py) through the real app on
SQLite and PostgreSQL. Most tests transcribe with the deterministic ScriptedEngine; the one
marked ``speech`` runs the real Whisper engine (the packaged tiny.en, never downloaded).
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from tests.speech.sounds import silence, speak, write_wav
from tests.web.conftest import NOW, PASSWORD, csrf_from, make_settings, new_client, sign_up, unique_name
from viva.speech import Audio, ScriptedEngine, Transcript, WhisperEngine
from viva.speech.engines import Progress
from viva.store.models import Attempt, Recording
from viva.web import create_app

SAID = "Decode is memory-bound: every step reads all the weights from memory for very little arithmetic."
HEARD = "decode is memory bond every step reads all the weights from memory for very little arithmetic"
FIXED = HEARD.replace("memory bond", "memory-bound")
TOKEN = re.compile(r'name="token" value="([^"]+)"')
AUDIO = re.compile(r'name="audio" value="([^"]+)"')


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """Recordings, good and bad, as the bytes a browser would upload."""
    folder = tmp_path_factory.mktemp("speech-clips")
    spoken = speak(SAID, folder / "said.wav").read_bytes()
    return {
        "spoken": spoken,
        "empty": b"",
        "random": b"this is not audio at all " * 200,
        "truncated": spoken[: len(spoken) // 2],
        "silent": write_wav(folder / "silent.wav", silence(2.0)).read_bytes(),
    }


def _app(engine: Engine, bank_dir: Path, data: Path, speech: object, **settings: object) -> FastAPI:
    return create_app(
        make_settings(bank_dir, data, **settings),
        engine=engine,
        clock=lambda: NOW,
        speech_engine=speech,  # type: ignore[arg-type]  # any SpeechEngine
    )


@pytest.fixture
def speaking(engine: Engine, bank_dir: Path, tmp_path: Path) -> Iterator[TestClient]:
    """A signed-in candidate on an app whose engine always hears :data:`HEARD`."""
    with new_client(_app(engine, bank_dir, tmp_path, ScriptedEngine(HEARD))) as client:
        sign_up(client)
        yield client


def upload(
    client: TestClient, data: bytes, *, keep: bool = False, question: str = "bound", name: str = "a.wav"
) -> httpx.Response:
    form = {"csrf_token": csrf_from(client, f"/practice/demo/{question}"), "answer": ""}
    if keep:
        form["keep"] = "true"
    return client.post(
        f"/practice/demo/{question}/audio?scope=demo", data=form, files={"audio": (name, data, "audio/wav")}
    )


def mark_checked(
    client: TestClient, check_page: str, text: str, *, question: str = "bound"
) -> httpx.Response:
    token = TOKEN.search(check_page)
    assert token, "the check step carries the signed transcript"
    form = {"csrf_token": csrf_from(client, "/"), "token": token.group(1), "answer": text}
    kept = AUDIO.search(check_page)
    if kept:
        form["audio"] = kept.group(1)
    return client.post(f"/practice/demo/{question}/spoken?scope=demo", data=form)


def attempts(client: TestClient) -> list[dict[str, object]]:
    response = client.get("/api/v1/attempts")
    assert response.status_code == 200
    found: list[dict[str, object]] = response.json()
    return found


def attempt_id(response: httpx.Response) -> int:
    assert response.status_code == 303, response.text
    return int(response.headers["location"].split("?")[0].rsplit("/", 1)[1])


# -- the journey ------------------------------------------------------------------------


def test_the_question_page_offers_recording_and_an_upload(speaking: TestClient) -> None:
    page = speaking.get("/practice/demo/bound").text
    assert "data-speak" in page and 'data-record aria-pressed="false"' in page
    assert 'type="file" name="audio" accept="audio/*"' in page
    assert 'formaction="/practice/demo/bound/audio"' in page
    assert "Keep my recording" in page and '<textarea id="answer-bound"' in page  # typing stays


def test_upload_check_edit_and_mark_a_spoken_answer(speaking: TestClient, clips: dict[str, bytes]) -> None:
    check = upload(speaking, clips["spoken"])
    assert check.status_code == 200, check.text
    assert "Check your transcript" in check.text and f">{HEARD}</textarea>" in check.text
    assert "Your recording is not kept" in check.text and not AUDIO.search(check.text)

    attempt = attempt_id(mark_checked(speaking, check.text, FIXED))
    page = speaking.get(f"/attempts/{attempt}").text
    assert "How you said it" in page and "words a minute" in page and "aim for about 120–165" in page
    assert "First point after" in page
    assert '<mark class="covered"' in page  # evidence highlighted in the corrected text
    assert "What the recogniser heard, before you corrected it" in page and HEARD in page
    assert "Your recording" not in page

    (saved,) = attempts(speaking)
    assert saved["answer"] == FIXED  # marked and stored: the edited text
    detail = speaking.get(f"/api/v1/attempts/{attempt}").json()
    assert detail["marking"]["points"][0]["status"] == "covered"


def test_the_attempt_keeps_the_transcript_and_delivery(
    speaking: TestClient, clips: dict[str, bytes], engine: Engine
) -> None:
    attempt = attempt_id(mark_checked(speaking, upload(speaking, clips["spoken"]).text, FIXED))
    with Session(engine) as session:
        row = session.get(Attempt, attempt)
        assert row is not None and row.transcript is not None and row.delivery is not None
        transcript = Transcript.model_validate(row.transcript)
        assert transcript.text == HEARD and transcript.engine == "scripted"
        assert row.delivery["words"] == len(HEARD.split()) and row.delivery["words_per_minute"] > 0
        assert row.duration_ms == round(transcript.duration_s * 1000)


def test_a_kept_recording_plays_to_its_owner_only_and_can_be_deleted(
    speaking: TestClient, clips: dict[str, bytes], app: FastAPI
) -> None:
    check = upload(speaking, clips["spoken"], keep=True)
    assert "Your recording will be kept" in check.text and AUDIO.search(check.text)
    attempt = attempt_id(mark_checked(speaking, check.text, HEARD))
    page = speaking.get(f"/attempts/{attempt}").text
    found = re.search(r'<audio controls preload="none" src="/recordings/(\d+)">', page)
    assert found and "Delete this recording" in page
    recording = int(found.group(1))

    played = speaking.get(f"/recordings/{recording}")
    assert played.status_code == 200 and played.content == clips["spoken"]
    assert played.headers["content-type"] == "audio/wav"
    assert played.headers["cache-control"] == "private, no-store"

    # another candidate (on another client) cannot play or delete it: it does not exist for them
    with new_client(speaking.app) as other:  # type: ignore[arg-type]
        sign_up(other)
        assert other.get(f"/recordings/{recording}").status_code == 404
        token = csrf_from(other, "/")
        assert other.post(f"/recordings/{recording}/delete", data={"csrf_token": token}).status_code == 404
    assert speaking.get(f"/recordings/{recording}").status_code == 200

    gone = speaking.post(f"/recordings/{recording}/delete", data={"csrf_token": csrf_from(speaking, "/")})
    assert gone.status_code == 303 and gone.headers["location"] == f"/attempts/{attempt}#recording"
    assert speaking.get(f"/recordings/{recording}").status_code == 404
    assert "Your recording" not in speaking.get(f"/attempts/{attempt}").text
    assert len(attempts(speaking)) == 1  # the attempt stays


def test_a_checked_transcript_is_marked_once(
    speaking: TestClient, clips: dict[str, bytes], engine: Engine
) -> None:
    """Posting the same check form again stores no second attempt or copy of the audio."""
    check = upload(speaking, clips["spoken"], keep=True)
    first = attempt_id(mark_checked(speaking, check.text, HEARD))
    again = mark_checked(speaking, check.text, FIXED)
    assert again.status_code == 409 and "already been marked" in again.text
    assert [a["id"] for a in attempts(speaking)] == [first]
    with Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(Recording)) == 1
    # a new upload of the same audio is a new answer, marked as usual
    assert attempt_id(mark_checked(speaking, upload(speaking, clips["spoken"]).text, HEARD)) != first


def test_audio_is_not_kept_unless_asked(
    speaking: TestClient, clips: dict[str, bytes], engine: Engine
) -> None:
    attempt = attempt_id(mark_checked(speaking, upload(speaking, clips["spoken"]).text, HEARD))
    with Session(engine) as session:
        count = session.scalar(
            select(func.count()).select_from(Recording).where(Recording.attempt_id == attempt)
        )
    assert count == 0


def test_an_emptied_transcript_comes_back_to_be_checked(
    speaking: TestClient, clips: dict[str, bytes]
) -> None:
    check = upload(speaking, clips["spoken"], keep=True).text
    again = mark_checked(speaking, check, "   ")
    assert again.status_code == 422 and "The answer is empty" in again.text
    assert TOKEN.search(again.text) and AUDIO.search(again.text)  # nothing is lost
    assert attempt_id(mark_checked(speaking, again.text, HEARD))
    assert len(attempts(speaking)) == 1


# -- bad input: a clear 4xx and nothing written ------------------------------------------


@pytest.mark.parametrize(
    ("clip", "status", "message"),
    [
        ("empty", 422, "The recording is empty"),
        ("random", 422, "This is not a recording Viva can read"),
        ("truncated", 422, "The recording is cut short"),
        ("silent", 422, "The recording is silent"),
    ],
)
def test_unusable_recordings_get_a_clear_4xx(
    speaking: TestClient, clips: dict[str, bytes], clip: str, status: int, message: str
) -> None:
    response = upload(speaking, clips[clip])
    assert response.status_code == status and message in response.text
    assert attempts(speaking) == []


def test_oversized_recordings_get_413_before_transcription(
    engine: Engine, bank_dir: Path, tmp_path: Path, clips: dict[str, bytes]
) -> None:
    size = len(clips["spoken"])
    app = _app(
        engine, bank_dir, tmp_path, ScriptedEngine(HEARD), max_audio_bytes=size - 1000, max_audio_seconds=2
    )
    with new_client(app) as client:
        sign_up(client)
        over = upload(client, clips["spoken"])
        assert over.status_code == 413 and "MiB limit" in over.text  # just over: our message
        huge = upload(client, clips["spoken"] * 3)
        assert huge.status_code == 413  # far over: refused from Content-Length, unread ...
        assert "MiB limit" not in huge.text  # ... by the route's body limit, before our code read it
        long = upload(client, clips["spoken"][: size - 1000 - 512])  # under the bytes, over 2 s
        assert long.status_code in (413, 422)
        assert attempts(client) == []
    with new_client(_app(engine, bank_dir, tmp_path, ScriptedEngine(HEARD), max_audio_seconds=2)) as client:
        sign_up(client)
        too_long = upload(client, clips["spoken"])
        assert too_long.status_code == 413 and "the limit is 0:02" in too_long.text
        assert attempts(client) == []


def test_a_forged_transcript_or_swapped_recording_is_refused(
    speaking: TestClient, clips: dict[str, bytes]
) -> None:
    check = upload(speaking, clips["spoken"], keep=True).text
    token = TOKEN.search(check)
    assert token
    forged = check.replace(token.group(1), token.group(1)[:-4] + "AAAA")
    assert mark_checked(speaking, forged, HEARD).status_code == 422
    audio = AUDIO.search(check)
    assert audio
    swapped = check.replace(audio.group(1), "AAAA" + audio.group(1)[4:])
    refused = mark_checked(speaking, swapped, HEARD)
    assert refused.status_code == 422 and "not the one that was transcribed" in refused.text
    other_question = mark_checked(speaking, check, HEARD, question="batching")
    assert other_question.status_code == 422
    assert attempts(speaking) == []


def test_uploads_need_a_login_and_the_csrf_token(speaking: TestClient, clips: dict[str, bytes]) -> None:
    no_token = speaking.post("/practice/demo/bound/audio", files={"audio": ("a.wav", clips["spoken"])})
    assert no_token.status_code == 403
    with new_client(speaking.app) as anonymous:  # type: ignore[arg-type]
        token = csrf_from(anonymous, "/login")
        response = anonymous.post(
            "/practice/demo/bound/audio",
            data={"csrf_token": token},
            files={"audio": ("a.wav", clips["spoken"])},
        )
        assert response.status_code == 401


def test_without_the_speech_extra_recording_is_hidden_and_uploads_get_503(
    engine: Engine, bank_dir: Path, tmp_path: Path, clips: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("viva.web.transcription.missing_extra", lambda engine_given: "faster_whisper")
    with new_client(_app(engine, bank_dir, tmp_path, None)) as client:
        sign_up(client)
        page = client.get("/practice/demo/bound").text
        assert "data-speak" not in page and '<textarea id="answer-bound"' in page  # typing works
        response = upload(client, clips["spoken"])
        assert (
            response.status_code == 503
            and "viva[speech]" in response.text
            and "speech extra" in response.text
        )


# -- the API ----------------------------------------------------------------------------


def test_the_api_transcribes_marks_and_measures_but_records_nothing(
    speaking: TestClient, clips: dict[str, bytes]
) -> None:
    headers = {"X-CSRF-Token": csrf_from(speaking, "/")}
    files = {"audio": ("a.wav", clips["spoken"], "audio/wav")}
    response = speaking.post("/api/v1/questions/demo/bound/audio", files=files, headers=headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["transcript"]["text"] == HEARD and body["transcript"]["words"][0]["word"] == "decode"
    assert body["delivery"]["words"] == len(HEARD.split()) and len(body["delivery"]["guidance"]) == 3
    assert body["marking"]["question_id"] == "demo/bound"
    bad = speaking.post(
        "/api/v1/questions/demo/bound/audio", files={"audio": ("a", b"nope")}, headers=headers
    )
    assert bad.status_code == 422 and bad.json()["error"] == "this is not a recording Viva can read"
    assert attempts(speaking) == []


# -- queueing: the loop stays free, a full queue says so --------------------------------


class GatedEngine:
    """Hears :data:`HEARD`, but only once the test opens the gate."""

    name = "gated"

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()

    def transcribe(
        self, audio: Audio, hotwords: Sequence[str] | None = None, on_progress: Progress | None = None
    ) -> Transcript:
        self.started.set()
        self.gate.wait(20)
        return ScriptedEngine(HEARD).transcribe(audio, hotwords, on_progress)


def test_uploads_queue_the_loop_stays_free_and_a_full_queue_gets_503(
    engine: Engine, bank_dir: Path, tmp_path: Path, clips: dict[str, bytes]
) -> None:
    gated = GatedEngine()
    app = _app(engine, bank_dir, tmp_path, gated, transcription_workers=1, transcription_queue=1)
    pool = app.state.viva.transcriber.pool

    async def scenario() -> None:
        transport = httpx.ASGITransport(app=app, client=("10.77.0.1", 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            page = await client.get("/signup")
            token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
            assert token
            form = {"name": unique_name(), "password": PASSWORD, "csrf_token": token.group(1)}
            assert (await client.post("/signup", data=form)).status_code == 303
            token = re.search(r'name="csrf_token" value="([^"]+)"', (await client.get("/")).text)
            assert token  # a new session, a new token

            def send() -> asyncio.Task[httpx.Response]:
                return asyncio.create_task(
                    client.post(
                        "/practice/demo/bound/audio",
                        data={"csrf_token": token.group(1)},
                        files={"audio": ("a.wav", clips["spoken"], "audio/wav")},
                    )
                )

            first = send()
            while not gated.started.is_set():
                assert not first.done(), (await first).text
                await asyncio.sleep(0.02)
            second = send()
            for _ in range(200):  # until the second is waiting its turn
                if pool._waiting:
                    break
                await asyncio.sleep(0.02)
            # while both wait on the transcriber, other requests are served at once
            topics = await asyncio.wait_for(client.get("/api/v1/topics"), timeout=2)
            assert topics.status_code == 200
            third = await client.post(
                "/practice/demo/bound/audio",
                data={"csrf_token": token.group(1)},
                files={"audio": ("a.wav", clips["spoken"], "audio/wav")},
            )
            assert third.status_code == 503 and "busy transcribing" in third.text
            gated.gate.set()
            done = await asyncio.gather(first, second)
            assert [r.status_code for r in done] == [200, 200]

    try:
        asyncio.run(scenario())
    finally:
        gated.gate.set()
        app.state.viva.transcriber.close()


# -- the real engine --------------------------------------------------------------------


@pytest.fixture(scope="module")
def whisper() -> WhisperEngine:
    model = WhisperEngine("tiny.en", cpu_threads=2)
    assert model.source.kind == "packaged", "tests use the packaged model, never a download"
    model.prepare()
    return model


@pytest.mark.speech
def test_real_speech_through_whisper_is_transcribed_checked_and_marked(
    engine: Engine, bank_dir: Path, tmp_path: Path, clips: dict[str, bytes], whisper: WhisperEngine
) -> None:
    with new_client(_app(engine, bank_dir, tmp_path, whisper)) as client:
        sign_up(client)
        check = upload(client, clips["spoken"])
        assert check.status_code == 200, check.text
        found = re.search(r"data-transcript\s*>([^<]+)</textarea>", check.text)
        assert found and "memory" in found.group(1).lower() and "step reads all the" in found.group(1)
        heard = found.group(1).strip()
        # tiny.en may hear "weights" as "ways": the candidate corrects it before marking
        corrected = re.sub(r"\bways\b", "weights", heard)
        attempt = attempt_id(mark_checked(client, check.text, corrected))
        page = client.get(f"/attempts/{attempt}").text
        assert "How you said it" in page and '<mark class="covered"' in page
        saved = client.get(f"/api/v1/attempts/{attempt}").json()
        assert saved["answer"] == corrected and saved["score"] > 0.5
