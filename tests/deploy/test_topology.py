"""The compose file's topology, run here as processes: nginx → 2 × ``viva serve`` →
Redis queue → 2 × ``viva worker``, one PostgreSQL. A candidate answers out loud through the
proxy; the upload page's job goes queued → running → done; the JSON API waits for its
transcript; a job in flight survives both web replicas being restarted.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest

from tests.deploy.topology import Topology, compose, running_topology
from tests.factories import write_bank
from tests.jobqueue.processes import postgres_schema, wait_for
from tests.jobqueue.redis_queue import fresh_queue
from tests.speech.sounds import speak

pytestmark = [pytest.mark.speech, pytest.mark.postgres]

SAID = "Decode is memory bound: every step reads all of the weights from memory for very little arithmetic."
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
TOKEN = re.compile(r'name="token" value="([^"]+)"')


@pytest.fixture(scope="module")
def topology(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Topology]:
    logs = tmp_path_factory.mktemp("topology")
    bank = write_bank(tmp_path_factory.mktemp("bank"))
    with ExitStack() as stack:
        url, name = stack.enter_context(fresh_queue())
        database = stack.enter_context(postgres_schema())
        yield stack.enter_context(
            running_topology(database, url, name, bank, logs, VIVA_QUEUE_LEASE_SECONDS="5")
        )


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return speak(SAID, tmp_path_factory.mktemp("clip") / "said.wav").read_bytes()


def _candidate(topology: Topology) -> httpx.Client:
    client = httpx.Client(base_url=topology.proxy_url, timeout=60, follow_redirects=False)
    page = client.get("/signup")
    csrf = CSRF.search(page.text)
    assert csrf is not None
    name = f"team-{time.monotonic_ns()}"
    signed = client.post("/signup", data={"name": name, "password": "correct horse battery",
                                          "csrf_token": csrf.group(1)})  # fmt: skip
    assert signed.status_code == 303, signed.text
    return client


def _upload(client: httpx.Client, clip: bytes) -> str:
    csrf = CSRF.search(client.get("/practice/demo/bound").text)
    assert csrf is not None
    response = client.post(
        "/practice/demo/bound/audio",
        data={"csrf_token": csrf.group(1)},
        files={"audio": ("answer.wav", clip, "audio/wav")},
    )
    assert response.status_code == 303, response.text
    return response.headers["location"].split("/")[2]


def test_the_compose_file_declares_the_team_topology() -> None:
    services = compose()["services"]
    assert set(services) == {"web", "worker", "proxy", "postgres", "redis"}
    assert services["web"]["deploy"]["replicas"] == 2 and services["worker"]["deploy"]["replicas"] == 2
    assert services["web"]["command"][:2] == ["viva", "serve"] and services["worker"]["command"] == [
        "viva",
        "worker",
    ]


def test_ready_only_with_workers_then_an_answer_goes_through_the_queue(
    topology: Topology, clip: bytes
) -> None:
    ready = wait_for(
        "readyz to see both workers",
        lambda: (
            (r := httpx.get(f"{topology.proxy_url}/readyz")).status_code == 200
            and r.json()["checks"]["workers"] == 2
            and r
        ),
        timeout=120,
        every=0.5,
    )
    assert ready.json()["checks"] == {"database": "ok", "redis": "ok", "workers": 2}

    client = _candidate(topology)
    job = _upload(client, clip)
    seen: list[str] = []

    def settled() -> bool:
        state = client.get(f"/api/v1/transcriptions/{job}").json()["state"]
        if not seen or seen[-1] != state:
            seen.append(state)
        return state in ("done", "failed")

    wait_for("the transcript", settled, timeout=120, every=0.05)
    assert seen[0] in ("queued", "running") and seen[-1] == "done", seen
    check = client.get(f"/transcriptions/{job}")
    assert "memory" in check.text.lower() and TOKEN.search(check.text)

    api = client.post(
        "/api/v1/questions/demo/bound/audio",
        files={"audio": ("answer.wav", clip, "audio/wav")},
        headers={"X-CSRF-Token": CSRF.search(client.get("/practice/demo/bound").text).group(1)},  # type: ignore[union-attr]
    )
    assert api.status_code == 200, api.text
    body = api.json()
    assert "arithmetic" in body["transcript"]["text"].lower() and body["marking"]["verdict"] in {
        "strong", "partial", "weak",
    }  # fmt: skip


def test_a_queued_job_survives_a_restart_of_every_web_replica(topology: Topology, clip: bytes) -> None:
    client = _candidate(topology)
    job = _upload(client, clip)
    topology.restart_web()  # the session cookie is signed with the shared key: still signed in
    wait_for(
        "the job after the restart",
        lambda: client.get(f"/api/v1/transcriptions/{job}").json()["state"] == "done",
        timeout=120,
        every=0.2,
    )
    assert "data-spoken" in client.get(f"/transcriptions/{job}").text
