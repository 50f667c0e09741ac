"""A spoken answer between "check your transcript" and "mark my answer", kept by the browser.

Transcribing and marking are two requests, and any worker may serve either, so what was
heard travels in the check form as a signed token (itsdangerous, the app's secret key):
the transcript with its word timings, the question and the user it was made for, and —
only when the candidate chose to keep the recording — the SHA-256 and type of the audio,
which the form carries back beside the token. The server computes delivery from the
signed transcript, never from timings the client sends, and stores audio only if it is
byte for byte the recording that was transcribed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass
from datetime import datetime

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from pydantic import ValidationError

from viva.bank import Question
from viva.errors import InvalidInput
from viva.marking import mark
from viva.marking.result import Marking
from viva.practice import Practice
from viva.speech import Delivery, Transcript, measure_delivery
from viva.store.models import Attempt, User

SALT = "viva.spoken-answer"
MAX_AGE_S = 12 * 3600
"""How long a transcript may wait to be marked (a candidate may leave the tab open)."""


@dataclass(frozen=True)
class Heard:
    """What one upload produced, as the check form carries it."""

    question_id: str
    transcript: Transcript
    audio_sha256: str | None = None
    mime: str | None = None


class HeardTokens:
    """Sign a :class:`Heard` for one user, and open it again only for that user and question."""

    def __init__(self, secret: str) -> None:
        self._serializer = URLSafeTimedSerializer(secret, salt=SALT)

    def sign(self, user_id: int, heard: Heard) -> str:
        return self._serializer.dumps(
            {
                "u": user_id,
                "q": heard.question_id,
                "t": heard.transcript.model_dump(mode="json"),
                "a": heard.audio_sha256,
                "m": heard.mime,
            }
        )

    def open(self, token: str, user_id: int, question_id: str) -> Heard:
        try:
            data = self._serializer.loads(token, max_age=MAX_AGE_S)
        except SignatureExpired:
            raise InvalidInput("this transcript is too old to mark", hint="record the answer again") from None
        except BadSignature:
            raise InvalidInput(
                "this transcript did not come from Viva", hint="record the answer again"
            ) from None
        if not isinstance(data, dict) or data.get("u") != user_id or data.get("q") != question_id:
            raise InvalidInput("this transcript is for another question", hint="record the answer again")
        try:
            transcript = Transcript.model_validate(data["t"])
        except (KeyError, ValidationError):
            raise InvalidInput("this transcript could not be read", hint="record the answer again") from None
        return Heard(question_id, transcript, data.get("a"), data.get("m"))


def heard_from(question: Question, transcript: Transcript, audio: bytes, mime: str, keep: bool) -> Heard:
    if not keep:
        return Heard(question.full_id, transcript)
    return Heard(question.full_id, transcript, hashlib.sha256(audio).hexdigest(), mime)


def encode_audio(audio: bytes) -> str:
    return base64.b64encode(audio).decode("ascii")


def kept_audio(heard: Heard, encoded: str) -> bytes | None:
    """The recording to keep, if the candidate chose to: it must be the one transcribed."""
    if heard.audio_sha256 is None:
        return None
    try:
        audio = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        audio = b""
    if hashlib.sha256(audio).hexdigest() != heard.audio_sha256:
        raise InvalidInput(
            "the recording to keep is not the one that was transcribed",
            hint="record the answer again, or untick “keep my recording”",
        )
    return audio


def delivery_for(
    question: Question, text: str, transcript: Transcript, marking: Marking, backend: str
) -> Delivery:
    """Delivery measures of what was *said*.

    Pace, fillers and pauses come from the transcript as heard. The time until the first
    point was covered needs the marking's evidence as offsets into the transcript, so
    when the candidate edited the text it is measured on a marking of the words as heard
    (a misheard key term then counts as not yet said: the recording is what it is).
    """
    if text != transcript.text:
        marking = mark(question, transcript.text, backend=backend)
    return measure_delivery(transcript, marking)


def record_spoken_attempt(
    practice: Practice,
    user: User,
    question: Question,
    text: str,
    heard: Heard,
    kept: bytes | None,
    *,
    backend: str,
    now: datetime,
    session_id: str | None,
) -> Attempt:
    """Mark the (possibly edited) text and record it with the transcript, the delivery and,
    if kept, the recording — all in the caller's one transaction."""
    marking = mark(question, text, backend=backend)
    delivery = delivery_for(question, text, heard.transcript, marking, backend)
    attempt = practice.record_attempt(
        user,
        question.full_id,
        text,
        marking,
        now,
        duration_ms=round(heard.transcript.duration_s * 1000),
        transcript=heard.transcript.model_dump(mode="json"),
        delivery=delivery.model_dump(mode="json"),
        session_id=session_id,
    )
    if kept is not None:
        practice.keep_recording(user, attempt, heard.mime or "application/octet-stream", kept, now)
    return attempt
