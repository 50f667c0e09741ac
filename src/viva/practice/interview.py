"""The rules of a mock interview: which questions, which push further, what comes next.

Pure functions over the bank and markings; no storage, no clock (``now`` is passed in).

**The plan.** Top-level questions of the chosen topics: due reviews first (soonest due
first), then new ones in learning order, then ones answered but not yet due (soonest first),
each group dealt round-robin across the topics so the interview moves between them as a real
one does.

**The push further** after each planned answer (:func:`choose_push`), one per question:

1. a misconception the candidate stated, when it carries an authored probe;
2. the heaviest core point they did not make in full, when it carries one;
3. when neither has a probe: a *generated* push built from the point or the misconception
   itself ("You didn't mention …"), because it presses on exactly what went wrong, which the
   authored follow-up may not;
4. when the answer was strong: the authored follow-up;
5. otherwise nothing: the next question.

A generated push is no question of the bank, so it has no schedule; its answer is marked
and kept with the interview. Probes and follow-ups are bank questions, recorded and
scheduled like any other.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import chain, zip_longest
from typing import Literal

from viva.bank import Bank, MarkingPoint, Question
from viva.marking.result import Marking

PushKind = Literal["misconception", "missed-point", "generated", "follow-up"]
StepKind = Literal["question", "misconception", "missed-point", "generated", "follow-up"]

SOFT_LIMIT_S = 120
"""The clock each question shows: a soft limit, about what an interviewer allows."""
MINUTES = 20
MINUTES_PER_QUESTION = 4
"""A question and its push take about two soft limits: 20 minutes holds five questions."""


@dataclass(frozen=True, slots=True)
class Push:
    """The follow-up an interviewer asks after an answer, and why."""

    question: Question
    kind: PushKind
    about: str | None = None
    """The point or misconception id it presses on (None for the authored follow-up)."""


@dataclass(frozen=True, slots=True)
class Answered:
    """One answer given in the interview: to which question, marked how."""

    question_id: str
    marking: Marking


@dataclass(frozen=True, slots=True)
class Step:
    """What the interviewer asks now."""

    question: Question
    kind: StepKind
    number: int
    """1-based position of the planned question this step belongs to."""
    of: int
    follows: Question | None = None


def questions_for(minutes: int) -> int:
    return max(1, minutes // MINUTES_PER_QUESTION)


def plan(
    bank: Bank,
    topic_ids: Sequence[str],
    due_ids: Sequence[str],
    known_ids: Collection[str],
    count: int,
    *,
    due_only: bool = False,
    later_ids: Sequence[str] = (),
) -> list[str]:
    """Up to ``count`` top-level question ids: due ones first, then new ones, mixed across topics;
    then, so a well-reviewed candidate still gets an interview, ``later_ids`` (answered, not yet
    due, soonest first).

    ``due_ids`` are soonest first; ``known_ids`` were answered before (so are not new). No topic
    ids means every topic.
    """
    topics = list(topic_ids) or [t.id for t in bank.topics]
    chosen = _deal(_by_topic(bank, topics, due_ids))
    if not due_only:
        new = (
            [
                q.full_id
                for q in bank.topic(t).all_questions()
                if q.parent_id is None and q.full_id not in known_ids
            ]
            for t in topics
        )
        chosen += [q for q in _deal(new) if q not in chosen]
        chosen += [q for q in _deal(_by_topic(bank, topics, later_ids)) if q not in chosen]
    return chosen[:count]


def _by_topic(bank: Bank, topics: Sequence[str], ids: Sequence[str]) -> list[list[str]]:
    """The top-level questions among ``ids``, in their order, one pile per topic."""
    piles: dict[str, list[str]] = {t: [] for t in topics}
    for qid in ids:
        question = bank.question(qid) if bank.has_question(qid) else None
        if question is not None and question.parent_id is None and question.topic_id in piles:
            piles[question.topic_id].append(qid)
    return [piles[t] for t in topics]


def _deal(piles: Iterable[list[str]]) -> list[str]:
    """Round-robin: the first of each pile, then the second of each, …"""
    return [q for q in chain.from_iterable(zip_longest(*piles)) if q is not None]


def choose_push(
    bank: Bank, question: Question, marking: Marking, exclude: Collection[str] = ()
) -> Push | None:
    """The one push further after ``question`` was answered with ``marking`` (see the module)."""
    stated = {m.misconception_id for m in marking.misconceptions}
    claims = [m for m in question.misconceptions if m.id in stated]
    by_id = {p.id: p for p in question.core_points}
    gaps = sorted(
        (p for p in marking.points if p.core and p.status != "covered" and p.point_id in by_id),
        key=lambda p: (-p.weight, p.status != "missed"),
    )
    points = [by_id[p.point_id] for p in gaps]
    for claim in claims:
        if claim.probe is not None and claim.probe.full_id not in exclude:
            return Push(claim.probe, "misconception", claim.id)
    for point in points:
        if point.probe is not None and point.probe.full_id not in exclude:
            return Push(point.probe, "missed-point", point.id)
    if claims:
        claim = claims[0]
        return Push(
            _generated(question, claim.id, _said_prompt(claim.text), claim.correction), "generated", claim.id
        )
    if points:
        point = points[0]
        return Push(_generated(question, point.id, _missed_prompt(point), point.text), "generated", point.id)
    for follow_up in bank.follow_ups(question):
        if follow_up.full_id not in exclude:
            return Push(follow_up, "follow-up")
    return None


def _missed_prompt(point: MarkingPoint) -> str:
    return f"You didn't mention this: “{_clause(point.text)}”. Can you explain why it matters here?"


def _said_prompt(claim: str) -> str:
    return f"You said something like “{_clause(claim)}”. Are you sure? Walk me through it."


def _clause(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def _generated(question: Question, about: str, prompt: str, answer: str) -> Question:
    """A one-point question made from the text the candidate missed or got wrong."""
    point = MarkingPoint(id=about, text=answer)
    return Question(
        topic_id=question.topic_id,
        section_id=question.section_id,
        id=generated_id(question.id, about),
        prompt=prompt,
        answer=answer,
        points=(point,),
        parent_id=question.full_id,
        probe_of=about,
    )


def generated_id(question_id: str, about: str) -> str:
    return f"{question_id}~{about}"


def next_step(
    bank: Bank,
    plan_ids: Sequence[str],
    answered: Sequence[Answered],
    generated: Mapping[str, Marking],
    *,
    started_at: datetime,
    minutes: int,
    now: datetime,
) -> Step | None:
    """What to ask now, or None when the interview is over.

    ``answered`` is this interview's bank answers in order; ``generated`` the markings of
    generated pushes, by their question's full id. Once ``minutes`` have passed no new
    planned question is asked (a push already owed is still asked).
    """
    first_answer: dict[str, int] = {}
    for index, item in enumerate(answered):
        first_answer.setdefault(item.question_id, index)
    total = len(plan_ids)
    for number, qid in enumerate(plan_ids, start=1):
        if not bank.has_question(qid):
            continue
        question = bank.question(qid)
        at = first_answer.get(qid)
        if at is None:
            if now - started_at >= timedelta(minutes=minutes) and number > 1:
                return None
            return Step(question, "question", number, total)
        before = {a.question_id for a in answered[:at]} | set(plan_ids)
        push = choose_push(bank, question, answered[at].marking, exclude=before)
        if push is None:
            continue
        pushed = push.question.full_id
        done = (
            pushed in generated
            if push.kind == "generated"
            else pushed in {a.question_id for a in answered[at:]}
        )
        if not done:
            return Step(push.question, push.kind, number, total, follows=question)
    return None


def pushes(bank: Bank, plan_ids: Sequence[str], answered: Sequence[Answered]) -> dict[str, Push]:
    """The push chosen after each planned question answered, by the planned question's id."""
    found: dict[str, Push] = {}
    for index, item in enumerate(answered):
        if (
            item.question_id in plan_ids
            and item.question_id not in found
            and bank.has_question(item.question_id)
        ):
            before = {a.question_id for a in answered[:index]} | set(plan_ids)
            push = choose_push(bank, bank.question(item.question_id), item.marking, exclude=before)
            if push is not None:
                found[item.question_id] = push
    return found
