"""Route modules, one per area; each exposes a ``router``. Handlers stay thin: they parse
the request, call the core (:mod:`viva.practice`, :mod:`viva.marking`, the bank) and render."""

from __future__ import annotations

from fastapi import FastAPI

from . import account, api, pages, practice, progress, search


def register_routes(app: FastAPI) -> None:
    for module in (pages, search, practice, progress, account):
        app.include_router(module.router)
    app.include_router(api.router, prefix="/api/v1")
