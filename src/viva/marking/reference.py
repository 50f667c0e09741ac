"""Reference-only mode: marking points derived from a reference answer.

Imported decks and public data sets give a question and one reference answer, no
authored points. Each sentence of the reference becomes a point (long sentences are
split at clause boundaries), weighted by how much it says, so the marker looks for
what the reference says rather than for the reference's exact wording.
"""

from __future__ import annotations

import hashlib
import re

from viva.bank.model import MarkingPoint, Question
from viva.marking.terms import analyse

REFERENCE_TAG = "reference-only"
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|\n+")
_CLAUSES = re.compile(r",\s+|\s+(?:whereas|but|while|or|and then)\s+")
LONG_CLAUSE = 9  # content words; longer sentences are split at clause boundaries
MIN_POINT = 2  # content words a derived point needs, else it joins its neighbour


def _content_size(text: str) -> float:
    return sum(t.weight for t in analyse(text).content_terms())


def split_reference(reference: str) -> list[str]:
    """The reference as a list of claims, in order."""
    parts: list[str] = []
    for sentence in _SENTENCES.split(reference.strip()):
        sentence = sentence.strip()
        if not sentence:
            continue
        if _content_size(sentence) > LONG_CLAUSE:
            parts.extend(c.strip() for c in _CLAUSES.split(sentence) if c.strip())
        else:
            parts.append(sentence)
    merged: list[str] = []
    for part in parts:
        if merged and (_content_size(part) < MIN_POINT or _content_size(merged[-1]) < MIN_POINT):
            merged[-1] = f"{merged[-1]} {part}"
        else:
            merged.append(part)
    return merged or [reference.strip()]


def question_from_reference(prompt: str, reference: str, question_id: str | None = None) -> Question:
    """A :class:`Question` whose marking points come from ``reference``."""
    reference = reference.strip()
    qid = question_id or "ref-" + hashlib.sha1(f"{prompt}\n{reference}".encode()).hexdigest()[:10]
    topic_id, _, local_id = qid.rpartition("/")
    points = tuple(
        MarkingPoint(id=f"ref-{i}", text=text, weight=max(1.0, _content_size(text)))
        for i, text in enumerate(split_reference(reference), 1)
    )
    return Question(
        topic_id=topic_id or "reference",
        section_id="reference",
        id=local_id,
        prompt=prompt.strip(),
        answer=reference,
        points=points,
        tags=(REFERENCE_TAG,),
    )


def is_reference_only(question: Question) -> bool:
    return REFERENCE_TAG in question.tags
