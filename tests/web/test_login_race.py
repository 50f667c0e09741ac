"""The login rate limit holds under a burst: at most five password checks per name per window."""

from __future__ import annotations

import threading
import uuid
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine

from viva.settings import Settings
from viva.store import session_scope
from viva.web import auth
from viva.web.errors import TooManyLogins

NOW = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
BURST = 16


def test_a_burst_of_wrong_passwords_gets_five_checks(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(login_max_failures=5)
    name = f"victim-{uuid.uuid4().hex[:10]}"
    with session_scope(engine) as session:
        auth.sign_up(session, name, "the real password", NOW)
    checks: list[str] = []
    real_verify = auth._verify

    def counting_verify(stored: str | None, password: str) -> bool:
        checks.append(password)
        return real_verify(stored, password)

    monkeypatch.setattr(auth, "_verify", counting_verify)
    outcomes: list[str] = []
    start = threading.Barrier(BURST)

    def guess(n: int) -> None:
        start.wait()
        try:
            with session_scope(engine) as session:
                user = auth.log_in(session, settings, name, f"guess {n}", f"10.66.{n}.1", NOW)
            outcomes.append("in" if user else "wrong")
        except TooManyLogins:
            outcomes.append("limited")
        except Exception as exc:  # any other failure is the bug being guarded
            outcomes.append(repr(exc))

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(BURST)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(set(outcomes)) == ["limited", "wrong"], outcomes
    assert len(checks) == outcomes.count("wrong") == 5
