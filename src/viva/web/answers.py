"""Checking a typed answer before it is marked, the same way for pages and the API."""

from __future__ import annotations

from viva.errors import InvalidInput, TooLarge


def checked_answer(text: str, limit: int) -> str:
    """``text`` without surrounding whitespace; InvalidInput if empty, TooLarge past ``limit``.

    The size check comes first and counts characters, not bytes, so the reason given is the
    one the candidate can act on.
    """
    if len(text) > limit:
        raise TooLarge(
            f"the answer is {len(text):,} characters; the limit is {limit:,}",
            hint="shorten it: an interview answer is a few hundred words at most",
        )
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise InvalidInput("the answer is empty", hint="type what you would say in the interview")
    return text
