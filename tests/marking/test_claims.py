"""Claims, not co-occurrence: wrong claims within one clause; ratio words as numbers."""

from __future__ import annotations

import pytest

from viva.bank.model import MarkingPoint, Question
from viva.marking import mark


@pytest.mark.parametrize(
    "answer",
    [
        "Prefill is compute-bound; decode is memory-bound.",
        "Prefill is compute-bound, whereas decode is memory-bound.",
        "Unlike prefill, which is compute-bound, decode is memory-bound.",
        "prefill is compute bound and decode is memory bound",
    ],
)
def test_a_contrast_does_not_assert_the_wrong_option(decode_question: Question, answer: str) -> None:
    marking = mark(decode_question, answer)
    assert [m.misconception_id for m in marking.misconceptions] == []


@pytest.mark.parametrize(
    "answer", ["Decode is compute-bound.", "Prefill is memory-bound and decode is compute-bound."]
)
def test_the_wrong_claim_in_one_clause_is_still_found(decode_question: Question, answer: str) -> None:
    marking = mark(decode_question, answer)
    assert "compute-bound" in [m.misconception_id for m in marking.misconceptions]
    assert marking.verdict == "weak"


RATIO = Question(
    "t",
    "s",
    "ratio",
    "What does mixed precision buy you?",
    "Activations take half the bytes, and steps run two times faster.",
    (
        MarkingPoint("memory", "Activations take half the bytes of FP32."),
        MarkingPoint("speed", "Throughput is higher, often 2x that of FP32.", accept=("higher throughput",)),
    ),
)


def test_ratio_words_earn_the_points_they_state() -> None:
    marking = mark(RATIO, "The activations roughly halve in bytes, and it can double throughput.")
    assert [(p.point_id, p.status) for p in marking.points] == [("memory", "covered"), ("speed", "covered")]
    assert marking.verdict == "strong"


def test_without_the_ratio_words_the_points_are_not_made() -> None:
    marking = mark(RATIO, "The activations are stored in bytes, and it can keep throughput.")
    assert marking.verdict != "strong"


def test_marked_up_points_are_named_and_core_is_carried() -> None:
    question = Question(
        "t",
        "s",
        "q",
        "Why is decode memory-bound?",
        "Each step reads all the weights. That is about one FLOP per byte.",
        (
            MarkingPoint("reads", "Each step reads all the weights."),
            MarkingPoint("flops", "About one FLOP per byte.", core=False),
        ),
    )
    marking = mark(question, question.answer)
    assert [(p.point_id, p.core) for p in marking.points] == [("reads", True), ("flops", False)]
    assert [p.point_id for p in marking.marked_up_for] == ["flops"]
    core_only = mark(question, "Each step reads all the weights.")
    assert core_only.verdict == "strong" and core_only.score < marking.score
    assert core_only.marked_up_for == []
