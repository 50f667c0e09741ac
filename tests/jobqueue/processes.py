"""Real ``viva`` processes for the queue tests and the queue benchmark: workers, web servers,
a PostgreSQL schema of their own. Everything listens on 127.0.0.1 and is stopped on exit."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

from sqlalchemy import text

from viva.store import make_engine

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_URL = os.environ.get("VIVA_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
VIVA = [sys.executable, "-c", "from viva.cli import main; main()"]
"""``viva`` as this interpreter runs it (the console script may not be installed)."""

T = TypeVar("T")


def environment(**values: str) -> dict[str, str]:
    path = os.pathsep.join(p for p in [str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")] if p)
    return {**os.environ, "PYTHONPATH": path, "VIVA_SECRET_KEY": "queue-secret-" + "x" * 32, **values}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A URL whose connections use a fresh schema (dropped afterwards); raises if no server."""
    schema = f"viva_queue_{uuid.uuid4().hex[:10]}"
    admin = make_engine(POSTGRES_URL, connect_args={"connect_timeout": 3})
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{POSTGRES_URL}?options={quote(f'-csearch_path={schema}')}"
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start a process in its own process group (so it and its children can be killed together)."""
    return subprocess.Popen(
        args, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True
    )


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM, timeout: float = 15) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_for(what: str, check: Callable[[], T | None], timeout: float, every: float = 0.1) -> T:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
