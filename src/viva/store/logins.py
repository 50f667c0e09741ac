"""Failed logins and API tokens: what web authentication stores. Never commits."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from viva.errors import NotFound
from viva.store.models import ApiToken, LoginFailure, User


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
    """The token's owner, recording the use; None for an unknown token."""
    token = session.scalars(select(ApiToken).where(ApiToken.token_hash == token_hash)).one_or_none()
    if token is None:
        return None
    token.last_used_at = now
    return session.get(User, token.user_id)


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
