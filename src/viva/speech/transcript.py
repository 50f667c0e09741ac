"""The Transcript contract: what a speech engine heard, with a time for every word.

A :class:`Transcript` is plain data (pydantic, so it round-trips through JSON for storage
and the API, like :class:`~viva.marking.result.Marking`). Its ``text`` is what the engine
decoded, and every word appears in it, in order — so a character offset in the text (which
is what marking evidence spans are) maps back to a word and so to a moment in the recording
(:meth:`time_at`). Words may split what the text joins: Whisper hears "off-chip" as the
words "off" and "-chip".
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Word(BaseModel):
    """One recognised word (punctuation attached, as the engine wrote it) and its timing."""

    model_config = ConfigDict(frozen=True)

    word: str = Field(min_length=1)
    start: float = Field(ge=0, description="seconds from the start of the recording")
    end: float = Field(ge=0)


class Transcript(BaseModel):
    """What was said: text, timed words, the recording's length and the engine that heard it."""

    model_config = ConfigDict(frozen=True)

    text: str
    words: tuple[Word, ...]
    duration_s: float = Field(ge=0)
    engine: str = Field(description="engine and model, e.g. faster-whisper/tiny.en")

    @model_validator(mode="after")
    def _words_are_in_the_text(self) -> Transcript:
        self.word_offsets()
        return self

    @classmethod
    def from_words(
        cls, words: Sequence[Word], *, duration_s: float, engine: str, text: str | None = None
    ) -> Transcript:
        """A transcript of ``words``; its text is them joined by spaces unless given."""
        words = tuple(words)
        if text is None:
            text = " ".join(w.word for w in words)
        return cls(text=text, words=words, duration_s=duration_s, engine=engine)

    def word_offsets(self) -> list[int]:
        """The character offset in :attr:`text` where each word starts."""
        offsets, at = [], 0
        for word in self.words:
            found = self.text.find(word.word, at)
            if found < 0:
                raise ValueError(f"the word {word.word!r} is not in the text after offset {at}")
            offsets.append(found)
            at = found + len(word.word)
        return offsets

    def time_at(self, offset: int) -> float | None:
        """When the word at (or the first word after) character ``offset`` began, if any."""
        for start, word in zip(self.word_offsets(), self.words, strict=True):
            if offset < start + len(word.word):
                return word.start
        return None
