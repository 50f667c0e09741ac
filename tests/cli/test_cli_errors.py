"""User mistakes at the terminal are one line on stderr and exit status 1, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from viva.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    "args",
    [
        ["bank", "lint", "--backend", "nope"],
        ["mark", "demo/bound", "--answer", "Decode is memory-bound.", "--backend", "nope"],
    ],
)
def test_an_unknown_backend_is_one_line_listing_the_backends(bank_dir: Path, args: list[str]) -> None:
    result = runner.invoke(app, ["--content", str(bank_dir), *args])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "'nope'" in lines[0]
    assert "default" in lines[0] and "semantic" in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", ["viva_error", "validation_error", "http_error"])
def test_web_error_handlers_check_the_type_for_real(name: str) -> None:
    """Each handler checks what it was given with a real check (an ``assert`` would vanish under
    ``python -O``), and hands anything else back untouched."""
    import asyncio

    from starlette.requests import Request

    from viva.web import handlers

    request = Request({"type": "http", "method": "GET", "path": "/", "headers": [], "query_string": b""})
    stray = LookupError("not for this handler")
    with pytest.raises(LookupError) as raised:
        asyncio.run(getattr(handlers, name)(request, stray))
    assert raised.value is stray
