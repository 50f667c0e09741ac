"""Marking an answer against a question's points: ``mark(question, answer) -> Marking``.

The names other packages code against are :func:`mark`, :func:`build_marker`,
:class:`InBank` (a marker that knows the bank, so an answer to another of its questions is
weak) and :func:`question_from_reference`; backends are chosen by name (``default``, ``lexical``,
``semantic``, ``llm``, ``auto``, or one registered under the ``viva.markers`` entry-point
group) and built once.
"""

from __future__ import annotations

from viva.bank.model import Question
from viva.marking.backends import Backend, Marker, backend_names, build_marker, get_backend
from viva.marking.elsewhere import InBank
from viva.marking.reference import question_from_reference
from viva.marking.result import Marking, MisconceptionMark, PointMark, Span, verdict_for


def mark(question: Question, answer: str, backend: str = "default") -> Marking:
    """Mark ``answer`` against ``question``; every backend is deterministic (one text per model run)."""
    return get_backend(backend).mark(question, answer)


__all__ = [
    "Backend",
    "InBank",
    "Marker",
    "Marking",
    "MisconceptionMark",
    "PointMark",
    "Span",
    "backend_names",
    "build_marker",
    "get_backend",
    "mark",
    "question_from_reference",
    "verdict_for",
]
