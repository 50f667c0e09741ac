"""The debrief after a mock interview, and the readiness figure, as plain data.

**Readiness** for a topic is the share of the core marking points an interviewer listened
for in that topic's questions (probes and follow-ups included) that the candidate made,
weighted as the bank weights them; a point made in part earns its part; each misconception
stated adds one more point missed, because an interviewer hears a wrong claim as a gap.
80 % or more reads *ready*, 60 % or more *nearly*, below that *not yet*.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Literal

from viva.bank import Bank, Question
from viva.marking.result import Marking, Span
from viva.practice.interview import StepKind
from viva.practice.lessons import LessonPointer, lesson_for

Band = Literal["ready", "nearly", "not yet"]
READY_AT = 0.8
NEARLY_AT = 0.6


def readiness(markings: Sequence[Marking]) -> float | None:
    """Core weight earned ÷ core weight asked (+1 per misconception stated); None with nothing asked."""
    earned = asked = 0.0
    for marking in markings:
        for point in marking.points:
            if point.core:
                earned += point.weight * point.credit
                asked += point.weight
        asked += len(marking.misconceptions)
    return None if asked == 0 else earned / asked


def band(figure: float) -> Band:
    if figure >= READY_AT:
        return "ready"
    return "nearly" if figure >= NEARLY_AT else "not yet"


def statement(title: str, figure: float) -> str:
    """What the figure means, in words a candidate can act on."""
    share = f"{figure:.0%}"
    meaning = {
        "ready": "ready: you would likely satisfy an interviewer on this topic today",
        "nearly": "nearly: most of the substance is there, a few points would be pushed on",
        "not yet": "not yet: an interviewer would find gaps; drill the missed points first",
    }[band(figure)]
    return (
        f"{title}: {share} of the core points an interviewer listens for were made "
        f"(a misconception counts as one more miss). That is {meaning}. Ready means 80% or more."
    )


@dataclass(frozen=True, slots=True)
class Said:
    """A point or misconception with the candidate's own words that carried it."""

    id: str
    text: str
    evidence: list[str]
    correction: str = ""


@dataclass(frozen=True, slots=True)
class DebriefItem:
    """One answer: ``covered`` holds every point made (core or marked up) with the words that
    made it; ``missed`` only the core points not made in full (marked-up ones are extra credit)."""

    question_id: str
    topic_id: str
    prompt: str
    kind: StepKind
    follows: str | None
    answer: str
    verdict: str
    score: float
    covered: list[Said]
    missed: list[Said]
    misconceptions: list[Said]
    lesson: LessonPointer
    delivery: dict[str, Any] | None
    attempt_id: int | None
    scheduled: bool


@dataclass(frozen=True, slots=True)
class TopicReadiness:
    topic_id: str
    title: str
    figure: float
    band: Band
    statement: str


@dataclass(frozen=True, slots=True)
class PointTally:
    question_id: str
    point_id: str
    text: str
    made: int
    asked: int


@dataclass(frozen=True, slots=True)
class Debrief:
    key: str
    started_at: datetime
    finished_at: datetime | None
    items: list[DebriefItem]
    readiness: list[TopicReadiness]
    strongest_points: list[PointTally]
    weakest_points: list[PointTally]
    practise_next: list[str] = field(default_factory=list)
    """Questions whose core points were missed: the one-click drill."""

    @property
    def strongest_topic(self) -> TopicReadiness | None:
        return max(self.readiness, key=lambda r: r.figure, default=None)

    @property
    def weakest_topic(self) -> TopicReadiness | None:
        return min(self.readiness, key=lambda r: r.figure, default=None)


@dataclass(frozen=True, slots=True)
class Given:
    """One answer as the debrief needs it (an attempt, or a generated push's kept answer)."""

    question: Question
    kind: StepKind
    marking: Marking
    answer: str
    delivery: dict[str, Any] | None = None
    attempt_id: int | None = None


def _quotes(answer: str, spans: list[Span]) -> list[str]:
    return [answer[s.start : s.end] for s in spans]


def item_for(bank: Bank, given: Given) -> DebriefItem:
    marking, question = given.marking, given.question
    parent = bank.parent(question) if question.parent_id else None
    said = [Said(p.point_id, p.text, _quotes(given.answer, p.evidence)) for p in marking.points]
    statuses = {p.point_id: p.status for p in marking.points}
    core = {p.point_id for p in marking.points if p.core}
    return DebriefItem(
        question_id=question.full_id,
        topic_id=question.topic_id,
        prompt=question.prompt,
        kind=given.kind,
        follows=parent.prompt if parent is not None else None,
        answer=given.answer,
        verdict=marking.verdict,
        score=marking.score,
        covered=[s for s in said if statuses[s.id] == "covered"],
        missed=[s for s in said if statuses[s.id] != "covered" and s.id in core],
        misconceptions=[
            Said(m.misconception_id, m.text, _quotes(given.answer, m.evidence), m.correction)
            for m in marking.misconceptions
        ],
        lesson=lesson_for(bank, question, marking),
        delivery=given.delivery,
        attempt_id=given.attempt_id,
        scheduled=given.attempt_id is not None,
    )


def debrief(
    bank: Bank, key: str, started_at: datetime, finished_at: datetime | None, given: Sequence[Given]
) -> Debrief:
    """Everything the page, the terminal and the JSON show after the last question."""
    items = [item_for(bank, g) for g in given]
    by_topic: dict[str, list[Marking]] = defaultdict(list)
    tallies: dict[tuple[str, str], list[int]] = {}
    texts: dict[tuple[str, str], str] = {}
    for g in given:
        by_topic[g.question.topic_id].append(g.marking)
        for point in g.marking.points:
            if point.core:
                key_ = (g.question.full_id, point.point_id)
                tally = tallies.setdefault(key_, [0, 0])
                tally[0] += point.status == "covered"
                tally[1] += 1
                texts[key_] = point.text
    topics = []
    for topic in bank.topics:
        figure = readiness(by_topic.get(topic.id, []))
        if figure is not None:
            topics.append(
                TopicReadiness(topic.id, topic.title, figure, band(figure), statement(topic.title, figure))
            )
    points = [PointTally(q, p, texts[(q, p)], made, asked) for (q, p), (made, asked) in tallies.items()]
    strongest = sorted((p for p in points if p.made), key=lambda p: (-p.made / p.asked, -p.asked))[:5]
    weakest = sorted((p for p in points if p.made < p.asked), key=lambda p: (p.made / p.asked, -p.asked))[:5]
    practise = [i.question_id for i in items if i.scheduled and (i.misconceptions or _core_missed(i, given))]
    return Debrief(
        key, started_at, finished_at, items, topics, strongest, weakest, list(dict.fromkeys(practise))
    )


def _core_missed(item: DebriefItem, given: Sequence[Given]) -> bool:
    for g in given:
        if g.question.full_id == item.question_id:
            return any(p.core and p.status != "covered" for p in g.marking.points)
    return False


def as_json(result: Debrief, points_missed_most: Sequence[PointTally] = ()) -> dict[str, Any]:
    """The debrief as JSON-ready data (the CLI's ``--format json`` and the web's API share it)."""
    data = asdict(result)
    data["started_at"] = result.started_at.isoformat()
    data["finished_at"] = result.finished_at.isoformat() if result.finished_at else None
    data["strongest_topic"] = result.strongest_topic.topic_id if result.strongest_topic else None
    data["weakest_topic"] = result.weakest_topic.topic_id if result.weakest_topic else None
    data["points_missed_most"] = [asdict(p) for p in points_missed_most]
    return data
