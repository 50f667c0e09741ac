"""`viva serve` through the real executable: a busy port is one line, and the data's home is shown."""

from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

VIVA = str(Path(sys.executable).parent / "viva")


@pytest.fixture
def env(tmp_path: Path, bank_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "VIVA_CONTENT_DIR": str(bank_dir),
        "VIVA_DATA_DIR": str(tmp_path / "data"),
        "VIVA_DATABASE_URL": "",
        "NO_COLOR": "1",
        "COLUMNS": "60",
    }


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_a_busy_port_is_one_line_saying_how_to_choose_another(env: dict[str, str], busy_port: int) -> None:
    done = subprocess.run(
        [VIVA, "serve", "--host", "127.0.0.1", "--port", str(busy_port)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "http://" not in done.stdout  # no URL promised for a server that never starts
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"port {busy_port}" in lines[0] and "taken" in lines[0]
    assert "--port" in lines[0] and "VIVA_PORT" in lines[0]


def test_the_start_line_says_where_the_data_lives(env: dict[str, str], tmp_path: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [VIVA, "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert proc.stdout is not None
        printed = b""
        deadline = time.monotonic() + 30
        while b"\nData:" not in b"\n" + printed or not printed.endswith(b"\n"):
            ready, _, _ = select.select([proc.stdout], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                break  # never blocks past the deadline, even if the line never comes
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            printed += chunk
        seen = printed.decode().splitlines()
        assert f"Data: {(tmp_path / 'data' / 'viva.sqlite3').resolve()}" in seen, seen
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (
            "postgresql+psycopg://viva:s3cret@db.example:5432/viva",
            "postgresql+psycopg://viva:***@db.example:5432/viva",
        ),
        ("sqlite:////srv/viva/viva.sqlite3", "/srv/viva/viva.sqlite3"),
    ],
)
def test_the_data_location_never_shows_a_password(url: str, shown: str) -> None:
    from viva.store.db import data_location

    assert data_location(url) == shown
    assert "s3cret" not in data_location(url)
