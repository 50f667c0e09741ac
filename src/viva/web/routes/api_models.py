"""The JSON API's request and response shapes (they make the OpenAPI document).

Bank shapes mirror :mod:`viva.bank.export`; a question's answer, points and
misconceptions are included only when asked (``?answers=true``), so a client can quiz
without giving the answer away.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from viva.bank import Question, Section, Topic
from viva.domain import Override


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class PointOut(_Out):
    id: str
    text: str
    weight: float


class MisconceptionOut(_Out):
    id: str
    text: str
    correction: str


class QuestionOut(_Out):
    id: str = Field(description="topic-id/question-id")
    topic_id: str
    section_id: str
    prompt: str
    difficulty: str
    tags: list[str]
    parent_id: str | None
    follow_ups: list[str] = Field(description="ids of the follow-ups an interviewer would push with")
    answer: str | None = None
    points: list[PointOut] | None = None
    misconceptions: list[MisconceptionOut] | None = None

    @classmethod
    def of(cls, question: Question, follow_ups: tuple[Question, ...], answers: bool) -> QuestionOut:
        extra = {}
        if answers:
            extra = {
                "answer": question.answer,
                "points": [PointOut(id=p.id, text=p.text, weight=p.weight) for p in question.points],
                "misconceptions": [
                    MisconceptionOut(id=m.id, text=m.text, correction=m.correction)
                    for m in question.misconceptions
                ],
            }
        return cls(
            id=question.full_id,
            topic_id=question.topic_id,
            section_id=question.section_id,
            prompt=question.prompt,
            difficulty=question.difficulty,
            tags=list(question.tags),
            parent_id=question.parent_id,
            follow_ups=[f.full_id for f in follow_ups],
            **extra,
        )


class SectionSummary(_Out):
    id: str = Field(description="topic-id/section-id")
    title: str
    position: int
    questions: int

    @classmethod
    def of(cls, section: Section) -> SectionSummary:
        return cls(
            id=section.full_id,
            title=section.title,
            position=section.position,
            questions=sum(1 for _ in section.all_questions()),
        )


class SectionOut(SectionSummary):
    lesson: str = Field(description="the lesson, in Markdown")
    related: list[str]
    question_list: list[QuestionOut]


class TopicOut(_Out):
    id: str
    title: str
    summary: str
    order: int
    assumes: str
    sections: list[SectionSummary]

    @classmethod
    def of(cls, topic: Topic) -> TopicOut:
        return cls(
            id=topic.id,
            title=topic.title,
            summary=topic.summary,
            order=topic.order,
            assumes=topic.assumes,
            sections=[SectionSummary.of(s) for s in topic.sections],
        )


class MarkRequest(BaseModel):
    question_id: str = Field(max_length=300, description="topic-id/question-id")
    answer: str = Field(
        min_length=1,
        description="the candidate's answer as text; empty or only spaces → 422, over the size limit → 413",
    )


class AttemptRequest(MarkRequest):
    duration_ms: int | None = Field(default=None, ge=0, le=86_400_000)
    session_id: str | None = Field(default=None, max_length=64, description="groups a sitting's attempts")


class OverrideRequest(BaseModel):
    verdict: Override | None = Field(description='"I was right", "I missed it", or null to withdraw')


class DueOut(_Out):
    question_id: str
    prompt: str
    due: datetime


class NextOut(_Out):
    question: QuestionOut | None
    reason: str | None = Field(description="follow-up, due or new; null when nothing is left")


class MeOut(_Out):
    id: int
    name: str


class ErrorOut(_Out):
    error: str
    status: int
    hint: str | None = None
    details: list[str] | None = None


def error_responses(reasons: dict[int, str]) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for error status codes, each an :class:`ErrorOut` with its reason."""
    return {code: {"model": ErrorOut, "description": text} for code, text in reasons.items()}
