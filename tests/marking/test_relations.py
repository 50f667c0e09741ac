"""A clause that reverses a point about its own subject voids the point (who is what)."""

from __future__ import annotations

import pytest

from viva.bank.model import MarkingPoint, Misconception, Question
from viva.marking.lexical import LexicalBackend

PHASES = Question(
    topic_id="gpus",
    section_id="inference",
    id="phases",
    prompt="Is LLM inference compute-bound or memory-bound?",
    answer="Prefill is compute-bound because the whole prompt goes through at once; decode is memory-bound.",
    points=(
        MarkingPoint("prefill", "Prefill is compute-bound.", 1.0, ("compute-bound",)),
        MarkingPoint("decode", "Decode is memory-bound.", 1.0, ("memory-bound",)),
    ),
    misconceptions=(
        Misconception("all-compute", "Inference is always limited by FLOPs.", "Decode waits on memory."),
    ),
)


def _statuses(answer: str) -> dict[str, tuple[str, bool]]:
    marking = LexicalBackend().mark(PHASES, answer)
    return {p.point_id: (p.status, "contradiction" in marking.flags) for p in marking.points}


@pytest.mark.parametrize(
    "answer",
    [
        "Prefill is compute-bound; decode is memory-bound.",
        "Unlike prefill, which is compute-bound, decode is memory-bound.",
        "Decode is not compute-bound, it is memory-bound, whereas prefill is compute-bound.",
        "It depends on the phase: decode is memory-bound and prefill compute-bound.",
    ],
)
def test_correct_relations_in_any_order_are_credited(answer: str) -> None:
    assert _statuses(answer) == {"prefill": ("covered", False), "decode": ("covered", False)}


@pytest.mark.parametrize(
    "answer",
    [
        "Prefill is memory-bound and decode is compute-bound.",
        "Decode is compute-bound, while prefill is memory-bound.",
    ],
)
def test_swapped_roles_earn_nothing_and_are_flagged(answer: str) -> None:
    assert _statuses(answer) == {"prefill": ("missed", True), "decode": ("missed", True)}


def test_the_evidence_against_is_the_clause_that_reverses_the_point() -> None:
    answer = "Prefill is memory-bound and decode is compute-bound."
    marking = LexicalBackend().mark(PHASES, answer)
    decode = next(p for p in marking.points if p.point_id == "decode")
    assert [answer[s.start : s.end] for s in decode.evidence] == ["decode", "compute-bound"]
