"""The Marking contract that practice, storage, the web and the CLI rely on.

A :class:`Marking` is plain data (pydantic, so it round-trips through JSON for storage
and the API): a score in [0, 1], a verdict derived from it, one :class:`PointMark` per
marking point with the character spans of the answer that earned it, and the
misconceptions detected with their evidence.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from viva.domain import PointStatus, Verdict

STRONG_AT = 0.7
PARTIAL_AT = 0.35


def verdict_for(score: float) -> Verdict:
    """``strong`` at 0.7 or more, ``partial`` at 0.35 or more, else ``weak``."""
    if score >= STRONG_AT:
        return "strong"
    if score >= PARTIAL_AT:
        return "partial"
    return "weak"


class Span(BaseModel):
    """Characters ``answer[start:end]``."""

    model_config = ConfigDict(frozen=True)

    start: int = Field(ge=0)
    end: int = Field(ge=0)


class PointMark(BaseModel):
    model_config = ConfigDict(frozen=True)

    point_id: str
    text: str
    weight: float = 1.0
    core: bool = Field(default=True, description="a core point; false for a marked-up (extra credit) one")
    status: PointStatus
    credit: float = Field(ge=0, le=1, description="share of this point's weight earned")
    evidence: list[Span] = []


class MisconceptionMark(BaseModel):
    model_config = ConfigDict(frozen=True)

    misconception_id: str
    text: str
    correction: str
    evidence: list[Span] = []


class Marking(BaseModel):
    model_config = ConfigDict(frozen=True)

    question_id: str | None = None
    answer: str
    score: float = Field(ge=0, le=1)
    verdict: Verdict
    points: list[PointMark]
    misconceptions: list[MisconceptionMark] = []
    flags: list[str] = Field(
        default=[], description="why the score was capped, e.g. keyword-list, off-topic, contradiction"
    )
    answers_instead: str | None = Field(
        default=None,
        description="the id of the bank question this answer fits far better than the one asked "
        "(flag another-question)",
    )
    backend: str
    backend_version: str
    fallback_reason: str | None = Field(
        default=None,
        description="set when the configured backend failed (e.g. the LLM timed out) and the "
        "local marker marked this answer instead; says why",
    )

    @property
    def missed(self) -> list[PointMark]:
        return [p for p in self.points if p.status == "missed"]

    @property
    def marked_up_for(self) -> list[PointMark]:
        """The marked-up (extra credit) points this answer made: "marked up for ..."."""
        return [p for p in self.points if not p.core and p.status == "covered"]
