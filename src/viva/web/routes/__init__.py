"""Route modules, one per area; each exposes a ``router``. Handlers stay thin: they parse
the request, call the core (:mod:`viva.practice`, :mod:`viva.marking`, the bank) and render."""

from __future__ import annotations

from fastapi import FastAPI

from . import account, api, docs, interview, pages, practice, progress, queued, search, speech


def register_routes(app: FastAPI) -> None:
    settings = app.state.viva.settings
    for module in (pages, search, practice, progress, account, docs):
        app.include_router(module.router)
    # their body limits come from the settings, so these routers are built per app
    app.include_router(speech.page_router(settings))
    app.include_router(interview.router_for(settings))
    app.include_router(api.router, prefix="/api/v1")
    app.include_router(speech.api_router(settings), prefix="/api/v1")
    app.include_router(queued.page_router)
    app.include_router(queued.api_router, prefix="/api/v1")
