"""Where the missed points are taught: the section's lesson and its most relevant paragraph."""

from __future__ import annotations

from dataclasses import dataclass

from viva.bank import Bank, Question
from viva.marking.result import Marking
from viva.practice.follow_ups import missed_stems
from viva.practice.words import content_stems, overlap


@dataclass(frozen=True, slots=True)
class LessonPointer:
    """The section that teaches a question, with the lesson paragraph closest to the gaps."""

    section_id: str
    """``topic-id/section-id``."""
    title: str
    excerpt: str
    """The paragraph sharing most words with the missed points ("" when nothing was missed)."""


def lesson_for(bank: Bank, question: Question, marking: Marking) -> LessonPointer:
    section = bank.section(f"{question.topic_id}/{question.section_id}")
    gap = missed_stems(marking)
    excerpt = ""
    if gap:
        paragraphs = [p.strip() for p in section.lesson.split("\n\n") if _is_prose(p)]
        scored = [(overlap(gap, content_stems(p)), -i, p) for i, p in enumerate(paragraphs)]
        best = max(scored, default=(0, 0, ""))
        excerpt = best[2] if best[0] > 0 else ""
    return LessonPointer(section.full_id, section.title, excerpt)


def _is_prose(paragraph: str) -> bool:
    """A paragraph that teaches: not a heading, code, a table, a rule, or a bare list (a section's
    checklist shares words with every question, so it would be picked for the wrong one)."""
    text = paragraph.strip()
    return bool(text) and not text.startswith(("#", "```", "|", "---")) and not _is_list(text)


def _is_list(text: str) -> bool:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return all(line[:2] in {"- ", "* ", "+ "} or line.split(".", 1)[0].isdigit() for line in lines)
