"""From point credits to one score: the calibration, in one place.

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

POINT_EXPONENT = 0.75  # authored points: credit for part of the points rises faster than linear
MISCONCEPTION_FACTOR = 0.5  # each misconception asserted halves the score
MISCONCEPTION_CAP = 0.6  # an answer asserting a known misconception is never strong
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
