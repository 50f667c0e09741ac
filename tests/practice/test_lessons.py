"""Which lesson paragraph is shown as where a missed point is taught."""

from __future__ import annotations

from viva.bank.model import Bank, MarkingPoint, Question, Section, Topic
from viva.marking.result import Marking, PointMark
from viva.practice.lessons import lesson_for

LESSON = """\
What interviewers listen for:

- each step reads every weight, so decode is memory-bound
- batching and arithmetic intensity

Each decode step reads every weight from memory, so decode is memory-bound.
"""


def _bank() -> tuple[Bank, Question]:
    question = Question(
        topic_id="t",
        section_id="s",
        id="q",
        prompt="Why is decode slow?",
        answer="It is memory-bound: every step reads every weight.",
        points=(MarkingPoint("reads", "Each step reads every weight, so decode is memory-bound."),),
    )
    section = Section("t", "s", "Decode", LESSON, 1, (question,))
    return Bank((Topic("t", "T", "", 1, (section,)),)), question


def test_the_excerpt_is_prose_that_teaches_not_the_sections_checklist() -> None:
    bank, question = _bank()
    missed = Marking(
        answer="no idea",
        score=0.0,
        verdict="weak",
        points=[PointMark(point_id="reads", text=question.points[0].text, status="missed", credit=0.0)],
        backend="test",
        backend_version="0",
    )
    assert lesson_for(bank, question, missed).excerpt.startswith("Each decode step reads every weight")
