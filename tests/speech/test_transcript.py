from __future__ import annotations

import pytest
from pydantic import ValidationError

from viva.speech.transcript import Transcript, Word


def transcript(*timed: tuple[str, float, float]) -> Transcript:
    words = [Word(word=w, start=s, end=e) for w, s, e in timed]
    return Transcript.from_words(words, duration_s=10.0, engine="test")


def test_text_is_the_words_joined() -> None:
    t = transcript(("HBM", 0.0, 0.4), ("is", 0.5, 0.6), ("fast.", 0.7, 1.0))
    assert t.text == "HBM is fast."
    assert t.word_offsets() == [0, 4, 7]


def test_a_character_offset_maps_to_when_its_word_began() -> None:
    t = transcript(("HBM", 0.0, 0.4), ("is", 0.5, 0.6), ("fast.", 0.7, 1.0))
    assert t.time_at(0) == 0.0
    assert t.time_at(5) == 0.5
    assert t.time_at(6) == 0.7  # the space before "fast." belongs to what follows
    assert t.time_at(100) is None


def test_words_may_split_what_the_text_joins() -> None:
    words = [Word(word=w, start=i, end=i + 0.5) for i, w in enumerate(["off", "-chip", "3", ".35", "TB/s"])]
    t = Transcript.from_words(words, duration_s=5, engine="x", text="off-chip 3.35 TB/s")
    assert t.word_offsets() == [0, 3, 9, 10, 14]
    assert t.time_at(t.text.index("chip")) == 1


def test_text_that_disagrees_with_the_words_is_refused() -> None:
    with pytest.raises(ValidationError):
        Transcript(text="something else", words=(Word(word="HBM", start=0, end=1),), duration_s=1, engine="x")


def test_round_trips_through_json() -> None:
    t = transcript(("tensor", 0.0, 0.3), ("cores", 0.3, 0.7))
    assert Transcript.model_validate_json(t.model_dump_json()) == t
