from __future__ import annotations

from viva.domain import PointStatus
from viva.marking.result import Marking, PointMark, Span
from viva.speech.delivery import find_fillers, first_point_time, measure_delivery, pauses
from viva.speech.transcript import Transcript, Word


def evenly(
    text: str, per_second: float, *, start: float = 0.0, gaps: dict[int, float] | None = None
) -> Transcript:
    """Words at ``per_second``, with extra silence before the word at each index in ``gaps``."""
    words, t = [], start
    for i, token in enumerate(text.split()):
        t += (gaps or {}).get(i, 0.0)
        words.append(Word(word=token, start=round(t, 3), end=round(t + 0.8 / per_second, 3)))
        t += 1 / per_second
    return Transcript.from_words(words, duration_s=round(t + 1, 3), engine="test")


def statuses(transcript: Transcript) -> dict[str, str]:
    return {g.measure: g.status for g in measure_delivery(transcript).guidance}


def test_pace_inside_the_band_is_ok() -> None:
    t = evenly(" ".join(["word"] * 140), per_second=140 / 60)
    delivery = measure_delivery(t)
    assert 135 <= delivery.words_per_minute <= 145
    assert statuses(t)["pace"] == "ok"


def test_pace_outside_the_band_is_worth_working_on() -> None:
    assert statuses(evenly(" ".join(["word"] * 60), per_second=1.5))["pace"] == "work-on"  # ~90
    assert statuses(evenly(" ".join(["word"] * 200), per_second=3.5))["pace"] == "work-on"  # ~210


def test_pace_counts_speaking_time_not_leading_silence() -> None:
    t = evenly(" ".join(["word"] * 140), per_second=140 / 60, start=20.0)
    assert 135 <= measure_delivery(t).words_per_minute <= 145


def test_fillers_are_found_with_their_times() -> None:
    t = evenly("um so the GPU is uh you know basically memory bound", per_second=2)
    found = find_fillers(t)
    assert [f.word for f in found] == ["um", "uh", "you know", "basically"]
    assert [f.start for f in found] == [0.0, 2.5, 3.0, 4.0]


def test_like_as_a_verb_or_comparison_is_not_a_filler() -> None:
    t = evenly("it looks like a GEMM and I would like to fuse it and like it is fast", per_second=2)
    assert [f.word for f in find_fillers(t)] == ["like"]


def test_like_meaning_such_as_is_not_a_filler() -> None:
    t = evenly(
        "fuse operations like softmax or something like a ring and this like was like slow", per_second=2
    )
    assert [f.word for f in find_fillers(t)] == ["like", "like"]  # "this like", "was like"


def test_many_fillers_a_minute_is_worth_working_on() -> None:
    t = evenly(" ".join(["um so the answer is"] * 10), per_second=2.5)  # 10 "um" in 20 s
    delivery = measure_delivery(t)
    assert delivery.fillers_per_minute > 6
    assert statuses(t)["fillers"] == "work-on"


def test_long_pauses_come_from_word_timings() -> None:
    t = evenly("first I load the tile then I multiply", per_second=2, gaps={4: 4.0})
    delivery = measure_delivery(t)
    assert len(delivery.pauses) == 1
    assert delivery.pauses[0].duration_s > 3
    assert delivery.longest_pause_s == delivery.pauses[0].duration_s
    assert statuses(t)["pauses"] == "work-on"
    assert pauses(t, min_s=10) == []


def test_time_until_the_first_covered_point() -> None:
    t = evenly("well the key is memory bandwidth not compute", per_second=2)
    offset = t.text.index("memory")

    def point(status: PointStatus, start: int) -> PointMark:
        return PointMark(
            point_id=f"p{start}",
            text="x",
            status=status,
            credit=1.0 if status == "covered" else 0.5,
            evidence=[Span(start=start, end=start + 5)],
        )

    marking = Marking(
        answer=t.text,
        score=0.8,
        verdict="strong",
        backend="test",
        backend_version="1",
        points=[point("partial", 0), point("covered", offset)],
    )
    assert first_point_time(t, marking) == 2.0
    assert measure_delivery(t, marking).first_point_s == 2.0
    assert measure_delivery(t).first_point_s is None
