"""``viva worker`` and ``viva serve --queue`` at the command line: one-line errors, ``--once``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from viva.cli import app


def test_worker_without_a_queue_says_how_to_give_one(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["worker"], env={"VIVA_DATA_DIR": str(tmp_path), "VIVA_QUEUE_URL": ""})
    assert result.exit_code == 1
    assert "no queue given: pass --queue redis://HOST:6379/0 or set VIVA_QUEUE_URL" in result.output


def test_worker_with_no_redis_there_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("rq", reason="the queue extra is not installed (pip install -e '.[queue]')")
    result = CliRunner().invoke(
        app, ["worker", "--queue", "redis://127.0.0.1:1/0"], env={"VIVA_DATA_DIR": str(tmp_path)}
    )
    assert result.exit_code == 1
    assert "no Redis answers at the queue URL (ConnectionError)" in result.output
    assert "Traceback" not in result.output


def test_worker_once_on_an_empty_queue_exits_cleanly(tmp_path: Path, redis_queue: tuple[str, str]) -> None:
    url, name = redis_queue
    env = {"VIVA_DATA_DIR": str(tmp_path), "VIVA_QUEUE_NAME": name, "VIVA_WHISPER_MODEL": "tiny.en"}
    result = CliRunner().invoke(app, ["worker", "--queue", url, "--once"], env=env)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "viva.sqlite3").exists()  # the worker migrated the database it was given
