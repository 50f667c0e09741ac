"""A bounded queue of transcriptions that keeps the event loop free.

The web app builds one :class:`TranscriptionPool` in its factory (never at import time)
and hands every upload to it. Decoding and recognition run on a small thread pool —
CTranslate2 releases the GIL, and threads share one loaded model where processes would
each load their own. At most ``workers`` run at once; the rest wait in order, each
:class:`TranscriptionJob` knowing its place in the queue and, once running, how much
of the audio is done, so a page can poll and show it. Past ``max_waiting`` queued jobs
new uploads are refused with :class:`~viva.errors.Unavailable` (HTTP 503) rather than
piling up.

Each server process has its own pool: with several workers behind a proxy, the machine
runs at most ``processes × workers`` transcriptions at once.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Literal

from viva.errors import NotFound, Unavailable
from viva.speech.audio import DEFAULT_LIMITS, AudioLimits, decode_audio
from viva.speech.engines import SpeechEngine
from viva.speech.transcript import Transcript

JobState = Literal["queued", "running", "done", "failed"]


class TranscriptionJob:
    """One upload on its way through the pool; poll it, or await :meth:`result`."""

    def __init__(self, pool: TranscriptionPool, job_id: str) -> None:
        self.id = job_id
        self.state: JobState = "queued"
        self.progress = 0.0
        self._pool = pool
        self._task: asyncio.Task[Transcript] | None = None

    @property
    def position(self) -> int:
        """1 for the next to run, 2 after that, …; 0 once running or finished."""
        return self._pool._position(self)

    async def result(self) -> Transcript:
        """The transcript, or the :class:`~viva.errors.VivaError` saying why there is none."""
        assert self._task is not None
        return await asyncio.shield(self._task)

    def _report(self, done: float) -> None:
        self.progress = done  # called from the worker thread; a float store is atomic


class TranscriptionPool:
    def __init__(
        self,
        engine: SpeechEngine,
        *,
        workers: int = 1,
        max_waiting: int = 8,
        limits: AudioLimits = DEFAULT_LIMITS,
        keep_finished: int = 256,
    ) -> None:
        self.engine = engine
        self.workers = workers
        self.max_waiting = max_waiting
        self.limits = limits
        self.keep_finished = keep_finished
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="viva-speech")
        self._slots: asyncio.Semaphore | None = None
        self._waiting: list[TranscriptionJob] = []
        self._jobs: OrderedDict[str, TranscriptionJob] = OrderedDict()

    def submit(self, data: bytes, hotwords: Sequence[str] | None = None) -> TranscriptionJob:
        """Queue a recording; call from the event loop. Refuses when the queue is full."""
        if len(self._waiting) >= self.max_waiting:
            raise Unavailable("Viva is busy transcribing other answers", hint="try again in a minute")
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        job = TranscriptionJob(self, secrets.token_urlsafe(12))
        self._waiting.append(job)
        self._jobs[job.id] = job
        self._forget_old()
        job._task = asyncio.get_running_loop().create_task(self._run(job, data, hotwords))
        job._task.add_done_callback(_retrieve)  # a job nobody awaited must not warn on failure
        return job

    async def transcribe(self, data: bytes, hotwords: Sequence[str] | None = None) -> Transcript:
        """Queue a recording and wait for its transcript."""
        return await self.submit(data, hotwords).result()

    def job(self, job_id: str) -> TranscriptionJob:
        try:
            return self._jobs[job_id]
        except KeyError:
            raise NotFound("no such transcription", hint="it may have finished long ago") from None

    def close(self) -> None:
        """Stop taking work; running transcriptions finish, queued ones are dropped."""
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def _run(self, job: TranscriptionJob, data: bytes, hotwords: Sequence[str] | None) -> Transcript:
        assert self._slots is not None
        try:
            async with self._slots:
                self._waiting.remove(job)
                job.state = "running"
                loop = asyncio.get_running_loop()
                transcript = await loop.run_in_executor(self._executor, self._work, data, hotwords, job)
        except BaseException:
            if job in self._waiting:
                self._waiting.remove(job)
            job.state = "failed"
            raise
        job.state = "done"
        job.progress = 1.0
        return transcript

    def _work(self, data: bytes, hotwords: Sequence[str] | None, job: TranscriptionJob) -> Transcript:
        audio = decode_audio(data, self.limits)
        return self.engine.transcribe(audio, hotwords, on_progress=job._report)

    def _position(self, job: TranscriptionJob) -> int:
        try:
            return self._waiting.index(job) + 1
        except ValueError:
            return 0

    def _forget_old(self) -> None:
        while len(self._jobs) > self.keep_finished:
            oldest = next(iter(self._jobs.values()))
            if oldest.state in ("queued", "running"):
                break
            self._jobs.popitem(last=False)


def _retrieve(task: asyncio.Task[Transcript]) -> None:
    if not task.cancelled():
        task.exception()
