"""The shape of bank files, as pydantic models: what keys exist and what they hold.

These models only describe files; :mod:`viva.bank.load` turns them into the frozen
domain objects of :mod:`viva.bank.model`. ``extra="forbid"`` makes a misspelt key an
error instead of silently lost content.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    field_validator,
)

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=80)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
SectionRef = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*/[a-z0-9]+(?:-[a-z0-9]+)*$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PointSpec(_Strict):
    id: Slug
    text: Text
    weight: float = Field(default=1.0, gt=0, le=5)
    accept: list[Text] = []


class MisconceptionSpec(_Strict):
    id: Slug
    text: Text
    correction: Text
    accept: list[Text] = []


class SampleSpec(_Strict):
    verdict: Literal["strong", "partial", "weak"]
    answer: Text


class FollowUpRef(_Strict):
    ref: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]+(/[a-z0-9-]+)?$")]


def _follow_up_kind(value: object) -> str:
    """A follow-up is a reference when it is a mapping with a ``ref`` key."""
    if isinstance(value, dict):
        return "ref" if "ref" in value else "question"
    return "ref" if isinstance(value, FollowUpRef) else "question"


class QuestionSpec(_Strict):
    id: Slug
    prompt: Text
    answer: Text
    points: Annotated[list[PointSpec], Field(min_length=2, max_length=6)]
    misconceptions: list[MisconceptionSpec] = []
    follow_ups: list[
        Annotated[
            Annotated[QuestionSpec, Tag("question")] | Annotated[FollowUpRef, Tag("ref")],
            Discriminator(_follow_up_kind),
        ]
    ] = []
    samples: list[SampleSpec] = []
    tags: list[Slug] = []
    difficulty: Literal["easy", "medium", "hard"] = "medium"

    @field_validator("tags", mode="before")
    @classmethod
    def _lower_tags(cls, value: object) -> object:
        return [t.lower() if isinstance(t, str) else t for t in value] if isinstance(value, list) else value


class SectionFileSpec(_Strict):
    questions: list[QuestionSpec] = []


class LessonFrontMatter(_Strict):
    id: Slug
    title: Text
    related: list[SectionRef] = []


class TopicSpec(_Strict):
    id: Slug
    title: Text
    summary: Text
    order: int = 100
    assumes: str = ""
