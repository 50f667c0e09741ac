"""A spoken answer on a team server, in a real browser: ``viva serve --queue`` with no worker
yet, so the upload page shows the job's real place in the queue; then a ``viva worker``
starts and the check step replaces it. Without JavaScript the job's page refreshes itself
until the transcript is ready.

Real processes: the server, the worker (the packaged tiny.en), Redis, Chromium."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import shoot
from tests.factories import write_bank
from tests.jobqueue.processes import VIVA, environment, free_port, start, stop, wait_for
from tests.jobqueue.redis_queue import fresh_queue
from tests.speech.sounds import speak

pytestmark = [pytest.mark.e2e, pytest.mark.speech]

SAID = "Decode is memory bound: every step reads all of the weights for very little arithmetic."


class Team:
    def __init__(self, url: str, env: dict[str, str], logs: Path) -> None:
        self.url, self.env, self.logs = url, env, logs
        self.workers: list[Any] = []

    def start_worker(self) -> None:
        n = len(self.workers)
        self.workers.append(start([*VIVA, "worker"], self.env, self.logs / f"worker-{n}.log"))


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Team]:
    logs = tmp_path_factory.mktemp("team")
    with fresh_queue() as (queue_url, name):
        env = environment(
            VIVA_DATA_DIR=str(logs), VIVA_DATABASE_URL=f"sqlite:///{logs / 'team.sqlite3'}",
            VIVA_CONTENT_DIR=str(write_bank(tmp_path_factory.mktemp("bank"))), VIVA_QUEUE_URL=queue_url,
            VIVA_QUEUE_NAME=name, VIVA_WHISPER_MODEL="tiny.en", VIVA_QUEUE_LEASE_SECONDS="5",
        )  # fmt: skip
        port = free_port()
        server = start([*VIVA, "serve", "--port", str(port), "--multi-user"], env, logs / "serve.log")
        team = Team(f"http://127.0.0.1:{port}", env, logs)
        try:
            import httpx

            wait_for("the server", lambda: _up(httpx, team.url), timeout=60, every=0.3)
            yield team
        finally:
            for process in [server, *team.workers]:
                stop(process)


def _up(httpx: Any, url: str) -> bool:
    try:
        return bool(httpx.get(url + "/healthz", timeout=2).status_code == 200)
    except httpx.HTTPError:
        return False


@pytest.fixture(scope="module")
def wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return speak(SAID, tmp_path_factory.mktemp("voice") / "answer.wav")


def _sign_up(page: Any, url: str) -> None:
    page.goto(url + "/signup")
    page.get_by_label("Name").fill(f"team-{uuid.uuid4().hex[:8]}")
    page.get_by_label("Password").fill("a long enough password")
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(url + "/")


def test_the_upload_shows_its_place_in_the_queue_then_the_transcript(
    browser: Any, team: Team, wav: Path
) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        _sign_up(page, team.url)
        page.goto(f"{team.url}/practice/demo/bound?scope=demo")
        page.get_by_label("A recording of your answer").set_input_files(str(wav))
        page.get_by_role("button", name="Transcribe it").click()
        status = page.locator("[data-speak-status]")
        status.filter(has_text="Waiting for a transcriber: 1st in the queue").wait_for(timeout=20_000)
        shoot(page, "queue-01-waiting", full_page=False)
        assert page.locator("[data-transcript]").count() == 0  # no worker yet: nothing is transcribed

        team.start_worker()
        transcript = page.locator("[data-transcript]")
        transcript.wait_for(timeout=90_000)
        assert "arithmetic" in transcript.input_value().lower()
        shoot(page, "queue-02-transcribed", full_page=False)
        assert not problems, problems
    finally:
        context.close()


def test_without_javascript_the_job_page_refreshes_until_the_transcript_is_ready(
    browser: Any, team: Team, wav: Path
) -> None:
    if not team.workers:
        team.start_worker()
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        _sign_up(page, team.url)
        page.goto(f"{team.url}/practice/demo/bound")
        page.get_by_label("A recording of your answer").set_input_files(str(wav))
        page.get_by_role("button", name="Transcribe it").click()
        page.wait_for_url(f"{team.url}/transcriptions/**")
        transcript = page.locator("[data-transcript]")
        transcript.wait_for(timeout=90_000)  # the page reloads itself every 2 s (Refresh header)
        assert "arithmetic" in transcript.input_value().lower()
    finally:
        context.close()
