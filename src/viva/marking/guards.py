"""Answers that are not answers: keyword lists, gibberish, instructions to the marker, off-topic.

Each guard raises a flag and caps the score, whatever the words matched: a list of the
right keywords with no claim connecting them shows recognition, not understanding, and
an instruction to the marker is never evidence of knowledge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from viva.marking.terms import Analysis

KEYWORD_LIST_CAP = 0.3  # weak: the right words with no claim connecting them are "not an answer"
GIBBERISH_CAP = 0.0
INSTRUCTION_CAP = 0.2
OFF_TOPIC_CAP = 0.1

_INSTRUCTION = re.compile(
    r"\b(ignore|disregard|forget|override)\b\s+(all\s+|any\s+|the\s+|your\s+)*(previous|prior|above|earlier|"
    r"marking|grading|system)?\s*(instructions?|prompts?|rules|rubric|guidelines)"
    r"|\b(mark|grade|score|rate|assess)\s+(this|my|me|the|it)\b(\s+(answer|response|one))?\s+(as\s+)?"
    r"(strong|correct|perfect|a\s+pass|full|top|100|10|five|5)\b"
    r"|\bgive\s+(me|this|it|this\s+answer)\s+(full|top|maximum|max|a\s+strong|100|10|five|5)\b"
    r"|\b(you\s+are\s+now|act\s+as|pretend\s+to\s+be)\s+(a|an|the)\s+"
    r"|\b(dear|hey|note\s+to\s+the|attention)\s+(marker|grader|examiner|ai|assistant|model)\b"
    r"|\b(this|my)\s+answer\s+(is|should\s+be|must\s+be)\s+(marked|graded|scored|rated)\b",
    re.IGNORECASE,
)
_VOWELS = set("aeiouy")


@dataclass(frozen=True, slots=True)
class Guard:
    flag: str
    cap: float


def keyword_list(answer: Analysis) -> bool:
    """Several content words and (almost) nothing connecting them into a claim."""
    words = [t for t in answer.terms]
    content = [t for t in words if t.content]
    if len(content) < 4:
        return False
    function = len(words) - len(content)
    return function / len(words) < 0.12


def _unpronounceable(word: str) -> bool:
    if not word.isalpha() or len(word) < 4:
        return False
    if not set(word) & _VOWELS:
        return True
    return re.search(r"[^aeiouy]{5,}|(.)\1\1", word) is not None


def gibberish(answer: Analysis, known: frozenset[str]) -> bool:
    """Mostly strings that are neither English function words nor the topic's vocabulary."""
    words = [t for t in answer.terms]
    if len(words) < 3:
        return bool(words) and all(_unpronounceable(t.stem) for t in words)
    unknown = [t for t in words if t.content and not (t.keys & known)]
    odd = sum(_unpronounceable(t.stem) for t in words)
    function = sum(1 for t in words if not t.content)
    return odd / len(words) > 0.3 or (function / len(words) < 0.1 and len(unknown) == len(words))


def instruction(text: str) -> bool:
    return _INSTRUCTION.search(text) is not None


def instruction_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` addresses the marker; a backend must not take these words as evidence."""
    return [m.span() for m in _INSTRUCTION.finditer(text)]


def check(answer: Analysis, known: frozenset[str], coverage_signal: float) -> list[Guard]:
    """Every guard the answer trips; ``known`` is the keys of the question's own vocabulary."""
    guards: list[Guard] = []
    if instruction(answer.text):
        guards.append(Guard("instruction-to-marker", INSTRUCTION_CAP))
    if gibberish(answer, known):
        guards.append(Guard("gibberish", GIBBERISH_CAP))
    elif keyword_list(answer):
        guards.append(Guard("keyword-list", KEYWORD_LIST_CAP))
    content = answer.content_terms()
    if content and coverage_signal == 0 and not any(t.keys & known for t in content):
        guards.append(Guard("off-topic", OFF_TOPIC_CAP))
    elif not content:
        guards.append(Guard("empty", 0.0))
    return guards
