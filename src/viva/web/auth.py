"""Accounts: argon2 passwords, the login rate limit, and API tokens.

Nothing here is kept in process memory: failed logins are rows (``login_failures``) so the
limit holds across workers, the signed-in user is an id in the signed session cookie, and
an API token is stored only as its SHA-256 (it is random, so a slow hash adds nothing).

The limit counts failures per account name and per client address over a sliding window;
an address gets more room than a name because many people may share one (an office NAT).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from viva.errors import InvalidInput
from viva.settings import Settings
from viva.store import logins, web_sessions
from viva.store.models import ApiToken, User
from viva.store.users import get_user
from viva.web.errors import TooManyLogins

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,39}$")
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
ADDRESS_ALLOWANCE = 4
"""An address may fail this many times more than one account name before it is held back."""

_hasher = PasswordHasher()
# Verifying against this when the name is unknown keeps the timing the same as a real check.
_DUMMY_HASH = _hasher.hash("not a real password")


def check_new_account(name: str, password: str) -> dict[str, str]:
    """Problems with a sign-up form, by field (empty when it is fine)."""
    problems: dict[str, str] = {}
    if not NAME.match(name):
        problems["name"] = (
            "2 to 40 letters, digits, dots, dashes or underscores, starting with a letter or digit."
        )
    if len(password) < MIN_PASSWORD:
        problems["password"] = f"At least {MIN_PASSWORD} characters."
    elif len(password) > MAX_PASSWORD:
        problems["password"] = f"At most {MAX_PASSWORD} characters."
    return problems


SIGNUP_WINDOW = timedelta(hours=1)


def sign_up(
    session: Session,
    name: str,
    password: str,
    now: datetime,
    address: str = "unknown",
    per_hour: int = Settings().signups_per_hour,
) -> User:
    """Create an account; InvalidInput if the name is taken or the form is invalid.

    Two sign-ups racing for one name both pass the look-up; the unique index decides, and
    the loser gets the same "taken" answer (the insert is in a savepoint, so the rest of
    the request's transaction survives it).
    """
    problems = check_new_account(name, password)
    if problems:
        raise InvalidInput(" ".join(problems.values()))
    key = f"signup:{address[:100]}"
    logins.lock_login_keys(session, [key])
    if logins.count_login_failures(session, [key], now - SIGNUP_WINDOW).get(key, 0) >= per_hour:
        raise TooManyLogins(
            "too many new accounts from this address; try again later",
            retry_after=int(SIGNUP_WINDOW.total_seconds()),
        )
    taken = InvalidInput(f"the name {name!r} is taken", hint="choose another or log in")
    if get_user(session, name) is not None:
        raise taken
    user = User(name=name, password_hash=_hasher.hash(password), created_at=now)
    try:
        with session.begin_nested():
            session.add(user)
    except IntegrityError:
        raise taken from None
    logins.add_login_failure(session, key, now)  # counted as an event of this address, not a failure
    return user


def log_in(
    session: Session, settings: Settings, name: str, password: str, address: str, now: datetime
) -> User | None:
    """The user if ``password`` is theirs, else None (and the failure is counted).

    Raises :class:`TooManyLogins` before checking anything once the limit is reached, so a
    guesser learns nothing more until the window passes. Concurrent logins for one name or
    address are serialised (the keys are locked until the caller's transaction ends), so a
    burst gets no more checks than the limit. Accounts without a password (CLI
    candidates) cannot log in on the web.
    """
    window = timedelta(minutes=settings.login_window_minutes)
    keys = {
        f"name:{name.lower()[:100]}": settings.login_max_failures,
        f"ip:{address[:100]}": settings.login_max_failures * ADDRESS_ALLOWANCE,
    }
    logins.lock_login_keys(session, keys)  # a burst of guesses is checked one at a time
    counts = logins.count_login_failures(session, keys, now - window)
    if any(counts.get(key, 0) >= limit for key, limit in keys.items()):
        raise TooManyLogins(
            "too many failed logins; wait a few minutes and try again",
            retry_after=int(window.total_seconds()),
        )
    user = get_user(session, name)
    if _verify(user.password_hash if user is not None else None, password):
        assert user is not None
        return user
    for key in keys:
        logins.add_login_failure(session, key, now)
    return None


def change_password(
    session: Session, settings: Settings, user: User, current: str, new: str, address: str, now: datetime
) -> None:
    """Replace ``user``'s password; InvalidInput when ``current`` is wrong or ``new`` too weak.

    The current password is checked as a login is, rate limit included, so a stolen session
    cannot be used to guess it.
    """
    if log_in(session, settings, user.name, current, address, now) is None:
        raise InvalidInput("the current password is not right")
    problems = check_new_account(user.name, new)
    if "password" in problems:
        raise InvalidInput("new password: " + problems["password"].lower().rstrip("."))
    user.password_hash = _hasher.hash(new)
    session.flush()


def _verify(stored: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored or _DUMMY_HASH, password[:MAX_PASSWORD]) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def new_api_token(session: Session, user: User, label: str, now: datetime) -> str:
    """Create a token for ``user`` and return it; it is shown once and only its hash is kept."""
    token = "viva_" + secrets.token_urlsafe(32)
    logins.add_api_token(session, user.id, token_hash(token), label.strip()[:100], now)
    return token


def api_tokens(session: Session, user: User) -> Sequence[ApiToken]:
    """``user``'s API tokens (their labels and dates; never the tokens themselves)."""
    return logins.api_tokens(session, user.id)


def delete_api_token(session: Session, user: User, token_id: int) -> None:
    """Revoke one of ``user``'s tokens; NotFound for anyone else's."""
    logins.delete_api_token(session, user.id, token_id)


def end_all_sessions(session: Session, user: User) -> int:
    """Log ``user`` out on every browser; returns how many sessions ended."""
    return web_sessions.end_all_sessions(session, user.id)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
