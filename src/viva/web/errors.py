"""Errors only the web layer raises, under the core's :class:`~viva.errors.VivaError`.

    VivaError
    ├── NotSignedIn     a per-user page or API route without a login or token (HTTP 401)
    └── Forbidden       a state-changing request without a valid CSRF token (HTTP 403)

They live here rather than in :mod:`viva.errors` because only HTTP has these ideas; the
one error handler renders them like every other VivaError.
"""

from __future__ import annotations

from viva.errors import VivaError


class NotSignedIn(VivaError):
    status_code = 401


class Forbidden(VivaError):
    status_code = 403

