"""`viva serve`: refuses single-user mode on a public address unless forced."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from viva.cli import app
from viva.cli.serve import _environment, _loopback
from viva.settings import Settings


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.7", "example.org", "::"])
def test_single_user_on_a_public_address_is_refused(host: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--host", host, "--single-user"])
    assert result.exit_code == 1
    assert "--force-single-user" in result.output


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_loopback_addresses_are_recognised(host: str) -> None:
    assert _loopback(host)


def test_workers_get_the_options_through_the_environment() -> None:
    env = _environment(Settings(database_url="sqlite:///x.db", single_user=True, port=9000))
    assert env["VIVA_DATABASE_URL"] == "sqlite:///x.db"
    assert env["VIVA_SINGLE_USER"] == "true" and env["VIVA_PORT"] == "9000"
    assert Settings.from_env(env).single_user is True
