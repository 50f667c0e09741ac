"""``viva transcribe``: JSON for machines, one line and exit 1 for a bad recording."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.factories import write_bank
from tests.speech.sounds import encode
from viva.cli import app

runner = CliRunner()


@pytest.mark.speech
def test_transcribe_json(answer_wav: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIVA_WHISPER_MODEL", "tiny.en")
    bank = write_bank(tmp_path / "content")
    webm = encode(answer_wav, "webm")

    result = runner.invoke(
        app, ["--content", str(bank), "transcribe", str(webm), "--question", "demo/bound", "--format", "json"]
    )

    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert {"text", "duration_s", "words", "words_per_minute", "fillers", "pauses", "engine"} <= set(doc)
    assert "matrix" in doc["text"].lower()
    assert doc["engine"] == "faster-whisper/tiny.en"
    assert set(doc["words"][0]) == {"word", "start", "end"}
    assert 100 < doc["words_per_minute"] < 220


@pytest.mark.speech
def test_transcribe_text(answer_wav: Path) -> None:
    result = runner.invoke(app, ["transcribe", str(answer_wav), "--model", "tiny.en"])
    assert result.exit_code == 0, result.output
    assert "Delivery" in result.stdout and "words a minute" in result.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"", "the recording is empty"), (b"\x00\x01garbage" * 100, "not a recording Viva can read")],
)
def test_bad_recordings_are_one_line_and_exit_1(tmp_path: Path, content: bytes, message: str) -> None:
    bad = tmp_path / "answer.webm"
    bad.write_bytes(content)
    result = runner.invoke(app, ["transcribe", str(bad)])
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_missing_file_is_a_user_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["transcribe", str(tmp_path / "gone.ogg")])
    assert result.exit_code == 1
    assert "cannot read" in result.stderr


@pytest.mark.speech
def test_mark_audio_carries_the_transcript_and_delivery(
    clips: Callable[[str, str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VIVA_WHISPER_MODEL", "tiny.en")
    bank = write_bank(tmp_path / "content")
    spoken = encode(clips("bound", "Decode is memory bound. Every step reads all the weights."), "ogg")

    result = runner.invoke(
        app, ["--content", str(bank), "mark", "demo/bound", "--audio", str(spoken), "--format", "json"]
    )

    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["verdict"] == "strong"
    assert doc["answer"] == doc["transcript"]["text"]
    assert doc["transcript"]["engine"] == "faster-whisper/tiny.en"
    assert doc["delivery"]["first_point_s"] is not None
    assert {"words_per_minute", "fillers", "pauses", "guidance"} <= set(doc["delivery"])


def test_mark_audio_with_a_bad_recording(tmp_path: Path) -> None:
    bank = write_bank(tmp_path / "content")
    bad = tmp_path / "answer.ogg"
    bad.write_bytes(b"OggS truncated")
    result = runner.invoke(app, ["--content", str(bank), "mark", "demo/bound", "--audio", str(bad)])
    assert result.exit_code == 1
    assert "cut short" in result.stderr
