"""Size limits and the form field shared by every route that takes a recording.

Uploads may be far larger than typed answers, so those routes carry their own body limits
(checked from Content-Length and while streaming, before the body is read), taken from the
settings; the spoken-answer pages and the mock interview use the same ones.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import File, UploadFile

from viva.settings import Settings

FORM_OVERHEAD = 64 * 1024
"""Room for the form's other fields and the multipart framing around the recording."""
TOKEN_ROOM = 1024 * 1024
"""Room for the signed transcript (compressed word timings of a few minutes of speech)."""

Upload = Annotated[
    UploadFile | None, File(description="the recording: WebM/Opus, Ogg, MP4/AAC, WAV, MP3, FLAC")
]


def upload_limit(settings: Settings) -> int:
    """The largest request body that carries a recording and an answer of the longest length."""
    return settings.max_audio_bytes + settings.max_answer_chars * 4 + FORM_OVERHEAD
