"""What a practice session covers: everything, one topic, or one section."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from viva.bank import Bank, Question


@dataclass(frozen=True, slots=True)
class Scope:
    """``Scope()`` is the whole bank; ``Scope("topic")``; ``Scope("topic", "section")``."""

    topic_id: str | None = None
    section_id: str | None = None

    @classmethod
    def parse(cls, bank: Bank, text: str | None) -> Scope:
        """``None``/``""`` → everything, ``topic-id`` or ``topic-id/section-id``.

        Raises :class:`~viva.errors.NotFound` for an id that names nothing.
        """
        if not text:
            return cls()
        topic_id, _, section_id = text.strip().strip("/").partition("/")
        topic = bank.topic(topic_id)
        if section_id:
            topic.section(section_id)
            return cls(topic_id, section_id)
        return cls(topic_id)

    def contains(self, question: Question) -> bool:
        if self.topic_id is not None and question.topic_id != self.topic_id:
            return False
        return self.section_id is None or question.section_id == self.section_id

    def new_questions(self, bank: Bank) -> Iterator[Question]:
        """Top-level questions in learning order (topic order, then section position).

        Follow-ups are not introduced on their own: they come after their parent.
        """
        for question in bank.questions():
            if question.parent_id is None and self.contains(question):
                yield question

    def __str__(self) -> str:
        if self.topic_id is None:
            return "everything"
        return self.topic_id if self.section_id is None else f"{self.topic_id}/{self.section_id}"
