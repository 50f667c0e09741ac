"""What one app holds for its lifetime: settings, units of work, bank, marker, search index,
templates.

Everything here is built once by :func:`viva.web.app.create_app` and is either immutable
(the bank and what is derived from it) or shared safely between requests (the session
factory and its engine's connection pool, the transcription queue). Nothing per-user lives
in process memory, so any worker can serve any request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from fastapi import Request
from fastapi.templating import Jinja2Templates
from sqlalchemy.orm import Session, sessionmaker

from viva.bank import Bank
from viva.marking import Marker
from viva.settings import Settings
from viva.web.lessons import FragmentCache, LessonRenderer
from viva.web.search import SearchIndex
from viva.web.spoken import HeardTokens
from viva.web.transcription import Transcriber

Clock = Callable[[], datetime]


@dataclass(frozen=True)
class AppState:
    settings: Settings
    sessions: sessionmaker[Session]
    """Units of work over the app's engine (:mod:`viva.practice.units`); the engine itself
    stays with :func:`viva.web.app.create_app`."""
    bank: Bank
    search: SearchIndex
    lessons: LessonRenderer
    fragments: FragmentCache
    templates: Jinja2Templates
    clock: Clock
    transcriber: Transcriber
    heard: HeardTokens
    marker: Marker
    """The one marker, built from the settings at start-up and injected into every Practice."""
    data_location: str
    """Where the answers are kept, for people (the SQLite file, or the URL without its password)."""


def app_state(request: Request) -> AppState:
    """The :class:`AppState` of the app serving ``request``."""
    state: AppState = request.app.state.viva
    return state


async def app_state_dependency(request: Request) -> AppState:
    """:func:`app_state` as a dependency; ``async`` so FastAPI runs it inline, not in a thread."""
    return app_state(request)
