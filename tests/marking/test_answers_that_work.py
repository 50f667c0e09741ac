"""The GPU topic's eight answers that work are the marker's specification: each is strong."""

from __future__ import annotations

from pathlib import Path

import pytest

from viva.bank import Bank, load_bank
from viva.marking import get_backend, mark

CONTENT = Path(__file__).resolve().parents[2] / "content"
EIGHT = [
    "why-gpus-for-deep-learning",
    "mixed-precision-training",
    "low-gpu-utilisation",
    "llm-inference-bound",
    "kernel-fusion",
    "compute-or-memory-bound",
    "why-token-generation-memory-bound",
    "choosing-hardware-for-7b-serving",
]


@pytest.fixture(scope="module")
def bank() -> Bank:
    bank, errors = load_bank(CONTENT)
    assert errors == []
    return bank


@pytest.mark.parametrize("question_id", EIGHT)
def test_answer_that_works_is_strong(bank: Bank, question_id: str) -> None:
    question = bank.question(f"gpus-and-accelerators/{question_id}")
    assert question.full_answer, "the long answer is kept as the full answer"
    marking = mark(question, question.answer)  # the default marker
    assert marking.backend == "default"
    assert marking.verdict == "strong", marking.model_dump(include={"score", "points", "misconceptions"})
    assert marking.misconceptions == []
    assert all(p.status != "missed" for p in marking.points if p.core)


@pytest.mark.parametrize("backend", ["lexical", "semantic"])
@pytest.mark.parametrize("question_id", EIGHT)
def test_answer_that_works_is_strong_on_every_backend(bank: Bank, backend: str, question_id: str) -> None:
    question = bank.question(f"gpus-and-accelerators/{question_id}")
    marking = get_backend(backend).mark(question, question.answer)
    assert marking.backend == backend
    assert marking.verdict == "strong", marking.model_dump(include={"score", "points", "misconceptions"})
    assert marking.misconceptions == []
