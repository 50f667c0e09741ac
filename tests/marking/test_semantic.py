"""The semantic backend (sentence cosine), on the packaged MiniLM (no download)."""

from __future__ import annotations

import pytest

from viva.bank.model import Question
from viva.marking import get_backend, mark
from viva.marking.backends import Marker

pytestmark = pytest.mark.semantic


@pytest.fixture(scope="module")
def backend() -> Marker:
    return get_backend("semantic")


def test_paraphrase_earns_more_than_lexical(backend: Marker, decode_question: Question) -> None:
    answer = (
        "At batch one the GPU spends its time fetching weights rather than computing; grouping many "
        "requests lets a single weight fetch serve them all."
    )
    semantic = backend.mark(decode_question, answer)
    assert semantic.backend == "semantic"
    # strictly more: the sentence similarity must add credit the words alone do not earn
    assert semantic.score > mark(decode_question, answer, "lexical").score + 0.02


def test_contradiction_still_wins(backend: Marker, decode_question: Question) -> None:
    marking = backend.mark(
        decode_question, "Decode is compute-bound, not memory-bound, and batching makes it slower."
    )
    assert marking.verdict == "weak"


def test_model_answer_strong_and_deterministic(backend: Marker, decode_question: Question) -> None:
    first = backend.mark(decode_question, decode_question.answer)
    assert first.verdict == "strong"
    assert first == backend.mark(decode_question, decode_question.answer)
