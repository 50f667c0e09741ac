"""The small closed vocabularies every layer shares, declared once.

These are the words of the contracts in the design (a verdict, a point's status, a
candidate's override, …). The bank, the marker, practice, the store's documents, the web
API and the CLI all import them from here, so a new value is added in one place. This
module imports nothing of Viva: it sits below ``bank``, beside :mod:`viva.errors`.
"""

from __future__ import annotations

from typing import Literal, get_args

Verdict = Literal["strong", "partial", "weak"]
"""``strong``: every core point made and no misconception stated; then ``partial``, ``weak``."""
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)

PointStatus = Literal["covered", "partial", "missed"]
"""How much of one marking point an answer made."""
POINT_STATUSES: tuple[PointStatus, ...] = get_args(PointStatus)

Difficulty = Literal["easy", "medium", "hard"]

SampleKind = Literal["paraphrase", "contrast", "partial", "fluent-wrong"]
"""What an author says a labelled sample answer is (each kind implies a verdict)."""

StoryFeature = Literal[
    "result-figure",
    "own-action",
    "setting",
    "proposal",
    "evidence",
    "reflection",
    "acknowledges",
    "change-made",
    "owns-fault",
    "positions",
    "finding",
    "took-on",
    "decider",
    "their-terms",
]
"""What a behavioural answer's story does, for points that describe it (:mod:`viva.marking.story`)."""
STORY_FEATURES: tuple[StoryFeature, ...] = get_args(StoryFeature)

Override = Literal["right", "missed"]
"""The candidate overruling the marker: "I was right" or "I missed it"."""
OVERRIDES: tuple[Override, ...] = get_args(Override)


def as_override(value: str | None) -> Override | None:
    """A stored override read back: ``right``, ``missed``, or None for anything else."""
    if value == "right":
        return "right"
    return "missed" if value == "missed" else None
