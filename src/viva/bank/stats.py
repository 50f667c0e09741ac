"""How big each topic is: the counts an author or a reviewer asks for first.

Follow-ups and probes are counted apart from the top-level questions they hang on, at any
depth; lesson words leave out fenced code and diagrams, which are read differently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from viva.bank.model import Bank, Topic

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_WORD = re.compile(r"[^\W_][\w'’.-]*")


@dataclass(frozen=True, slots=True)
class TopicCounts:
    topic_id: str
    title: str
    sections: int
    questions: int
    """Top-level questions (what a sitting asks first)."""
    follow_ups: int
    probes: int
    lesson_words: tuple[int, ...]
    """Words of prose in each section's lesson, in learning order."""


def lesson_words(lesson: str) -> int:
    """Words of prose in a lesson: fenced blocks (code, text diagrams) left out."""
    return len(_WORD.findall(_FENCE.sub(" ", lesson)))


def topic_counts(topic: Topic) -> TopicCounts:
    follow_ups = probes = 0
    for question in topic.all_questions():
        if question.probe_of is not None:
            probes += 1
        elif question.parent_id is not None:
            follow_ups += 1
    return TopicCounts(
        topic_id=topic.id,
        title=topic.title,
        sections=len(topic.sections),
        questions=sum(len(section.questions) for section in topic.sections),
        follow_ups=follow_ups,
        probes=probes,
        lesson_words=tuple(lesson_words(section.lesson) for section in topic.sections),
    )


def bank_counts(bank: Bank) -> list[TopicCounts]:
    """One row per topic, in the site's order."""
    return [topic_counts(topic) for topic in bank.topics]
