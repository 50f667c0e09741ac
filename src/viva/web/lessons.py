"""Markdown → HTML for lessons and model answers, with raw HTML escaped.

Bank text is written by authors, but a bank is just files: treat it as untrusted and let
markdown-it escape any HTML in it (``html: False``) and refuse ``javascript:`` links (its
default link validation). The bank is immutable, so each text is rendered once per app and
kept; every worker may hold its own copy because nothing in it is per-user.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from markdown_it import MarkdownIt
from markupsafe import Markup


class LessonRenderer:
    """Renders Markdown to safe HTML, memoising by text (the bank never changes in an app)."""

    def __init__(self) -> None:
        self._md = MarkdownIt("commonmark", {"html": False, "typographer": True}).enable(
            ["table", "strikethrough", "replacements", "smartquotes"]
        )
        self._cache: dict[str, Markup] = {}
        self._lock = threading.Lock()

    def __call__(self, text: str) -> Markup:
        cached = self._cache.get(text)
        if cached is not None:
            return cached
        html = Markup(self._md.render(text))
        with self._lock:
            self._cache[text] = html
        return html


class FragmentCache:
    """HTML rendered from the bank alone (a topic's question cards), built once per key.

    Only content that is the same for every visitor goes here; anything per-user is
    rendered per request around it.
    """

    def __init__(self) -> None:
        self._items: dict[str, Markup] = {}
        self._lock = threading.Lock()

    def get(self, key: str, build: Callable[[], Markup]) -> Markup:
        found = self._items.get(key)
        if found is None:
            found = build()
            with self._lock:
                self._items[key] = found
        return found
