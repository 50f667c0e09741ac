"""Markdown → HTML for lessons and model answers, with raw HTML escaped.

Bank text is written by authors, but a bank is just files: treat it as untrusted and let
markdown-it escape any HTML in it (``html: False``) and refuse ``javascript:`` links (its
default link validation). The bank is immutable, so each text is rendered once per app and
kept; every worker may hold its own copy because nothing in it is per-user.

Every heading gets an ``id`` slug (``## Ring all-reduce`` → ``ring-all-reduce``), so a link can
point at the part of a lesson that teaches a question or a missed point
(:meth:`LessonRenderer.teaching_href`).
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markupsafe import Markup

from viva.bank import Bank, Question
from viva.web.search import search_terms

_SLUG_DROP = re.compile(r"[^a-z0-9]+")


def heading_slug(text: str) -> str:
    """A heading's anchor: lower-case letters and digits joined by hyphens (``section`` if none)."""
    return _SLUG_DROP.sub("-", text.lower()).strip("-") or "section"


def _heading_ids(tokens: list[Token]) -> list[tuple[int, str]]:
    """Each heading's token index and its unique slug (repeats get ``-2``, ``-3``…), in order."""
    seen: dict[str, int] = {}
    found = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and i + 1 < len(tokens):
            slug = heading_slug(tokens[i + 1].content)
            seen[slug] = seen.get(slug, 0) + 1
            found.append((i, slug if seen[slug] == 1 else f"{slug}-{seen[slug]}"))
    return found


def opens_with_title(lesson: str) -> bool:
    """Whether ``lesson`` starts with its own ``# Title``: then that heading (with its anchor)
    is the page's one ``<h1>``, and the page adds none of its own."""
    return lesson.lstrip().startswith("# ")


def _scroll_wide(html: str) -> str:
    """Code blocks and tables may be wider than a phone: each scrolls sideways in its own box,
    which a keyboard can reach (``tabindex``) to scroll. Raw HTML in bank text is escaped
    (``html: False``), so every ``<pre>`` and ``<table>`` here is markdown-it's own."""
    html = html.replace("<pre>", '<pre tabindex="0">')
    wrapper = '<div class="table-scroll" tabindex="0" role="region" aria-label="Table">'
    html = html.replace("<table>", wrapper + "<table>")
    return html.replace("</table>", "</table></div>")


def _add_heading_ids(state: StateCore) -> None:
    for i, slug in _heading_ids(state.tokens):
        state.tokens[i].attrSet("id", slug)


@dataclass(frozen=True, slots=True)
class HeadingPart:
    """One heading of a lesson and the text under it (up to the next heading)."""

    slug: str
    heading: frozenset[str]
    body: frozenset[str]


class LessonRenderer:
    """Renders Markdown to safe HTML, memoising by text (the bank never changes in an app)."""

    def __init__(self, bank: Bank | None = None) -> None:
        self._md = MarkdownIt("commonmark", {"html": False, "typographer": True}).enable(
            ["table", "strikethrough", "replacements", "smartquotes"]
        )
        self._md.core.ruler.push("heading_ids", _add_heading_ids)
        self._cache: dict[str, Markup] = {}
        self._lock = threading.Lock()
        self._parts: dict[tuple[str, str], tuple[HeadingPart, ...]] = {}
        if bank is not None:
            for topic in bank.topics:
                for section in topic.sections:
                    self._parts[(topic.id, section.id)] = self.heading_parts(section.lesson)
        self._hrefs: dict[tuple[str, str], str] = {}

    def heading_parts(self, text: str) -> tuple[HeadingPart, ...]:
        """The headings of ``text`` with their slugs (as rendered) and the search terms under each."""
        tokens = self._md.parse(text)
        ids = _heading_ids(tokens)
        parts = []
        for n, (i, slug) in enumerate(ids):
            stop = ids[n + 1][0] if n + 1 < len(ids) else len(tokens)
            body = " ".join(
                t.content for t in tokens[i + 2 : stop] if t.type in ("inline", "fence", "code_block")
            )
            parts.append(
                HeadingPart(
                    slug, frozenset(search_terms(tokens[i + 1].content)), frozenset(search_terms(body))
                )
            )
        return tuple(parts)

    def teaching_href(self, question: Question, text: str = "") -> str:
        """The question's lesson, at the heading whose words best match ``text`` (or the question).

        Each shared word weighs more the fewer of the lesson's parts hold it, and a heading's
        own words count three times the words under it; with no word shared, the link is to
        the lesson's top.
        """
        page = f"/topics/{question.topic_id}/{question.section_id}"
        key = (question.full_id, text)
        found = self._hrefs.get(key)
        if found is not None:
            return found
        wanted = frozenset(search_terms(text or " ".join([question.prompt, question.answer])))
        parts = self._parts.get((question.topic_id, question.section_id), ())
        weight = {
            term: math.log(1 + len(parts) / holding)
            for term in wanted
            if (holding := sum(term in part.heading or term in part.body for part in parts))
        }
        best, best_score = "", 0.0
        for part in parts:
            score = sum(
                w * (3 if t in part.heading else 1)
                for t, w in weight.items()
                if t in part.heading | part.body
            )
            if score > best_score:
                best, best_score = part.slug, score
        href = f"{page}#{best}" if best else page
        with self._lock:
            self._hrefs[key] = href
        return href

    def __call__(self, text: str) -> Markup:
        cached = self._cache.get(text)
        if cached is not None:
            return cached
        html = Markup(_scroll_wide(self._md.render(text)))
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
