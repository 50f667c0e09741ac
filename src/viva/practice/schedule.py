"""Spaced repetition: the marking → FSRS rating table and a pure review function.

Like Anki's scheduler, :func:`review` is a pure function of (card, rating, now): no wall
clock, no randomness (fuzzing is off so the same history always gives the same schedule,
which lets an override replay a question's attempts and get a reproducible result).

Cards are stored as the ``fsrs`` library's own dict (``Card.to_dict``); :func:`new_card`
builds one without letting ``fsrs`` read the clock for its id or due time.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast

from fsrs import Card, Rating, Scheduler
from fsrs.card import CardDict

from viva.domain import Override
from viva.marking.result import Marking

EASY_AT = 0.9
"""A strong answer this complete, with no misconception, was recalled without effort."""

RETRY_AFTER = timedelta(minutes=10)
"""One learning (and relearning) step: a missed answer comes back later in the same sitting.

FSRS's default steps (1 and 10 minutes) would ask a question answered well again ten
minutes later; a spoken interview answer marked strong is already learnt, so one step is
enough: Again → 10 minutes, Hard → 15 minutes, Good → 2 days, Easy → 8 days on a new card.
"""

_SCHEDULER = Scheduler(enable_fuzzing=False, learning_steps=(RETRY_AFTER,), relearning_steps=(RETRY_AFTER,))


def rating_for(marking: Marking, override: Override | None = None) -> Rating:
    """The FSRS rating for an attempt. The candidate's override always wins.

    ================================================  ========
    the attempt                                        rating
    ================================================  ========
    override "I missed it"                             Again
    override "I was right"                             Good
    weak (score < 0.35)                                Again
    partial, but a heaviest marking point missed       Again
    partial otherwise                                  Hard
    strong, but a misconception was stated             Hard
    strong, score ≥ 0.9, nothing missed                Easy
    strong otherwise                                   Good
    ================================================  ========

    Why: *Hard* in FSRS means "recalled, with effort" and still lengthens the interval, so
    an answer that missed the essential points (the heaviest-weighted ones, or most of the
    score) must be *Again*, never *Hard*, or a forgotten answer would drift away. "I was
    right" is *Good*, not *Easy*: the candidate knew it but did not say it convincingly.
    """
    if override == "missed":
        return Rating.Again
    if override == "right":
        return Rating.Good
    if marking.verdict == "weak":
        return Rating.Again
    if marking.verdict == "partial":
        return Rating.Again if _missed_essential(marking) else Rating.Hard
    if marking.misconceptions:
        return Rating.Hard
    if marking.score >= EASY_AT and not marking.missed:
        return Rating.Easy
    return Rating.Good


def _missed_essential(marking: Marking) -> bool:
    """Whether a point carrying the question's largest weight was missed outright.

    When every point weighs the same, no single point is essential and the verdict decides.
    """
    weights = [p.weight for p in marking.points]
    if not weights or max(weights) == min(weights):
        return False
    heaviest = max(weights)
    return any(p.status == "missed" and p.weight == heaviest for p in marking.points)


def new_card(now: datetime) -> dict[str, Any]:
    """A never-reviewed card, due ``now``."""
    card = dict(Card(card_id=0, due=now).to_dict())
    return card


def review(card: dict[str, Any], rating: Rating, now: datetime) -> dict[str, Any]:
    """The card after being reviewed with ``rating`` at ``now``. Pure."""
    reviewed, _log = _SCHEDULER.review_card(_card(card), rating, review_datetime=now)
    result = dict(reviewed.to_dict())
    return result


def due_at(card: dict[str, Any]) -> datetime:
    due: datetime = _card(card).due
    return due


def last_review_at(card: dict[str, Any]) -> datetime | None:
    last: datetime | None = _card(card).last_review
    return last


def retrievability(card: dict[str, Any], now: datetime) -> float:
    """FSRS's estimated probability of recalling the answer at ``now`` (0 if never reviewed)."""
    parsed = _card(card)
    if parsed.last_review is None:
        return 0.0
    value: float = _SCHEDULER.get_card_retrievability(parsed, current_datetime=now)
    return value


def _card(card: dict[str, Any]) -> Card:
    return Card.from_dict(cast(CardDict, card))
