"""Figures the candidate works out aloud, checked: "8 billion times 2 bytes is 16 GB".

A worked-number question has one answer under the bank's assumptions, but a candidate who
assumes another model or precision and does the arithmetic right has answered it. So a
figure the answer computes itself, from operands it states, with the arithmetic right, can
stand in for the point's figure of the same unit (:func:`viva.marking.points.match`). The
check is on the digits only: units and scale words ("billion", "GB", "MB") are not
converted, so a result may differ from the product by a power of ten or of 1,024
("32 × 4096 × 2 × 2 bytes = 0.5 MB"). Wrong arithmetic earns nothing.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from viva.marking.terms import Term, analyse

ROUNDING = 0.05  # relative rounding a candidate may do: "7.2 × 2 = 14.4, about 14"; "13.5 GB" for 14
MULTIPLY_WORDS = frozenset(["times", "x", "multiplied"])
DIVIDE_WORDS = frozenset(["over", "divided"])
RESULT_WORDS = frozenset(["is", "are", "equals", "gives", "makes", "comes", "thats", "that's", "so"])
SKIP_AFTER_RESULT = frozenset(["about", "roughly", "around", "approximately", "to", "that", "s", "or"])
MAX_WORDS_BETWEEN = 3  # unit and scale words between an operand and the next operator
_SCALES = tuple(sorted({10.0**k for k in range(-12, 13)} | {1024.0**k for k in range(-4, 5)}))
SCALE_WORDS = frozenset(["thousand", "million", "billion", "trillion", "k", "m", "b", "bn", "t"])
# Concepts that name one unit however it is spelled ("GB", "gigabytes"); broader concepts do
# not: "multiply-adds" and "FLOPs" share one, but 1.85 billion of the first is 3.7 of the second.
UNIT_CONCEPTS = frozenset(["#gigabyte", "#terabyte", "#byte", "#token", "#weights"])


def unit_after(terms: Sequence[Term], i: int) -> frozenset[str]:
    """What names the unit of the figure ``terms[i]``: the next term that is not a scale word
    ("billion"), as its word stems and unit concepts; empty when the figure has no unit."""
    for term in terms[i + 1 : i + 3]:
        if term.surface not in SCALE_WORDS:
            return frozenset(k for k in term.keys if not k.startswith("#") or k in UNIT_CONCEPTS)
    return frozenset()


def number_value(word: str) -> float | None:
    """The value of a word written in digits ("13.5"); None for any other word, "inf" and "nan" too."""
    if not word[:1].isdigit():
        return None
    try:
        return float(word)
    except ValueError:
        return None


def consistent(value: float, result: float) -> bool:
    """Whether ``result`` is ``value`` up to rounding and a change of unit or scale."""
    if value <= 0 or result <= 0:
        return value == result
    ratio = result / value
    return any(abs(ratio / scale - 1) <= ROUNDING for scale in _SCALES)


@functools.lru_cache(maxsize=4096)
def worked_results(text: str) -> frozenset[int]:
    """Content ranks (as in :class:`viva.marking.terms.Analysis`) of the numbers ``text``
    states as the result of its own arithmetic, where that arithmetic is right."""
    analysis = analyse(text)
    rank_at = {analysis.terms[i].start: rank for rank, i in enumerate(analysis.content)}
    found: set[int] = set()
    value: float | None = None  # the running product, once two operands are joined
    operands = 0
    op: str | None = None
    equals = False
    words_since = 0
    previous_end = 0
    for token in analysis.tokens:
        gap = text[previous_end : token.start]
        previous_end = token.end
        if token.filler:
            continue
        if any(c in gap for c in "×*"):
            op = "*"
        elif "/" in gap:
            op = "/"
        if any(c in gap for c in "=≈~") and operands >= 2:
            equals = True
        number = number_value(token.norm)
        if number is not None:
            if equals and value is not None:
                rank = rank_at.get(token.start)
                if rank is not None and consistent(value, number):
                    found.add(rank)
                value, operands, op, equals = number, 1, None, False
            elif op is not None and value is not None:
                value = value * number if op == "*" else (value / number if number else math.inf)
                operands, op = operands + 1, None
            else:
                value, operands, op, equals = number, 1, None, False
            words_since = 0
            continue
        if token.norm in MULTIPLY_WORDS:
            op = "*"
        elif token.norm in DIVIDE_WORDS:
            op = "/"
        elif token.norm in RESULT_WORDS and operands >= 2 and op is None:
            equals = True
        elif not (equals and token.norm in SKIP_AFTER_RESULT) and token.norm != "by":
            words_since += 1
            if words_since > MAX_WORDS_BETWEEN:
                value, operands, op, equals = None, 0, None, False
    return frozenset(found)
