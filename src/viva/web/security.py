"""Security headers on every response, including a CSP that allows no inline script.

The pages need nothing inline: scripts are files under /static, htmx runs with eval off and
its inline indicator styles disabled (see the ``htmx-config`` meta tag in ``base.html``),
and the SVG plots use presentation attributes rather than ``style``.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "media-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    # the microphone is for spoken answers on our own pages; nothing else is needed
    "Permissions-Policy": "microphone=(self), camera=(), geolocation=(), payment=()",
}


class SecurityHeaders:
    """Pure ASGI middleware (no body buffering) adding :data:`HEADERS`, and HSTS on HTTPS."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        https = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
                if https:
                    headers.setdefault("Strict-Transport-Security", "max-age=31536000")
            await send(message)

        await self.app(scope, receive, send_with_headers)


def outermost(app: ASGIApp) -> ASGIApp:
    """``app`` wrapped so every response gets :data:`HEADERS`, even those sent before the
    app's own middleware runs (FastAPI answers an over-large body with 413 out there)."""
    return SecurityHeaders(app)
