"""Signed-cookie sessions: the only per-user state between requests, kept by the browser.

The cookie holds the user id, the CSRF token and the practice sitting id, signed with the
app's secret key (itsdangerous, through Starlette's SessionMiddleware), so any worker that
shares the key can serve the next request. It is HttpOnly and SameSite=Lax always, and
Secure whenever the request came over HTTPS (directly, or through a proxy that uvicorn
trusts for ``X-Forwarded-Proto``), so the same deployment works on plain localhost.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from viva.settings import Settings

COOKIE = "viva_session"
KEY_FILE = "secret_key"


def secret_key(settings: Settings) -> str:
    """``VIVA_SECRET_KEY``, else a key generated once into the data folder (mode 0600).

    Workers on one machine share the data folder and so the key; on several machines set
    ``VIVA_SECRET_KEY``. Creating the file is atomic (``O_EXCL``), so workers starting
    together agree on one key.
    """
    if settings.secret_key:
        return settings.secret_key
    path = Path(settings.data_dir) / KEY_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(secrets.token_urlsafe(48))
    return path.read_text(encoding="ascii").strip()


class CookieSessions:
    """SessionMiddleware that marks the cookie Secure on HTTPS requests only."""

    def __init__(self, app: ASGIApp, *, key: str, max_age: int) -> None:
        common = {"secret_key": key, "session_cookie": COOKIE, "max_age": max_age, "same_site": "lax"}
        self._plain = SessionMiddleware(app, https_only=False, **common)  # type: ignore[arg-type]
        self._secure = SessionMiddleware(app, https_only=True, **common)  # type: ignore[arg-type]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        https = scope.get("scheme") in ("https", "wss")
        await (self._secure if https else self._plain)(scope, receive, send)
