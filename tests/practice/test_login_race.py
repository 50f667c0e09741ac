"""The login rate limit holds under a burst: at most five password checks per name per window."""

from __future__ import annotations

import threading
import uuid
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine

from viva.errors import InvalidInput, TooManyLogins
from viva.practice import accounts
from viva.settings import Settings
from viva.store import session_scope

NOW = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
BURST = 16


def test_a_burst_of_wrong_passwords_gets_five_checks(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(login_max_failures=5)
    name = f"victim-{uuid.uuid4().hex[:10]}"
    with session_scope(engine) as session:
        accounts.sign_up(session, name, "the real password", NOW)
    checks: list[str] = []
    real_verify = accounts._verify

    def counting_verify(stored: str | None, password: str) -> bool:
        checks.append(password)
        return real_verify(stored, password)

    monkeypatch.setattr(accounts, "_verify", counting_verify)
    outcomes: list[str] = []
    start = threading.Barrier(BURST)

    def guess(n: int) -> None:
        start.wait()
        try:
            with session_scope(engine) as session:
                user = accounts.log_in(session, settings, name, f"guess {n}", f"10.66.{n}.1", NOW)
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


def test_sign_ups_racing_for_one_name_get_one_account_and_taken(engine: Engine) -> None:
    name = f"popular-{uuid.uuid4().hex[:10]}"
    outcomes: list[str] = []
    start = threading.Barrier(8)

    def sign_up(n: int) -> None:
        start.wait()
        try:
            with session_scope(engine) as session:
                accounts.sign_up(session, name, "a fine password", NOW, f"10.67.{n}.1")
            outcomes.append("created")
        except InvalidInput as error:
            outcomes.append("taken" if "taken" in error.message else error.message)
        except Exception as exc:  # a 500: the bug being guarded
            outcomes.append(repr(exc))

    threads = [threading.Thread(target=sign_up, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["created"] + ["taken"] * 7, outcomes


def test_one_address_may_create_only_so_many_accounts(engine: Engine) -> None:
    address = f"10.68.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"
    for _n in range(3):
        with session_scope(engine) as session:
            accounts.sign_up(
                session, f"batch-{uuid.uuid4().hex[:10]}", "a fine password", NOW, address, per_hour=3
            )
    with pytest.raises(TooManyLogins), session_scope(engine) as session:
        accounts.sign_up(
            session, f"batch-{uuid.uuid4().hex[:10]}", "a fine password", NOW, address, per_hour=3
        )
    with session_scope(engine) as session:  # another address is not held back
        accounts.sign_up(
            session, f"batch-{uuid.uuid4().hex[:10]}", "a fine password", NOW, "10.69.0.1", per_hour=3
        )
