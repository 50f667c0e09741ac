"""FastAPI dependencies: the unit of work, who is asking, and CSRF.

One database session per request, committed when the handler returns (before the
response is sent, ``scope="function"``) and rolled back if it raises. Who is asking comes
from, in order: a ``Authorization: Bearer`` API token, the signed session cookie, or — in
single-user mode — the local candidate, signed in automatically.

CSRF: a random token lives in the session; every state-changing request authenticated by
the cookie must echo it, in the ``csrf_token`` form field or the ``X-CSRF-Token`` header
(htmx sends the header; see ``base.html``). Requests with a valid bearer token carry no
ambient authority, so they need no CSRF token; an unknown token is a 401, and a blank
``Authorization: Bearer`` header counts as none (the cookie and CSRF rules apply).
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated

import anyio
import anyio.to_thread
from fastapi import Depends, Path, Request
from sqlalchemy.orm import Session

from viva.practice import accounts
from viva.practice.accounts import Account
from viva.practice.units import open_session, session_scope
from viva.web.errors import Forbidden, NotSignedIn
from viva.web.state import AppState, app_state, app_state_dependency

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
MAX_WRITERS = 8
"""Writing requests per worker in flight at once: well under the thread pool's 40."""


async def db(request: Request) -> AsyncIterator[Session]:
    """The request's unit of work, committed before the response is sent.

    GET/HEAD/OPTIONS only read: on SQLite they begin DEFERRED and never wait for the write
    lock. Other methods write and begin IMMEDIATE, waiting in SQLite's busy timeout for
    their turn. At most :data:`MAX_WRITERS` of them per worker get that far; the rest queue
    here, in the event loop. Unbounded, the waiting writers (in SQLite's busy timeout, or on
    a PostgreSQL row lock) would each block a thread of the pool until none is left for the
    writer holding the lock to finish its request on: on SQLite every one of them would
    fail with "database is locked", on PostgreSQL they would hang.
    """
    state = app_state(request)
    writes = request.method not in SAFE_METHODS
    gate = _write_gate(request) if writes else None
    if gate is not None:
        await gate.acquire()
    try:
        session = open_session(state.sessions, writes=writes)
        try:
            yield session
            await anyio.to_thread.run_sync(session.commit)
        except BaseException:
            await anyio.to_thread.run_sync(session.rollback)
            raise
        finally:
            session.close()
    finally:
        if gate is not None:
            gate.release()


def _write_gate(request: Request) -> anyio.Semaphore:
    gate = getattr(request.app.state, "write_gate", None)
    if not isinstance(gate, anyio.Semaphore):
        gate = anyio.Semaphore(MAX_WRITERS)
        request.app.state.write_gate = gate
    return gate


DB = Annotated[Session, Depends(db, scope="function")]
State = Annotated[AppState, Depends(app_state_dependency)]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is signed in, as plain data for templates: still readable after a rollback."""

    id: int
    name: str


def current_user(request: Request, session: DB, state: State) -> Account | None:
    """The account making the request, or None; a :class:`Viewer` copy goes on ``request.state``."""
    user = _bearer_user(request, session, state) or _session_user(request, session, state)
    request.state.user = Viewer(user.id, user.name) if user is not None else None
    return user


def _bearer_token(request: Request) -> str | None:
    """The API token in ``Authorization: Bearer …``; None if there is none or it is blank."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def _bearer_user(request: Request, session: Session, state: AppState) -> Account | None:
    token = _bearer_token(request)
    if token is None:
        return None
    user = accounts.token_account(session, token, state.clock())
    if user is None:
        raise _unknown_token()
    request.state.via_token = True
    return user


def _unknown_token() -> NotSignedIn:
    return NotSignedIn("unknown or revoked API token", hint="create one on the Account page")


def _token_is_known(request: Request, token: str) -> bool:
    with session_scope(app_state(request).sessions, writes=False) as session:
        return accounts.token_exists(session, token)


def _session_user(request: Request, session: Session, state: AppState) -> Account | None:
    secret = request.session.get("sid")
    if isinstance(secret, str):
        user = accounts.session_account(session, secret, state.clock(), session_lifetime(state))
        if user is not None:
            return user
    for key in ("uid", "name", "sid"):
        request.session.pop(key, None)  # ended on the server (logout elsewhere, password change)
    if state.settings.single_user:
        # the local candidate needs no server session: there is nobody to log out
        user = accounts.local_account(session, state.settings.user, state.clock())
        request.session["uid"], request.session["name"] = user.id, user.name
        return user
    return None


def session_lifetime(state: AppState) -> timedelta:
    return timedelta(days=state.settings.session_days)


def remember(request: Request, session: Session, state: AppState, user: Account) -> None:
    """Sign ``user`` in: a fresh server session, and its secret in a fresh cookie.

    Clearing the cookie first gives a new CSRF token too, so a planted cookie is worthless.
    The token is made here, not on the first page that asks for it: pages loaded at once after
    signing in (tabs, a script) would each make their own, and only one cookie can win.
    """
    request.session.clear()
    secret = accounts.start_web_session(session, user, state.clock(), session_lifetime(state))
    request.session.update({"uid": user.id, "name": user.name, "sid": secret})
    csrf_token(request)


def forget(request: Request, session: Session) -> None:
    """End this browser's session on the server and in the cookie."""
    secret = request.session.get("sid")
    if isinstance(secret, str):
        accounts.end_session(session, secret)
    request.session.clear()


MaybeUser = Annotated[Account | None, Depends(current_user)]


async def viewer(request: Request, state: State) -> Viewer | None:
    """Who is signed in, from the signed cookie alone: for pages that show only bank content.

    No database round trip, so reading pages (topic, lesson, search) cost the same for
    everyone; pages that show per-user data resolve the real user with :func:`current_user`.
    """
    user_id, name = request.session.get("uid"), request.session.get("name")
    found: Viewer | None = None
    if isinstance(user_id, int) and isinstance(name, str):
        found = Viewer(user_id, name)
    elif state.settings.single_user:
        found = Viewer(0, state.settings.user)
    request.state.user = found
    return found


MaybeViewer = Annotated[Viewer | None, Depends(viewer)]


async def require_user(user: MaybeUser) -> Account:
    if user is None:
        raise NotSignedIn("log in to see your own practice and progress")
    return user


CurrentUser = Annotated[Account, Depends(require_user)]


def csrf_token(request: Request) -> str:
    """This session's CSRF token, created on first use."""
    token = request.session.get("csrf")
    if not isinstance(token, str) or len(token) < 20:
        token = secrets.token_urlsafe(32)
        request.session["csrf"] = token
    return token


async def verify_csrf(request: Request) -> None:
    """Refuse a state-changing, cookie-authenticated request without the session's token."""
    if request.method in SAFE_METHODS:
        return
    token = _bearer_token(request)
    if token is not None:
        # only a real token carries no ambient authority; a blank or made-up one is no excuse
        if await anyio.to_thread.run_sync(_token_is_known, request, token):
            return
        raise _unknown_token()
    signed_in = isinstance(request.session.get("sid"), str) or app_state(request).settings.single_user
    if request.url.path.startswith("/api/") and not signed_in:
        # nobody is signed in by cookie either: the API's answer is "who are you?", not "bad form"
        raise NotSignedIn("send an API token: Authorization: Bearer <token>")
    expected = request.session.get("csrf")
    sent = request.headers.get(CSRF_HEADER)
    if sent is None and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        form = await request.form()
        field = form.get(CSRF_FIELD)
        sent = field if isinstance(field, str) else None
    if not isinstance(expected, str) or not sent or not secrets.compare_digest(expected, sent):
        raise Forbidden(
            "this form has expired or did not come from Viva",
            hint="reload the page and submit it again",
        )


RowId = Annotated[int, Path(ge=1, le=2**31 - 1, description="a database id")]
"""An id path parameter: anything outside a 32-bit INTEGER column's range names nothing (422)."""
