"""A clause that says the opposite of a point about that point's own subject voids it.

Phrasings such as "memory-bound" credit a point wherever they are said, so "prefill is
memory-bound and decode compute-bound" would earn "decode is memory-bound" from its first
clause. A point relates a subject (what only this point talks about: "decode") to a
property with an opposite ("memory-bound" against "compute-bound"); when one clause of the
answer puts that subject with the opposite property, and not with the property itself,
the answer has asserted the reverse relation and the point earns nothing. So does a
ratio of figures divided the other way round (:func:`inverted`).
"""

from __future__ import annotations

import functools
import re

from viva.bank.model import Question
from viva.marking.points import Target, clauses, near_number
from viva.marking.terms import Analysis, Term, analyse
from viva.marking.worked import number_value


@functools.lru_cache(maxsize=2048)
def subjects(question: Question) -> tuple[frozenset[str], ...]:
    """For each point, what this point, and only it, is about: the concepts of its text that
    no other point, the prompt or a polar term uses.

    A question that names the things it contrasts ("What are the prefill and decode phases,
    and how do they differ?") would leave its polar points without their subjects, since the
    prompt and the other points say "prefill" and "decode" too. So a polar point is also about
    what it shares with the prompt and no other polar point says: "prefill" for "prefill is
    compute-bound" against "decode is memory-bound".
    """
    texts = [analyse(p.text).content_terms() for p in question.points]
    accepts = [[t for a in p.accept for t in analyse(a).content_terms()] for p in question.points]
    prompt = {k for t in analyse(question.prompt).content_terms() for k in t.keys}
    polar = [i for i, terms in enumerate(texts) if any(_polar(t) for t in terms)]
    found: list[frozenset[str]] = []
    for i, terms in enumerate(texts):
        concepts = {k for t in terms if not t.anti for k in t.keys if k.startswith("#")}
        others: set[str] = set(prompt)
        for j, other in enumerate(texts):
            if j != i:
                others.update(k for t in (*other, *accepts[j]) for k in t.keys)
        own = concepts - others
        if i in polar:
            rivals = {k for j in polar if j != i for t in (*texts[j], *accepts[j]) for k in t.keys}
            if rivals:
                own |= concepts & prompt - rivals
        found.append(frozenset(own))
    return tuple(found)


# Properties whose opposite is a different claim, not a matter of degree: "many" against
# "few" or "at once" against "one at a time" describe quantities an answer can mix freely.
POLAR = frozenset(
    "#" + c
    for c in (
        "memory-bound",
        "compute-bound",
        "stable",
        "unstable",
        "correct",
        "incorrect",
        "overfitting",
        "underfitting",
        "biased",
        "unbiased",
    )
)


def _polar(term: Term) -> bool:
    return bool(term.anti) and bool(term.core & POLAR)


def _states(term: Term, keys: frozenset[str], negated: bool) -> bool:
    return bool(term.keys & keys) and term.negated == negated


def opposed(claim: Target, subject: frozenset[str], answer: Analysis) -> tuple[tuple[int, int], ...]:
    """Evidence of a clause asserting the reverse of ``claim`` about ``subject``; empty if none."""
    polar = [t for t in claim.terms if _polar(t)]
    if not polar or not subject:
        return ()
    content = answer.content_terms()
    ids = clauses(answer)
    by_clause: dict[int, list[Term]] = {}
    for rank, clause_id in enumerate(ids):
        by_clause.setdefault(clause_id, []).append(content[rank])
    for terms in by_clause.values():
        about = [t for t in terms if t.keys & subject]
        if not about:
            continue
        for p in polar:
            same = [t for t in terms if _states(t, p.core, p.negated)]
            reverse = [t for t in terms if _states(t, p.anti, p.negated) or _states(t, p.core, not p.negated)]
            if reverse and not same:
                return tuple((t.start, t.end) for t in (about[0], reverse[0]))
    return ()


# "A over B", "A / B", "A divided by B", with A and B figures written in digits.
_FIGURE = r"(\d[\d,]*(?:\.\d+)?)"
_RATIO = re.compile(rf"(?<![\w.]){_FIGURE}\s*(?:/|over|divided\s+by)\s*{_FIGURE}(?![\w.])", re.I)


@functools.lru_cache(maxsize=4096)
def _ratios(text: str) -> tuple[tuple[float, float, tuple[int, int]], ...]:
    """The figure ratios ``text`` states: (numerator, denominator, characters)."""
    found = []
    for m in _RATIO.finditer(text):
        top, bottom = (number_value(g.replace(",", "")) for g in m.groups())
        if top is not None and bottom is not None and top != bottom:
            found.append((top, bottom, m.span()))
    return tuple(found)


def inverted(point: str, answer: str) -> tuple[tuple[int, int], ...]:
    """Evidence that ``answer`` divides the other way round from ``point`` ("0.098 / 0.085"
    for "0.085 over 0.098"), saying no ratio the right way up; empty if it doesn't.

    Both figures are right and a bag of words credits the point; the claim is the reverse.
    """
    wanted = _ratios(point)
    if not wanted:
        return ()
    said = _ratios(answer)
    if any(near_number(top, a) and near_number(bottom, b) for top, bottom, _ in wanted for a, b, _ in said):
        return ()
    return tuple(
        span
        for top, bottom, _ in wanted
        for a, b, span in said
        if near_number(top, b) and near_number(bottom, a)
    )
