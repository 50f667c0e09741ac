"""Which model a setting names; the packaged test model is hash-checked before use."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from viva.errors import Unavailable
from viva.speech import models
from viva.speech.models import resolve_model


def test_packaged_tiny_model_is_verified_and_never_downloaded() -> None:
    source = resolve_model("tiny.en")
    assert source.kind == "packaged"
    assert (Path(source.location) / "model.bin").is_file()
    assert source.label == "tiny.en"


def test_a_tampered_package_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    pinned = models.PACKAGED["tiny.en"]
    wrong = dataclasses.replace(pinned, sha256={**pinned.sha256, "model.bin": "0" * 64})
    monkeypatch.setitem(models.PACKAGED, "tiny.en", wrong)
    with pytest.raises(Unavailable, match="does not match its pinned hash"):
        resolve_model("tiny.en")


def test_another_version_of_the_package_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    pinned = models.PACKAGED["tiny.en"]
    monkeypatch.setitem(models.PACKAGED, "tiny.en", dataclasses.replace(pinned, version="9.9.9"))
    with pytest.raises(Unavailable, match=r"pins 9\.9\.9"):
        resolve_model("tiny.en")


def test_a_model_folder(tmp_path: Path) -> None:
    (tmp_path / "model.bin").write_bytes(b"")
    source = resolve_model(str(tmp_path))
    assert (source.kind, source.location) == ("folder", str(tmp_path))


def test_a_folder_without_a_model(tmp_path: Path) -> None:
    with pytest.raises(Unavailable, match="holds no Whisper model"):
        resolve_model(str(tmp_path))


@pytest.mark.parametrize("name", ["base.en", "small.en", "Systran/faster-whisper-base.en"])
def test_other_names_are_downloaded_on_first_use(name: str) -> None:
    source = resolve_model(name)  # resolving fetches nothing; loading would
    assert source.kind == "download"
    assert source.location == name


@pytest.mark.parametrize("name", ["gigantic.en", "./no/such/folder", "/no/such/folder"])
def test_unknown_models(name: str) -> None:
    with pytest.raises(Unavailable, match="no Whisper model"):
        resolve_model(name)


def test_auto_uses_the_packaged_model_when_installed_else_downloads_base(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert resolve_model("auto").kind == "packaged"
    assert resolve_model("auto").label == "tiny.en"
    monkeypatch.setattr(models, "packaged_model_installed", lambda name: False)
    fallback = resolve_model("auto")
    assert (fallback.kind, fallback.label) == ("download", "base.en")
