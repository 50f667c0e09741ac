"""The content model: immutable topics, sections, questions and their marking points.

Everything here is plain frozen data built by :mod:`viva.bank.load`; nothing knows about
users, storage or marking.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from viva.domain import Difficulty, SampleKind, StoryFeature, Verdict
from viva.errors import NotFound


@dataclass(frozen=True, slots=True)
class Source:
    """Where something was written: a file and a 1-based line."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True, slots=True)
class MarkingPoint:
    """One thing an interviewer listens for.

    A *core* point is what an answer that works must say; a marked-up point (``core``
    false) is extra credit, the "what gets marked up" of the full answer.
    """

    id: str
    text: str
    weight: float = 1.0
    accept: tuple[str, ...] = ()
    core: bool = True
    probe: Question | None = None  # what an interviewer asks when this point is missed
    shows: tuple[StoryFeature, ...] = ()  # story features that also make it (viva.marking.story)


@dataclass(frozen=True, slots=True)
class Misconception:
    id: str
    text: str
    correction: str
    accept: tuple[str, ...] = ()
    probe: Question | None = None  # what an interviewer asks when this claim is made


@dataclass(frozen=True, slots=True)
class SampleAnswer:
    answer: str
    verdict: Verdict
    source: Source | None = None
    kind: SampleKind | None = None  # when the author said


@dataclass(frozen=True, slots=True)
class Question:
    """A question with what an interviewer rewards; ``id`` is unique within its topic.

    ``answer`` is an answer that works (what a good candidate says in about 30 seconds);
    ``full_answer``, when given, is the longer answer that gets marked up. ``points`` holds
    the core points first, then the marked-up ones.
    """

    topic_id: str
    section_id: str
    id: str
    prompt: str
    answer: str
    points: tuple[MarkingPoint, ...]
    misconceptions: tuple[Misconception, ...] = ()
    follow_ups: tuple[Question, ...] = ()
    follow_up_refs: tuple[str, ...] = ()
    samples: tuple[SampleAnswer, ...] = ()
    tags: tuple[str, ...] = ()
    difficulty: Difficulty = "medium"
    parent_id: str | None = None
    source: Source | None = field(default=None, compare=False)
    full_answer: str = ""
    probe_of: str | None = None  # for a probe: the id of the point or misconception it presses on

    @property
    def full_id(self) -> str:
        return f"{self.topic_id}/{self.id}"

    @property
    def core_points(self) -> tuple[MarkingPoint, ...]:
        return tuple(p for p in self.points if p.core)

    @property
    def marked_up_points(self) -> tuple[MarkingPoint, ...]:
        return tuple(p for p in self.points if not p.core)

    @property
    def probes(self) -> tuple[Question, ...]:
        """The probes authored on this question's points, then on its misconceptions."""
        on_points = (p.probe for p in self.points)
        on_claims = (m.probe for m in self.misconceptions)
        return tuple(q for q in (*on_points, *on_claims) if q is not None)

    @property
    def longest_answer(self) -> str:
        """The full answer when there is one, else the answer that works."""
        return self.full_answer or self.answer

    def walk(self) -> Iterator[Question]:
        """This question, then its nested follow-ups depth first, then its probes."""
        yield self
        for follow_up in self.follow_ups:
            yield from follow_up.walk()
        for probe in self.probes:
            yield from probe.walk()


@dataclass(frozen=True, slots=True)
class Section:
    topic_id: str
    id: str
    title: str
    lesson: str
    position: int
    questions: tuple[Question, ...] = ()
    related: tuple[str, ...] = ()
    source: Source | None = field(default=None, compare=False)

    @property
    def full_id(self) -> str:
        return f"{self.topic_id}/{self.id}"

    def all_questions(self) -> Iterator[Question]:
        for question in self.questions:
            yield from question.walk()


@dataclass(frozen=True, slots=True)
class Topic:
    id: str
    title: str
    summary: str
    order: int
    sections: tuple[Section, ...]
    assumes: str = ""
    source: Source | None = field(default=None, compare=False)

    def all_questions(self) -> Iterator[Question]:
        for section in self.sections:
            yield from section.all_questions()

    def section(self, section_id: str) -> Section:
        for section in self.sections:
            if section.id == section_id:
                return section
        raise NotFound(f"no section {self.id}/{section_id}")


@dataclass(frozen=True)
class Bank:
    """All topics in site order, with look-ups by id."""

    topics: tuple[Topic, ...] = ()
    _questions: dict[str, Question] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for topic in self.topics:
            for question in topic.all_questions():
                self._questions.setdefault(question.full_id, question)

    def topic(self, topic_id: str) -> Topic:
        for topic in self.topics:
            if topic.id == topic_id:
                return topic
        raise NotFound(f"no topic {topic_id!r}", hint="`viva topics` lists them")

    def section(self, full_id: str) -> Section:
        topic_id, _, section_id = full_id.partition("/")
        return self.topic(topic_id).section(section_id)

    def question(self, full_id: str) -> Question:
        try:
            return self._questions[full_id]
        except KeyError:
            raise NotFound(f"no question {full_id!r}", hint="ids look like topic-id/question-id") from None

    def has_question(self, full_id: str) -> bool:
        return full_id in self._questions

    def questions(self) -> Iterator[Question]:
        """Every question, follow-ups included, in learning order."""
        for topic in self.topics:
            yield from topic.all_questions()

    def follow_ups(self, question: Question) -> tuple[Question, ...]:
        """Nested follow-ups first, then the ones referenced by id."""
        referenced = tuple(self._questions[r] for r in question.follow_up_refs if r in self._questions)
        return question.follow_ups + referenced

    def parent(self, question: Question) -> Question | None:
        if question.parent_id is None:
            return None
        return self._questions.get(question.parent_id)

    def presented_with(self, question: Question) -> Question:
        """The question whose card on the topic page shows ``question``: itself, or for a probe
        (which has no card of its own) the question whose point or misconception it presses on."""
        while question.probe_of is not None and (parent := self.parent(question)) is not None:
            question = parent
        return question
