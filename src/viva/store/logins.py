"""Failed logins and API tokens: what web authentication stores. Never commits."""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from viva.errors import NotFound
from viva.store.models import ApiToken, LoginFailure, User

log = logging.getLogger(__name__)
TOKEN_USE_GRANULARITY = timedelta(minutes=5)
"""``api_tokens.last_used_at`` is only rewritten when older than this: reads must not write."""


def lock_login_keys(session: Session, keys: Collection[str]) -> None:
    """Hold the rate-limit keys until the transaction ends, so count, check and record are atomic.

    PostgreSQL takes a transaction-level advisory lock per key (in one order, so two logins
    never deadlock). SQLite needs none: a writing unit of work begins IMMEDIATE, so it
    already holds the database's one write lock (see :mod:`viva.store.db`).
    """
    if session.get_bind().dialect.name != "postgresql":
        return
    for key in sorted(set(keys)):
        session.execute(select(func.pg_advisory_xact_lock(func.hashtext(key))))


def add_login_failure(session: Session, key: str, at: datetime) -> None:
    session.add(LoginFailure(key=key, at=at))
    session.flush()


def count_login_failures(session: Session, keys: Collection[str], since: datetime) -> dict[str, int]:
    """Failures per key since ``since`` (keys with none are absent)."""
    query = (
        select(LoginFailure.key, func.count())
        .where(LoginFailure.key.in_(list(keys)), LoginFailure.at >= since)
        .group_by(LoginFailure.key)
    )
    return {row[0]: int(row[1]) for row in session.execute(query).all()}


def prune_login_failures(session: Session, before: datetime) -> None:
    """Forget failures older than ``before`` (they no longer count towards any limit)."""
    session.execute(delete(LoginFailure).where(LoginFailure.at < before))


def add_api_token(session: Session, user_id: int, token_hash: str, label: str, now: datetime) -> ApiToken:
    token = ApiToken(user_id=user_id, token_hash=token_hash, label=label, created_at=now)
    session.add(token)
    session.flush()
    return token


def user_for_token(session: Session, token_hash: str, now: datetime) -> User | None:
    """The token's owner, recording the use at most every few minutes; None for an unknown token.

    Recording the use is best effort: a conditional UPDATE in a savepoint, skipped when the
    last use is recent or another request holds the row, and given up (logged) if the
    database is busy, so a burst of requests with one token neither queues on that row
    (each waiter would hold a worker thread and a pooled connection) nor fails.
    """
    row = session.execute(
        select(ApiToken.id, ApiToken.user_id, ApiToken.last_used_at).where(ApiToken.token_hash == token_hash)
    ).one_or_none()
    if row is None:
        return None
    token_id, user_id, last_used = row
    if last_used is None or last_used < now - TOKEN_USE_GRANULARITY:
        _touch_token(session, token_id, now)
    return session.get(User, user_id)


def _touch_token(session: Session, token_id: int, now: datetime) -> None:
    cutoff = now - TOKEN_USE_GRANULARITY
    stale = or_(ApiToken.last_used_at.is_(None), ApiToken.last_used_at < cutoff)
    try:
        with session.begin_nested():
            # SKIP LOCKED (PostgreSQL): if another request is recording a use right now,
            # leave it to that one rather than wait for its row lock (SQLite ignores it)
            free = select(ApiToken.id).where(ApiToken.id == token_id, stale).with_for_update(skip_locked=True)
            session.execute(
                update(ApiToken).where(ApiToken.id.in_(free)).values(last_used_at=now),
                execution_options={"synchronize_session": False},
            )
    except DBAPIError as exc:
        log.info("API token %s: last use not recorded (%s)", token_id, exc.orig)


def token_exists(session: Session, token_hash: str) -> bool:
    """Whether a token with this hash exists (not revoked); records nothing."""
    found = session.scalar(select(ApiToken.id).where(ApiToken.token_hash == token_hash).limit(1))
    return found is not None


def api_tokens(session: Session, user_id: int) -> Sequence[ApiToken]:
    query = select(ApiToken).where(ApiToken.user_id == user_id).order_by(ApiToken.created_at, ApiToken.id)
    return session.scalars(query).all()


def delete_api_token(session: Session, user_id: int, token_id: int) -> None:
    """Revoke one of the user's tokens; NotFound if it is not theirs."""
    token = session.get(ApiToken, token_id)
    if token is None or token.user_id != user_id:
        raise NotFound(f"no API token {token_id}")
    session.delete(token)
    session.flush()
