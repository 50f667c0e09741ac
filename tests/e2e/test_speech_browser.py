"""A spoken answer in a real browser: record with the microphone (Chromium's fake capture
device playing an espeak-ng recording), stop, check and correct the transcript, mark it,
and read the delivery measures beside the highlighted evidence; then delete the recording.

The server transcribes with the real Whisper engine (the packaged tiny.en)."""

from __future__ import annotations

import json
import urllib.request
import uuid
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import launch, shoot
from tests.speech.sounds import speak

pytestmark = [pytest.mark.e2e, pytest.mark.speech]


def _question(server: str) -> tuple[str, dict[str, Any]]:
    """A topic id and its first top-level question."""
    with urllib.request.urlopen(server + "/api/v1/topics") as response:
        topics = json.load(response)
    for topic in topics:
        for section in topic["sections"]:
            with urllib.request.urlopen(f"{server}/api/v1/sections/{section['id']}?answers=true") as response:
                for question in json.load(response)["question_list"]:
                    if question["parent_id"] is None and question["points"]:
                        return topic["id"], question
    pytest.skip("no question with marking points in the bank")


@pytest.fixture(scope="module")
def answer(server: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any], str, Path]:
    topic_id, question = _question(server)
    said = question["points"][0]["text"]  # one point: a short clip keeps the test quick
    return topic_id, question, said, speak(said, tmp_path_factory.mktemp("voice") / "answer.wav")


@pytest.fixture(scope="module")
def microphone(playwright: Any, answer: tuple[str, dict[str, Any], str, Path]) -> Iterator[Any]:
    """Chromium whose microphone plays the spoken answer (permission granted, no prompt)."""
    chromium = launch(
        playwright,
        (
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-audio-capture={answer[3]}",
        ),
    )
    yield chromium
    chromium.close()


@pytest.fixture
def page(microphone: Any, server: str) -> Iterator[Any]:
    """A fresh candidate, signed up, in their own browser context."""
    context = microphone.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.problems = problems
    page.goto(server + "/signup")
    page.get_by_label("Name").fill(f"voice-{uuid.uuid4().hex[:8]}")
    page.get_by_label("Password").fill("a long enough password")
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(server + "/")
    yield page
    context.close()


def _seconds(wav: Path) -> float:
    with wave.open(str(wav), "rb") as f:
        return f.getnframes() / f.getframerate()


def test_record_check_correct_and_mark_a_spoken_answer(
    page: Any, server: str, answer: tuple[str, dict[str, Any], str, Path]
) -> None:
    topic_id, question, said, wav = answer
    page.goto(f"{server}/practice/{question['id']}?scope={topic_id}")
    record = page.locator("[data-record]")
    assert record.is_visible(), "with JavaScript and a microphone the record button shows"
    page.get_by_label("Keep my recording").check()
    record.click()
    page.wait_for_selector('[data-record][aria-pressed="true"]')
    page.wait_for_timeout(int(_seconds(wav) * 1000) + 600)
    assert page.locator("[data-timer]").inner_text() != "0:00"
    shoot(page, "speech-01-recording", full_page=False)
    record.click()  # stop: the recording uploads and is transcribed

    transcript = page.locator("[data-transcript]")
    transcript.wait_for(timeout=60_000)
    heard = transcript.input_value()
    assert heard.strip(), "the transcript is shown for checking"
    assert "will be kept" in page.content()
    shoot(page, "speech-02-check-transcript", full_page=False)

    transcript.fill(said)  # the candidate corrects what was misheard
    page.get_by_role("button", name="Mark my answer").click()
    page.wait_for_selector(".marking")
    delivery = page.locator(".delivery")
    assert delivery.is_visible() and "words a minute" in delivery.inner_text()
    assert "First point after" in delivery.inner_text()
    assert page.locator(".your-answer mark.covered").count() >= 1, "evidence is highlighted"
    assert page.locator(".recordings audio").count() == 1
    shoot(page, "speech-03-marking-and-delivery")
    # the wider spoken marking card does not leave the cards under it narrower
    marking = page.locator("section.marking").bounding_box()
    for card in ("section.follow-up-ask", "section.self-check"):
        if page.locator(card).count():
            box = page.locator(card).bounding_box()
            assert abs(box["width"] - marking["width"]) < 1, f"{card}: {box['width']} vs {marking['width']}"

    page.get_by_role("button", name="Delete this recording").click()
    page.locator(".recordings audio").wait_for(state="detached")
    assert page.locator(".delivery").is_visible()  # the attempt and its measures stay
    assert not page.problems, page.problems


def test_without_javascript_a_recording_file_is_uploaded_checked_and_marked(
    microphone: Any, server: str, answer: tuple[str, dict[str, Any], str, Path]
) -> None:
    topic_id, question, said, wav = answer
    context = microphone.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(server + "/signup")
        page.get_by_label("Name").fill(f"plain-{uuid.uuid4().hex[:8]}")
        page.get_by_label("Password").fill("a long enough password")
        page.get_by_role("button", name="Create my account").click()
        page.wait_for_url(server + "/")
        page.goto(f"{server}/practice/{question['id']}?scope={topic_id}")
        assert not page.locator("[data-record]").is_visible()  # recording needs the script
        page.get_by_label("A recording of your answer").set_input_files(str(wav))
        page.get_by_role("button", name="Transcribe it").click()
        transcript = page.locator("[data-transcript]")
        transcript.wait_for(timeout=60_000)
        assert transcript.input_value().strip() and "not kept" in page.content()
        transcript.fill(said)
        page.get_by_role("button", name="Mark my answer").click()
        page.wait_for_selector(".delivery")
        assert page.locator(".your-answer mark.covered").count() >= 1
        assert page.locator(".recordings audio").count() == 0  # not kept unless asked
        shoot(page, "speech-04-without-javascript")
    finally:
        context.close()
