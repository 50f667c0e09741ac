"""The entry point each uvicorn worker calls: ``uvicorn viva.web.factory:app_from_env --factory``."""

from __future__ import annotations

from fastapi import FastAPI

from viva.settings import Settings
from viva.web.app import create_app


def app_from_env() -> FastAPI:
    """An app from the ``VIVA_*`` environment (``viva serve`` sets it from its options)."""
    return create_app(Settings.from_env())
