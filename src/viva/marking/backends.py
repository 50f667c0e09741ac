"""Marker backends behind one small protocol, found through entry points and built once.

A backend is a factory ``(Settings) -> Marker`` registered under the entry-point group
``viva.markers`` (see :data:`GROUP`), so a third party can ship one as a package::

    [project.entry-points."viva.markers"]
    mine = "my_package.marker:build"

The built-in backends are registered the same way in Viva's own ``pyproject.toml``
(:data:`BUILTIN` lists them too, so a source checkout on ``PYTHONPATH`` whose installed
metadata is older still finds them; a test keeps the two equal). A third-party entry point
cannot replace a built-in name.

``default`` (also ``aligned``) is the lexical rules plus MiniLM token alignment on
onnxruntime, with the packaged model (offline); ``lexical`` is the rules alone (pure Python);
``semantic`` blends sentence similarity from the same model instead; ``llm`` asks an
OpenAI-compatible server (``viva[llm]``); ``auto`` is the LLM when one is configured and
answers, else ``default``.
Asking for a backend whose extra or model is missing raises
:class:`~viva.errors.Unavailable` with the command that fixes it, never an ImportError.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Protocol, cast

from viva.bank.model import Question
from viva.errors import NotFound, Unavailable, VivaError
from viva.marking.result import Marking

if TYPE_CHECKING:
    from viva.settings import Settings

GROUP = "viva.markers"


class Marker(Protocol):
    """What the rest of Viva codes against: built once where the program starts
    (:func:`build_marker`), kept in the app state or the CLI context, and injected."""

    name: str
    version: str

    def mark(self, question: Question, answer: str) -> Marking: ...


Backend = Marker  # the older name, kept while callers move to Marker
Factory = Callable[["Settings"], Marker]

BUILTIN: dict[str, str] = {
    "default": "viva.marking.backends:aligned_marker",
    "aligned": "viva.marking.backends:aligned_marker",
    "lexical": "viva.marking.backends:lexical_marker",
    "semantic": "viva.marking.backends:semantic_marker",
    "llm": "viva.marking.llm:llm_marker",
    "auto": "viva.marking.backends:auto_marker",
}
"""The built-in backends, as registered in ``pyproject.toml``; ``aligned`` is an alias."""
ALIASES = frozenset({"aligned"})


def aligned_marker(settings: Settings) -> Marker:
    """The default backend: the lexical rules plus token alignment with the packaged MiniLM."""
    from viva.marking.aligned import AlignedBackend

    return AlignedBackend.from_settings(settings)


def lexical_marker(settings: Settings) -> Marker:
    """The rules alone; it needs nothing from ``settings``."""
    from viva.marking.lexical import LexicalBackend

    return LexicalBackend()


def semantic_marker(settings: Settings) -> Marker:
    from viva.marking.semantic import SemanticBackend

    return SemanticBackend.from_settings(settings)


def auto_marker(settings: Settings) -> Marker:
    """The best backend that is configured and works: the LLM when a base URL is set and
    its server answers, else the default, else the rules alone if its model cannot load
    (nothing is downloaded here). Only a configured URL is ever contacted."""
    if settings.llm_base_url:
        from viva.marking.llm import reachable

        if reachable(settings):
            return build_marker(settings.with_(marking_backend="llm"))
    try:
        return aligned_marker(settings.with_(allow_downloads=False))
    except Unavailable:
        return lexical_marker(settings)


def _registered() -> dict[str, EntryPoint]:
    """Every backend: the built-ins, then third-party entry points under new names."""
    found = {name: EntryPoint(name, value, GROUP) for name, value in BUILTIN.items()}
    for ep in entry_points(group=GROUP):
        found.setdefault(ep.name, ep)
    return found


def backend_names() -> list[str]:
    """The names ``--backend`` and ``VIVA_MARKING_BACKEND`` accept (aliases left out)."""
    return [name for name in _registered() if name not in ALIASES]


def _factory(name: str) -> Factory:
    try:
        ep = _registered()[name]
    except KeyError:
        raise NotFound(
            f"no marking backend {name!r}", hint="choose one of: " + ", ".join(backend_names())
        ) from None
    try:
        module, _, attr = ep.value.partition(":")
        found: object = importlib.import_module(module)
        for part in attr.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise Unavailable(
            f"the marking backend {name!r} cannot be loaded ({ep.value}: {exc})",
            hint="reinstall the package that provides it",
        ) from None
    if not callable(found):
        raise Unavailable(f"the marking backend {name!r} ({ep.value}) is not a factory")
    return cast(Factory, found)


def build_marker(settings: Settings) -> Marker:
    """The marker ``settings.marking_backend`` names, built once by the caller (app or CLI
    start-up) from its registered factory."""
    marker = _factory(settings.marking_backend)(settings)
    if not callable(getattr(marker, "mark", None)):
        raise VivaError(f"the marking backend {settings.marking_backend!r} built no marker")
    return marker


@functools.cache
def get_backend(name: str = "default") -> Backend:
    """The backend called ``name`` with settings from the environment, built on first use
    and kept (models load once). Prefer :func:`build_marker` where settings are at hand."""
    from viva.settings import Settings

    return build_marker(Settings.from_env().with_(marking_backend=name))
