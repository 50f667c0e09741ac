"""Token alignment recall for the semantic backend, on hand-made vectors (no model needed)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from viva.marking.semantic import Encoded, alignment_recall  # noqa: E402


def _encoded(pieces: list[str], rows: list[list[float]]) -> Encoded:
    tokens = np.array(rows, dtype=np.float32)
    tokens /= np.linalg.norm(tokens, axis=1, keepdims=True)
    return Encoded((1.0, 0.0, 0.0), tuple(pieces), tokens)


REFERENCE = _encoded(["the", "memory", "address", "."], [[1, 1, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1]])


def test_recall_counts_content_pieces_only() -> None:
    # "the" and "." carry no weight: an answer aligning both content pieces recalls everything
    answer = _encoded(["memory", "address"], [[1, 0, 0], [0, 1, 0]])
    assert abs(alignment_recall(REFERENCE, [answer], frozenset()) - 1.0) < 1e-6
    half = _encoded(["memory", "cat"], [[1, 0, 0], [0, 0, 1]])
    assert abs(alignment_recall(REFERENCE, [half], frozenset()) - 0.5) < 1e-6


def test_prompt_words_count_little_and_chunks_pool() -> None:
    only_prompt_word = _encoded(["memory"], [[1, 0, 0]])
    plain = alignment_recall(REFERENCE, [only_prompt_word], frozenset())
    demoted = alignment_recall(REFERENCE, [only_prompt_word], frozenset({"memori"}))
    assert demoted < plain
    second = _encoded(["address"], [[0, 1, 0]])
    assert alignment_recall(REFERENCE, [only_prompt_word, second], frozenset()) > plain
    assert alignment_recall(REFERENCE, [], frozenset()) == 0.0
