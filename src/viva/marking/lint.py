"""``viva bank lint``: the bank's own answers must mark the way their authors say.

Every model answer (follow-ups included) and every full answer must mark ``strong`` against
its own points, and
every sample answer must get the verdict its author gave it. A check that fails names
the file and line, what was expected and what the marker gave, and which points it
missed, so the author can fix the content (or report the marker).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from viva.bank.model import Bank, Question
from viva.domain import Verdict
from viva.marking.backends import Marker, get_backend
from viva.marking.elsewhere import InBank
from viva.marking.misconceptions import states_a_claim
from viva.marking.points import target
from viva.marking.result import Marking
from viva.marking.terms import analyse


@dataclass(frozen=True, slots=True)
class LintCheck:
    """One answer marked against its question, with the verdict it should get."""

    question_id: str
    where: str
    kind: str  # "model answer" | "full answer" | "<verdict> sample" | "<kind> sample"
    expected: Verdict
    marking: Marking

    @property
    def passed(self) -> bool:
        return self.marking.verdict == self.expected

    def describe(self) -> str:
        m = self.marking
        missed = ", ".join(p.point_id for p in m.points if p.status != "covered") or "none"
        extra = f"; flags: {', '.join(m.flags)}" if m.flags else ""
        extra += f" (answers {m.answers_instead})" if m.answers_instead else ""
        found = ", ".join(x.misconception_id for x in m.misconceptions)
        extra += f"; misconceptions: {found}" if found else ""
        return (
            f"{self.where}: {self.question_id} {self.kind}: expected {self.expected}, got {m.verdict} "
            f"(score {m.score:.2f}; not covered: {missed}{extra})"
        )


def _where(question: Question, line: int | None = None) -> str:
    if question.source is None:
        return question.full_id
    return f"{question.source.path}:{line if line is not None else question.source.line}"


def checks_for(question: Question, backend: str | Marker = "default") -> list[LintCheck]:
    """The model answer and every sample answer of ``question`` (not its follow-ups), marked
    by ``backend`` (a name, or a marker already built)."""
    engine = get_backend(backend) if isinstance(backend, str) else backend
    found = [
        LintCheck(
            question.full_id,
            _where(question),
            "model answer",
            "strong",
            engine.mark(question, question.answer),
        )
    ]
    if question.full_answer:
        found.append(
            LintCheck(
                question.full_id,
                _where(question),
                "full answer",
                "strong",
                engine.mark(question, question.full_answer),
            )
        )
    for sample in question.samples:
        line = sample.source.line if sample.source else None
        found.append(
            LintCheck(
                question.full_id,
                _where(question, line),
                f"{sample.kind or sample.verdict} sample",
                sample.verdict,
                engine.mark(question, sample.answer),
            )
        )
    return found


def _questions(bank: Bank, topics: Iterable[str]) -> Iterator[Question]:
    """The bank's questions in learning order, only those of ``topics`` when any are given."""
    wanted = set(topics)
    return (q for q in bank.questions() if not wanted or q.topic_id in wanted)


def lint_bank(bank: Bank, backend: str = "default", topics: Iterable[str] = ()) -> list[LintCheck]:
    """Every check for every question in the bank (or in ``topics``), in learning order."""
    engine = InBank(get_backend(backend), bank)
    return [check for question in _questions(bank, topics) for check in checks_for(question, engine)]


def weakest_passes(results: list[LintCheck], count: int = 5) -> list[LintCheck]:
    """Passing model answers closest to falling below strong: the ones to watch."""
    passing = [r for r in results if r.passed and r.kind == "model answer"]
    return sorted(passing, key=lambda r: r.marking.score)[:count]


SAMPLE_KINDS = ("paraphrase", "contrast", "partial", "fluent-wrong")


@dataclass(frozen=True, slots=True)
class RubricNote:
    """Something about a rubric (not a marking) an author should look at."""

    question_id: str
    where: str
    message: str

    def describe(self) -> str:
        return f"{self.where}: {self.question_id}: {self.message}"


def _one_word(phrase: str) -> bool:
    """A phrasing of one word, or one the marker reads as one: "another warp" is matched by
    "warp" alone, since "another" is a stop word."""
    if len(phrase.split()) == 1:
        return True
    terms = analyse(phrase).content_terms()
    return len(terms) == 1 and len(terms[0].surface.split()) == 1


def one_word_accepts(bank: Bank, topics: Iterable[str] = ()) -> list[RubricNote]:
    """Accepted phrasings of a single word: each credits a point wherever that word is said,
    whatever the answer claims about it, so each should be a term only a correct answer uses."""
    notes: list[RubricNote] = []
    for question in _questions(bank, topics):
        for point in question.points:
            for phrase in point.accept:
                if _one_word(phrase):
                    notes.append(
                        RubricNote(
                            question.full_id, _where(question), f"point {point.id!r} accepts {phrase!r}"
                        )
                    )
    return notes


def unclaimed_phrasings(bank: Bank, topics: Iterable[str] = ()) -> list[RubricNote]:
    """Misconception phrasings with one word that carries meaning
    (:func:`viva.marking.misconceptions.states_a_claim`): the marker ignores them, since a
    correct answer names the wrong thing to reject it."""
    notes: list[RubricNote] = []
    for question in _questions(bank, topics):
        for misconception in question.misconceptions:
            for phrase in misconception.accept:
                if not states_a_claim(target(phrase, frozenset(), accept=True, one_clause=True)):
                    notes.append(
                        RubricNote(
                            question.full_id,
                            _where(question),
                            f"misconception {misconception.id!r}: {phrase!r} is too short to state a claim "
                            "(it needs two words that carry meaning)",
                        )
                    )
    return notes


def missing_sample_kinds(bank: Bank, topics: Iterable[str] = ()) -> list[RubricNote]:
    """Questions and follow-ups without a sample of each kind (paraphrase, contrast, partial,
    fluent-wrong): without them lint cannot show the marker tells right from wrong there.
    Probes are exempt: a push on one missed point needs only its strong and weak samples."""
    notes: list[RubricNote] = []
    for question in _questions(bank, topics):
        if question.probe_of is not None:
            continue
        have = {s.kind for s in question.samples}
        missing = [k for k in SAMPLE_KINDS if k not in have]
        if missing:
            notes.append(
                RubricNote(question.full_id, _where(question), "no " + ", ".join(missing) + " sample")
            )
    return notes


MAX_POINTS = 6


def incomplete_questions(bank: Bank, topics: Iterable[str] = ()) -> list[RubricNote]:
    """Questions (probes and follow-ups too) that a marker cannot be checked on: no tags, no
    misconception, no weak sample, or more than six points counting the marked-up ones."""
    notes: list[RubricNote] = []
    for question in _questions(bank, topics):
        problems = []
        if not question.tags:
            problems.append("no tags")
        if not question.misconceptions:
            problems.append("no misconception")
        if not any(s.verdict == "weak" for s in question.samples):
            problems.append("no weak sample")
        if len(question.points) > MAX_POINTS:
            problems.append(
                f"{len(question.points)} points counting the marked-up ones (at most {MAX_POINTS})"
            )
        if problems:
            notes.append(RubricNote(question.full_id, _where(question), "; ".join(problems)))
    return notes
