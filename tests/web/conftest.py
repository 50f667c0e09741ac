"""Fixtures for functional tests: the real app on a real database, no mocks.

The app shares the session's migrated ``engine`` (SQLite, and PostgreSQL when a server
answers — see tests/conftest.py), so every test here runs on both. Tests never depend on
each other's rows: each makes its own users with unique names, and each client comes from
its own address (the login rate limit counts per address).
"""

from __future__ import annotations

import itertools
import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from tests.factories import write_bank
from viva.settings import Settings
from viva.web import create_app

NOW = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
PASSWORD = "correct horse battery"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
_addresses = itertools.count(1)


@pytest.fixture(scope="session")
def bank_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_bank(tmp_path_factory.mktemp("bank"))


def make_settings(bank_dir: Path, data_dir: Path, **changes: object) -> Settings:
    """Test settings; the Whisper model is the packaged tiny.en, so nothing is ever downloaded."""
    return Settings(
        content_dir=bank_dir, data_dir=data_dir, secret_key="test-secret-" + "x" * 32, whisper_model="tiny.en"
    ).with_(**changes)


@pytest.fixture
def app(engine: Engine, bank_dir: Path, tmp_path: Path) -> FastAPI:
    return create_app(make_settings(bank_dir, tmp_path), engine=engine, clock=lambda: NOW)


def new_client(app: FastAPI, base_url: str = "http://testserver") -> TestClient:
    n = next(_addresses)
    return TestClient(
        app, base_url=base_url, client=(f"10.9.{n // 250}.{n % 250 + 1}", 50000), follow_redirects=False
    )


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with new_client(app) as c:
        yield c


def csrf_from(client: TestClient, path: str = "/login") -> str:
    page = client.get(path)
    found = CSRF.search(page.text)
    assert found, f"no CSRF token on {path}"
    return found.group(1)


def unique_name(prefix: str = "cand") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def sign_up(client: TestClient, name: str | None = None) -> str:
    name = name or unique_name()
    response = client.post(
        "/signup", data={"name": name, "password": PASSWORD, "csrf_token": csrf_from(client, "/signup")}
    )
    assert response.status_code == 303, response.text
    return name


def answer(client: TestClient, question: str, text: str) -> int:
    """Answer ``demo/<question>`` through the form; returns the attempt id."""
    token = csrf_from(client, f"/practice/demo/{question}")
    response = client.post(f"/practice/demo/{question}", data={"answer": text, "csrf_token": token})
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1].split("?")[0])


@pytest.fixture
def signed_in(client: TestClient) -> TestClient:
    sign_up(client)
    return client
