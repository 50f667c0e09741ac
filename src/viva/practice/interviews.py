"""The front door to mock interviews, for the web and the CLI alike.

``Interviews(session, bank, marker)`` plans an interview, says what to ask now, records each
answer through :meth:`Practice.answer` (so it is marked, kept and scheduled as usual), and
assembles the debrief. Like :class:`Practice` it never commits and never reads the clock.
Leaving midway keeps every answer given: each is its own attempt.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from viva.bank import Bank
from viva.errors import InvalidInput
from viva.marking.backends import Marker
from viva.marking.result import Marking
from viva.practice import debrief as debriefs
from viva.practice import interview as rules
from viva.practice.accounts import Account
from viva.practice.scope import Scope
from viva.practice.service import KeptAudio, Practice
from viva.speech.transcript import Transcript
from viva.store import attempts as attempt_repo
from viva.store import interviews as interview_repo
from viva.store.models import Attempt, Interview

LATER = timedelta(days=3650)
"""How far ahead not-yet-due questions are looked for when due and new ones run out."""


@dataclass(frozen=True, slots=True)
class ReadinessPoint:
    """One topic's readiness at the end of one interview, for the Progress plot."""

    at: datetime
    topic_id: str
    title: str
    figure: float


@dataclass(frozen=True, slots=True)
class MockInterview:
    """An interview (or drill) as the adapters see it: what was planned and when it ran.

    A snapshot taken when it was read: :class:`Interviews` reads the interview again for every
    step, so its methods always see what an earlier step wrote.
    """

    id: int
    key: str
    kind: str
    topics: list[str]
    plan: list[str]
    minutes: int
    soft_limit_s: int
    started_at: datetime
    finished_at: datetime | None
    session_id: str
    """The ``session_id`` of the interview's attempts."""

    @classmethod
    def of(cls, row: Interview) -> MockInterview:
        return cls(
            row.id,
            row.key,
            row.kind,
            list(row.topics),
            list(row.plan),
            row.minutes,
            row.soft_limit_s,
            row.started_at,
            row.finished_at,
            row.session_id,
        )


class Interviews:
    def __init__(self, session: Session, bank: Bank, marker: Marker | None = None) -> None:
        self.session = session
        self.bank = bank
        self.practice = Practice(session, bank, marker)

    # -- starting ---------------------------------------------------------------------

    def start(
        self,
        user: Account,
        topic_ids: Sequence[str],
        now: datetime,
        *,
        minutes: int = rules.MINUTES,
        questions: int | None = None,
        soft_limit_s: int = rules.SOFT_LIMIT_S,
        due_only: bool = False,
    ) -> MockInterview:
        """Plan an interview over ``topic_ids`` (none: every topic). InvalidInput if nothing to ask."""
        for topic_id in topic_ids:
            self.bank.topic(topic_id)
        if minutes < 1 or soft_limit_s < 10 or (questions is not None and questions < 1):
            raise InvalidInput("an interview needs at least 1 minute, 1 question and a 10 s clock")
        scheduled = self.practice.due(user, now, horizon=LATER)
        due = [i.question.full_id for i in scheduled if i.due <= now]
        later = [i.question.full_id for i in scheduled if i.due > now]
        known = attempt_repo.answered_question_ids(self.session, user.id)
        count = questions if questions is not None else rules.questions_for(minutes)
        plan = rules.plan(self.bank, topic_ids, due, known, count, due_only=due_only, later_ids=later)
        return self._add(user, "interview", list(topic_ids), plan, minutes, soft_limit_s, now)

    def drill_weak_points(self, user: Account, now: datetime, *, limit: int = 5) -> MockInterview:
        """A session of the questions whose core points were missed most recently."""
        plan = self.weak_question_ids(user, limit)
        return self._add(user, "drill", [], plan, rules.MINUTES, rules.SOFT_LIMIT_S, now)

    def drill(self, user: Account, question_ids: Sequence[str], now: datetime) -> MockInterview:
        """A session of exactly these questions (the debrief's "practise next")."""
        plan = [q for q in dict.fromkeys(question_ids) if self.bank.has_question(q)]
        return self._add(user, "drill", [], plan, rules.MINUTES, rules.SOFT_LIMIT_S, now)

    def _add(
        self,
        user: Account,
        kind: str,
        topics: list[str],
        plan: list[str],
        minutes: int,
        soft: int,
        now: datetime,
    ) -> MockInterview:
        if not plan:
            raise InvalidInput(
                "there is nothing to ask: no question is due or new there",
                hint="choose other topics, or answer some questions first",
            )
        interview = Interview(
            user_id=user.id,
            key=secrets.token_hex(16),
            kind=kind,
            topics=topics,
            plan=plan,
            minutes=minutes,
            soft_limit_s=soft,
            started_at=now,
            finished_at=None,
            extra={"generated": {}},
        )
        return MockInterview.of(interview_repo.add_interview(self.session, interview))

    # -- during -----------------------------------------------------------------------

    def get(self, user: Account, key: str) -> MockInterview:
        return MockInterview.of(interview_repo.interview_for_user(self.session, user.id, key))

    def past(self, user: Account) -> list[MockInterview]:
        return [MockInterview.of(i) for i in interview_repo.interviews_for_user(self.session, user.id)]

    def step(self, interview: MockInterview, now: datetime) -> rules.Step | None:
        """What to ask now; None once the interview is finished or has nothing left."""
        return self._step(self._row(interview), now)

    def _step(self, interview: Interview, now: datetime) -> rules.Step | None:
        if interview.finished_at is not None:
            return None
        return rules.next_step(
            self.bank,
            interview.plan,
            self._answered(interview),
            self._generated(interview),
            started_at=interview.started_at,
            minutes=interview.minutes,
            now=now,
        )

    def answer(
        self,
        user: Account,
        interview: MockInterview,
        question_id: str,
        text: str,
        now: datetime,
        *,
        heard: Transcript | None = None,
        audio: KeptAudio | None = None,
        duration_ms: int | None = None,
    ) -> rules.Step | None:
        """Record the answer to the current step's question; returns the step after it.

        InvalidInput when ``question_id`` is not what is being asked now (a stale page).
        """
        row = self._row(interview)
        step = self._step(row, now)
        if step is None or step.question.full_id != question_id:
            raise InvalidInput("that question is not the one being asked now", hint="reload the interview")
        if step.kind == "generated":
            marking = self.practice.marker.mark(step.question, text)
            generated = dict(row.extra.get("generated", {}))
            generated[question_id] = {
                "prompt": step.question.prompt,
                "answer": text,
                "marking": marking.model_dump(mode="json"),
                "answered_at": now.isoformat(),
            }
            row.extra = {**row.extra, "generated": generated}
            self.session.flush()
        else:
            self.practice.answer(
                user,
                question_id,
                text,
                now,
                heard=heard,
                audio=audio,
                duration_ms=duration_ms,
                session_id=row.session_id,
            )
        following = self._step(row, now)
        if following is None:
            self._finish(row, now)
        return following

    def finish(self, interview: MockInterview, now: datetime) -> None:
        """End the interview now (what was answered stays)."""
        self._finish(self._row(interview), now)

    def _finish(self, interview: Interview, now: datetime) -> None:
        if interview.finished_at is None:
            interview.finished_at = now
            self.session.flush()

    # -- after ------------------------------------------------------------------------

    def debrief(self, user: Account, found: MockInterview) -> debriefs.Debrief:
        interview = self._row(found)
        attempts = self._attempts(interview)
        answered = [rules.Answered(a.question_id, a.marking) for a in attempts]
        chosen = rules.pushes(self.bank, interview.plan, answered)
        kinds: dict[str, rules.StepKind] = {p.question.full_id: p.kind for p in chosen.values()}
        generated = interview.extra.get("generated", {})
        given: list[debriefs.Given] = []
        for attempt in attempts:
            if not self.bank.has_question(attempt.question_id):
                continue
            question = self.bank.question(attempt.question_id)
            kind = (
                "question"
                if attempt.question_id in interview.plan
                else kinds.get(attempt.question_id, "follow-up")
            )
            given.append(
                debriefs.Given(
                    question, kind, attempt.marking, attempt.answer_text, attempt.delivery, attempt.id
                )
            )
            push = chosen.get(attempt.question_id)
            if push is not None and push.kind == "generated" and push.question.full_id in generated:
                kept = generated[push.question.full_id]
                marking = Marking.model_validate(kept["marking"])
                given.append(debriefs.Given(push.question, "generated", marking, kept["answer"]))
        return debriefs.debrief(self.bank, interview.key, interview.started_at, interview.finished_at, given)

    def readiness_history(self, user: Account) -> list[ReadinessPoint]:
        """Each topic's readiness at each past interview, oldest first."""
        found = []
        for interview in reversed(self.past(user)):
            if interview.kind != "interview":
                continue
            summary = self.debrief(user, interview)
            at = interview.finished_at or interview.started_at
            found += [ReadinessPoint(at, r.topic_id, r.title, r.figure) for r in summary.readiness]
        return found

    def points_missed_most(self, user: Account, limit: int = 10) -> list[debriefs.PointTally]:
        """Core points missed most often, across every question answered (from point memory)."""
        rows = [
            r
            for r in interview_repo.point_memory(self.session, user.id)
            if r.core and r.times_missed and self.bank.has_question(r.question_id)
        ]
        rows.sort(key=lambda r: (-r.times_missed, r.times_covered, r.question_id, r.point_id))
        return [
            debriefs.PointTally(
                r.question_id, r.point_id, r.text, r.times_covered, r.times_covered + r.times_missed
            )
            for r in rows[:limit]
        ]

    def weak_question_ids(self, user: Account, limit: int = 5) -> list[str]:
        """Questions whose core points were missed most recently and not made since."""
        rows = [
            r
            for r in interview_repo.point_memory(self.session, user.id)
            if r.core
            and r.last_missed_at is not None
            and (r.last_covered_at is None or r.last_missed_at > r.last_covered_at)
            and self.bank.has_question(r.question_id)
        ]
        rows.sort(key=lambda r: (r.last_missed_at, r.question_id), reverse=True)
        return list(dict.fromkeys(r.question_id for r in rows))[:limit]

    # -- helpers ------------------------------------------------------------------------

    def _row(self, interview: MockInterview) -> Interview:
        return interview_repo.interview_by_id(self.session, interview.id)

    def _attempts(self, interview: Interview) -> list[Attempt]:
        return list(
            attempt_repo.attempts_for_user(self.session, interview.user_id, session_id=interview.session_id)
        )

    def _answered(self, interview: Interview) -> list[rules.Answered]:
        return [rules.Answered(a.question_id, a.marking) for a in self._attempts(interview)]

    def _generated(self, interview: Interview) -> dict[str, Marking]:
        kept: dict[str, Any] = interview.extra.get("generated", {})
        return {qid: Marking.model_validate(v["marking"]) for qid, v in kept.items()}


def scope_topics(bank: Bank, names: Sequence[str]) -> list[str]:
    """Topic ids from what the candidate typed (``topic`` or ``topic/section`` keeps the topic)."""
    ids = (Scope.parse(bank, name).topic_id for name in names if name.strip())
    return [t for t in dict.fromkeys(ids) if t is not None]
