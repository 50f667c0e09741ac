"""Decoding what browsers and phones record, and refusing everything else clearly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.speech.sounds import CONTAINERS, encode, read_wav, silence, write_wav
from viva.errors import InvalidInput, TooLarge
from viva.speech.audio import SAMPLE_RATE, AudioLimits, decode_audio, read_recording, sniff_format


@pytest.mark.parametrize("kind", ["wav", *CONTAINERS])
def test_decodes_every_common_recording_to_16k_mono(answer_wav: Path, kind: str) -> None:
    source = answer_wav if kind == "wav" else encode(answer_wav, kind)
    samples, rate = read_wav(answer_wav)

    audio = decode_audio(source.read_bytes())

    assert audio.samples.dtype == np.float32
    assert audio.samples.ndim == 1
    assert audio.duration_s == pytest.approx(len(samples) / rate, abs=0.1)
    assert 0.05 < float(np.abs(audio.samples).max()) <= 1.0


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"RIFF\x00\x00\x00\x00WAVEfmt ", "wav"),
        (b"OggS\x00\x02", "ogg"),
        (b"\x1a\x45\xdf\xa3\x9f", "matroska"),
        (b"\x00\x00\x00\x1cftypM4A ", "mp4"),
        (b"fLaC\x00", "flac"),
        (b"ID3\x04\x00", "mp3"),
        (b"#EXTM3U\n#EXT-X-VERSION:3\n", None),  # a playlist must never reach FFmpeg
        (b"ffconcat version 1.0\n", None),
        (b"%PDF-1.7\n", None),
        (b"", None),
    ],
)
def test_only_known_containers_are_opened(head: bytes, expected: str | None) -> None:
    assert sniff_format(head) == expected


def test_empty_upload() -> None:
    with pytest.raises(InvalidInput, match="empty"):
        decode_audio(b"")


def test_random_bytes() -> None:
    noise = np.random.default_rng(6).integers(0, 256, 8000, dtype=np.uint8).tobytes()
    with pytest.raises(InvalidInput, match="not a recording"):
        decode_audio(noise)


def test_playlist_is_unsupported() -> None:
    with pytest.raises(InvalidInput, match="not a recording"):
        decode_audio(b"#EXTM3U\n#EXTINF:10,\nfile:///etc/passwd\n")


@pytest.mark.parametrize("kind", ["wav", *CONTAINERS])
def test_truncated_recording(answer_wav: Path, kind: str) -> None:
    source = answer_wav if kind == "wav" else encode(answer_wav, kind)
    data = source.read_bytes()
    with pytest.raises(InvalidInput, match=r"cut short|damaged"):
        decode_audio(data[: len(data) // 2])


@pytest.mark.parametrize("kind", ["wav", *CONTAINERS])
def test_header_only(answer_wav: Path, kind: str) -> None:
    source = answer_wav if kind == "wav" else encode(answer_wav, kind)
    with pytest.raises(InvalidInput):
        decode_audio(source.read_bytes()[:64])


def test_ten_minutes_of_silence_is_over_the_limit(tmp_path: Path) -> None:
    long = write_wav(tmp_path / "long.wav", silence(600))
    with pytest.raises(TooLarge, match="10:00 long; the limit is 5:00"):
        decode_audio(long.read_bytes())


def test_length_is_checked_while_decoding_when_the_header_is_silent(tmp_path: Path) -> None:
    # A streaming writer's WAV states no length, so only the decoded samples can tell.
    data = bytearray(write_wav(tmp_path / "stream.wav", silence(12)).read_bytes())
    data[4:8] = b"\xff\xff\xff\xff"
    data[40:44] = b"\xff\xff\xff\xff"
    with pytest.raises(TooLarge, match="limit is 0:10"):
        decode_audio(bytes(data), AudioLimits(max_seconds=10))


def test_silent_clip(tmp_path: Path) -> None:
    quiet = write_wav(tmp_path / "quiet.wav", silence(3))
    with pytest.raises(InvalidInput, match="silent"):
        decode_audio(quiet.read_bytes())


def test_too_short(tmp_path: Path) -> None:
    tone = (8000 * np.sin(np.arange(3200) * 0.2)).astype(np.int16)  # 0.2 s
    with pytest.raises(InvalidInput, match="too short"):
        decode_audio(write_wav(tmp_path / "blip.wav", tone).read_bytes())


def test_too_many_bytes_is_refused_before_reading(answer_wav: Path) -> None:
    limits = AudioLimits(max_bytes=1024)
    with pytest.raises(TooLarge, match="MiB"):
        read_recording(answer_wav, limits)
    with pytest.raises(TooLarge):
        decode_audio(answer_wav.read_bytes(), limits)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="cannot read"):
        read_recording(tmp_path / "nothing.webm")


def test_resamples_to_16k(tmp_path: Path) -> None:
    rate = 44_100
    tone = (8000 * np.sin(2 * np.pi * 440 * np.arange(rate) / rate)).astype(np.int16)
    audio = decode_audio(write_wav(tmp_path / "tone.wav", tone, rate).read_bytes())
    assert len(audio.samples) == pytest.approx(SAMPLE_RATE, abs=50)
