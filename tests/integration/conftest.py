"""Fixtures for the integration probes: a question bank on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.factories import write_bank


@pytest.fixture(scope="session")
def bank_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_bank(tmp_path_factory.mktemp("bank"))
