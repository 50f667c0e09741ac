"""A clause that says the opposite of a point about that point's own subject voids it.

Phrasings such as "memory-bound" credit a point wherever they are said, so "prefill is
memory-bound and decode compute-bound" would earn "decode is memory-bound" from its first
clause. A point relates a subject (what only this point talks about: "decode") to a
property with an opposite ("memory-bound" against "compute-bound"); when one clause of the
answer puts that subject with the opposite property, and not with the property itself,
the answer has asserted the reverse relation and the point earns nothing.
"""

from __future__ import annotations

import functools

from viva.bank.model import Question
from viva.marking.points import Target, clauses
from viva.marking.terms import Analysis, Term, analyse


@functools.lru_cache(maxsize=2048)
def subjects(question: Question) -> tuple[frozenset[str], ...]:
    """For each point, the keys of its text that no other point, the prompt or a polar
    term uses: what this point, and only it, is about."""
    texts = [analyse(p.text).content_terms() for p in question.points]
    accepts = [[t for a in p.accept for t in analyse(a).content_terms()] for p in question.points]
    prompt = {k for t in analyse(question.prompt).content_terms() for k in t.keys}
    found: list[frozenset[str]] = []
    for i, terms in enumerate(texts):
        others: set[str] = set(prompt)
        for j, other in enumerate(texts):
            if j != i:
                others.update(k for t in (*other, *accepts[j]) for k in t.keys)
        own = {k for t in terms if not t.anti for k in t.keys if k.startswith("#")} - prompt
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
