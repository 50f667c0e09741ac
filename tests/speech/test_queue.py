"""The pool queues uploads in order, bounds the work, and never blocks the event loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from viva.errors import InvalidInput, NotFound, Unavailable
from viva.speech import ScriptedEngine, TranscriptionPool
from viva.speech.audio import Audio
from viva.speech.engines import Progress
from viva.speech.transcript import Transcript


class GatedEngine(ScriptedEngine):
    """Holds every transcription until the test opens the gate; counts how many overlap."""

    def __init__(self) -> None:
        super().__init__("tensor cores do matrix multiplies")
        self.gate = threading.Event()
        self.running = 0
        self.most_at_once = 0
        self._lock = threading.Lock()

    def transcribe(
        self, audio: Audio, hotwords: Sequence[str] | None = None, on_progress: Progress | None = None
    ) -> Transcript:
        with self._lock:
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        if on_progress is not None:
            on_progress(0.5)
        self.gate.wait(timeout=10)
        with self._lock:
            self.running -= 1
        return super().transcribe(audio, hotwords, on_progress)


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def test_uploads_queue_in_order_and_run_one_at_a_time(answer_wav: Path) -> None:
    data = answer_wav.read_bytes()
    engine = GatedEngine()

    async def scenario() -> None:
        pool = TranscriptionPool(engine, workers=1)
        jobs = [pool.submit(data) for _ in range(3)]
        await until(lambda: jobs[0].state == "running" and jobs[0].progress == 0.5)
        assert [j.position for j in jobs] == [0, 1, 2]
        assert [j.state for j in jobs] == ["running", "queued", "queued"]
        assert pool.job(jobs[2].id) is jobs[2]

        engine.gate.set()
        results = await asyncio.gather(*(j.result() for j in jobs))
        assert all(r.text == "tensor cores do matrix multiplies" for r in results)
        assert [j.state for j in jobs] == ["done"] * 3
        assert jobs[0].progress == 1.0
        pool.close()

    asyncio.run(scenario())
    assert engine.most_at_once == 1


def test_a_full_queue_refuses_rather_than_overloading(answer_wav: Path) -> None:
    data = answer_wav.read_bytes()
    engine = GatedEngine()

    async def scenario() -> None:
        pool = TranscriptionPool(engine, workers=1, max_waiting=2)
        first = pool.submit(data)
        await until(lambda: first.state == "running")
        pool.submit(data)
        pool.submit(data)
        with pytest.raises(Unavailable, match="busy"):
            pool.submit(data)
        engine.gate.set()
        await first.result()
        pool.close()

    asyncio.run(scenario())


def test_bad_audio_fails_its_job_with_the_users_error() -> None:
    async def scenario() -> None:
        pool = TranscriptionPool(ScriptedEngine("never heard"))
        job = pool.submit(b"not audio at all")
        with pytest.raises(InvalidInput, match="not a recording"):
            await job.result()
        assert job.state == "failed"
        with pytest.raises(InvalidInput, match="empty"):
            await pool.transcribe(b"")
        pool.close()

    asyncio.run(scenario())


def test_unknown_job() -> None:
    pool = TranscriptionPool(ScriptedEngine("x"))
    with pytest.raises(NotFound):
        pool.job("nope")
    pool.close()
