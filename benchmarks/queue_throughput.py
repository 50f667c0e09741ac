"""Throughput of the team-server path: spoken answers through 2 web workers and a Redis
queue, transcribed by 1 and then 2 ``viva worker`` processes.

For each worker count: a fresh PostgreSQL schema and queue; ``viva serve --workers 2
--queue redis://…`` on loopback; N ``viva worker`` processes (the packaged tiny.en). Then
``--answers`` recorded answers (espeak-ng WAVs of about ``--seconds`` each) are uploaded at
once through the upload form by 8 signed-in candidates, each polling its jobs' status once a
second as the page's script does, while one more candidate loads the home page in a loop.

Prints, per worker count: audio minutes transcribed per minute of wall time (first upload
to last transcript), queue wait p50/p95 (RQ's enqueued → started), upload-to-transcript
p50/p95, and the page's p50/p95 while the queue is busy. Loopback only; everything it
starts is stopped at the end.

    PYTHONPATH=src:. python benchmarks/queue_throughput.py [--answers 40] [--seconds 60] [--workers 1 2]

Needs PostgreSQL (``VIVA_TEST_POSTGRES_URL``, default the test server), Redis at
127.0.0.1:6379, espeak-ng, and the ``queue`` and ``speech-offline`` extras.
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import threading
import time
import wave
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from tests.factories import write_bank
from tests.jobqueue.processes import VIVA, environment, free_port, postgres_schema, start, stop, wait_for
from tests.jobqueue.redis_queue import fresh_queue
from tests.speech.sounds import speak

CANDIDATES = 8
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
PARAGRAPHS = [
    "Decode is memory bound. Every step reads all of the weights from memory and does very little "
    "arithmetic with them, so the speed is set by memory bandwidth rather than by compute.",
    "Batching many requests together reuses each weight read for many tokens, which is why "
    "throughput grows with the batch until the key value cache fills the memory of the device.",
    "A transformer attends from every token to every earlier token. The keys and values of earlier "
    "tokens are cached so that each new token costs one pass instead of recomputing the whole prefix.",
    "Mixed precision keeps a master copy of the weights in thirty two bits while the forward and "
    "backward passes run in sixteen bits, with loss scaling so small gradients do not underflow.",
    "Data parallel training gives every device a copy of the model and a slice of the batch, then "
    "averages the gradients with an all reduce before the optimiser takes its step.",
]


@dataclass
class Run:
    workers: int
    answers: int
    audio_s: float
    wall_s: float = 0.0
    waits: list[float] = field(default_factory=list)
    turnarounds: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    failed: int = 0
    reasons: list[str] = field(default_factory=list)


def recordings(folder: Path, seconds: float) -> list[tuple[bytes, float]]:
    """One espeak-ng WAV per paragraph, each repeated to about ``seconds`` of speech."""
    out = []
    for i, text in enumerate(PARAGRAPHS):
        words = len(text.split())
        repeat = max(1, round(seconds / (words / 160 * 60)))
        path = speak(" ".join([text] * repeat), folder / f"answer-{i}.wav")
        with wave.open(str(path), "rb") as wav:
            duration = wav.getnframes() / wav.getframerate()
        out.append((path.read_bytes(), duration))
    return out


def candidate(base: str, n: int) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=120, follow_redirects=False)
    csrf = CSRF.search(client.get("/signup").text)
    assert csrf
    name = f"bench-{n}-{time.monotonic_ns()}"
    reply = client.post("/signup", data={"name": name, "password": "correct horse battery",
                                         "csrf_token": csrf.group(1)})  # fmt: skip
    assert reply.status_code == 303, reply.text
    return client


def answer(client: httpx.Client, clip: bytes, run: Run, lock: threading.Lock) -> None:
    began = time.monotonic()
    csrf = CSRF.search(client.get("/practice/demo/bound").text)
    assert csrf
    reply = client.post("/practice/demo/bound/audio", data={"csrf_token": csrf.group(1)},
                        files={"audio": ("answer.wav", clip, "audio/wav")})  # fmt: skip
    if reply.status_code != 303:
        with lock:
            run.failed += 1
            run.reasons.append(f"upload answered {reply.status_code}: {reply.text[:200]}")
        return
    job = reply.headers["location"].split("/")[2]
    while True:
        state = client.get(f"/api/v1/transcriptions/{job}").json()
        if state["state"] in ("done", "failed"):
            break
        time.sleep(1.0)
    with lock:
        if state["state"] == "failed":
            run.failed += 1
            run.reasons.append(f"job {job} failed: {state.get('error')}")
        else:
            run.turnarounds.append(time.monotonic() - began)


def measure(workers: int, clips: list[tuple[bytes, float]], answers: int, root: Path) -> Run:
    import redis
    from rq.job import Job

    run = Run(workers, answers, sum(clips[i % len(clips)][1] for i in range(answers)))
    with ExitStack() as stack:
        url, name = stack.enter_context(fresh_queue())
        database = stack.enter_context(postgres_schema())
        bank = write_bank(root / f"bank-{workers}")
        env = environment(VIVA_DATABASE_URL=database, VIVA_QUEUE_URL=url, VIVA_QUEUE_NAME=name,
                          VIVA_CONTENT_DIR=str(bank), VIVA_DATA_DIR=str(root), VIVA_WHISPER_MODEL="tiny.en",
                          VIVA_QUEUE_MAX_WAITING=str(answers + 10))  # fmt: skip
        port = free_port()
        web = start([*VIVA, "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2",
                     "--multi-user"], env, root / f"web-{workers}.log")  # fmt: skip
        stack.callback(stop, web)
        base = f"http://127.0.0.1:{port}"
        for i in range(workers):
            process = start(
                [*VIVA, "worker", "--name", f"{name}-{i}"], env, root / f"worker-{workers}-{i}.log"
            )
            stack.callback(stop, process)
        wait_for("readyz", lambda: _ready(base, workers), timeout=180, every=0.5)
        clients = [candidate(base, n) for n in range(CANDIDATES + 1)]
        watcher, others = clients[0], clients[1:]
        lock = threading.Lock()
        busy = threading.Event()
        busy.set()

        def browse() -> None:
            while busy.is_set():
                began = time.monotonic()
                watcher.get("/")
                run.pages.append(time.monotonic() - began)
                time.sleep(0.2)

        threads = [
            threading.Thread(
                target=answer, args=(others[i % CANDIDATES], clips[i % len(clips)][0], run, lock)
            )
            for i in range(answers)
        ]
        browser = threading.Thread(target=browse)
        began = time.monotonic()
        browser.start()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        run.wall_s = time.monotonic() - began
        busy.clear()
        browser.join()
        connection = redis.Redis.from_url(url)
        for job in Job.fetch_many(_job_ids(database), connection=connection):
            if job is not None and job.enqueued_at and job.started_at:
                run.waits.append((job.started_at - job.enqueued_at).total_seconds())
        connection.close()
    return run


def _ready(base: str, workers: int) -> bool:
    try:
        reply = httpx.get(f"{base}/readyz", timeout=2)
    except httpx.HTTPError:
        return False
    return reply.status_code == 200 and reply.json()["checks"]["workers"] == workers


def _job_ids(database: str) -> list[str]:
    from sqlalchemy import select

    from viva.store import make_engine
    from viva.store.models import TranscriptionJob

    engine = make_engine(database)
    try:
        with engine.connect() as connection:
            return list(connection.scalars(select(TranscriptionJob.id)))
    finally:
        engine.dispose()


def _p(values: list[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def report(runs: Iterator[Run]) -> None:
    print(f"{'queue workers':>13} {'answers':>7} {'audio min':>9} {'wall min':>8} {'audio min/min':>13} "
          f"{'wait p50 s':>10} {'wait p95 s':>10} {'done p50 s':>10} {'done p95 s':>10} "
          f"{'page p50 ms':>11} {'page p95 ms':>11} {'failed':>6}", flush=True)  # fmt: skip
    for run in runs:
        print(f"{run.workers:>13} {run.answers:>7} {run.audio_s / 60:>9.1f} {run.wall_s / 60:>8.2f} "
              f"{run.audio_s / run.wall_s:>13.2f} {_p(run.waits, 50):>10.1f} {_p(run.waits, 95):>10.1f} "
              f"{_p(run.turnarounds, 50):>10.1f} {_p(run.turnarounds, 95):>10.1f} "
              f"{_p(run.pages, 50) * 1000:>11.0f} {_p(run.pages, 95) * 1000:>11.0f} {run.failed:>6}",
              flush=True)  # fmt: skip
        for reason in run.reasons:
            print(f"{'':>13} failed: {reason}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--answers", type=int, default=40, help="recorded answers per run (default 40)")
    parser.add_argument("--seconds", type=float, default=60, help="about how long each answer is")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="queue worker counts to run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="viva-queue-bench-") as tmp:
        root = Path(tmp)
        clips = recordings(root, args.seconds)
        mean = statistics.mean(d for _, d in clips)
        print(f"{args.answers} answers of {mean:.0f} s average (espeak-ng), 2 web workers, "
              f"{CANDIDATES} candidates polling every 1 s, 1 browsing", flush=True)  # fmt: skip
        report(measure(n, clips, args.answers, root) for n in args.workers)


if __name__ == "__main__":
    main()
