"""``Practice.answer``: the one use case every adapter calls, with the marker it was given."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from sqlalchemy.orm import Session

from tests.practice.conftest import NOW
from tests.practice.factories import marking_for
from viva.bank import Bank, Question
from viva.marking.result import Marking, Span
from viva.practice import KeptAudio, Practice, Scope
from viva.practice.accounts import Account
from viva.speech import Transcript, Word


@dataclass
class ScriptedMarker:
    """Marks every answer strong, except answers in ``covering`` (those cover only the points
    listed), with each covered point's evidence at the answer's second word; and remembers
    what it was asked to mark."""

    covering: dict[str, list[str]] = field(default_factory=dict)
    calls: list[tuple[str, str]] = field(default_factory=list)
    name: str = "scripted"
    version: str = "1"

    def mark(self, question: Question, answer: str) -> Marking:
        self.calls.append((question.full_id, answer))
        covered = self.covering.get(answer, [p.id for p in question.points])
        marking = marking_for(question, covered, answer=answer)
        second = answer.index(" ") + 1
        evidence = [Span(start=second, end=second + 3)]
        points = [
            p.model_copy(update={"evidence": evidence}) if p.status == "covered" else p
            for p in marking.points
        ]
        return marking.model_copy(update={"points": points})


def _heard(text: str) -> Transcript:
    words = tuple(Word(word=w, start=i * 0.5, end=i * 0.5 + 0.4) for i, w in enumerate(text.split()))
    return Transcript(text=text, words=words, duration_s=len(words) * 0.5 + 1, engine="test/none")


def test_a_typed_answer_is_marked_once_by_the_injected_marker(db: Session, bank: Bank, user: Account) -> None:
    marker = ScriptedMarker()
    practice = Practice(db, bank, marker)
    attempt = practice.answer(user, "study/cache", "an answer", NOW, session_id="s1", duration_ms=900)
    assert marker.calls == [("study/cache", "an answer")]
    assert attempt.marking.verdict == "strong" and attempt.backend == "test"
    assert (attempt.session_id, attempt.duration_ms, attempt.transcript, attempt.delivery) == (
        "s1",
        900,
        None,
        None,
    )
    state = practice.review_state(user, "study/cache")
    assert state is not None and state.due > NOW


def test_a_spoken_answer_keeps_transcript_delivery_and_duration(
    db: Session, bank: Bank, user: Account
) -> None:
    marker = ScriptedMarker()
    heard = _heard("um the cache stores keys and values")
    attempt = Practice(db, bank, marker).answer(user, "study/cache", heard.text, NOW, heard=heard)
    assert marker.calls == [("study/cache", heard.text)]  # unedited: one marking serves both
    assert attempt.transcript == heard.model_dump(mode="json")
    assert attempt.duration_ms == round(heard.duration_s * 1000)
    assert attempt.delivery is not None and attempt.delivery["words"] == 7
    assert attempt.delivery["first_point_s"] == 0.5  # evidence at the second word, said at 0.5 s
    assert [f["word"] for f in attempt.delivery["fillers"]] == ["um"]


def test_an_edited_transcript_is_marked_again_as_heard_for_delivery(
    db: Session, bank: Bank, user: Account
) -> None:
    heard = _heard("the cash stores keys and values")
    marker = ScriptedMarker(covering={heard.text: []})
    edited = "the cache stores keys and values"
    attempt = Practice(db, bank, marker).answer(user, "study/cache", edited, NOW, heard=heard)
    assert marker.calls == [("study/cache", edited), ("study/cache", heard.text)]
    assert attempt.answer_text == edited and attempt.marking.verdict == "strong"
    # the words as heard covered no point, so there is no time to the first point
    assert attempt.delivery is not None and attempt.delivery["first_point_s"] is None


def test_kept_audio_is_stored_with_the_attempt(db: Session, bank: Bank, user: Account) -> None:
    practice = Practice(db, bank, ScriptedMarker())
    heard = _heard("keys and values")
    attempt = practice.answer(
        user, "study/cache", heard.text, NOW, heard=heard, audio=KeptAudio("audio/webm", b"\x1a\x45")
    )
    kept = practice.recordings(user, attempt.id)
    assert [(r.mime, r.size) for r in kept] == [("audio/webm", 2)]


def test_answering_needs_a_marker(db: Session, bank: Bank, user: Account) -> None:
    with pytest.raises(RuntimeError, match="marker"):
        Practice(db, bank).answer(user, "study/cache", "an answer", NOW)


def test_follow_up_for_is_the_queue_choice(db: Session, bank: Bank, user: Account) -> None:
    marker = ScriptedMarker(covering={"a short answer": ["new-token-only"]})
    practice = Practice(db, bank, marker)
    attempt = practice.answer(user, "study/cache", "a short answer", NOW, session_id="s")
    chosen = practice.follow_up_for(attempt)
    nxt = practice.next_question(user, Scope(), NOW, 5, session_id="s")
    assert chosen is not None and chosen.full_id == "study/cache-bandwidth"
    assert nxt is not None and nxt.question == chosen
    right = practice.follow_up_for(practice.override(user, attempt.id, "right", NOW))
    assert right is not None and right.full_id == "study/cache-batching"
