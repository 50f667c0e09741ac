"""Another figure said where a point's figure belongs: "the sigmoid's derivative peaks at 1"
for "the sigmoid's derivative is at most 0.25".

A bag of words credits such a clause for everything but the figure, and sentence similarity
puts 1 near 0.25; yet the clause states a different fact. So where the clauses that earned a
point state a figure of the point's unit (or either has none) that is far from every figure
of the point, and the answer nowhere states one of the point's own figures, the point is
contradicted (:func:`other_figure`).

- Far means more than :data:`FAR` apart ("350 GB" for "about 330 GB" is the same figure) and
  not the same after a change of scale ("3.7 billion" for "3.7 GFLOPs").
- Figures the question gives are context, not claims; so are the point's small whole numbers,
  counts and operands that worked arithmetic restates in many ways.
- Only figures written in digits count as another figure: spoken answers say "three thousand
  six hundred" as three words, and "one token at a time" holds no figure. The point's own
  figure said in words ("fourteen gigs") is said.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from viva.marking.points import EXACT_BELOW, clauses
from viva.marking.terms import Analysis, analyse
from viva.marking.worked import SCALE_WORDS, consistent, number_value

_EXPONENT = re.compile(r"\de[-+]?$", re.I)
_SCALE_VALUES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
FAR = 0.25  # relative difference beyond which two figures are two claims


class Figure(NamedTuple):
    rank: int  # content rank
    value: float
    unit: frozenset[str]  # the word stems of the next word in its clause, if any


def figures_in(analysis: Analysis, spelled: bool = False) -> list[Figure]:
    """The figures of ``analysis`` written in digits, or also in words with ``spelled``."""
    terms = analysis.content_terms()
    ids = clauses(analysis)
    found = []
    for rank, term in enumerate(terms):
        value = number_value(term.surface)
        if value is None or not (spelled or analysis.text[term.start].isdigit()):
            continue
        if _EXPONENT.search(analysis.text[max(0, term.start - 3) : term.start]):
            continue  # the "5" of "6e-5" is no figure of its own
        after = terms[rank + 1].surface if rank + 1 < len(terms) and ids[rank + 1] == ids[rank] else ""
        value *= _SCALE_VALUES.get(after, 1.0)  # "two thousand weights" is 2,000
        unit: frozenset[str] = frozenset()
        for later in range(rank + 1, min(rank + 3, len(terms))):
            if ids[later] != ids[rank]:
                break
            if number_value(terms[later].surface) is None and terms[later].surface not in SCALE_WORDS:
                unit = terms[later].words
                break
        found.append(Figure(rank, value, unit))
    return found


def _close(a: float, b: float) -> bool:
    """Within :data:`FAR` of each other, or within rounding after a change of scale ("3.7
    GFLOPs" for 3.7 billion). A wide band and a change of scale together would call 20 and
    0.25 the same figure."""
    if consistent(a, b):
        return True
    return a > 0 and b > 0 and abs(b / a - 1) <= FAR


@functools.lru_cache(maxsize=4096)
def _given(prompt: str) -> tuple[float, ...]:
    """The figures the question gives, however written: "ten million passages" gives 10M."""
    return tuple(f.value for f in figures_in(analyse(prompt), spelled=True))


@functools.lru_cache(maxsize=4096)
def _point_figures(point: str, prompt: str) -> tuple[Figure, ...]:
    """The figures ``point`` states beyond those the question gives."""
    given = _given(prompt)
    return tuple(f for f in figures_in(analyse(point)) if not any(consistent(g, f.value) for g in given))


def _count(value: float) -> bool:
    """A small whole number ("2 for K and V", "1 × 1", "8 exponent bits"): a count or an
    operand that worked arithmetic restates in many ways, not a result to check."""
    return value == int(value) and abs(value) < EXACT_BELOW


def other_figure(
    point: str, prompt: str, evidence: tuple[tuple[int, int], ...], answer: Analysis
) -> tuple[tuple[int, int], ...]:
    """Evidence of a figure other than ``point``'s in the clauses of ``evidence``, where the
    answer says none of the point's figures; empty if there is none."""
    stated = _point_figures(point, prompt)
    wanted = [f for f in stated if not _count(f.value)]
    if not wanted or not evidence:
        return ()
    if any(_close(w.value, f.value) for w in wanted for f in figures_in(answer, spelled=True)):
        return ()
    content = answer.content_terms()
    ids = clauses(answer)
    where = {ids[r] for r, t in enumerate(content) if any(a <= t.start < b for a, b in evidence)}
    given = _given(prompt)
    for figure in figures_in(answer):
        if ids[figure.rank] not in where or any(consistent(g, figure.value) for g in given):
            continue
        comparable = any(not w.unit or not figure.unit or w.unit & figure.unit for w in wanted)
        if comparable and not any(_close(f.value, figure.value) for f in stated):
            term = content[figure.rank]
            return ((term.start, term.end),)
    return ()
