"""One error handler: the same error becomes a page, an htmx fragment or JSON.

Every :class:`~viva.errors.VivaError` carries its HTTP status; request validation errors
become 422 with the fields named; unknown routes 404; anything unexpected is logged and
shown as a plain 500 without details. JSON goes to ``/api/`` paths and to clients that
ask for it; htmx swaps get the error fragment; browsers get a full page.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException

from viva.errors import VivaError
from viva.web.errors import NotSignedIn, TooManyLogins
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
    return response


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
