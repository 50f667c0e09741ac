"""One exception hierarchy for the whole core.

    VivaError                 anything Viva reports in the user's terms
    ├── NotFound              an id that names nothing (HTTP 404)
    ├── InvalidInput          input that cannot be used as given (HTTP 422)
    │   └── TooLarge          input over a size limit (HTTP 413)
    ├── Conflict              a one-time action already done (HTTP 409)
    ├── TooManyLogins         the login or sign-up rate limit was hit (HTTP 429, Retry-After)
    └── Unavailable           an optional engine or extra is not installed (HTTP 503)

Web and CLI layers turn these into a status code or an exit code; the core never
imports either layer.
"""

from __future__ import annotations


class VivaError(Exception):
    """Base class: the message is meant for the user."""

    status_code = 400

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class NotFound(VivaError):
    status_code = 404


class InvalidInput(VivaError):
    status_code = 422


class TooLarge(InvalidInput):
    status_code = 413


class Conflict(VivaError):
    status_code = 409


class Unavailable(VivaError):
    status_code = 503


class TooManyLogins(VivaError):
    """The login (or sign-up) rate limit was hit; ``retry_after`` says when to try again, in seconds."""

    status_code = 429

    def __init__(self, message: str, *, retry_after: int, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.retry_after = retry_after
