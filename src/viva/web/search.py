"""Search over questions and lessons: SQLite FTS5 in memory, built once from the immutable bank.

Text is normalised the same way when indexing and when querying (:func:`search_terms`):
camel case is split (``FlashAttention`` → ``flash attention``), British spellings map to
American ones (``quantisation`` → ``quantization``), words are Snowball-stemmed, and every
pair of neighbouring words is also indexed joined (``all-reduce`` and ``all reduce`` also
give ``allreduce``). A query matches documents holding every one of its words, or the same
words with one neighbouring pair joined; the last word also matches as a prefix, so results
appear while the candidate is still typing. FTS5's bm25 ranks them, a title counting three
times its body. The bank is small and read-only, so each worker holds its own copy.
"""

from __future__ import annotations

import functools
import re
import sqlite3
import threading
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from viva.bank import Bank
from viva.language import search_words, stem

Kind = Literal["question", "lesson"]
MAX_QUERY_CHARS = 200
SNIPPET_CHARS = 160
MAX_JOINED_QUERY_WORDS = 12
"""Longer queries are matched word by word only (no joined-pair alternatives)."""

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z][a-z])|(?<=[a-z])(?=[A-Z])")
_WORDY = re.compile(r"[A-Za-z0-9]+(?:[.'][A-Za-z0-9]+)*")

_BRITISH_SPELLINGS = {
    "modelling": "modeling",
    "modelled": "modeled",
    "labelling": "labeling",
    "labelled": "labeled",
    "travelling": "traveling",
    "cancelled": "canceled",
    "cancelling": "canceling",
    "signalling": "signaling",
    "centre": "center",
    "centres": "centers",
    "fibre": "fiber",
    "metre": "meter",
    "litre": "liter",
    "catalogue": "catalog",
    "dialogue": "dialog",
    "grey": "gray",
    "licence": "license",
    "defence": "defense",
    "offence": "offense",
}
_ISE = re.compile(r"^(\w{3,})is(e|es|ed|ing|er|ers|ation|ations|ational)$")
_YSE = re.compile(r"^(\w{2,})ys(e|es|ed|ing|er|ers)$")
_OUR = re.compile(r"^(\w{3,})our(s|ed|ing|ful|ite|ites|able|ably)?$")


def american(word: str) -> str:
    """``word`` (lower case) in American spelling: -ise → -ize, -yse → -yze, -our → -or.

    The rules are applied to indexed text and queries alike, so a word they change that was
    never British (``precise`` → ``precize``) still matches itself.
    """
    if word in _BRITISH_SPELLINGS:
        return _BRITISH_SPELLINGS[word]
    word = _ISE.sub(r"\1iz\2", word)
    word = _YSE.sub(r"\1yz\2", word)
    return _OUR.sub(lambda m: m.group(1) + "or" + (m.group(2) or ""), word)


def split_words(text: str) -> list[str]:
    """Lower-case words of ``text`` with camel case split (``FlashAttention`` → flash, attention)."""
    words: list[str] = []
    for token in _WORDY.findall(text):
        words += search_words(_CAMEL.sub(" ", token))
    return words


@functools.lru_cache(maxsize=65536)
def _term(word: str) -> str:
    """One FTS5 token for a normalised word (``.`` and ``'`` are not token characters there)."""
    return stem(american(word)).replace(".", "_").replace("'", "")


def _joined(first: str, second: str) -> str:
    return _term(first + second)


def search_terms(text: str) -> list[str]:
    """The FTS5 tokens indexed for ``text``: each word's term, then each neighbouring pair joined."""
    words = split_words(text)
    return [_term(w) for w in words] + [_joined(a, b) for a, b in pairwise(words)]


_MARKDOWN = [
    (re.compile(r"```[^\n]*"), " "),  # code fences (their content stays)
    (re.compile(r"!?\[([^\]]*)\]\([^)]*\)"), r"\1"),  # links and images → their text
    (re.compile(r"\[([^\]]*)\]\[[^\]]*\]"), r"\1"),  # reference links
    (re.compile(r"<[^>\n]+>"), " "),  # inline HTML and autolinks
    (re.compile(r"(?m)^\s{0,3}#{1,6}\s*"), ""),  # headings
    (re.compile(r"(?m)^\s{0,3}>\s?"), ""),  # block quotes
    (re.compile(r"(?m)^\s*(?:[-*+]|\d+[.)])\s+"), ""),  # list markers
    (re.compile(r"(?m)^\s*\|?[\s:|-]*-{3,}[\s:|-]*$"), " "),  # table rules
    (re.compile(r"\*\*|__|[*`|~]|(?<!\w)_|_(?!\w)"), ""),  # emphasis, code, table bars
    (re.compile(r"\$+"), ""),  # math delimiters
]


def plain_text(markdown: str) -> str:
    """``markdown`` as plain text on one line: no emphasis, code ticks, link syntax or headings."""
    text = markdown
    for pattern, replacement in _MARKDOWN:
        text = pattern.sub(replacement, text)
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Document:
    kind: Kind
    id: str
    """``topic/question`` or ``topic/section``."""
    title: str
    body: str
    topic_title: str
    card: str = ""
    """For a question: the id of the card on its topic page that shows it (a probe has no card
    of its own, so it is the question whose point or misconception it presses on)."""


@dataclass(frozen=True, slots=True)
class SearchHit:
    document: Document
    score: float
    snippet: tuple[tuple[str, bool], ...]
    """Pieces of plain text with whether each is a matched word, for highlighting."""


class SearchIndex:
    def __init__(self, documents: list[Document]) -> None:
        self.documents = documents
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE docs USING fts5"
            "(title, body, kind UNINDEXED, tokenize=\"unicode61 tokenchars '_'\")"
        )
        self._db.executemany(
            "INSERT INTO docs(rowid, title, body, kind) VALUES (?, ?, ?, ?)",
            [
                (number, " ".join(search_terms(doc.title)), " ".join(search_terms(doc.body)), doc.kind)
                for number, doc in enumerate(documents)
            ],
        )
        self._db.commit()
        self._pairs: dict[str, set[tuple[str, str]]] = {}
        """Each joined term with the neighbouring word pairs it was indexed from."""
        for doc in documents:
            for text in (doc.title, doc.body):
                words = split_words(text)
                for a, b in pairwise(words):
                    self._pairs.setdefault(_joined(a, b), set()).add((_term(a), _term(b)))

    @classmethod
    def from_bank(cls, bank: Bank) -> SearchIndex:
        documents = []
        for topic in bank.topics:
            for section in topic.sections:
                documents.append(
                    Document("lesson", section.full_id, section.title, section.lesson, topic.title)
                )
                for question in section.all_questions():
                    body = " ".join([question.answer, *(p.text for p in question.points), *question.tags])
                    documents.append(
                        Document(
                            "question",
                            question.full_id,
                            question.prompt,
                            body,
                            topic.title,
                            bank.presented_with(question).id,
                        )
                    )
        return cls(documents)

    def _split(self, word: str) -> tuple[str, str] | None:
        """The two terms ``word`` was seen joined from in the bank (``allreduce`` → all, reduc), if any."""
        pairs = self._pairs.get(_term(word))
        return min(pairs) if pairs else None

    def _match_expression(self, words: list[str]) -> str:
        """FTS5 query: every word (the last also as a prefix), or so with one neighbouring pair joined.

        A word that is itself a joined pair (``allreduce``) also matches its two halves, so
        ``allreduce``, ``all reduce`` and ``all-reduce`` find the same documents.
        """

        def last(word: str) -> str:
            term = _term(word)
            if len(word) < 2:
                return f'"{term}"'
            raw = american(word).replace(".", "_").replace("'", "")
            return f'("{term}"* OR "{raw}"*)' if raw != term else f'"{term}"*'

        def conjunction(parts: list[str]) -> str:
            return "(" + " AND ".join(parts) + ")"

        def single(word: str, is_last: bool) -> str:
            halves = self._split(word)
            if halves is None:
                return last(word) if is_last else f'"{_term(word)}"'
            second = f'"{halves[1]}"' + ("*" if is_last else "")
            return f'("{_term(word)}" OR ("{halves[0]}" AND {second}))'

        singles = [single(w, i == len(words) - 1) for i, w in enumerate(words)]
        alternatives = [conjunction(singles)]
        if len(words) <= MAX_JOINED_QUERY_WORDS:
            for i in range(len(words) - 1):
                alternatives.append(
                    conjunction([*singles[:i], f'"{_joined(words[i], words[i + 1])}"', *singles[i + 2 :]])
                )
        return " OR ".join(alternatives)

    def search(self, query: str, limit: int = 20, kind: Kind | None = None) -> list[SearchHit]:
        """Documents holding every word of ``query``, best first (bm25, a title weighing 3× its body)."""
        words = split_words(query[:MAX_QUERY_CHARS])
        if not words:
            return []
        sql = "SELECT rowid, -bm25(docs, 3.0, 1.0) FROM docs WHERE docs MATCH ?"
        params: list[object] = [self._match_expression(words)]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        sql += " ORDER BY bm25(docs, 3.0, 1.0), rowid LIMIT ?"
        params.append(limit)
        with self._lock:
            rows = self._db.execute(sql, params).fetchall()
        wanted = self._wanted(words)
        return [
            SearchHit(
                self.documents[number], float(score), self._snippet(self.documents[number].body, wanted)
            )
            for number, score in rows
        ]

    @staticmethod
    def _wanted(words: list[str]) -> tuple[frozenset[str], str]:
        """The query's terms (single and joined) and the last word, for marking matches in snippets."""
        terms = {_term(w) for w in words} | {_joined(a, b) for a, b in pairwise(words)}
        return frozenset(terms), words[-1]

    @staticmethod
    def _marks(token: str, wanted: tuple[frozenset[str], str]) -> bool:
        terms, last = wanted
        parts = split_words(token)
        if not parts:
            return False
        candidates = {_term(p) for p in parts} | {_joined(a, b) for a, b in pairwise(parts)}
        if candidates & terms:
            return True
        return len(last) >= 2 and any(p.startswith(last) for p in parts)

    def _snippet(self, text: str, wanted: tuple[frozenset[str], str]) -> tuple[tuple[str, bool], ...]:
        """About :data:`SNIPPET_CHARS` of ``text`` as plain text around the first match, matches marked."""
        flat = plain_text(text)
        first_match = next((m for m in _WORDY.finditer(flat) if self._marks(m.group(0), wanted)), None)
        first = first_match.start() if first_match else 0
        start = max(0, first - SNIPPET_CHARS // 3)
        if start:
            space = flat.find(" ", start)
            start = space + 1 if 0 <= space < first else start
        end = min(len(flat), start + SNIPPET_CHARS)
        if end < len(flat):
            space = flat.rfind(" ", start, end)
            end = space if space > first else end
        pieces: list[tuple[str, bool]] = [("…", False)] if start else []
        last = start
        for match in _WORDY.finditer(flat, start, end):
            if not self._marks(match.group(0), wanted):
                continue
            pieces += [(flat[last : match.start()], False), (match.group(0), True)]
            last = match.end()
        pieces.append((flat[last:end], False))
        if end < len(flat):
            pieces.append(("…", False))
        return tuple(p for p in pieces if p[0])
