"""Speech: any common recording → a timed :class:`Transcript` → delivery measures.

    audio bytes ─decode_audio─▶ Audio (16 kHz mono) ─SpeechEngine.transcribe─▶ Transcript
                                                                       │
                                              measure_delivery(transcript, marking?) ─▶ Delivery

The front door for one file is :func:`transcribe_file`; a server queues uploads through a
:class:`TranscriptionPool`. Speech never marks anything: marking takes ``transcript.text``.
The real engine needs the ``speech`` extra (faster-whisper and PyAV).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from viva.settings import Settings
from viva.speech.audio import DEFAULT_LIMITS, Audio, AudioLimits, decode_audio, read_recording
from viva.speech.delivery import Delivery, measure_delivery
from viva.speech.engines import (
    ScriptedEngine,
    SpeechEngine,
    WhisperEngine,
    engine_from_settings,
)
from viva.speech.hotwords import hotwords_for
from viva.speech.queue import TranscriptionJob, TranscriptionPool
from viva.speech.transcript import Transcript, Word

__all__ = [
    "Audio",
    "AudioLimits",
    "Delivery",
    "ScriptedEngine",
    "SpeechEngine",
    "Transcript",
    "TranscriptionJob",
    "TranscriptionPool",
    "WhisperEngine",
    "Word",
    "decode_audio",
    "engine_from_settings",
    "hotwords_for",
    "measure_delivery",
    "read_recording",
    "transcribe_file",
]


def transcribe_file(
    path: str | Path,
    settings: Settings,
    hotwords: Sequence[str] | None = None,
    *,
    engine: SpeechEngine | None = None,
    limits: AudioLimits = DEFAULT_LIMITS,
) -> Transcript:
    """Decode and transcribe one recording, in this thread (the CLI's path)."""
    audio = decode_audio(read_recording(path, limits), limits)
    return (engine or engine_from_settings(settings)).transcribe(audio, hotwords)
