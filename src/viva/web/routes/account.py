"""Sign up, log in, log out, and API tokens. Forms come back with messages when invalid."""

from __future__ import annotations

import json
from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.orm import Session
from starlette.datastructures import UploadFile

from viva.errors import InvalidInput, TooLarge
from viva.practice import Practice, accounts
from viva.practice.accounts import Account
from viva.web.deps import DB, CurrentUser, MaybeViewer, RowId, State, forget, remember, verify_csrf
from viva.web.rendering import render
from viva.web.state import AppState, app_state

router = APIRouter(include_in_schema=False, dependencies=[Depends(verify_csrf)])

Next = Annotated[str, Query(max_length=500)]


def safe_next(target: str) -> str:
    """Only a path on this site: never ``//host`` or ``https://…`` (no open redirect)."""
    if target.startswith("/") and not target.startswith(("//", "/\\")):
        return target
    return "/"


def _signed_in(
    request: Request, session: Session, state: AppState, user: Account, target: str
) -> RedirectResponse:
    remember(request, session, state, user)
    return RedirectResponse(safe_next(target), status_code=303)


def _single_user(state: AppState) -> RedirectResponse | None:
    """One candidate on their own machine has no accounts to sign up for or log in to."""
    return RedirectResponse("/", status_code=303) if state.settings.single_user else None


@router.get("/signup", response_class=HTMLResponse)
def signup_form(request: Request, state: State, user: MaybeViewer, next: Next = "/") -> Response:
    if (away := _single_user(state)) is not None:
        return away
    return render(
        request, "signup.html", {"next": safe_next(next), "errors": {}, "name": "", "nav": "account"}
    )


@router.post("/signup")
def signup(
    request: Request,
    state: State,
    session: DB,
    name: Annotated[str, Form(max_length=200)] = "",
    password: Annotated[str, Form(max_length=accounts.MAX_PASSWORD + 1)] = "",
    next: Annotated[str, Form(max_length=500)] = "/",
) -> Response:
    name = name.strip()
    errors = accounts.check_new_account(name, password)
    if not errors:
        try:
            address = request.client.host if request.client else "unknown"
            per_hour = state.settings.signups_per_hour
            user = accounts.sign_up(session, name, password, state.clock(), address, per_hour)
        except InvalidInput as error:
            errors = {"name": error.message[:1].upper() + error.message[1:] + "."}
        else:
            return _signed_in(request, session, state, user, next)
    context = {"next": safe_next(next), "errors": errors, "name": name, "nav": "account"}
    return render(request, "signup.html", context, status_code=422)


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, state: State, user: MaybeViewer, next: Next = "/") -> Response:
    if (away := _single_user(state)) is not None:
        return away
    context = {"next": safe_next(next), "error": "", "name": "", "nav": "account"}
    return render(request, "login.html", context)


@router.post("/login")
def login(
    request: Request,
    state: State,
    session: DB,
    name: Annotated[str, Form(max_length=200)] = "",
    password: Annotated[str, Form(max_length=accounts.MAX_PASSWORD + 1)] = "",
    next: Annotated[str, Form(max_length=500)] = "/",
) -> Response:
    address = request.client.host if request.client else "unknown"
    user = accounts.log_in(session, state.settings, name.strip(), password, address, state.clock())
    if user is not None:
        return _signed_in(request, session, state, user, next)
    context = {
        "next": safe_next(next),
        "error": "That name and password do not match.",
        "name": name.strip(),
        "nav": "account",
    }
    return render(request, "login.html", context, status_code=401)


@router.post("/logout")
def logout(request: Request, session: DB) -> Response:
    forget(request, session)
    return RedirectResponse("/", status_code=303)


@router.post("/account/sessions/end")
def log_out_everywhere(request: Request, session: DB, user: CurrentUser) -> Response:
    """End every session of this account, on every browser, this one included."""
    accounts.end_all_sessions(session, user)
    request.session.clear()
    return RedirectResponse("/login", status_code=303)


def _account(request: Request, session: Session, user: Account, **extra: object) -> dict[str, object]:
    context: dict[str, object] = {
        "tokens": accounts.api_tokens(session, user),
        "new_token": "",
        "nav": "account",
    }
    context.update({"password_error": "", "password_changed": False, "data_message": "", **extra})
    context["has_password"] = user.has_password
    context["data_location"] = app_state(request).data_location
    return context


@router.get("/account", response_class=HTMLResponse)
def account_page(request: Request, session: DB, user: CurrentUser) -> HTMLResponse:
    return render(request, "account.html", _account(request, session, user))


@router.get("/account/export")
def export_history(state: State, session: DB, user: CurrentUser) -> Response:
    """The candidate's whole history as the JSON file `viva import` and this page read back."""
    document = Practice(session, state.bank).export_history(user)
    stamp = state.clock().strftime("%Y-%m-%d")
    return Response(
        json.dumps(document, indent=2, ensure_ascii=False),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="viva-history-{stamp}.json"'},
    )


MAX_IMPORT_BYTES = 20 * 2**20


@router.post("/account/import", response_class=HTMLResponse, max_body_size=MAX_IMPORT_BYTES + 2**16)
async def import_history(request: Request, state: State, session: DB, user: CurrentUser) -> Response:
    """Add an exported history to this account (never to another one); nothing is written
    unless the whole file is valid."""
    form = await request.form()
    upload = form.get("file")
    if not isinstance(upload, UploadFile):
        raise InvalidInput("choose a history file to import")
    raw = await upload.read(MAX_IMPORT_BYTES + 1)
    if len(raw) > MAX_IMPORT_BYTES:
        raise TooLarge(f"the file is over the {MAX_IMPORT_BYTES // 2**20} MiB limit")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"that file is not a Viva history (not JSON: {exc})") from None
    report = await anyio.to_thread.run_sync(
        lambda: Practice(session, state.bank).import_history(data, as_user=user.name)
    )
    message = (
        f"Imported {report.attempts_added} answer(s) and {report.review_states} schedule(s); "
        f"{report.attempts_skipped} were already here."
    )
    return render(request, "account.html", _account(request, session, user, data_message=message))


@router.post("/account/reset", response_class=HTMLResponse)
def reset_history(
    request: Request,
    state: State,
    session: DB,
    user: CurrentUser,
    confirm: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    """Forget every answer and schedule of this account, once the candidate types its name."""
    if confirm.strip() != user.name:
        context = _account(
            request, session, user, data_message=f"Type {user.name} to confirm; nothing was reset."
        )
        return render(request, "account.html", context, status_code=422)
    removed = Practice(session, state.bank).reset_history(user)
    message = f"Your progress was reset: {removed} answer(s) and every schedule removed."
    return render(request, "account.html", _account(request, session, user, data_message=message))


@router.post("/account/password", response_class=HTMLResponse)
def change_password(
    request: Request,
    state: State,
    session: DB,
    user: CurrentUser,
    current: Annotated[str, Form(max_length=accounts.MAX_PASSWORD + 1)] = "",
    new: Annotated[str, Form(max_length=accounts.MAX_PASSWORD + 1)] = "",
) -> Response:
    """Set a new password after checking the current one (counted like a login), then end
    every other session: whoever else held one must log in with the new password."""
    address = request.client.host if request.client else "unknown"
    try:
        accounts.change_password(session, state.settings, user, current, new, address, state.clock())
    except InvalidInput as error:
        context = _account(
            request, session, user, password_error=error.message[:1].upper() + error.message[1:] + "."
        )
        return render(request, "account.html", context, status_code=422)
    accounts.end_all_sessions(session, user)
    remember(request, session, state, user)
    return render(request, "account.html", _account(request, session, user, password_changed=True))


@router.post("/account/tokens", response_class=HTMLResponse)
def create_token(
    request: Request,
    state: State,
    session: DB,
    user: CurrentUser,
    label: Annotated[str, Form(max_length=100)] = "",
) -> HTMLResponse:
    """Create an API token and show it once (only its hash is stored)."""
    token = accounts.new_api_token(session, user, label or "API token", state.clock())
    return render(request, "account.html", _account(request, session, user, new_token=token))


@router.post("/account/tokens/{token_id}/delete")
def delete_token(request: Request, token_id: RowId, session: DB, user: CurrentUser) -> Response:
    accounts.delete_api_token(session, user, token_id)
    return RedirectResponse("/account", status_code=303)
