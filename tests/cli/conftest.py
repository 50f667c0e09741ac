from __future__ import annotations

from pathlib import Path

import pytest

from tests.factories import write_bank


@pytest.fixture
def bank_dir(tmp_path: Path) -> Path:
    """A valid one-topic bank in a temp folder."""
    return write_bank(tmp_path / "content")
