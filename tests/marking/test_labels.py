"""A point about one numbered stage is made only by what the answer says of that stage."""

from __future__ import annotations

import pytest

from viva.bank.model import MarkingPoint, Question
from viva.marking import get_backend
from viva.marking.lexical import LexicalBackend
from viva.marking.relations import labels, own_label_view
from viva.marking.terms import analyse

STAGES = Question(
    topic_id="distributed",
    section_id="memory",
    id="zero",
    prompt="Explain ZeRO stages 1, 2 and 3.",
    answer="Stage 1 shards the optimizer state, stage 2 the gradients, and stage 3 the parameters too.",
    points=(
        MarkingPoint("one", "Stage 1 shards the optimizer state, the master weights and Adam moments."),
        MarkingPoint("two", "Stage 2 also shards the gradients with a reduce-scatter."),
        MarkingPoint("three", "Stage 3 also shards the parameters and all-gathers each layer before use."),
        MarkingPoint("cost", "Stages 1 and 2 cost the same traffic as data parallelism.", core=False),
    ),
)
CORRECT = (
    "Stage 1 shards the optimizer state, the master weights and Adam moments, stage 2 also shards the "
    "gradients with a reduce-scatter, and stage 3 shards the parameters, all-gathering each layer before use."
)
SWAPPED = (
    "Stage 1 shards the parameters, all-gathering each layer before use, stage 2 also shards the gradients "
    "with a reduce-scatter, and stage 3 shards the optimizer state, the master weights and Adam moments."
)


def _statuses(answer: str) -> dict[str, str]:
    return {p.point_id: p.status for p in LexicalBackend().mark(STAGES, answer).points if p.core}


def test_points_opening_with_the_same_word_and_different_numbers_are_labelled() -> None:
    assert labels(STAGES) == (("stage", "1"), ("stage", "2"), ("stage", "3"), None)


def test_what_is_said_of_another_stage_is_no_evidence() -> None:
    assert _statuses(CORRECT) == {"one": "covered", "two": "covered", "three": "covered"}
    swapped = _statuses(SWAPPED)
    assert swapped["one"] == "missed"  # its words are all said, but of stage 3
    assert swapped["two"] == "covered"
    assert swapped["three"] != "covered"  # "master weights" is a kind of parameter, no more


def test_a_mention_of_several_stages_counts_for_each_and_a_sentence_end_closes_it() -> None:
    answer = "Stage 1 shards the optimizer state. Stages 2 and 3 also shard the gradients. Then the weights."
    view = own_label_view(STAGES, 0, analyse(answer))
    assert view is not None
    assert [answer[a:b] for a, b in view.hidden] == ["Stages 2 and 3 also shard the gradients"]
    view = own_label_view(STAGES, 1, analyse(answer))
    assert view is not None  # for stage 2, what is said of stage 1 alone is set aside
    assert [answer[a:b] for a, b in view.hidden] == ["Stage 1 shards the optimizer state"]


def test_an_answer_naming_no_stage_is_read_whole() -> None:
    assert own_label_view(STAGES, 0, analyse("The optimizer state is sharded first.")) is None


@pytest.mark.semantic
def test_sentence_similarity_cannot_carry_a_swapped_stage_back() -> None:
    marker = get_backend("default")
    assert marker.mark(STAGES, CORRECT).verdict == "strong"
    swapped = marker.mark(STAGES, SWAPPED)
    assert swapped.verdict != "strong"
    assert {p.point_id: p.status for p in swapped.points}["one"] == "missed"
