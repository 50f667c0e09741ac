"""The marking as the feedback page shows it: the candidate's own answer with evidence marked.

Each marking point and misconception carries character spans of the answer. Here they are
turned into a flat list of pieces of the answer, each either plain or marked with what it
is evidence for, so the template can wrap marked pieces in ``<mark>`` (autoescaped: the
answer is the candidate's text and is never trusted as HTML).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from viva.marking.result import Marking, Span

Tone = Literal["covered", "partial", "wrong"]
_RANK: dict[Tone, int] = {"wrong": 3, "covered": 2, "partial": 1}
SYMBOL = {"covered": "✓", "partial": "~", "missed": "✗"}
LABEL = {"covered": "covered", "partial": "partly covered", "missed": "missed"}


@dataclass(frozen=True, slots=True)
class Piece:
    text: str
    tone: Tone | None = None
    labels: tuple[str, ...] = ()
    """Which points or misconceptions (their numbers, e.g. "1", "M1") this text is evidence for."""


@dataclass(frozen=True, slots=True)
class Evidence:
    label: str
    tone: Tone
    span: Span


def evidence_of(marking: Marking) -> list[Evidence]:
    found = []
    for number, point in enumerate(marking.points, start=1):
        if point.status != "missed":
            tone: Tone = "covered" if point.status == "covered" else "partial"
            found += [Evidence(str(number), tone, span) for span in point.evidence]
    for number, wrong in enumerate(marking.misconceptions, start=1):
        found += [Evidence(f"M{number}", "wrong", span) for span in wrong.evidence]
    return found


def highlight(answer: str, evidence: list[Evidence]) -> list[Piece]:
    """``answer`` cut at every span boundary; overlapping evidence shows the strongest tone
    (a misconception over a covered point over a partial one) and lists every label."""
    size = len(answer)
    cuts = {0, size}
    usable = []
    for item in evidence:
        start, end = max(0, min(item.span.start, size)), max(0, min(item.span.end, size))
        if end > start:
            usable.append((start, end, item))
            cuts |= {start, end}
    bounds = sorted(cuts)
    pieces: list[Piece] = []
    for start, end in pairwise(bounds):
        covering = [item for s, e, item in usable if s <= start and end <= e]
        if not covering:
            pieces.append(Piece(answer[start:end]))
            continue
        tone = max((item.tone for item in covering), key=lambda t: _RANK[t])
        labels = tuple(dict.fromkeys(item.label for item in covering))
        pieces.append(Piece(answer[start:end], tone, labels))
    return _merge(pieces)


def _merge(pieces: list[Piece]) -> list[Piece]:
    merged: list[Piece] = []
    for piece in pieces:
        if merged and merged[-1].tone == piece.tone and merged[-1].labels == piece.labels:
            merged[-1] = Piece(merged[-1].text + piece.text, piece.tone, piece.labels)
        else:
            merged.append(piece)
    return merged


QUOTE_CHARS = 90


def quotes(answer: str, spans: list[Span], limit: int = 2) -> list[str]:
    """The first ``limit`` evidence excerpts, for quoting beside a point (long ones shortened;
    the whole evidence stays highlighted in the answer above)."""
    found = [answer[s.start : s.end].strip() for s in spans[:limit] if s.end > s.start]
    return [q if len(q) <= QUOTE_CHARS else q[: QUOTE_CHARS - 1].rstrip() + "…" for q in found]
