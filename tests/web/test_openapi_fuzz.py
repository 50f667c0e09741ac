"""Schemathesis against the OpenAPI document: no input makes the API answer 5xx.

Bounded (a few examples per operation, no shrinking deadline) so it runs in well under two
minutes. It runs on SQLite only: the point is the handlers' input handling, which the
database does not change. Per-user routes are exercised with a real API token.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, Phase, given, settings
from sqlalchemy import Engine

from tests.web.conftest import NOW, csrf_from, make_settings, new_client, sign_up
from viva.store import make_engine, migrate
from viva.web import create_app

EXAMPLES = 40


@pytest.fixture(scope="module")
def fuzz_app(bank_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FastAPI, str]]:
    folder = tmp_path_factory.mktemp("fuzz")
    engine: Engine = make_engine(f"sqlite:///{folder / 'fuzz.sqlite3'}")
    migrate(engine)
    app = create_app(make_settings(bank_dir, folder), engine=engine, clock=lambda: NOW)
    with new_client(app) as client:
        sign_up(client)
        client.post(
            "/api/v1/attempts",
            json={"question_id": "demo/bound", "answer": "memory-bound"},
            headers={"X-CSRF-Token": csrf_from(client, "/")},
        )
        page = client.post(
            "/account/tokens", data={"label": "fuzz", "csrf_token": csrf_from(client, "/account")}
        )
        token = re.search(r'<code class="token">([^<]+)</code>', page.text)
        assert token
    yield app, token.group(1)
    engine.dispose()


def test_no_input_makes_the_api_fail_with_a_server_error(fuzz_app: tuple[FastAPI, str]) -> None:
    """Every operation, a bounded number of generated requests each, checked by schemathesis."""
    app, token = fuzz_app
    schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", app)
    failures: list[str] = []
    calls: list[int] = []
    operations = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
    assert len(operations) >= 12
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.explicit, Phase.generate],
        )
        def check(case: schemathesis.Case[Any]) -> None:
            response = case.call(headers={"Authorization": f"Bearer {token}"})
            calls.append(response.status_code)
            case.validate_response(response)

        try:
            check()
        except Exception as error:
            failures.append(f"{operation.label}: {error}")
    assert not failures, "\n\n".join(failures)
    assert len(calls) >= 3 * len(operations) and not any(code >= 500 for code in calls)
