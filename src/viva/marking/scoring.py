"""From point credits to one score: the calibration, in one place.

Authored questions (:func:`authored_score`) are scored from their *core* points (what an
answer that works must say) and their *marked-up* points (extra credit)::

    core  = (weighted mean credit of the core points) ** POINT_EXPONENT
    extra = weighted mean credit of the marked-up points
    score = core                                     if there are no marked-up points,
                                                     or core < STRONG_AT (the strong line, 0.7)
          = STRONG_AT + (core - STRONG_AT) / (1 - STRONG_AT) * (CORE_SHARE - STRONG_AT)
            + (1 - CORE_SHARE) * extra               otherwise
    score = min(score, BELOW_STRONG                  if any core point is missed: credit
                - BELOW_STRONG_SLOPE * (1 - score))  below 0.3, or, when only sentence
                                                     similarity found it, below 0.75
    score = min(MISCONCEPTION_CAP, score * MISCONCEPTION_FACTOR ** wrong)

where ``wrong`` counts the misconceptions stated and the points stated the other way round
(another option picked, a relation reversed, a ratio inverted): both are wrong claims. The
default marker then raises an answer that states nothing wrong to its gist, a weak score
from how near its words come to the core points (:meth:`viva.marking.aligned.AlignedBackend.gist`).

The cap keeps the order of the scores under it: two answers that each miss a core point, one
of which says more of the rest, do not both land on 0.69 (the cap never moves a verdict:
a score of 0.35 or more stays at 0.35 or more).

So an answer that makes every core point and states no misconception is strong (its
core points alone take it to ``CORE_SHARE``, 0.75); each marked-up point it also makes
lifts it towards 1 and is named in the marking (``Marking.marked_up_for``); an answer
that misses a core point is never strong, however much else it says; and adding
marked-up points to a question never lowers any answer's verdict. Reference-mode
questions (points derived from a reference answer, all core) keep the fitted model below.

Constants here were chosen by leave-questions-out cross-validation on the Mohler
development set (reference mode) and on the bank's own sample answers (authored mode),
never per question; ``benchmarks/asag_cv.py`` reproduces the reference-mode figures.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from viva.bank.model import Question
from viva.marking.points import PointResult
from viva.marking.result import STRONG_AT

POINT_EXPONENT = 0.75  # authored points: credit for part of the points rises faster than linear
MISCONCEPTION_FACTOR = 0.5  # each misconception asserted halves the score
MISCONCEPTION_CAP = 0.6  # an answer asserting a known misconception is never strong
CORE_SHARE = 0.75  # score of an answer making every core point and nothing marked up
BELOW_STRONG = 0.69  # most an answer that misses a core point can score
BELOW_STRONG_SLOPE = 0.1  # how far under that cap a raw score below 1 lands, keeping their order
# Reference mode: a linear model of the human 0-5 mark, fitted across all questions of the
# Mohler dev set (leave-one-question-out r = 0.550; benchmarks/asag_cv.py), then mapped so
# that an answer sharing nothing with the reference is weak and one a grader would give
# 4.25/5 is strong.
REFERENCE_MODEL = {
    "intercept": 2.659,
    "points": 0.312,
    "whole": 0.574,
    "precision": 1.137,
    "length": 0.374,
}
REFERENCE_ZERO = 2.5  # predicted mark (0-5) that maps to score 0
REFERENCE_SPAN = 2.5  # predicted marks above REFERENCE_ZERO that map to score 1
LENGTH_CAP = 30.0


def coverage(question: Question, results: Sequence[PointResult]) -> float:
    """Weighted mean credit over the marking points, in [0, 1]."""
    total = sum(p.weight for p in question.points)
    if total <= 0:
        return 0.0
    return sum(p.weight * r.credit for p, r in zip(question.points, results, strict=True)) / total


def point_score(covered: float) -> float:
    return float(covered**POINT_EXPONENT)


def below_strong(score: float) -> float:
    """``score`` under the cap for an answer that missed a core point (see the module docstring)."""
    return min(score, BELOW_STRONG - BELOW_STRONG_SLOPE * (1 - score))


def _mean_credit(pairs: Sequence[tuple[float, float]]) -> float:
    total = sum(w for w, _ in pairs)
    return sum(w * c for w, c in pairs) / total if total > 0 else 0.0


def authored_score(question: Question, results: Sequence[PointResult]) -> float:
    """The score of an answer to an authored question, before misconceptions and guards.

    See the module docstring for the formula; ``results`` are in ``question.points`` order.
    """
    pairs = list(zip(question.points, results, strict=True))
    core_pairs = [(p.weight, r.credit) for p, r in pairs if p.core]
    extra_pairs = [(p.weight, r.credit) for p, r in pairs if not p.core]
    core = point_score(_mean_credit(core_pairs)) if core_pairs else 0.0
    score = core
    if extra_pairs and core >= STRONG_AT:
        above = (core - STRONG_AT) / (1 - STRONG_AT)
        score = STRONG_AT + above * (CORE_SHARE - STRONG_AT) + (1 - CORE_SHARE) * _mean_credit(extra_pairs)
    if any(not r.made for p, r in pairs if p.core):
        score = below_strong(score)
    return score


@dataclass(frozen=True, slots=True)
class ReferenceFeatures:
    points: float  # weighted point credit
    whole: float  # share of the whole reference's terms found in one window
    precision: float  # share of the answer's content that the reference also uses
    size: float  # content words in the answer (weighted)

    def predicted_mark(self) -> float:
        m = REFERENCE_MODEL
        length = math.log1p(min(self.size, LENGTH_CAP))
        return (
            m["intercept"]
            + m["points"] * self.points
            + m["whole"] * self.whole
            + m["precision"] * self.precision
            + m["length"] * length
        )


def reference_score(features: ReferenceFeatures) -> float:
    return max(0.0, min(1.0, (features.predicted_mark() - REFERENCE_ZERO) / REFERENCE_SPAN))


def after_misconceptions(score: float, detected: int) -> float:
    if not detected:
        return score
    return min(MISCONCEPTION_CAP, score * MISCONCEPTION_FACTOR**detected)
