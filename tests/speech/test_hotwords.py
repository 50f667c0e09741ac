from __future__ import annotations

from viva.bank import MarkingPoint, Misconception, Question
from viva.speech.engines import MAX_HOTWORD_CHARS, hotword_prompt
from viva.speech.hotwords import hotwords_for

QUESTION = Question(
    topic_id="gpus",
    section_id="memory",
    id="hierarchy",
    prompt="Walk me through the memory hierarchy of an H100 and why FlashAttention exists.",
    answer="…",
    points=(
        MarkingPoint(
            id="levels",
            text="Registers and SRAM are fast but tiny; HBM is large but slower.",
            accept=("shared memory", "L2 cache", "registers are the fastest level of memory there is"),
        ),
        MarkingPoint(
            id="fusion", text="Kernel fusion keeps data on chip.", accept=("kernel fusion", "Shared Memory")
        ),
    ),
    misconceptions=(
        Misconception(id="m", text="HBM is on-chip SRAM", correction="…", accept=("hbm is sram",)),
    ),
)


def test_terms_come_from_points_and_technical_tokens() -> None:
    terms = hotwords_for(QUESTION)
    assert terms[:3] == ["shared memory", "L2 cache", "kernel fusion"]
    for term in ("H100", "FlashAttention", "SRAM", "HBM"):
        assert term in terms


def test_no_whole_claims_no_misconceptions_no_duplicates() -> None:
    terms = hotwords_for(QUESTION)
    assert "registers are the fastest level of memory there is" not in terms
    assert "hbm is sram" not in terms
    assert len({t.lower() for t in terms}) == len(terms)


def test_the_prompt_fits_whisper() -> None:
    many = [f"term{i}" for i in range(500)]
    prompt = hotword_prompt(many)
    assert len(prompt) <= MAX_HOTWORD_CHARS
    assert prompt.startswith("term0, term1, ")
    assert hotword_prompt([]) == ""
