"""The reasons printed beside a score say every rule that moved it, in the same words everywhere."""

from __future__ import annotations

from viva.bank.model import Question
from viva.marking.explain import point_tally, score_reasons
from viva.marking.lexical import LexicalBackend


def test_a_keyword_list_says_why_it_is_capped(decode_question: Question) -> None:
    marking = LexicalBackend().mark(decode_question, "memory-bound weights HBM batching throughput intensity")
    assert "keyword-list" in marking.flags
    reasons = score_reasons(marking)
    assert any(r.startswith("capped at 30%: a list of the right words") for r in reasons), reasons


def test_a_missed_core_point_and_a_misconception_are_both_said(decode_question: Question) -> None:
    marking = LexicalBackend().mark(decode_question, "Decode is compute-bound, so batching makes it slower.")
    reasons = score_reasons(marking)
    assert any("a core point was missed, so at most 69%" in r for r in reasons), reasons
    assert any(r.startswith("2 wrong claim(s) stated") for r in reasons), reasons


def test_the_tally_counts_points_by_weight(decode_question: Question) -> None:
    marking = LexicalBackend().mark(decode_question, decode_question.answer)
    assert point_tally(marking) == "3 of 3 core points made (by weight 5 of 5)"
    partial = LexicalBackend().mark(
        decode_question, "Every token reads all the weights from HBM: memory-bound."
    )
    # the memory-bound point (×2) is made; "reads … the weights" half-makes batching (×2)
    assert point_tally(partial) == "1 of 3 core points made (by weight 3 of 5)"
