"""Marker backends behind one small protocol, built once and looked up by name.

``default`` is the lexical rules plus MiniLM token alignment on onnxruntime (offline, with
the packaged model); ``lexical`` is the rules alone (pure Python); ``semantic`` blends
sentence cosine instead of alignment. A model that is not installed raises
:class:`~viva.errors.Unavailable` with the fix, never an ImportError.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from viva.bank.model import Question
from viva.errors import NotFound
from viva.marking.result import Marking

if TYPE_CHECKING:
    from viva.settings import Settings


class Marker(Protocol):
    """What the rest of Viva codes against: built once where the program starts
    (:func:`build_marker`), kept in the app state or the CLI context, and injected."""

    name: str
    version: str

    def mark(self, question: Question, answer: str) -> Marking: ...


Backend = Marker  # the older name, kept while callers move to Marker


def _lexical() -> Backend:
    from viva.marking.lexical import LexicalBackend

    return LexicalBackend()


def _default() -> Backend:
    from viva.marking.aligned import AlignedBackend
    from viva.settings import Settings

    return AlignedBackend.from_settings(Settings.from_env())


def _semantic() -> Backend:
    from viva.marking.semantic import SemanticBackend
    from viva.settings import Settings

    return SemanticBackend.from_settings(Settings.from_env())


def build_marker(settings: Settings) -> Marker:
    """The marker ``settings`` asks for, built once by the caller (app or CLI start-up)."""
    name = settings.marking_backend
    if name == "semantic":
        from viva.marking.semantic import SemanticBackend

        return SemanticBackend.from_settings(settings)
    if name == "default":
        from viva.marking.aligned import AlignedBackend

        return AlignedBackend.from_settings(settings)
    return get_backend(name)


_FACTORIES: dict[str, Callable[[], Backend]] = {
    "default": _default,
    "lexical": _lexical,
    "semantic": _semantic,
}


def backend_names() -> list[str]:
    return ["default", "lexical", "semantic"]


@functools.cache
def get_backend(name: str = "default") -> Backend:
    """The backend called ``name``, built on first use and kept (models load once)."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise NotFound(
            f"no marking backend {name!r}", hint="choose one of: " + ", ".join(backend_names())
        ) from None
    return factory()
