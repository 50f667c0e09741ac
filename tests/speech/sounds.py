"""Real sound made at test time: espeak-ng speaks, numpy makes silence and noise, and PyAV
re-encodes into the containers browsers and phones produce. Nothing is downloaded."""

from __future__ import annotations

import os
import shutil
import subprocess
import wave
from pathlib import Path

import av
import numpy as np
import numpy.typing as npt
import pytest

VOICE = "en-us"
WORDS_PER_MINUTE = 160

# (container, codec, sample rate): what Chrome/Firefox MediaRecorder, Safari and iOS record.
CONTAINERS = {
    "webm": ("webm", "libopus", 48_000),
    "ogg": ("ogg", "libopus", 48_000),
    "m4a": ("mp4", "aac", 44_100),
}


def need_espeak() -> str:
    """espeak-ng's path; outside CI a missing one skips, in CI it fails (an install step is missing)."""
    path = shutil.which("espeak-ng")
    if path is None:
        message = "espeak-ng is not installed (apt-get install espeak-ng)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def speak(text: str, path: Path, *, speed: int = WORDS_PER_MINUTE) -> Path:
    """``text`` read aloud by espeak-ng into a 22.05 kHz mono WAV file."""
    subprocess.run(
        [need_espeak(), "-v", VOICE, "-s", str(speed), "-w", str(path), text],
        check=True,
        capture_output=True,
    )
    return path


def read_wav(path: Path) -> tuple[npt.NDArray[np.int16], int]:
    with wave.open(str(path), "rb") as wav:
        frames = wav.readframes(wav.getnframes())
        return np.frombuffer(frames, dtype=np.int16), wav.getframerate()


def write_wav(path: Path, samples: npt.NDArray[np.int16], rate: int = 16_000) -> Path:
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(samples.astype(np.int16).tobytes())
    return path


def silence(seconds: float, rate: int = 16_000) -> npt.NDArray[np.int16]:
    return np.zeros(int(seconds * rate), dtype=np.int16)


def with_gap(first: Path, second: Path, gap_s: float, path: Path) -> Path:
    """Two spoken clips with ``gap_s`` seconds of silence between them."""
    a, rate = read_wav(first)
    b, _ = read_wav(second)
    return write_wav(path, np.concatenate([a, silence(gap_s, rate), b]), rate)


def encode(src: Path, kind: str) -> Path:
    """Re-encode a WAV as WebM/Opus, Ogg/Opus or MP4/AAC with PyAV."""
    container, codec, rate = CONTAINERS[kind]
    dest = src.with_suffix(f".{kind}")
    with av.open(str(src)) as inp, av.open(str(dest), "w", format=container) as out:
        stream = out.add_stream(codec, rate=rate, layout="mono")
        assert isinstance(stream, av.AudioStream)
        for frame in inp.decode(audio=0):
            frame.pts = None
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return dest
