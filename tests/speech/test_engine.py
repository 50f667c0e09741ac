"""The real engine (faster-whisper, the packaged tiny.en model) on speech made by espeak-ng."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.speech.sounds import encode, with_gap, write_wav
from viva.errors import InvalidInput
from viva.speech import TranscriptionPool, WhisperEngine, decode_audio, measure_delivery

pytestmark = pytest.mark.speech

Clips = Callable[[str, str], Path]
KEY_WORDS = {"gpus", "deep", "learning", "matrix", "parallel", "thousands", "cores", "memory", "bandwidth"}


def words_of(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


@pytest.mark.parametrize("kind", ["wav", "webm", "ogg", "m4a"])
def test_hears_the_answer_in_every_container(engine: WhisperEngine, answer_wav: Path, kind: str) -> None:
    source = answer_wav if kind == "wav" else encode(answer_wav, kind)
    audio = decode_audio(source.read_bytes())

    transcript = engine.transcribe(audio)

    assert len(KEY_WORDS & words_of(transcript.text)) >= 7, transcript.text
    assert transcript.engine == "faster-whisper/tiny.en"
    assert transcript.duration_s == pytest.approx(audio.duration_s, abs=0.01)
    starts = [w.start for w in transcript.words]
    assert starts == sorted(starts)
    assert all(0 <= w.start <= w.end <= transcript.duration_s + 0.5 for w in transcript.words)


def test_hotwords_never_put_words_in_the_candidates_mouth(engine: WhisperEngine, clips: Clips) -> None:
    unrelated = clips("weather", "The weather in Paris was mild, and the trains ran on time all week.")
    hotwords = ["HBM", "tensor cores", "FlashAttention", "NVLink", "kernel fusion", "roofline"]

    transcript = engine.transcribe(decode_audio(unrelated.read_bytes()), hotwords)

    assert {"weather", "paris", "trains"} <= words_of(transcript.text)
    said = transcript.text.lower()
    assert not [term for term in hotwords if term.lower() in said], transcript.text


def test_a_long_pause_shows_in_the_word_timings(engine: WhisperEngine, clips: Clips, tmp_path: Path) -> None:
    first = clips("first", "First the kernel loads a tile into shared memory.")
    second = clips("second", "Then the tensor cores multiply it.")
    paused = with_gap(first, second, 4.5, tmp_path / "paused.wav")

    delivery = measure_delivery(engine.transcribe(decode_audio(paused.read_bytes())))

    assert len(delivery.pauses) == 1
    assert 3.0 < delivery.pauses[0].duration_s < 5.5
    assert {g.measure: g.status for g in delivery.guidance}["pauses"] == "work-on"


def test_noise_without_speech_is_refused(engine: WhisperEngine, tmp_path: Path) -> None:
    import numpy as np

    hiss = (np.random.default_rng(6).normal(0, 600, 16_000 * 4)).astype(
        np.int16
    )  # loud enough not to be "silent"
    audio = decode_audio(write_wav(tmp_path / "hiss.wav", hiss).read_bytes())
    with pytest.raises(InvalidInput, match="no speech"):
        engine.transcribe(audio, ["HBM", "tensor cores"])


def test_the_pool_keeps_the_event_loop_free_during_real_work(engine: WhisperEngine, answer_wav: Path) -> None:
    data = answer_wav.read_bytes()

    async def scenario() -> float:
        pool = TranscriptionPool(engine, workers=1)
        job = pool.submit(data)
        worst = 0.0
        while not job._task.done():  # type: ignore[union-attr]
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            worst = max(worst, time.perf_counter() - before)
        transcript = await job.result()
        assert "matrix" in transcript.text.lower()
        pool.close()
        return worst

    assert asyncio.run(scenario()) < 0.25
