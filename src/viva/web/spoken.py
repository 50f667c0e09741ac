"""A spoken answer between "check your transcript" and "mark my answer", kept by the browser.

Transcribing and marking are two requests, and any worker may serve either, so what was
heard travels in the check form as a signed token (itsdangerous, the app's secret key):
the transcript with its word timings, the question and the user it was made for, and —
only when the candidate chose to keep the recording — the SHA-256 and type of the audio,
which the form carries back beside the token — and a random nonce, which makes the token
single-use: marking records it (:meth:`viva.practice.Practice.answer`'s ``once``), so the
same recording cannot be posted again to store another attempt. Delivery is computed (by
:meth:`viva.practice.Practice.answer`) from the signed transcript, never from timings the
client sends, and audio is stored only if it is byte for byte the recording that was
transcribed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import secrets
from dataclasses import dataclass

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from pydantic import ValidationError

from viva.bank import Question
from viva.errors import InvalidInput
from viva.practice import KeptAudio
from viva.speech import Transcript

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
    nonce: str = ""
    """What makes the token single-use; one per transcription (see :func:`heard_from`)."""


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
                "n": heard.nonce,
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
        nonce = data.get("n")
        if not isinstance(nonce, str) or not nonce:
            raise InvalidInput("this transcript could not be read", hint="record the answer again")
        return Heard(question_id, transcript, data.get("a"), data.get("m"), nonce)


def heard_from(
    question: Question,
    transcript: Transcript,
    audio: bytes,
    mime: str,
    keep: bool,
    *,
    nonce: str | None = None,
) -> Heard:
    """What the check form carries for one transcription. ``nonce`` names the transcription
    when it has a stable name (a queued job, whose page may be shown many times); else a
    fresh random one is drawn."""
    once = nonce or secrets.token_urlsafe(16)
    if not keep:
        return Heard(question.full_id, transcript, nonce=once)
    return Heard(question.full_id, transcript, hashlib.sha256(audio).hexdigest(), mime, once)


def encode_audio(audio: bytes) -> str:
    return base64.b64encode(audio).decode("ascii")


def kept_audio(heard: Heard, encoded: str) -> KeptAudio | None:
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
    return KeptAudio(heard.mime or "application/octet-stream", audio)
