"""One error handler: the same error becomes a page, an htmx fragment or JSON.

Every :class:`~viva.errors.VivaError` carries its HTTP status; request validation errors
become 422 with the fields named; unknown routes 404; anything unexpected is logged and
shown as a plain 500 without details. JSON goes to ``/api/`` paths and to clients that
ask for it; htmx swaps get the error fragment; browsers get a full page.
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import unquote_to_bytes

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from viva.errors import TooManyLogins, VivaError
from viva.web.errors import NotSignedIn
from viva.web.rendering import render, wants_fragment
from viva.web.security import HEADERS

log = logging.getLogger("viva.web")

TITLES = {
    400: "That request could not be used",
    401: "Please log in",
    403: "Not allowed",
    404: "Not found",
    405: "Not allowed",
    413: "Too long",
    422: "Please check what you entered",
    429: "Too many attempts",
    500: "Something went wrong on our side",
    503: "Not available here",
}


def wants_json(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    return request.url.path.startswith("/api/") or (
        "application/json" in accept and "text/html" not in accept
    )


def error_response(
    request: Request, status: int, message: str, hint: str | None = None, details: list[str] | None = None
) -> Response:
    headers = {}
    if status == 429:
        headers["Retry-After"] = str(getattr(request.state, "retry_after", 60))
    if wants_json(request):
        body: dict[str, object] = {"error": message, "status": status}
        if hint:
            body["hint"] = hint
        if details:
            body["details"] = details
        return JSONResponse(body, status_code=status, headers=headers)
    if status == 401 and not wants_fragment(request) and request.method == "GET":
        return RedirectResponse(f"/login?next={request.url.path}", status_code=303)
    context = {
        "title": TITLES.get(status, "Error"),
        "status": status,
        "message": message,
        "hint": hint,
        "details": details or [],
    }
    return render(request, "error.html", context, status_code=status, headers=headers)


async def viva_error(request: Request, exc: Exception) -> Response:
    if not isinstance(exc, VivaError):  # a real check: `python -O` strips asserts
        raise exc
    if isinstance(exc, TooManyLogins):
        request.state.retry_after = exc.retry_after
    if isinstance(exc, NotSignedIn) and wants_json(request):
        response = error_response(request, 401, exc.message, exc.hint)
        response.headers["WWW-Authenticate"] = "Bearer"
        return response
    return error_response(request, exc.status_code, exc.message, exc.hint)


async def validation_error(request: Request, exc: Exception) -> Response:
    if not isinstance(exc, RequestValidationError):  # a real check: `python -O` strips asserts
        raise exc
    details = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error.get("loc", ()) if part not in ("body", "query", "path"))
        details.append(f"{where or 'request'}: {error.get('msg', 'invalid')}")
    return error_response(request, 422, "some of the input could not be used", details=details)


async def http_error(request: Request, exc: Exception) -> Response:
    if not isinstance(exc, HTTPException):  # a real check: `python -O` strips asserts
        raise exc
    message = str(exc.detail) if exc.detail else TITLES.get(exc.status_code, "error")
    if exc.status_code == 404:
        message = f"nothing at {request.url.path}"
    response = error_response(request, exc.status_code, message)
    for name, value in (exc.headers or {}).items():
        response.headers[name] = value
    if exc.status_code == 405:
        response.headers["Allow"] = ", ".join(allowed_methods(request))
    return response


def allowed_methods(request: Request) -> list[str]:
    """Every method some route fully serves at this path. Starlette's own ``Allow`` names
    only the first route that matched the path, so a path with a GET and a POST route said GET."""
    allowed = []
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"):
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] == Match.FULL for route in request.app.router.routes):
            allowed.append(method)
    return allowed


async def unexpected_error(request: Request, exc: Exception) -> Response:
    """Starlette answers unhandled errors outside every middleware, so the security headers
    are added here too: a 500 page must not be the one response without a CSP."""
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    response = error_response(request, 500, "an unexpected error occurred; it has been logged")
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def install(app: FastAPI) -> None:
    app.add_exception_handler(VivaError, viva_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, unexpected_error)


# -- text no database can store, refused at the edge ---------------------------------------

NUL = "text may not contain NUL characters (\\u0000)"
SURROGATE = "text must be valid Unicode: a lone surrogate such as \\udfff is not"
NOT_UTF8 = "text must be valid UTF-8"
CHECKED_BODIES = ("application/json", "application/x-www-form-urlencoded")


def _encoded_text_problem(encoded: bytes) -> str | None:
    """What is wrong with a query string or form body, percent-decoded; None if nothing."""
    raw = unquote_to_bytes(encoded.replace(b"+", b" "))
    if b"\x00" in raw:
        return NUL
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return NOT_UTF8
    return None


def _string_problem(text: str) -> str | None:
    if "\x00" in text:
        return NUL
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        return SURROGATE
    return None


def _json_problem(value: Any) -> str | None:
    if isinstance(value, str):
        return _string_problem(value)
    if isinstance(value, dict):
        items: list[Any] = [*value.keys(), *value.values()]
    elif isinstance(value, list):
        items = value
    else:
        return None
    for item in items:
        problem = _json_problem(item)
        if problem:
            return problem
    return None


def _body_problem(content_type: str, body: bytes) -> str | None:
    if content_type.startswith("application/x-www-form-urlencoded"):
        return _encoded_text_problem(body)
    try:
        parsed = json.loads(body)
    except ValueError:
        return None  # not JSON at all: validation answers that
    return _json_problem(parsed)


class RejectUnstorableText:
    """Pure ASGI middleware: NUL characters and lone surrogates get 422, before any handler.

    PostgreSQL cannot store NUL in text and nothing can encode a lone surrogate, so such
    input would otherwise fail deep inside as a 500. The path and query string are checked,
    and JSON and URL-encoded bodies within the app-wide body limit; multipart bodies carry
    audio and are left to the handlers.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        problem = _string_problem(scope.get("path", "")) or _encoded_text_problem(
            scope.get("query_string", b"")
        )
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        content_type = headers.get(b"content-type", b"").decode("latin-1").lower()
        if problem is None and content_type.startswith(CHECKED_BODIES) and _small(scope, headers):
            body, receive = await _buffered(receive)
            problem = _body_problem(content_type, body)
        if problem is None:
            await self.app(scope, receive, send)
            return
        # the problem itself is the message: a candidate can act on it, unlike field details
        response = error_response(Request(scope, receive), 422, problem)
        await response(scope, receive, send)


def _small(scope: Scope, headers: dict[bytes, bytes]) -> bool:
    """Whether the body is declared and within the app-wide limit, so reading it here is safe.

    A route may allow more (a kept recording comes back base64 in a form); reading such a
    body here would hit the app-wide limit first, so it is left to the route.
    """
    try:
        length = int(headers.get(b"content-length", b""))
    except ValueError:
        return False
    limit = scope.get("starlette.max_body_size")
    return length >= 0 and (not isinstance(limit, int) or length <= limit)


async def _buffered(receive: Receive) -> tuple[bytes, Receive]:
    """The whole request body, and a ``receive`` that replays it."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return body, replay
