"""Search over questions and lessons, in memory, built once from the immutable bank.

An inverted index of stemmed words, with field weights (a question's prompt counts more
than its model answer, a lesson's title more than its body). A query matches documents
holding *every* word; the last word also matches as a prefix so results appear while the
candidate is still typing. It is small (a few thousand documents at most) and derived from
content, not per-user state, so each worker holds its own copy.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Literal

from viva.bank import Bank
from viva.language import search_words, stem_words

Kind = Literal["question", "lesson"]
MAX_QUERY_CHARS = 200
SNIPPET_CHARS = 160


@dataclass(frozen=True, slots=True)
class Document:
    kind: Kind
    id: str
    """``topic/question`` or ``topic/section``."""
    title: str
    body: str
    topic_title: str


@dataclass(frozen=True, slots=True)
class SearchHit:
    document: Document
    score: float
    snippet: tuple[tuple[str, bool], ...]
    """Pieces of text with whether each is a matched word, for highlighting."""


class SearchIndex:
    def __init__(self, documents: list[Document]) -> None:
        self.documents = documents
        self._postings: dict[str, dict[int, float]] = defaultdict(dict)
        for number, doc in enumerate(documents):
            for text, weight in ((doc.title, 3.0), (doc.body, 1.0)):
                for stem in self._stems(text):
                    postings = self._postings[stem]
                    postings[number] = postings.get(number, 0.0) + weight
        self._vocabulary = sorted(self._postings)

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
                        Document("question", question.full_id, question.prompt, body, topic.title)
                    )
        return cls(documents)

    def _stems(self, text: str) -> list[str]:
        return stem_words(search_words(text))

    def _matches(self, stem: str, prefix: bool) -> dict[int, float]:
        if not prefix:
            return self._postings.get(stem, {})
        found: dict[int, float] = {}
        start = bisect.bisect_left(self._vocabulary, stem)
        for word in self._vocabulary[start : start + 50]:
            if not word.startswith(stem):
                break
            for number, weight in self._postings[word].items():
                found[number] = max(found.get(number, 0.0), weight)
        return found

    def search(self, query: str, limit: int = 20, kind: Kind | None = None) -> list[SearchHit]:
        """Documents holding every word of ``query``, best first (tf × idf, title-weighted)."""
        words = search_words(query[:MAX_QUERY_CHARS])
        if not words:
            return []
        stems = stem_words(words)
        total = len(self.documents)
        scores: dict[int, float] | None = None
        for i, stem in enumerate(stems):
            prefix = i == len(stems) - 1 and len(words[i]) >= 2
            matches = self._matches(stem, prefix) or (self._matches(words[i], True) if prefix else {})
            idf = math.log(1 + total / (1 + len(matches)))
            term = {n: w * idf for n, w in matches.items()}
            scores = term if scores is None else {n: s + term[n] for n, s in scores.items() if n in term}
            if not scores:
                return []
        assert scores is not None
        ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
        hits = []
        for number, score in ranked:
            doc = self.documents[number]
            if kind is None or doc.kind == kind:
                hits.append(SearchHit(doc, score, self._snippet(doc.body, words)))
            if len(hits) >= limit:
                break
        return hits

    def _snippet(self, text: str, words: list[str]) -> tuple[tuple[str, bool], ...]:
        """About :data:`SNIPPET_CHARS` of ``text`` around the first matched word, matches marked."""
        flat = " ".join(text.split())
        pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in words) + r")\w*", re.IGNORECASE)
        first = pattern.search(flat)
        start = max(0, (first.start() if first else 0) - SNIPPET_CHARS // 3)
        end = min(len(flat), start + SNIPPET_CHARS)
        window = ("…" if start else "") + flat[start:end] + ("…" if end < len(flat) else "")
        pieces: list[tuple[str, bool]] = []
        last = 0
        for match in pattern.finditer(window):
            pieces += [(window[last : match.start()], False), (match.group(0), True)]
            last = match.end()
        pieces.append((window[last:], False))
        return tuple(p for p in pieces if p[0])
