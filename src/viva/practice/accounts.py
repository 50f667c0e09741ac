"""Accounts: who a candidate is, argon2 passwords, the login rate limit, browser sessions and
API tokens. The adapters get :class:`Account` and :class:`TokenInfo` (plain frozen data, still
readable after the transaction ends); the store's rows stay in here.

Nothing is kept in process memory: failed logins are rows (``login_failures``) so the
limit holds across workers, a signed-in browser is a row whose secret only its cookie holds,
and an API token is stored only as its SHA-256 (it is random, so a slow hash adds nothing).

The limit counts failures per account name and per client address over a sliding window;
an address gets more room than a name because many people may share one (an office NAT).
Nothing here commits: the caller's unit of work does.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from viva.errors import InvalidInput, TooManyLogins
from viva.settings import Settings
from viva.store import logins, users, web_sessions
from viva.store.models import ApiToken, User

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,39}$")
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
ADDRESS_ALLOWANCE = 4
"""An address may fail this many times more than one account name before it is held back."""
SIGNUP_WINDOW = timedelta(hours=1)

_hasher = PasswordHasher()
# Verifying against this when the name is unknown keeps the timing the same as a real check.
_DUMMY_HASH = _hasher.hash("not a real password")


@dataclass(frozen=True, slots=True)
class Account:
    """A candidate: web accounts have a password, CLI and single-user candidates none."""

    id: int
    name: str
    created_at: datetime
    has_password: bool

    @classmethod
    def of(cls, user: User) -> Account:
        return cls(user.id, user.name, user.created_at, user.password_hash is not None)


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """One API token as its owner sees it: never the token itself."""

    id: int
    label: str
    created_at: datetime
    last_used_at: datetime | None

    @classmethod
    def of(cls, token: ApiToken) -> TokenInfo:
        return cls(token.id, token.label, token.created_at, token.last_used_at)


def _account(user: User | None) -> Account | None:
    return Account.of(user) if user is not None else None


# -- candidates without a password ---------------------------------------------------------


def local_account(session: Session, name: str, now: datetime | None = None) -> Account:
    """The candidate called ``name`` (CLI, single-user web), created on first use."""
    return Account.of(users.get_or_create_user(session, name, now))


# -- sign-up, login, password ----------------------------------------------------------------


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


def sign_up(
    session: Session,
    name: str,
    password: str,
    now: datetime,
    address: str = "unknown",
    per_hour: int = Settings().signups_per_hour,
) -> Account:
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
    if users.get_user(session, name) is not None:
        raise taken
    user = User(name=name, password_hash=_hasher.hash(password), created_at=now)
    try:
        with session.begin_nested():
            session.add(user)
    except IntegrityError:
        raise taken from None
    logins.add_login_failure(session, key, now)  # counted as an event of this address, not a failure
    return Account.of(user)


def log_in(
    session: Session, settings: Settings, name: str, password: str, address: str, now: datetime
) -> Account | None:
    """The account if ``password`` is theirs, else None (and the failure is counted).

    Raises :class:`~viva.errors.TooManyLogins` before checking anything once the limit is
    reached, so a guesser learns nothing more until the window passes. Concurrent logins for
    one name or address are serialised (the keys are locked until the caller's transaction
    ends), so a burst gets no more checks than the limit. Accounts without a password (CLI
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
    user = users.get_user(session, name)
    if _verify(user.password_hash if user is not None else None, password):
        assert user is not None
        return Account.of(user)
    for key in keys:
        logins.add_login_failure(session, key, now)
    return None


def change_password(
    session: Session,
    settings: Settings,
    account: Account,
    current: str,
    new: str,
    address: str,
    now: datetime,
) -> None:
    """Replace ``account``'s password; InvalidInput when ``current`` is wrong or ``new`` too weak.

    The current password is checked as a login is, rate limit included, so a stolen session
    cannot be used to guess it.
    """
    if log_in(session, settings, account.name, current, address, now) is None:
        raise InvalidInput("the current password is not right")
    problems = check_new_account(account.name, new)
    if "password" in problems:
        raise InvalidInput("new password: " + problems["password"].lower().rstrip("."))
    users.user_by_id(session, account.id).password_hash = _hasher.hash(new)
    session.flush()


def _verify(stored: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored or _DUMMY_HASH, password[:MAX_PASSWORD]) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


# -- browser sessions ------------------------------------------------------------------------


def start_web_session(session: Session, account: Account, now: datetime, lifetime: timedelta) -> str:
    """Sign ``account`` in on one browser; returns the secret its cookie alone will hold."""
    return web_sessions.open_session(session, account.id, now, lifetime)


def session_account(session: Session, secret: str, now: datetime, lifetime: timedelta) -> Account | None:
    """Whose live browser session ``secret`` opens; None once it has ended or expired."""
    return _account(web_sessions.session_user(session, secret, now, lifetime))


def end_session(session: Session, secret: str) -> None:
    web_sessions.end_session(session, secret)


def end_all_sessions(session: Session, account: Account) -> int:
    """Log ``account`` out on every browser; returns how many sessions ended."""
    return web_sessions.end_all_sessions(session, account.id)


# -- API tokens ------------------------------------------------------------------------------


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_api_token(session: Session, account: Account, label: str, now: datetime) -> str:
    """Create a token for ``account`` and return it; it is shown once and only its hash is kept."""
    token = "viva_" + secrets.token_urlsafe(32)
    logins.add_api_token(session, account.id, token_hash(token), label.strip()[:100], now)
    return token


def token_account(session: Session, token: str, now: datetime) -> Account | None:
    """The owner of ``token`` (its use recorded, at most every few minutes); None if unknown."""
    return _account(logins.user_for_token(session, token_hash(token), now))


def token_exists(session: Session, token: str) -> bool:
    """Whether ``token`` is a live token; records nothing."""
    return logins.token_exists(session, token_hash(token))


def api_tokens(session: Session, account: Account) -> list[TokenInfo]:
    """``account``'s API tokens (their labels and dates; never the tokens themselves)."""
    return [TokenInfo.of(t) for t in logins.api_tokens(session, account.id)]


def delete_api_token(session: Session, account: Account, token_id: int) -> None:
    """Revoke one of ``account``'s tokens; NotFound for anyone else's."""
    logins.delete_api_token(session, account.id, token_id)
