"""How well a candidate knows each section and topic, and what they keep missing.

A question's mastery is *coverage × retrievability*:

- **coverage** — the weighted share of marking points covered, averaged over the last
  :data:`RECENT` attempts (an override counts as all points covered, or none);
- **retrievability** — FSRS's probability of recalling the answer now, so mastery fades
  when reviews are skipped.

A section's mastery is the mean over *all* its questions (never answered counts 0), so
it only reaches 1 when every question has been learnt and is still remembered.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from viva.bank import Bank, Question
from viva.practice import schedule
from viva.store.models import Attempt, ReviewState

RECENT = 3
"""How many of a question's latest attempts count towards coverage and weak points."""


@dataclass(frozen=True, slots=True)
class Mastery:
    """Mastery of one topic (with its ``sections``) or one section."""

    id: str
    """``topic-id`` or ``topic-id/section-id``."""
    title: str
    questions: int
    attempted: int
    coverage: float
    """Mean recent coverage over the attempted questions (0 if none)."""
    retrievability: float
    """Mean FSRS retrievability now over the attempted questions (0 if none)."""
    mastery: float
    """Mean of coverage × retrievability over all questions, in [0, 1]."""
    sections: tuple[Mastery, ...] = ()


@dataclass(frozen=True, slots=True)
class WeakPoint:
    question_id: str
    point_id: str
    text: str
    attempts: int
    coverage: float
    """Mean credit for this point over the recent attempts, in [0, 1]."""


@dataclass(frozen=True, slots=True)
class DayCount:
    day: date
    reviews: int


def attempt_coverage(attempt: Attempt) -> float:
    """Weighted share of points covered; the override decides when there is one."""
    if attempt.override == "right":
        return 1.0
    if attempt.override == "missed":
        return 0.0
    points = attempt.marking.points
    total = sum(p.weight for p in points)
    if total <= 0:
        return attempt.score
    return sum(p.weight * p.credit for p in points) / total


def _recent_by_question(attempts: Iterable[Attempt]) -> dict[str, list[Attempt]]:
    """The latest :data:`RECENT` attempts per question; ``attempts`` must be oldest first."""
    grouped: dict[str, list[Attempt]] = defaultdict(list)
    for attempt in attempts:
        grouped[attempt.question_id].append(attempt)
    return {qid: found[-RECENT:] for qid, found in grouped.items()}


def mastery(
    bank: Bank, attempts: Sequence[Attempt], states: Sequence[ReviewState], now: datetime
) -> list[Mastery]:
    """Mastery per topic in site order, each with its sections in learning order."""
    recent = _recent_by_question(attempts)
    cards = {s.question_id: s.card for s in states}

    def measure(
        id_: str, title: str, questions: list[Question], sections: tuple[Mastery, ...] = ()
    ) -> Mastery:
        coverages, recalls, products = [], [], []
        for question in questions:
            found = recent.get(question.full_id)
            if not found:
                products.append(0.0)
                continue
            coverage = sum(attempt_coverage(a) for a in found) / len(found)
            card = cards.get(question.full_id)
            recall = schedule.retrievability(card, now) if card else 0.0
            coverages.append(coverage)
            recalls.append(recall)
            products.append(coverage * recall)
        return Mastery(
            id=id_,
            title=title,
            questions=len(questions),
            attempted=len(coverages),
            coverage=_mean(coverages),
            retrievability=_mean(recalls),
            mastery=_mean(products),
            sections=sections,
        )

    def counted(questions: Iterable[Question]) -> list[Question]:
        # A probe is asked only when a point is missed or a claim made: it counts once answered,
        # so authoring probes never lowers anyone's mastery.
        return [q for q in questions if q.probe_of is None or q.full_id in recent]

    result = []
    for topic in bank.topics:
        sections = tuple(
            measure(section.full_id, section.title, counted(section.all_questions()))
            for section in topic.sections
        )
        result.append(measure(topic.id, topic.title, counted(topic.all_questions()), sections))
    return result


def weakest_points(bank: Bank, attempts: Sequence[Attempt], limit: int = 10) -> list[WeakPoint]:
    """Marking points with the lowest recent credit across the bank, most-attempted first on ties.

    Only questions still in the bank count; points fully covered every time are left out.
    """
    credit: dict[tuple[str, str], list[float]] = defaultdict(list)
    texts: dict[tuple[str, str], str] = {}
    for question_id, found in _recent_by_question(attempts).items():
        if not bank.has_question(question_id):
            continue
        for attempt in found:
            for point in attempt.marking.points:
                key = (question_id, point.point_id)
                texts[key] = point.text
                if attempt.override is None:
                    credit[key].append(point.credit)
                else:
                    credit[key].append(1.0 if attempt.override == "right" else 0.0)
    weak = [
        WeakPoint(qid, pid, texts[(qid, pid)], len(values), _mean(values))
        for (qid, pid), values in credit.items()
        if _mean(values) < 1.0
    ]
    weak.sort(key=lambda w: (w.coverage, -w.attempts, w.question_id, w.point_id))
    return weak[:limit]


def forecast(states: Sequence[ReviewState], now: datetime, days: int = 30) -> list[DayCount]:
    """Reviews due on each of the next ``days`` calendar days in ``now``'s time zone.

    Today's count includes everything already overdue.
    """
    today = now.date()
    counts = [0] * days
    for state in states:
        offset = max(0, (state.due.astimezone(now.tzinfo).date() - today).days)
        if offset < days:
            counts[offset] += 1
    return [DayCount(today + timedelta(days=i), n) for i, n in enumerate(counts)]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
