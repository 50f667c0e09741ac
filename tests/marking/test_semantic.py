"""The semantic backend (sentence cosine), on the packaged MiniLM (no download)."""

from __future__ import annotations

import pytest

from tests.marking.conftest import SWAPPED_PROFILERS
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


def test_similarity_does_not_credit_what_is_said_of_another_option(
    backend: Marker, profiler_question: Question
) -> None:
    """A sentence about Nsight Compute is no evidence for a point about Nsight Systems, however
    alike the two read: such sentences are set aside for each point, as the words are."""
    question = profiler_question
    marking = backend.mark(question, SWAPPED_PROFILERS)
    # the Compute sentence reads like the Systems point; only its own option's sentence counts
    assert marking.points[0].status == "missed" and marking.verdict != "strong"
    right = backend.mark(
        question,
        "Nsight Systems is the whole-application view, showing every CPU thread, kernel launch and "
        "memory copy over time. Nsight Compute zooms into one kernel's occupancy, bandwidth and warp stalls.",
    )
    assert [p.status for p in right.points] == ["covered", "covered"]
