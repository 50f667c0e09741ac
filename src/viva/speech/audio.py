"""Audio in: whatever a browser or phone records → 16 kHz mono float32 samples.

Decoding uses PyAV (FFmpeg's libraries, bundled in its wheel). Uploaded bytes are
untrusted, so the container is recognised from its first bytes and only that one demuxer
is opened: FFmpeg's own probing could otherwise pick a playlist demuxer (HLS, concat) that
follows URLs or local paths named inside the file.

Every way a recording can be unusable ends in one :class:`~viva.errors.InvalidInput`
(or :class:`~viva.errors.TooLarge`) with a message for the candidate; nothing else escapes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from viva.errors import InvalidInput, TooLarge, Unavailable

if TYPE_CHECKING:  # numpy and PyAV come with the speech extra; importing this module needs neither
    import av
    import numpy as np
    import numpy.typing as npt

SAMPLE_RATE = 16_000
SUPPORTED = "WebM/Opus, Ogg/Opus, MP4/AAC, WAV, MP3 or FLAC"

# The loudest 50 ms of a recording with any speech in it is far above this (-50 dBFS).
_SILENCE_RMS = 10 ** (-50 / 20)
_WINDOW = SAMPLE_RATE // 20


@dataclass(frozen=True)
class AudioLimits:
    """What a recording may be: at most a few minutes and a bounded number of bytes."""

    max_bytes: int = 64 * 1024 * 1024  # five minutes of 48 kHz stereo WAV fits
    max_seconds: float = 300.0
    min_seconds: float = 0.5


DEFAULT_LIMITS = AudioLimits()


@dataclass(frozen=True, eq=False)
class Audio:
    """Mono samples in [-1, 1] at :data:`SAMPLE_RATE`."""

    samples: npt.NDArray[np.float32]

    @property
    def duration_s(self) -> float:
        return len(self.samples) / SAMPLE_RATE


def sniff_format(head: bytes) -> str | None:
    """The FFmpeg demuxer for a recording that starts with ``head``, or None if unsupported."""
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "wav"
    if head[:4] == b"OggS":
        return "ogg"
    if head[:4] == b"\x1a\x45\xdf\xa3":
        return "matroska"  # WebM is a Matroska profile
    if head[4:8] == b"ftyp":
        return "mp4"
    if head[:4] == b"fLaC":
        return "flac"
    if head[:3] == b"ID3" or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0):
        return "mp3"
    return None


def read_recording(path: str | Path, limits: AudioLimits = DEFAULT_LIMITS) -> bytes:
    """The bytes of a recording on disk, refusing oversized files before reading them."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > limits.max_bytes:
            raise _too_many_bytes(size, limits)
        return path.read_bytes()
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}") from None


def decode_audio(data: bytes, limits: AudioLimits = DEFAULT_LIMITS) -> Audio:
    """Decode a recording and resample it to 16 kHz mono, or say why it cannot be used."""
    if not data:
        raise InvalidInput("the recording is empty", hint="nothing was uploaded")
    if len(data) > limits.max_bytes:
        raise _too_many_bytes(len(data), limits)
    try:
        import av
    except ImportError:
        raise Unavailable("reading audio needs the speech extra", hint="pip install 'viva[speech]'") from None
    fmt = sniff_format(data[:16])
    if fmt is None:
        raise InvalidInput("this is not a recording Viva can read", hint=f"use {SUPPORTED}")
    if not _looks_complete(data, fmt):
        raise InvalidInput("the recording is cut short", hint="the upload ended before the file did")
    try:
        with av.open(io.BytesIO(data), mode="r", format=fmt, metadata_errors="ignore") as container:
            samples = _decode(container, limits)
    except (av.FFmpegError, EOFError, OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(
            "the recording is damaged or cut short",
            hint=f"could not decode it: {getattr(exc, 'strerror', None) or exc}",
        ) from None
    audio = Audio(samples)
    if audio.duration_s < limits.min_seconds:
        raise InvalidInput(
            "the recording is too short to hold an answer",
            hint=f"{audio.duration_s:.1f} s; record at least {limits.min_seconds:g} s",
        )
    if is_silent(audio):
        raise InvalidInput("the recording is silent", hint="check that the microphone is on")
    return audio


def is_silent(audio: Audio) -> bool:
    """True when even the loudest 50 ms is quieter than -50 dBFS."""
    import numpy as np

    usable = len(audio.samples) - len(audio.samples) % _WINDOW
    if usable == 0:
        return True
    windows = audio.samples[:usable].reshape(-1, _WINDOW).astype(np.float64)
    return float(np.sqrt((windows**2).mean(axis=1)).max()) < _SILENCE_RMS


def _decode(container: av.container.InputContainer, limits: AudioLimits) -> npt.NDArray[np.float32]:
    import av
    import numpy as np

    if not container.streams.audio:
        raise InvalidInput("the file has no audio track", hint=f"use {SUPPORTED}")
    stream = container.streams.audio[0]
    declared = _declared_seconds(container, stream)
    if declared is not None and declared > limits.max_seconds + 1:
        raise _too_long(declared, limits)

    resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
    max_samples = int((limits.max_seconds + 1) * SAMPLE_RATE)
    chunks: list[npt.NDArray[np.float32]] = []
    count = 0
    for frame in container.decode(stream):
        for out in resampler.resample(frame):
            chunk = out.to_ndarray().reshape(-1).astype(np.float32, copy=False)
            chunks.append(chunk)
            count += len(chunk)
        if count > max_samples:
            raise _too_long(count / SAMPLE_RATE, limits)
    for out in resampler.resample(None):
        chunks.append(out.to_ndarray().reshape(-1).astype(np.float32, copy=False))

    samples = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float32)
    decoded = len(samples) / SAMPLE_RATE
    if declared is not None and decoded < 0.9 * declared - 0.5:
        raise InvalidInput(
            "the recording is cut short",
            hint=f"it says {declared:.1f} s but only {decoded:.1f} s could be decoded",
        )
    return np.clip(samples, -1.0, 1.0)


def _looks_complete(data: bytes, fmt: str) -> bool:
    """Catch truncation that decoders hide: they play what is there and stop quietly.

    A WAV file states its length in the RIFF header (streaming writers put 0 or 0xFFFFFFFF
    there when they cannot know it); an Ogg stream's last page carries the end-of-stream flag.
    Other containers are checked by comparing the decoded length with the declared one.
    """
    if fmt == "wav":
        riff_size = int.from_bytes(data[4:8], "little")
        return riff_size in (0, 0xFFFFFFFF) or riff_size + 8 <= len(data)
    if fmt == "ogg":
        last_page = data.rfind(b"OggS")
        return last_page + 5 < len(data) and bool(data[last_page + 5] & 0x04)
    return True


def _declared_seconds(container: av.container.InputContainer, stream: av.AudioStream) -> float | None:
    """The length the container claims (browser WebM often claims none)."""
    import av

    if stream.duration is not None and stream.time_base is not None:
        return float(stream.duration * stream.time_base)
    if container.duration is not None:
        return container.duration / av.time_base
    return None


def _too_long(seconds: float, limits: AudioLimits) -> TooLarge:
    return TooLarge(
        f"the recording is {_clock(seconds)} long; the limit is {_clock(limits.max_seconds)}",
        hint="answer in a few minutes",
    )


def _too_many_bytes(size: int, limits: AudioLimits) -> TooLarge:
    return TooLarge(
        f"the recording is {size / 2**20:.1f} MiB; the limit is {limits.max_bytes / 2**20:.0f} MiB",
        hint="record in WebM/Opus or Ogg/Opus, which are far smaller than WAV",
    )


def _clock(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes}:{secs:02d}"
