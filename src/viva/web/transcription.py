"""The app's way to speech: one :class:`~viva.speech.TranscriptionPool` per app, or the reason
there is none.

The pool is built by :func:`viva.web.app.create_app` (never at import time) and closed when
the app shuts down. Routes ``await`` it within the request, so no job state has to be
shared between workers; the event loop stays free because decoding and recognition run
on the pool's threads, and uploads beyond its queue get HTTP 503 rather than piling up.

Without the ``speech`` extra there is no pool: pages hide the record button and uploads
get 503 with the install hint. The model itself loads on the first upload, not at start.

With a queue URL (a team server) there is no pool either: uploads go to a
:class:`~viva.jobqueue.JobQueue`, and ``viva worker`` processes transcribe them.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import TYPE_CHECKING

from fastapi import UploadFile

from viva.errors import InvalidInput, TooLarge, Unavailable
from viva.settings import Settings
from viva.speech import AudioLimits, SpeechEngine, Transcript, TranscriptionPool, engine_from_settings
from viva.speech.audio import sniff_format

if TYPE_CHECKING:
    from viva.jobqueue import JobQueue

INSTALL_HINT = "pip install 'viva[speech]'"
MIME = {
    "wav": "audio/wav",
    "ogg": "audio/ogg",
    "matroska": "audio/webm",
    "mp4": "audio/mp4",
    "flac": "audio/flac",
    "mp3": "audio/mpeg",
}
"""The type a kept recording is served with, from its first bytes (never the client's say-so)."""


def missing_extra(engine_given: bool) -> str | None:
    """Which part of the speech extra is missing, if any (decoding needs PyAV and numpy)."""
    needed = ("av", "numpy") if engine_given else ("faster_whisper", "av", "numpy")
    for module in needed:
        if importlib.util.find_spec(module) is None:
            return module
    return None


class Transcriber:
    """A bounded transcription queue, or a clear 503 when speech is not installed."""

    def __init__(
        self, pool: TranscriptionPool | None, limits: AudioLimits, queue: JobQueue | None = None
    ) -> None:
        self.pool = pool
        self.limits = limits
        self.queue = queue

    @classmethod
    def from_settings(cls, settings: Settings, engine: SpeechEngine | None = None) -> Transcriber:
        """A pool over ``engine`` (tests pass a ScriptedEngine) or the engine the settings choose."""
        limits = AudioLimits(
            max_bytes=settings.max_audio_bytes, max_seconds=float(settings.max_audio_seconds)
        )
        if settings.queue_url:
            from viva.jobqueue import JobQueue  # needs the queue extra, only on team servers

            return cls(None, limits, JobQueue.from_settings(settings))
        if missing_extra(engine is not None) is not None:
            return cls(None, limits)
        workers = max(1, settings.transcription_workers)
        chosen = engine if engine is not None else engine_from_settings(settings, workers=workers)
        pool = TranscriptionPool(
            chosen, workers=workers, max_waiting=settings.transcription_queue, limits=limits
        )
        return cls(pool, limits)

    @property
    def ready(self) -> bool:
        return self.pool is not None or self.queue is not None

    def require(self) -> TranscriptionPool:
        if self.pool is None:
            raise Unavailable("spoken answers need the speech extra on the server", hint=INSTALL_HINT)
        return self.pool

    async def transcribe(self, data: bytes, hotwords: Sequence[str]) -> Transcript:
        """Queue ``data`` and wait for its transcript (InvalidInput, TooLarge or Unavailable)."""
        return await self.require().transcribe(data, hotwords)

    async def read(self, upload: UploadFile | None) -> bytes:
        """An uploaded recording's bytes, refusing more than the limit without reading past it."""
        if self.queue is None:
            self.require()
        if upload is None:
            raise InvalidInput("no recording was uploaded", hint="record an answer or choose a file")
        data = await upload.read(self.limits.max_bytes + 1)
        if len(data) > self.limits.max_bytes:
            raise TooLarge(
                f"the recording is over the {self.limits.max_bytes / 2**20:.0f} MiB limit",
                hint="record in WebM/Opus or Ogg/Opus, which are far smaller than WAV",
            )
        return data

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
        if self.queue is not None:
            self.queue.close()


def mime_of(data: bytes) -> str:
    """The MIME type of a recording that has already decoded (so its format is known)."""
    return MIME.get(sniff_format(data[:16]) or "", "application/octet-stream")
