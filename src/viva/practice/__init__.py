"""The candidate's journey: attempts, overrides, spaced repetition, follow-ups, mastery.

Front door: :class:`Practice` (``Practice(session, bank, marker)``); every method takes the user
(an :class:`~viva.practice.accounts.Account`) and, where time matters, ``now``, and returns
frozen dataclasses, never the store's rows. Accounts, logins, browser sessions and API tokens:
:mod:`viva.practice.accounts`; mock interviews: :mod:`viva.practice.interviews`; units of
work and the readiness check for the web app: :mod:`viva.practice.units`. Pure parts:
:mod:`viva.practice.schedule` (the marking → FSRS rating table and the review function),
:mod:`viva.practice.follow_ups`, :mod:`viva.practice.mastery`.
"""

from viva.practice.accounts import Account, local_account
from viva.practice.history import HistoryDocument, ImportReport
from viva.practice.lessons import LessonPointer
from viva.practice.mastery import DayCount, Mastery, WeakPoint
from viva.practice.queue import NEW_PER_SITTING, DueItem, NextQuestion
from viva.practice.records import RecordingInfo, ReviewSchedule
from viva.practice.schedule import rating_for
from viva.practice.scope import Scope
from viva.practice.service import AttemptSummary, KeptAudio, Practice, Progress, ScorePoint

__all__ = [
    "NEW_PER_SITTING",
    "Account",
    "AttemptSummary",
    "DayCount",
    "DueItem",
    "HistoryDocument",
    "ImportReport",
    "KeptAudio",
    "LessonPointer",
    "Mastery",
    "NextQuestion",
    "Practice",
    "Progress",
    "RecordingInfo",
    "ReviewSchedule",
    "Scope",
    "ScorePoint",
    "WeakPoint",
    "local_account",
    "rating_for",
]
