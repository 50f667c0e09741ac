"""A real ``viva serve`` with two workers on loopback, for the concurrency probes.

Used by the integration tests and by ``benchmarks/concurrency.py``: it migrates the
database, makes one user with an API token, starts the server on a free port and waits
until it answers. Everything stays on 127.0.0.1 and is stopped on exit.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx

from viva.practice.accounts import local_account, new_api_token
from viva.store import make_engine, migrate, session_scope

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Server:
    base_url: str
    database_url: str
    token: str
    user_id: int


@dataclass
class Tally:
    """Status codes of a burst of requests."""

    statuses: Counter[int] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)

    @property
    def requests(self) -> int:
        return sum(self.statuses.values())

    def count(self, low: int) -> int:
        return sum(n for code, n in self.statuses.items() if low <= code < low + 100)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def running_server(database_url: str, bank_dir: Path, data_dir: Path, workers: int = 2) -> Iterator[Server]:
    engine = make_engine(database_url)
    migrate(engine)
    with session_scope(engine) as session:
        user = local_account(session, f"probe-{os.getpid()}-{time.monotonic_ns()}", datetime.now(UTC))
        token = new_api_token(session, user, "probe", datetime.now(UTC))
        user_id = user.id
    engine.dispose()
    port = _free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([os.environ.get("PYTHONPATH", ""), str(ROOT / "src"), str(ROOT)]),
        "VIVA_CONTENT_DIR": str(bank_dir),
        "VIVA_DATA_DIR": str(data_dir),
        "VIVA_SECRET_KEY": "probe-secret-" + "x" * 32,
        "VIVA_SINGLE_USER": "false",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from viva.cli import app; app(prog_name='viva')",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--database",
            database_url,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(data_dir / "serve.log").open("wb"),
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(process, base_url, workers, data_dir)
        yield Server(base_url, database_url, token, user_id)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until_up(process: subprocess.Popen[bytes], base_url: str, workers: int, data_dir: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            stderr = (data_dir / "serve.log").read_text(errors="replace")
            raise RuntimeError(f"viva serve exited with {process.returncode}:\n{stderr[-2000:]}")
        try:
            if httpx.get(f"{base_url}/api/v1/topics", timeout=1).status_code == 200:
                time.sleep(0.5 if workers > 1 else 0)  # let the other workers finish starting
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError("viva serve did not answer within 30 s")


def burst(requests: list[tuple[str, str, dict[str, object]]], base_url: str, timeout: float = 30) -> Tally:
    """Send all ``(method, path, httpx kwargs)`` at once; count the status codes."""

    async def run() -> Tally:
        tally = Tally()
        limits = httpx.Limits(max_connections=len(requests))
        async with httpx.AsyncClient(base_url=base_url, timeout=timeout, limits=limits) as client:
            responses = await asyncio.gather(
                *(client.request(method, path, **kwargs) for method, path, kwargs in requests),  # type: ignore[arg-type]
                return_exceptions=True,
            )
        for response in responses:
            tally.statuses[response.status_code if isinstance(response, httpx.Response) else 0] += 1
            if not isinstance(response, httpx.Response):
                tally.errors.append(repr(response))
        return tally

    return asyncio.run(run())
