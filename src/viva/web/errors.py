"""Errors only the web layer raises, under the core's :class:`~viva.errors.VivaError`.

    VivaError
    ├── NotSignedIn     a per-user page or API route without a login or token (HTTP 401)
    ├── Forbidden       a state-changing request without a valid CSRF token (HTTP 403)
    └── TooManyLogins   the login rate limit was hit (HTTP 429, with Retry-After)

They live here rather than in :mod:`viva.errors` because only HTTP has these ideas; the
one error handler renders them like every other VivaError.
"""

from __future__ import annotations

from viva.errors import VivaError


class NotSignedIn(VivaError):
    status_code = 401


class Forbidden(VivaError):
    status_code = 403


class TooManyLogins(VivaError):
    status_code = 429

    def __init__(self, message: str, *, retry_after: int, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.retry_after = retry_after
