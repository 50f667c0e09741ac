"""The bank as one JSON-ready document; other tools read this shape, so keep it stable."""

from __future__ import annotations

from typing import Any

from viva.bank.model import Bank, MarkingPoint, Question, Section, Topic


def _point(point: MarkingPoint) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": point.id,
        "text": point.text,
        "weight": point.weight,
        "accept": list(point.accept),
    }
    if point.shows:
        data["shows"] = list(point.shows)
    return data


def question_dict(question: Question, *, with_answer: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": question.id,
        "full_id": question.full_id,
        "prompt": question.prompt,
        "difficulty": question.difficulty,
        "tags": list(question.tags),
    }
    if with_answer:
        data |= {
            "answer": question.answer,
            "full_answer": question.full_answer,
            "points": [_point(p) for p in question.core_points],
            "marked_up": [_point(p) for p in question.marked_up_points],
            "misconceptions": [
                {"id": m.id, "text": m.text, "correction": m.correction, "accept": list(m.accept)}
                for m in question.misconceptions
            ],
            "samples": [
                {"verdict": s.verdict, "answer": s.answer} | ({"kind": s.kind} if s.kind else {})
                for s in question.samples
            ],
        }
    data["follow_ups"] = [question_dict(f, with_answer=with_answer) for f in question.follow_ups]
    data["follow_up_refs"] = list(question.follow_up_refs)
    return data


def section_dict(section: Section) -> dict[str, Any]:
    return {
        "id": section.id,
        "title": section.title,
        "lesson": section.lesson,
        "related": list(section.related),
        "questions": [question_dict(q) for q in section.questions],
    }


def topic_dict(topic: Topic) -> dict[str, Any]:
    return {
        "id": topic.id,
        "title": topic.title,
        "summary": topic.summary,
        "order": topic.order,
        "assumes": topic.assumes,
        "sections": [section_dict(s) for s in topic.sections],
    }


def bank_dict(bank: Bank) -> dict[str, Any]:
    return {"topics": [topic_dict(t) for t in bank.topics]}
