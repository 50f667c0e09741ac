"""How an answer was delivered: pace, fillers, long pauses, time to the first point.

Pure functions of a :class:`Transcript` (and, for the time to the first point, a
:class:`Marking` of that transcript's text). Nothing here judges *what* was said.

Guidance bands are plain and deliberately loose — rules of thumb for spoken technical
answers, not norms: about 120–165 words a minute; more than ~6 fillers a minute, or any
silence over 3 s, is worth working on. Whisper tends to leave out "um" and "uh", so the
filler count is a lower bound.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

from viva.language import SPOKEN_FILLERS
from viva.marking.result import Marking
from viva.speech.transcript import Transcript

PACE_BAND = (120.0, 165.0)
MAX_FILLERS_PER_MINUTE = 6.0
LONG_PAUSE_S = 3.0

FILLERS = SPOKEN_FILLERS
"""What counts as a filler: the one list in :mod:`viva.language`."""
_FILLER = re.compile(
    r"\b(?:" + "|".join(re.escape(f) for f in sorted(FILLERS, key=len, reverse=True)) + r")\b"
)
# "like" and "actually" are only fillers some of the time; these uses are not: after a
# verb of seeming, "would", or in "such as" sense after a plural noun or a word that names
# examples ("operations like softmax", "something like a ring"). "was/is/has/this/does
# like" stay fillers.
_NOT_FILLER_BEFORE = re.compile(
    r"\b(?:looks?|seems?|feels?|sounds?|would|things?|just|more|much|something|anything|nothing|stuff"
    r"|(?!(?:this|does|says)\b)[a-z]{3,}s)\s+$"
)

Status = Literal["ok", "work-on"]


class Filler(BaseModel):
    model_config = ConfigDict(frozen=True)

    word: str
    start: float


class Pause(BaseModel):
    model_config = ConfigDict(frozen=True)

    start: float
    end: float
    duration_s: float


class Guidance(BaseModel):
    """One measure against its band, with a sentence for the candidate."""

    model_config = ConfigDict(frozen=True)

    measure: str
    status: Status
    message: str


class Delivery(BaseModel):
    model_config = ConfigDict(frozen=True)

    duration_s: float
    speaking_s: float
    words: int
    words_per_minute: float
    fillers: list[Filler]
    fillers_per_minute: float
    pauses: list[Pause]
    longest_pause_s: float
    first_point_s: float | None
    guidance: list[Guidance]


def measure_delivery(transcript: Transcript, marking: Marking | None = None) -> Delivery:
    """All the measures for one spoken answer, with guidance beside each."""
    words = transcript.words
    speaking = max(words[-1].end - words[0].start, 1.0) if words else 0.0
    minutes = speaking / 60 if speaking else 0.0
    fillers = find_fillers(transcript)
    gaps = pauses(transcript, min_s=0.0)
    long = [p for p in gaps if p.duration_s > LONG_PAUSE_S]
    wpm = round(len(words) / minutes, 1) if minutes else 0.0
    fpm = round(len(fillers) / minutes, 1) if minutes else 0.0
    longest = max((p.duration_s for p in gaps), default=0.0)
    first = first_point_time(transcript, marking) if marking is not None else None
    return Delivery(
        duration_s=transcript.duration_s,
        speaking_s=round(speaking, 2),
        words=len(words),
        words_per_minute=wpm,
        fillers=fillers,
        fillers_per_minute=fpm,
        pauses=long,
        longest_pause_s=longest,
        first_point_s=first,
        guidance=_guidance(wpm, fpm, long),
    )


def find_fillers(transcript: Transcript) -> list[Filler]:
    """Filler words and phrases in the transcript, with when each began."""
    lowered = transcript.text.lower()
    found = []
    for match in _FILLER.finditer(lowered):
        if match.group() in {"like", "actually"} and _NOT_FILLER_BEFORE.search(lowered[: match.start()]):
            continue
        start = transcript.time_at(match.start())
        found.append(Filler(word=match.group(), start=start if start is not None else 0.0))
    return found


def pauses(transcript: Transcript, min_s: float = LONG_PAUSE_S) -> list[Pause]:
    """Silences between consecutive words longer than ``min_s`` seconds."""
    found = []
    for before, after in zip(transcript.words, transcript.words[1:], strict=False):
        gap = round(after.start - before.end, 2)
        if gap > min_s:
            found.append(Pause(start=before.end, end=after.start, duration_s=gap))
    return found


def first_point_time(transcript: Transcript, marking: Marking) -> float | None:
    """Seconds from the start until the answer first covered a marking point, if it did."""
    offsets = [span.start for point in marking.points if point.status == "covered" for span in point.evidence]
    if not offsets:
        return None
    return transcript.time_at(min(offsets))


def _guidance(wpm: float, fpm: float, long_pauses: list[Pause]) -> list[Guidance]:
    low, high = PACE_BAND
    if wpm < low:
        pace = _advise("pace", f"{wpm:.0f} words a minute is slow; aim for about {low:.0f}–{high:.0f}.")
    elif wpm > high:
        pace = _advise("pace", f"{wpm:.0f} words a minute is fast; slow to about {low:.0f}–{high:.0f}.")
    else:
        pace = _advise("pace", f"{wpm:.0f} words a minute is a good pace.", ok=True)
    if fpm > MAX_FILLERS_PER_MINUTE:
        fillers = _advise("fillers", f"{fpm:.1f} fillers a minute; a short silence beats “um”.")
    else:
        fillers = _advise("fillers", f"{fpm:.1f} fillers a minute is fine.", ok=True)
    if long_pauses:
        longest = max(p.duration_s for p in long_pauses)
        silences = _advise(
            "pauses",
            f"{len(long_pauses)} pause(s) over {LONG_PAUSE_S:.0f} s (longest {longest:.1f} s); "
            "think aloud rather than in silence.",
        )
    else:
        silences = _advise("pauses", f"No pause over {LONG_PAUSE_S:.0f} s.", ok=True)
    return [pace, fillers, silences]


def _advise(measure: str, message: str, *, ok: bool = False) -> Guidance:
    return Guidance(measure=measure, status="ok" if ok else "work-on", message=message)
