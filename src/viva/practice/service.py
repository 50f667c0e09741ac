"""The front door to practice: one object the CLI, the web app and speech all call.

``Practice(session, bank, marker)`` marks and records answers (:meth:`Practice.answer`, the
one use case every adapter calls), records attempts, applies overrides, picks the next question
and reports progress. It never commits: the caller owns the transaction (the CLI commits
each attempt before printing its marking, so a killed session loses nothing it showed).
Every method that depends on time takes ``now`` (timezone-aware); nothing reads the clock.

A user may only touch their own attempts: anything else is :class:`~viva.errors.NotFound`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from viva.bank import Bank, Question
from viva.domain import OVERRIDES, Override, as_override
from viva.errors import Conflict, InvalidInput
from viva.marking.backends import Marker
from viva.marking.result import Marking
from viva.practice import history, queue, schedule
from viva.practice import mastery as measures
from viva.practice.accounts import Account
from viva.practice.lessons import LessonPointer, lesson_for
from viva.practice.mastery import DayCount, Mastery, WeakPoint
from viva.practice.records import AttemptRecord, RecordingInfo, ReviewSchedule
from viva.practice.scope import Scope
from viva.speech.delivery import measure_delivery
from viva.speech.transcript import Transcript
from viva.store import attempts as attempt_repo
from viva.store import interviews as interview_repo
from viva.store import recordings as recording_repo
from viva.store import reviews as review_repo
from viva.store import spent
from viva.store.models import Attempt, ReviewState
from viva.store.users import delete_history

ONCE_KEPT = timedelta(days=1)
"""How long a used ``once`` key is remembered: longer than any check token lives."""


@dataclass(frozen=True, slots=True)
class ScorePoint:
    attempt_id: int
    question_id: str
    answered_at: datetime
    score: float
    verdict: str
    override: str | None


@dataclass(frozen=True, slots=True)
class Progress:
    """What the progress views show: mastery per topic and section, reviews due per day,
    the weakest marking points and every attempt's score, oldest first."""

    mastery: list[Mastery]
    forecast: list[DayCount]
    weakest_points: list[WeakPoint]
    score_history: list[ScorePoint]


@dataclass(frozen=True, slots=True)
class AttemptSummary:
    """One recorded answer as the adapters show it (the API's JSON), with when its question
    comes back: built from the store's row, which stays inside practice."""

    id: int
    question_id: str
    answered_at: datetime
    answer: str
    score: float
    verdict: str
    override: str | None
    marking: Marking
    next_due: datetime | None = None


@dataclass(frozen=True, slots=True)
class KeptAudio:
    """A recording the candidate chose to keep beside their spoken answer."""

    mime: str
    data: bytes


class Practice:
    """Practice for any user, over one session, one bank and one marker.

    The marker is built once where the program starts (``viva.marking.build_marker``) and
    injected; a ``Practice`` built without one can do everything except :meth:`answer`.
    """

    def __init__(self, session: Session, bank: Bank, marker: Marker | None = None) -> None:
        self.session = session
        self.bank = bank
        self._marker = marker

    @property
    def marker(self) -> Marker:
        if self._marker is None:
            raise RuntimeError("answering needs a marker: Practice(session, bank, marker)")
        return self._marker

    # -- answering -------------------------------------------------------------------

    def answer(
        self,
        user: Account,
        question_id: str,
        text: str,
        now: datetime,
        *,
        heard: Transcript | None = None,
        audio: KeptAudio | None = None,
        session_id: str | None = None,
        duration_ms: int | None = None,
        once: str | None = None,
    ) -> AttemptRecord:
        """Mark ``text`` with the injected marker and record it (flushed, not committed).

        ``once`` is a key this answer may be recorded under only once (a spoken answer's
        check token): a second answer with the same key, from any worker, is a Conflict
        and records nothing.

        For a spoken answer pass the transcript as ``heard``: the attempt keeps it, its
        duration (unless ``duration_ms`` is given) and its delivery measures. Pace, fillers
        and pauses come from the words as heard; the time to the first point needs the
        marking's evidence as offsets into the transcript, so when the candidate edited
        the text, it is measured on a second marking of the words as heard (a misheard
        key term then counts as not yet said: the recording is what it is). ``audio`` is
        kept with the attempt, in the same transaction. NotFound for an unknown question.
        """
        _aware(now)
        question = self.bank.question(question_id)
        if once is not None and not spent.spend(self.session, once, now, ONCE_KEPT):
            raise Conflict(
                "this recording has already been marked", hint="see it under Progress, or record it again"
            )
        marking = self.marker.mark(question, text)
        transcript = delivery = None
        if heard is not None:
            said = marking if text == heard.text else self.marker.mark(question, heard.text)
            transcript = heard.model_dump(mode="json")
            delivery = measure_delivery(heard, said).model_dump(mode="json")
            if duration_ms is None:
                duration_ms = round(heard.duration_s * 1000)
        attempt = self.record_attempt(
            user,
            question.full_id,
            text,
            marking,
            now,
            duration_ms=duration_ms,
            transcript=transcript,
            delivery=delivery,
            session_id=session_id,
        )
        if audio is not None:
            self._keep_recording(user, attempt, audio, now)
        return attempt

    def follow_up_for(self, attempt: AttemptRecord) -> Question | None:
        """The follow-up an interviewer would push with after ``attempt`` (see
        :mod:`viva.practice.follow_ups`); the same rule the queue applies."""
        return queue.follow_up_of(self.session, self.bank, attempt)

    def record_attempt(
        self,
        user: Account,
        question_id: str,
        answer: str,
        marking: Marking,
        now: datetime,
        *,
        duration_ms: int | None = None,
        transcript: dict[str, Any] | None = None,
        delivery: dict[str, Any] | None = None,
        session_id: str | None = None,
    ) -> AttemptRecord:
        """Store an answer already marked and reschedule the question (flushed, not committed).

        Adapters call :meth:`answer`; this lower step is for markings made elsewhere
        (imports, tests).

        ``transcript`` and ``delivery`` are the speech part's JSON (word timings; pace,
        fillers, pauses). Each marking point's memory (last covered / missed) is updated too.
        Raises NotFound for an unknown question id.
        """
        _aware(now)
        question = self.bank.question(question_id)
        if marking.question_id not in (None, question.full_id):
            raise InvalidInput(f"the marking is for {marking.question_id}, not {question.full_id}")
        review_repo.lock_review_state(self.session, user.id, question.full_id)
        attempt = attempt_repo.add_attempt(
            self.session,
            Attempt(
                user_id=user.id,
                question_id=question.full_id,
                answered_at=now,
                answer_text=answer,
                transcript=transcript,
                marking_json=marking.model_dump(mode="json"),
                backend=marking.backend,
                score=marking.score,
                verdict=marking.verdict,
                duration_ms=duration_ms,
                delivery=delivery,
                session_id=session_id,
            ),
        )
        interview_repo.remember_points(self.session, user.id, question.full_id, marking, now)
        state = review_repo.review_state(self.session, user.id, question.full_id)
        card = state.card if state is not None else schedule.new_card(now)
        self._save_card(user, question.full_id, schedule.review(card, schedule.rating_for(marking), now))
        return AttemptRecord.of(attempt)

    # -- recordings (kept only when the candidate opts in) ---------------------------

    def _keep_recording(self, user: Account, attempt: AttemptRecord, audio: KeptAudio, now: datetime) -> None:
        """Store the audio of one of the user's attempts (flushed, in the caller's transaction)."""
        row = attempt_repo.attempt_for_user(self.session, user.id, attempt.id)
        recording_repo.add_recording(self.session, row, audio.mime, audio.data, now)

    def recordings(self, user: Account, attempt_id: int) -> list[RecordingInfo]:
        """The user's recordings of one attempt, without their bytes."""
        rows = recording_repo.recordings_of_attempt(self.session, user.id, attempt_id)
        return [RecordingInfo(r.id, r.attempt_id, r.mime, r.size, r.created_at) for r in rows]

    def recording(self, user: Account, recording_id: int) -> KeptAudio:
        """One of the user's recordings, with its bytes; NotFound if it is not theirs."""
        recording = recording_repo.recording_for_user(self.session, user.id, recording_id)
        return KeptAudio(recording.mime, recording.data)

    def delete_recording(self, user: Account, recording_id: int) -> int:
        """Delete one of the user's recordings; returns its attempt's id. The attempt stays."""
        recording = recording_repo.recording_for_user(self.session, user.id, recording_id)
        attempt_id = recording.attempt_id
        self.session.delete(recording)
        self.session.flush()
        return attempt_id

    def override(
        self, user: Account, attempt_id: int, verdict: Override | None, now: datetime
    ) -> AttemptRecord:
        """The candidate overrules the marker ("right" / "missed"; None withdraws it).

        The question's schedule is rebuilt by replaying its attempts with their effective
        ratings, so the override wins even for an older attempt.
        """
        _aware(now)
        if verdict is not None and verdict not in OVERRIDES:
            raise InvalidInput(f"override must be one of {', '.join(OVERRIDES)}, got {verdict!r}")
        attempt = attempt_repo.attempt_for_user(self.session, user.id, attempt_id)
        attempt.override = verdict
        attempt.overridden_at = now if verdict is not None else None
        self.session.flush()
        self.reschedule(user, attempt.question_id)
        return AttemptRecord.of(attempt)

    def reschedule(self, user: Account, question_id: str) -> ReviewSchedule | None:
        """Rebuild a question's review state from its attempts (pure replay, oldest first)."""
        review_repo.lock_review_state(self.session, user.id, question_id)
        attempts = attempt_repo.attempts_for_user(self.session, user.id, question_id=question_id)
        if not attempts:
            return None
        card = schedule.new_card(attempts[0].answered_at)
        for attempt in attempts:
            rating = schedule.rating_for(attempt.marking, as_override(attempt.override))
            card = schedule.review(card, rating, attempt.answered_at)
        return ReviewSchedule.of(self._save_card(user, question_id, card))

    def _save_card(self, user: Account, question_id: str, card: dict[str, Any]) -> ReviewState:
        return review_repo.save_review_state(
            self.session, user.id, question_id, card, schedule.due_at(card), schedule.last_review_at(card)
        )

    # -- what next -------------------------------------------------------------------

    def next_question(
        self,
        user: Account,
        scope: Scope,
        now: datetime,
        new_limit: int,
        *,
        session_id: str | None = None,
        exclude: Collection[str] = (),
    ) -> queue.NextQuestion | None:
        """Follow-up of the question just answered, else the most overdue review, else a new
        question in learning order (at most ``new_limit`` new ones per ``session_id``).
        See :mod:`viva.practice.queue` for why in that order."""
        _aware(now)
        return queue.next_question(
            self.session, self.bank, user, scope, now, new_limit, session_id=session_id, exclude=exclude
        )

    def due(
        self, user: Account, now: datetime, horizon: timedelta = timedelta(0), scope: Scope | None = None
    ) -> list[queue.DueItem]:
        """Questions due by ``now + horizon``, soonest first."""
        _aware(now)
        return queue.due_items(self.session, self.bank, user, now + horizon, scope or Scope())

    def review_state(self, user: Account, question_id: str) -> ReviewSchedule | None:
        """The question's schedule for ``user`` (``.due`` is the next review), if answered."""
        state = review_repo.review_state(self.session, user.id, question_id)
        return ReviewSchedule.of(state) if state is not None else None

    def next_review(self, user: Account, question_id: str) -> datetime | None:
        """When the question comes back for ``user``; None if they never answered it."""
        state = self.review_state(user, question_id)
        return state.due if state is not None else None

    def attempt(self, user: Account, attempt_id: int) -> AttemptRecord:
        """One of the user's attempts; NotFound if it is not theirs."""
        return AttemptRecord.of(attempt_repo.attempt_for_user(self.session, user.id, attempt_id))

    def attempts(self, user: Account, question_id: str | None = None) -> list[AttemptRecord]:
        """The user's attempts, oldest first, optionally of one question."""
        return [AttemptRecord.of(a) for a in self._attempt_rows(user, question_id)]

    def _attempt_rows(self, user: Account, question_id: str | None = None) -> list[Attempt]:
        return list(attempt_repo.attempts_for_user(self.session, user.id, question_id=question_id))

    def summary(self, user: Account, attempt: AttemptRecord) -> AttemptSummary:
        """``attempt`` (one of the user's) as adapters show it, with its question's next review."""
        return AttemptSummary(
            id=attempt.id,
            question_id=attempt.question_id,
            answered_at=attempt.answered_at,
            answer=attempt.answer_text,
            score=attempt.score,
            verdict=attempt.verdict,
            override=attempt.override,
            marking=attempt.marking,
            next_due=self.next_review(user, attempt.question_id),
        )

    def summaries(self, user: Account, question_id: str | None = None) -> list[AttemptSummary]:
        """The user's attempts as :meth:`summary` shows them, oldest first."""
        return [self.summary(user, a) for a in self.attempts(user, question_id)]

    def lesson_for(self, question: Question, marking: Marking) -> LessonPointer:
        """Where the points missed in ``marking`` are taught."""
        return lesson_for(self.bank, question, marking)

    # -- progress --------------------------------------------------------------------

    def progress(self, user: Account, now: datetime, days: int = 30, weakest: int = 10) -> Progress:
        """Mastery, the forecast for ``days`` days, the ``weakest`` points and the scores."""
        return Progress(
            mastery=self.mastery(user, now),
            forecast=self.forecast(user, now, days),
            weakest_points=self.weakest_points(user, weakest),
            score_history=self.score_history(user),
        )

    def mastery(self, user: Account, now: datetime) -> list[Mastery]:
        _aware(now)
        return measures.mastery(self.bank, self._attempt_rows(user), self._states(user), now)

    def weakest_points(self, user: Account, limit: int = 10) -> list[WeakPoint]:
        return measures.weakest_points(self.bank, self._attempt_rows(user), limit)

    def forecast(self, user: Account, now: datetime, days: int = 30) -> list[DayCount]:
        """Reviews due per calendar day from today (overdue ones count today)."""
        _aware(now)
        return measures.forecast(self._states(user), now, days)

    def score_history(self, user: Account) -> list[ScorePoint]:
        return [
            ScorePoint(a.id, a.question_id, a.answered_at, a.score, a.verdict, a.override)
            for a in self.attempts(user)
        ]

    def _states(self, user: Account) -> list[ReviewState]:
        return list(review_repo.review_states(self.session, user.id))

    # -- history ---------------------------------------------------------------------

    def export_history(self, user: Account) -> dict[str, Any]:
        """A JSON-ready document of the user's attempts and review states."""
        return history.export_document(self.session, [user])

    def reset_history(self, user: Account) -> int:
        """Forget every attempt, recording and schedule of ``user`` (the account stays); the
        caller commits. Returns how many attempts were removed."""
        return delete_history(self.session, user.id)

    def import_history(self, data: Any, as_user: str | None = None) -> history.ImportReport:
        """Add an exported document's history (idempotent); the caller commits."""
        return history.import_document(self.session, data, as_user, known=self.bank.has_question)


def _aware(now: datetime) -> None:
    if now.tzinfo is None or now.utcoffset() is None:
        raise InvalidInput("now must be timezone-aware, e.g. datetime.now(UTC)")
