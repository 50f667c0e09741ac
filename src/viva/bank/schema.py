"""The shape of bank files, as pydantic models: what keys exist and what they hold.

These models only describe files; :mod:`viva.bank.load` turns them into the frozen
domain objects of :mod:`viva.bank.model`. ``extra="forbid"`` makes a misspelt key an
error instead of silently lost content.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    field_validator,
    model_validator,
)

from viva.domain import Difficulty, SampleKind, StoryFeature, Verdict

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
    # story features that also make this point, for points that describe a behavioural answer
    shows: list[StoryFeature] = []
    probe: QuestionSpec | None = None


class MisconceptionSpec(_Strict):
    id: Slug
    text: Text
    correction: Text
    accept: list[Text] = []
    probe: QuestionSpec | None = None


# What each kind of sample must be marked: a contrast answer is correct (it names the wrong
# option only to deny it or compare), a fluent wrong one uses the right words for a wrong claim.
KIND_VERDICT: dict[str, Verdict] = {
    "paraphrase": "strong",
    "contrast": "strong",
    "partial": "partial",
    "fluent-wrong": "weak",
}


class SampleSpec(_Strict):
    verdict: Verdict | None = None
    kind: SampleKind | None = None
    answer: Text

    @model_validator(mode="after")
    def _verdict_from_kind(self) -> SampleSpec:
        if self.kind is None and self.verdict is None:
            raise ValueError("a sample needs a verdict or a kind")
        if self.kind is not None and self.verdict not in (None, KIND_VERDICT[self.kind]):
            raise ValueError(f"a {self.kind} sample is {KIND_VERDICT[self.kind]}, not {self.verdict}")
        return self

    @property
    def expected(self) -> Verdict:
        """The verdict written, or the one the sample's kind implies."""
        return self.verdict if self.verdict is not None else KIND_VERDICT[str(self.kind)]


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
    full_answer: Text | None = None
    points: Annotated[list[PointSpec], Field(min_length=2, max_length=6)]
    marked_up: Annotated[list[PointSpec], Field(max_length=6)] = []
    misconceptions: list[MisconceptionSpec] = []
    follow_ups: list[
        Annotated[
            Annotated[QuestionSpec, Tag("question")] | Annotated[FollowUpRef, Tag("ref")],
            Discriminator(_follow_up_kind),
        ]
    ] = []
    samples: list[SampleSpec] = []
    tags: list[Slug] = []
    difficulty: Difficulty = "medium"

    @field_validator("tags", mode="before")
    @classmethod
    def _lower_tags(cls, value: object) -> object:
        return [t.lower() if isinstance(t, str) else t for t in value] if isinstance(value, list) else value


# a probe is a question nested in a point or misconception, so both refer forward to it
PointSpec.model_rebuild()
MisconceptionSpec.model_rebuild()


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
