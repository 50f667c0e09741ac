from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy.orm import Session

from tests.practice.factories import practice_bank
from viva.bank import Bank
from viva.practice import Practice, local_account
from viva.practice.accounts import Account

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="session")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Bank:
    return practice_bank(tmp_path_factory.mktemp("bank"))


@pytest.fixture
def practice(db: Session, bank: Bank) -> Practice:
    return Practice(db, bank)


@pytest.fixture
def user(db: Session) -> Account:
    return local_account(db, "ada", NOW)


@pytest.fixture
def other_user(db: Session) -> Account:
    return local_account(db, "grace", NOW)
