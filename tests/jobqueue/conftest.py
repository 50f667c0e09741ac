"""Fixtures for the job-queue tests: a question bank on disk, a queue of the test's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.factories import write_bank
from tests.jobqueue.redis_queue import fresh_queue


@pytest.fixture(scope="session")
def bank_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_bank(tmp_path_factory.mktemp("bank"))


@pytest.fixture
def redis_queue() -> Iterator[tuple[str, str]]:
    """(Redis URL, queue name) on the real Redis; skips when none answers (fails in CI)."""
    with fresh_queue() as queue:
        yield queue
