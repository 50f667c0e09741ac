"""Backends are found through the ``viva.markers`` entry-point group, the built-ins too."""

from __future__ import annotations

import socket
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from viva.errors import NotFound, Unavailable
from viva.marking import backend_names, build_marker
from viva.marking.aligned import AlignedBackend
from viva.marking.backends import BUILTIN, GROUP
from viva.marking.lexical import LexicalBackend
from viva.settings import Settings

ROOT = Path(__file__).resolve().parents[2]

PLUGIN = '''
from viva.marking.lexical import LexicalBackend


class Shouty(LexicalBackend):
    """A third-party marker: the default marker under another name, remembering its settings."""

    name = "shouty"
    version = "9.9"

    def __init__(self, settings):
        super().__init__()
        self.settings = settings


def build(settings):
    return Shouty(settings)
'''


@pytest.fixture
def plugin_distribution(tmp_path: Path) -> Iterator[Path]:
    """A tiny installed distribution (module + dist-info with an entry point) on sys.path,
    as ``pip install viva-shouty`` would leave it."""
    (tmp_path / "viva_shouty.py").write_text(PLUGIN)
    info = tmp_path / "viva_shouty-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: viva-shouty\nVersion: 0.1\n")
    entry_points = f"[{GROUP}]\nshouty = viva_shouty:build\ndefault = viva_shouty:build\n"
    (info / "entry_points.txt").write_text(entry_points)
    sys.path.insert(0, str(tmp_path))
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("viva_shouty", None)


def test_a_backend_a_package_registers_is_found_and_built_from_settings(
    plugin_distribution: Path, tmp_path: Path
) -> None:
    assert "shouty" in backend_names()
    settings = Settings(data_dir=tmp_path, marking_backend="shouty")
    marker = build_marker(settings)
    assert marker.name == "shouty" and type(marker).__module__ == "viva_shouty"
    assert marker.settings is settings  # type: ignore[attr-defined]  # the plugin's own attribute


def test_a_package_cannot_take_over_a_built_in_name(plugin_distribution: Path, tmp_path: Path) -> None:
    marker = build_marker(Settings(data_dir=tmp_path, marking_backend="default"))
    assert type(marker) is AlignedBackend


def test_without_the_package_the_name_is_unknown(tmp_path: Path) -> None:
    assert "shouty" not in backend_names()
    with pytest.raises(NotFound, match="shouty"):
        build_marker(Settings(data_dir=tmp_path, marking_backend="shouty"))


def test_the_built_ins_are_registered_as_entry_points_in_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["entry-points"][GROUP] == BUILTIN


def test_backend_names_lists_the_built_ins_without_aliases() -> None:
    assert backend_names()[:5] == ["default", "lexical", "semantic", "llm", "auto"]
    assert "aligned" not in backend_names()


def test_lexical_is_the_rules_alone_and_aligned_names_the_default(tmp_path: Path) -> None:
    assert type(build_marker(Settings(data_dir=tmp_path, marking_backend="lexical"))) is LexicalBackend
    assert type(build_marker(Settings(data_dir=tmp_path, marking_backend="aligned"))) is AlignedBackend


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_auto_without_an_llm_configured_is_local(tmp_path: Path) -> None:
    marker = build_marker(Settings(data_dir=tmp_path, marking_backend="auto"))
    assert marker.name == "default"


def test_auto_with_an_llm_that_does_not_answer_is_local(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    marker = build_marker(Settings(data_dir=tmp_path, marking_backend="auto", llm_base_url=url))
    assert marker.name == "default"


def test_auto_never_downloads_a_model(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path, marking_backend="auto", semantic_model="no-such/model", allow_downloads=True
    )
    assert build_marker(settings).name == "lexical"  # the missing model is skipped, not fetched


def test_a_missing_semantic_model_fails_at_once_with_the_fix(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, marking_backend="semantic", semantic_model="no-such/model")
    with pytest.raises(Unavailable) as caught:
        build_marker(settings)
    assert "pip install" in str(caught.value)
