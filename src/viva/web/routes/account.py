"""Sign up, log in, log out, and API tokens. Forms come back with messages when invalid."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from viva.errors import InvalidInput
from viva.store import logins
from viva.store.models import User
from viva.web import auth
from viva.web.deps import DB, CurrentUser, MaybeViewer, RowId, State, remember, verify_csrf
from viva.web.rendering import render

router = APIRouter(include_in_schema=False, dependencies=[Depends(verify_csrf)])

Next = Annotated[str, Query(max_length=500)]


def safe_next(target: str) -> str:
    """Only a path on this site: never ``//host`` or ``https://…`` (no open redirect)."""
    if target.startswith("/") and not target.startswith(("//", "/\\")):
        return target
    return "/"


def _signed_in(request: Request, user: User, target: str) -> RedirectResponse:
    # a new login gets a fresh session (and CSRF token), so a planted cookie is worthless
    request.session.clear()
    remember(request, user)
    return RedirectResponse(safe_next(target), status_code=303)


@router.get("/signup", response_class=HTMLResponse)
def signup_form(request: Request, user: MaybeViewer, next: Next = "/") -> HTMLResponse:
    return render(
        request, "signup.html", {"next": safe_next(next), "errors": {}, "name": "", "nav": "account"}
    )


@router.post("/signup")
def signup(
    request: Request,
    state: State,
    session: DB,
    name: Annotated[str, Form(max_length=200)] = "",
    password: Annotated[str, Form(max_length=auth.MAX_PASSWORD + 1)] = "",
    next: Annotated[str, Form(max_length=500)] = "/",
) -> Response:
    name = name.strip()
    errors = auth.check_new_account(name, password)
    if not errors:
        try:
            user = auth.sign_up(session, name, password, state.clock())
        except InvalidInput as error:
            errors = {"name": error.message[:1].upper() + error.message[1:] + "."}
        else:
            return _signed_in(request, user, next)
    context = {"next": safe_next(next), "errors": errors, "name": name, "nav": "account"}
    return render(request, "signup.html", context, status_code=422)


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, user: MaybeViewer, next: Next = "/") -> HTMLResponse:
    context = {"next": safe_next(next), "error": "", "name": "", "nav": "account"}
    return render(request, "login.html", context)


@router.post("/login")
def login(
    request: Request,
    state: State,
    session: DB,
    name: Annotated[str, Form(max_length=200)] = "",
    password: Annotated[str, Form(max_length=auth.MAX_PASSWORD + 1)] = "",
    next: Annotated[str, Form(max_length=500)] = "/",
) -> Response:
    address = request.client.host if request.client else "unknown"
    user = auth.log_in(session, state.settings, name.strip(), password, address, state.clock())
    if user is not None:
        return _signed_in(request, user, next)
    context = {
        "next": safe_next(next),
        "error": "That name and password do not match.",
        "name": name.strip(),
        "nav": "account",
    }
    return render(request, "login.html", context, status_code=401)


@router.post("/logout")
def logout(request: Request) -> Response:
    request.session.clear()
    return RedirectResponse("/", status_code=303)


@router.get("/account", response_class=HTMLResponse)
def account_page(request: Request, session: DB, user: CurrentUser) -> HTMLResponse:
    tokens = logins.api_tokens(session, user.id)
    return render(request, "account.html", {"tokens": tokens, "new_token": "", "nav": "account"})


@router.post("/account/tokens", response_class=HTMLResponse)
def create_token(
    request: Request,
    state: State,
    session: DB,
    user: CurrentUser,
    label: Annotated[str, Form(max_length=100)] = "",
) -> HTMLResponse:
    """Create an API token and show it once (only its hash is stored)."""
    token = auth.new_api_token(session, user, label or "API token", state.clock())
    tokens = logins.api_tokens(session, user.id)
    return render(request, "account.html", {"tokens": tokens, "new_token": token, "nav": "account"})


@router.post("/account/tokens/{token_id}/delete")
def delete_token(request: Request, token_id: RowId, session: DB, user: CurrentUser) -> Response:
    logins.delete_api_token(session, user.id, token_id)
    return RedirectResponse("/account", status_code=303)
