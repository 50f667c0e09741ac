"""The vocabulary of a question, to bias the recogniser toward its technical terms.

Only *terms* go in — short ``accept`` phrasings of the marking points and the technical
tokens of the prompt and point texts (``HBM``, ``FP32``, ``AdamW``, ``H100``) — never whole
claims, and never the misconceptions: a hint should help the recogniser spell what was
said, not suggest what might have been.
"""

from __future__ import annotations

import re

from viva.bank import Question

MAX_TERM_WORDS = 3

# Acronyms, mixed case and letter-digit tokens: HBM, NVLink, AdamW, FP32, H100, int8.
_TECHNICAL = re.compile(r"\b(?:[A-Za-z]*[A-Z][a-z]*[A-Z][\w-]*|[A-Za-z]+\d[\w.-]*|\d+[A-Za-z]+\w*)\b")
# A capitalised word not at the start of a sentence: Adam, ResNet, Hopper.
_PROPER = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+\b")


def hotwords_for(question: Question, limit: int = 40) -> list[str]:
    """Distinct terms, most specific first, at most ``limit`` of them."""
    terms: list[str] = []
    for point in question.points:
        terms.extend(a for a in point.accept if len(a.split()) <= MAX_TERM_WORDS)
    for text in (question.prompt, *(p.text for p in question.points)):
        terms.extend(_TECHNICAL.findall(text))
        terms.extend(_PROPER.findall(text.strip()))
    seen: set[str] = set()
    unique = []
    for term in terms:
        key = term.strip().lower()
        if key and key not in seen:
            seen.add(key)
            unique.append(term.strip())
    return unique[:limit]
