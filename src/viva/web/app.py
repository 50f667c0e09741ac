"""``create_app(settings)``: the whole web app, built from an explicit settings object.

Everything is built here, once per app, and nothing at import time: the engine (and the
schema migrated to head), the bank, the marker, the search index, the templates, the transcription
queue (closed when the app shuts down). Several workers each
build their own copy; what they share lives in the database and in signed cookies.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from sqlalchemy import Engine
from starlette.types import ASGIApp

from viva.bank import load_bank
from viva.marking import InBank, Marker, build_marker
from viva.settings import Settings
from viva.speech import SpeechEngine
from viva.store import data_location, make_engine, migrate, session_factory
from viva.web import handlers
from viva.web.lessons import FragmentCache, LessonRenderer
from viva.web.rendering import make_templates
from viva.web.routes import register_routes
from viva.web.search import SearchIndex
from viva.web.security import outermost
from viva.web.sessions import CookieSessions, secret_key
from viva.web.spoken import HeardTokens
from viva.web.state import AppState, Clock
from viva.web.transcription import Transcriber

log = logging.getLogger("viva.web")
STATIC = Path(__file__).parent / "static"
BODY_OVERHEAD = 64 * 1024


def _utc_now() -> datetime:
    return datetime.now(UTC)


def create_app(
    settings: Settings,
    *,
    engine: Engine | None = None,
    clock: Clock = _utc_now,
    speech_engine: SpeechEngine | None = None,
    marker: Marker | None = None,
) -> FastAPI:
    """The app for ``settings``; pass ``engine`` to share one (tests), ``clock`` to fix time,
    ``speech_engine`` to transcribe with something other than the settings' Whisper model,
    ``marker`` to mark with something other than the settings' backend."""
    engine = engine or make_engine(settings.resolved_database_url, pool_pre_ping=True)
    key = secret_key(settings)
    migrate(engine)
    bank, errors = load_bank(settings.content_dir)
    if errors:
        log.warning("the bank has %d error(s); run `viva bank check` to see them", len(errors))
    lessons = LessonRenderer(bank)
    state = AppState(
        settings=settings,
        sessions=session_factory(engine),
        bank=bank,
        search=SearchIndex.from_bank(bank),
        lessons=lessons,
        fragments=FragmentCache(),
        templates=make_templates(lessons),
        clock=clock,
        transcriber=Transcriber.from_settings(settings, speech_engine),
        heard=HeardTokens(key),
        marker=InBank(marker or build_marker(settings), bank),
        data_location=data_location(settings.resolved_database_url),
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        state.transcriber.close()

    app = _FastAPI(
        title="Viva",
        version="1",
        summary="Practise technical interview questions out loud.",
        openapi_url="/api/v1/openapi.json",
        docs_url=None,  # the hosted docs pages need inline scripts our CSP forbids
        redoc_url=None,
        # room for the longest answer in UTF-8 plus form overhead; larger bodies get 413
        max_body_size=settings.max_answer_chars * 4 + BODY_OVERHEAD,
        lifespan=lifespan,
    )
    app.state.viva = state
    handlers.install(app)
    register_routes(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(handlers.RejectUnstorableText)
    app.add_middleware(CookieSessions, key=key, max_age=settings.session_days * 86400)
    return app


class _FastAPI(FastAPI):
    def build_middleware_stack(self) -> ASGIApp:
        return outermost(super().build_middleware_stack())  # security headers on every response
